"""CC (Gondor and the other ETPR rules), BB.2 and FF (barter), and the alliances of CC.2 and FF.

- CC.1 `mind-battle sauron|saruman` (Gondor, Ring Phase, once a turn): the ruler of Gondor wearing the
  Ring. Sauron: the Dark Power loses Shadow Points equal to one die (an heir at -1, DD.1). Saruman: the
  Saruman player may not attack Gondor or Rohan units that turn.
- CC.2 / FF `ally <seat>` (both seats order it: then allied), `dissolve <seat>`: Gondor with the Fellowship
  or Saruman; Rohan with the Fellowship, Gondor or Saruman; the other pairs by the ETPR's W (ruling: any
  but the Fellowship with the Dark Power); the king's alliance of DD.1 cannot be dissolved.
- BB.2 / FF `barter <seat> <terms>`: an offer (terms known to the two seats only), `agree <b#>` by the
  other seat. Gondor barters with the Fellowship and Saruman; Rohan with the Fellowship, Saruman, Gondor."""
from __future__ import annotations

from engine.core import Event
from engine.dice import Dice
from engine.rulesets.wotr.common import S_SEQ, refuse, title
from engine.rulesets.wotr import aa_ring, dd_succession, lookup

S_CC1, S_CC2, S_FF, S_BB2 = "CC.1", "CC.2", "FF", "BB.2"
ALLY = {"gondor": {"fellowship", "saruman", "rohan"}, "rohan": {"fellowship", "gondor", "saruman"}}
BARTER = {"gondor": {"fellowship", "saruman", "rohan"}, "rohan": {"fellowship", "saruman", "gondor"}}


def _pair_ok(table, a, b) -> bool:
    for x, y in ((a, b), (b, a)):
        if x in table and y not in table[x]:
            return False
    return True


def _p_mind_battle(rs, st, seat, w):
    if len(w) != 1 or w[0] not in ("sauron", "saruman"):
        raise lookup._usage(rs, "mind-battle")
    if seat != "gondor":
        raise refuse("mind battle by CC.1 is Gondor's (Denethor wearing the Ring)", S_CC1)
    if st["phase"] != "ring":
        raise refuse("a mind battle is fought in the Ring Phase (ruling)", S_SEQ)
    if st["mind_battle"] == st["turn"]:
        raise refuse("one mind battle a turn (ruling)", S_CC1)
    r = dd_succession._ruler(rs, st)
    if not r or st["ring"]["bearer"] != r or not st["ring"]["wearing"]:
        raise refuse("only while the ruler of Gondor wears the Ring", S_CC1)
    return (w[0],)


def _a_mind_battle(rs, st, seat, args, dice):
    st["mind_battle"] = st["turn"]
    r = dd_succession._ruler(rs, st)
    name = st["chars"][r]["name"]
    if args[0] == "saruman":
        st["restrained"] = st["turn"]
        return [Event(public=f"{name} engages Saruman in a mind battle: Saruman may not attack any Gondor or Rohan "
                             "unit this turn.", section=S_CC1)]
    d = Dice(st["dice"])
    roll = d.d6("CC.1 mind battle with Sauron")
    pen = aa_ring._ring_penalty(rs, st, r)
    lost = max(0, roll - pen)
    st["shadow_lost"] += lost
    return [Event(public=f"{name} engages Sauron in a mind battle: rolls {roll}" + (f" -{pen} (heir)" if pen else "")
                         + f"; the Dark Power loses {lost} Shadow Points (lost so far: {st['shadow_lost']}).",
                  section=S_CC1, rolls=d.rolls)]


# ------------------------------------------------------------------ alliances
def _other_seat(rs, st, word) -> str:
    s = word.lower()
    if s not in _playing(rs, st):
        raise refuse(f"`{word[:20]}` is not a seat in this game: {', '.join(_playing(rs, st))}")
    return s


def _playing(rs, st) -> tuple[str, ...]:
    return tuple(s for s in rs.seats if st["players"] == 5 or s != "rohan")


def _p_ally(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "ally")
    other = _other_seat(rs, st, w[0])
    if other == seat:
        raise refuse("an alliance is with another seat")
    if not _pair_ok(ALLY, seat, other) or {seat, other} == {"fellowship", "dark-power"} or \
            "dark-power" in (seat, other) and {seat, other} & {"gondor", "rohan"}:
        raise refuse(f"{title(seat)} and {title(other)} may not ally", S_FF if "rohan" in (seat, other) else S_CC2)
    if sorted([seat, other]) in [sorted(p) for p in st["alliances"]]:
        raise refuse("you are allied already")
    if [seat, other] in st["offers"]:
        raise refuse("your offer stands; the other seat answers `ally " + seat + "`")
    return (other,)


def _a_ally(rs, st, seat, args, dice):
    other = args[0]
    if [other, seat] in st["offers"]:
        st["offers"].remove([other, seat])
        st["alliances"].append(sorted([seat, other]))
        return [Event(public=f"{title(seat)} and {title(other)} are allied.")]
    st["offers"].append([seat, other])
    return [Event(public=f"{title(seat)} offers {title(other)} an alliance (`ally {seat}` to accept).")]


def _p_dissolve(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "dissolve")
    other = _other_seat(rs, st, w[0])
    pair = sorted([seat, other])
    if pair not in [sorted(p) for p in st["alliances"]]:
        raise refuse("you are not allied")
    if pair in [sorted(p) for p in st["permanent"]]:
        raise refuse("the alliance with the King of Gondor lasts the whole game", "DD.1")
    return (other,)


def _a_dissolve(rs, st, seat, args, dice):
    pair = sorted([seat, args[0]])
    st["alliances"] = [p for p in st["alliances"] if sorted(p) != pair]
    st["commands"] = {}
    return [Event(public=f"{title(seat)} dissolves its alliance with {title(args[0])}.")]


# ------------------------------------------------------------------ barter
def _p_barter(rs, st, seat, w):
    if len(w) < 2:
        raise lookup._usage(rs, "barter")
    other = _other_seat(rs, st, w[0])
    if other == seat or not _pair_ok(BARTER, seat, other) or "dark-power" in (seat, other) and \
            {seat, other} & {"gondor", "rohan"}:
        raise refuse(f"{title(seat)} does not barter with {title(other)}", S_FF if "rohan" in (seat, other) else S_BB2)
    terms = " ".join(w[1:])
    if len(terms) > 200:
        raise refuse("the terms are too long (200 characters)")
    return (other, *w[1:])


def _a_barter(rs, st, seat, args, dice):
    other, terms = args[0], " ".join(args[1:])
    bid = f"b{len(st['barters']) + 1}"
    st["barters"].append({"id": bid, "from": seat, "to": other, "terms": terms, "state": "open"})
    text = f"Barter {bid}: {title(seat)} offers {title(other)}: {terms} (`agree {bid}`)."
    return [Event(public=f"{title(seat)} offers {title(other)} a barter ({bid}).", private={seat: text, other: text})]


def _p_agree(rs, st, seat, w):
    if len(w) != 1:
        raise lookup._usage(rs, "agree")
    for b in st["barters"]:
        if b["id"] == w[0].lower() and b["to"] == seat and b["state"] == "open":
            return (b["id"],)
    raise refuse("no open barter offered to you by that name")


def _a_agree(rs, st, seat, args, dice):
    b = next(x for x in st["barters"] if x["id"] == args[0])
    b["state"] = "agreed"
    text = f"Barter {b['id']} agreed: {b['terms']}"
    return [Event(public=f"{title(seat)} agrees to barter {b['id']} with {title(b['from'])}.",
                  private={seat: text, b["from"]: text})]
