"""Historical Locations of Magic Cards (seed:001): with `magic=historical` the cards start where they were
in the book (Rivendell: the three Elven Swords (Sting, Glamdring and one more: ruling) and the Mithril
Mail; Lothlorien: Lembas, Elven Cloak, Elven Rope, Galadriel's Light; Edoras: Shadowfax; Minas Tirith:
Athelas); otherwise the table deals them (base game L) and `item <card> <character>` records where they go.
The restrictions of (2) apply in both: Sting, the Mithril, Glamdring and Anduril start with their owners.

`item <card> <character>`: a card passes to a character in the same hex (from a character of yours, or
picked up where it lies; an undealt card by its new holder's seat). `use <card> <character>`: a use,
checked against who may use it (the effect is the base game's)."""
from __future__ import annotations

from engine.core import Event
from engine.rulesets.wotr.common import HOBBITS, S_MAGIC, alive, hex_of, refuse, title
from engine.rulesets.wotr import dd_succession, lookup

ANDURIL_LINE = ("elrond", "gandalf", "boromir", ("legolas", "gimli"))
BIG = ("anduril", "glamdring")


def _item_name(rs, st, item) -> str:
    """The card's name: the group's (`[cards.magic]`) or the reconstruction's."""
    names = st.get("item_names")
    if names and item in names:
        return names[item]
    from engine.rulesets.wotr.common import load_toml
    return load_toml("forces.toml")["items"][item]["name"]


def _item(rs, st, word) -> str:
    w = word.lower()
    if w not in st["items"]:
        raise refuse(f"no magic card `{word[:20]}`; cards: {', '.join(st['items'])}")
    return w


def _item_holder_hex(rs, st, item) -> str | None:
    h = st["items"][item]
    if h is None:
        return None
    if h.startswith("@"):
        return lookup._bd(rs, st).hex(h[1:])
    return hex_of(st, h)


def _p_item(rs, st, seat, w):
    if len(w) != 2:
        raise lookup._usage(rs, "item")
    item, cid = _item(rs, st, w[0]), lookup._char(rs, st, w[1])
    c = st["chars"][cid]
    if not c["alive"]:
        raise refuse(f"{c['name']} is dead")
    holder = st["items"][item]
    if holder == cid:
        raise refuse(f"{c['name']} holds it already")
    if holder is None:
        if c["seat"] != seat:
            raise refuse("an undealt card is recorded by its new holder's seat")
    elif holder.startswith("@"):
        if c["seat"] != seat:
            raise refuse("a card lying on the map is picked up by a character of yours")
        if _item_holder_hex(rs, st, item) != c["hex"]:
            raise refuse("the card is picked up where it lies")
    else:
        if st["chars"][holder]["seat"] != seat:
            raise refuse("the card is not with one of your characters")
        if hex_of(st, holder) != c["hex"] or not lookup._sees_char(rs, st, seat, cid):
            raise refuse("a card passes between characters in the same hex")
    err = _carry_error(rs, st, item, cid, holder)
    if err:
        raise refuse(err, S_MAGIC)
    return (item, cid)


def _carry_error(rs, st, item, cid, holder) -> str | None:
    if item in ("sting", "mithril") and holder == "frodo" and alive(st, "frodo"):
        return "Sting and the Mithril Mail stay with Frodo while he lives"
    if item == "glamdring" and holder == "gandalf" and alive(st, "gandalf"):
        return "Glamdring stays with Gandalf while he lives"
    if item == "galadriels-light" and (holder is None or holder.startswith("@")) and st["ring"]["bearer"] != cid:
        return "Galadriel's Light can only be picked up by the Ringbearer"
    if item == "shadowfax" and cid != "gandalf" and cid != dd_succession._king_of_rohan(rs, st):
        return "Shadowfax can only belong to Gandalf or the ruler of Rohan"
    if item in BIG and cid in HOBBITS:
        other = "glamdring" if item == "anduril" else "anduril"
        if st["items"].get(other) == cid:
            return "a hobbit may carry Anduril or Glamdring, not both"
    return None


def _a_item(rs, st, seat, args, dice):
    item, cid = args
    st["items"][item] = cid
    c = st["chars"][cid]
    if c["hidden"]:  # the public learns no hidden character's whereabouts from a card
        text = f"{_item_name(rs, st, item)} passes to {c['name']}."
        return [Event(public=f"{title(seat)} records a magic card with a hidden character.",
                      private={"fellowship": text, seat: text})]
    return [Event(public=f"{_item_name(rs, st, item)} passes to {c['name']}.")]


def _p_use(rs, st, seat, w):
    if len(w) != 2:
        raise lookup._usage(rs, "use")
    item, cid = _item(rs, st, w[0]), lookup._char(rs, st, w[1])
    c = st["chars"][cid]
    if c["seat"] != seat or not c["alive"]:
        raise refuse(f"{c['name']} is not one of your living characters")
    holder = st["items"][item]
    if item == "galadriels-light":
        if c["seat"] != "fellowship" or holder not in st["chars"] or hex_of(st, holder) != c["hex"]:
            raise refuse("Galadriel's Light is used by a Fellowship character with it", S_MAGIC)
    elif holder != cid:
        raise refuse(f"{c['name']} does not hold {_item_name(rs, st, item)}")
    err = _use_error(rs, st, item, cid)
    if err:
        raise refuse(err, S_MAGIC)
    return (item, cid)


def _use_error(rs, st, item, cid) -> str | None:
    race, side = st["chars"][cid]["race"], st["chars"][cid]["side"]
    if item in ("sting", "mithril"):
        if alive(st, "frodo") and cid != "frodo" or not alive(st, "frodo") and race != "hobbit":
            return "Sting and the Mithril Mail are Frodo's; after his death any hobbit's"
    if item == "glamdring":
        if alive(st, "gandalf") and cid != "gandalf":
            return "Glamdring is Gandalf's while he lives"
        if not alive(st, "gandalf") and (race not in ("elf", "dwarf", "man-gondor", "man-rohan", "man-west")
                                          or side not in ("fellowship", "gondor", "rohan")):
            return "after Gandalf, an elf, dwarf or man of the Fellowship, Gondor or Rohan uses Glamdring"
    if item == "athelas" and cid != "aragorn":
        return "Athelas can only be used by Aragorn"
    if item == "anduril":
        user = _anduril_user(rs, st)
        if cid not in user:
            return "Anduril is used by " + " or ".join(st["chars"][u]["name"] for u in user) + " now" if user \
                else "nobody may use Anduril"
    if item in BIG and race == "hobbit":
        return "a hobbit cannot use it (too big)"
    return None


def _anduril_user(rs, st) -> list[str]:
    """Anduril's line: Aragorn; then Elrond, Gandalf, Boromir, Legolas or Gimli; then any other
        non-hobbit character of the Fellowship, Gondor or Rohan (ruling: the first of the line alive)."""
    if alive(st, "aragorn"):
        return ["aragorn"]
    for step in ANDURIL_LINE:
        group = step if isinstance(step, tuple) else (step,)
        live = [c for c in group if alive(st, c)]
        if live:
            return live
    return [c for c, d in st["chars"].items() if d["alive"] and d["race"] != "hobbit"
            and d["side"] in ("fellowship", "gondor", "rohan")]


def _a_use(rs, st, seat, args, dice):
    item, cid = args
    return [Event(public=f"{st['chars'][cid]['name']} uses {_item_name(rs, st, item)} (its effect: the base game's L).")]
