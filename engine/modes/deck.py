"""Decks and hands: ``deck <name> [open] <card>...`` makes a deck shuffled with the game's dice
stream; ``draw <deck>`` takes its top card into the seat's hand; ``discard <card>`` puts a card of
the hand face up on its deck's discard pile; ``give <card> to <seat>`` hands it over;
``reshuffle <deck>`` shuffles the discards back in; ``show <card> to <seat>`` lets one seat see a card
of your hand (until it leaves your hand). A hand is face down (its holder and the
moderator see the cards, the others how many) unless its deck is ``open``. A shuffle's draws are
not shown as dice (they would tell the order of the deck); the dice counter records them."""
from __future__ import annotations

from engine.core import Event, InvalidOrder
from engine.dice import Dice
from engine.modes.turns import to_act
from engine.modes.common import is_gm, need_id, parse_seat, refuse, table, title, table_action
from engine.orders import Order

MAX_CARDS = 200


def _decks(st) -> dict:
    return table(st)["decks"]


def _hands(st) -> dict:
    return table(st)["hands"]


def _deck(st, name) -> dict:
    d = _decks(st).get(name.lower())
    if d is None:
        known = ", ".join(sorted(_decks(st))) or "none yet (`deck <name> <card>...`)"
        raise refuse(f"There is no deck `{name[:20]}`. Decks: {known}.")
    return d


def parse_deck(rs, st, seat, words):
    if len(words) < 2:
        raise InvalidOrder("usage: `deck <name> [open] <card> <card>...`")
    name = need_id(words[0], "deck name").lower()
    rest = words[1:]
    opened = bool(rest) and rest[0].lower() == "open"
    cards = [need_id(c, "card") for c in rest[1 if opened else 0:]]
    if not cards or len(cards) > MAX_CARDS:
        raise InvalidOrder(f"a deck has 1 to {MAX_CARDS} cards")
    if name in _decks(st):
        raise refuse(f"A deck `{name}` already exists.")
    if len(set(c.lower() for c in cards)) != len(cards):
        raise InvalidOrder("each card of a deck has its own name (`orc1 orc2`, not `orc orc`)")
    return (name, *(("open",) if opened else ()), *cards)


def apply_deck(rs, st, seat, args, dice):
    name, rest = args[0], list(args[1:])
    opened = rest[0] == "open"
    cards = rest[1:] if opened else rest
    _decks(st)[name] = {"cards": Dice(st["dice"]).shuffle(cards, f"shuffle {name}"), "discard": [], "open": opened,
                        "all": list(cards)}
    return [Event(public=f"{title(seat)} makes the deck `{name}` ({len(cards)} cards"
                         f"{', drawn face up' if opened else ''}) and shuffles it.", reveals=True)]


def parse_draw(rs, st, seat, words):
    if len(words) != 1:
        raise InvalidOrder("usage: `draw <deck>`")
    if is_gm(seat):
        raise refuse("The moderator holds no hand; a seat draws.")
    d = _deck(st, words[0])
    if not d["cards"]:
        raise refuse(f"The deck `{words[0].lower()}` is empty: `reshuffle {words[0].lower()}` puts its discards back.")
    return (words[0].lower(),)


def apply_draw(rs, st, seat, args, dice):
    name = args[0]
    d = _decks(st)[name]
    card = d["cards"].pop()
    _hands(st).setdefault(seat, []).append([name, card])
    left = f"{len(d['cards'])} left"
    if d["open"]:
        return [Event(public=f"{title(seat)} draws `{card}` from `{name}` ({left}).")]
    return [Event(public=f"{title(seat)} draws a card from `{name}` ({left}).",
                  private={seat: f"you draw `{card}` from `{name}`.", "gm": f"{title(seat)} draws `{card}` from `{name}`."},
                  reveals=True)]


def _held(st, seat, card) -> int:
    for i, (_, c) in enumerate(_hands(st).get(seat, [])):
        if c.lower() == card.lower():
            return i
    raise refuse(f"You hold no card `{card[:20]}`.")


def parse_discard(rs, st, seat, words):
    if len(words) != 1:
        raise InvalidOrder("usage: `discard <card>`")
    i = _held(st, seat, words[0])
    _unlocked(st, seat, words[0])
    return (_hands(st)[seat][i][1],)


def _shown(st) -> dict:
    return table(st)["shown"]


def left_hand(st, card) -> None:
    """A card changed hands or was discarded: whom it was shown to no longer matters."""
    _shown(st).pop(card.lower(), None)


def apply_discard(rs, st, seat, args, dice):
    i = _held(st, seat, args[0])
    name, card = _hands(st)[seat].pop(i)
    left_hand(st, card)
    _decks(st)[name]["discard"].append(card)
    return [Event(public=f"{title(seat)} discards `{card}` face up on `{name}`'s discards.")]


def parse_give(rs, st, seat, words):
    if len(words) != 3 or words[1].lower() != "to":
        raise InvalidOrder("usage: `give <card> to <seat>`")
    i = _held(st, seat, words[0])
    _unlocked(st, seat, words[0])
    to = parse_seat(rs, words[2])
    if to == seat:
        raise refuse("You already hold it.")
    return (_hands(st)[seat][i][1], "to", to)


def apply_give(rs, st, seat, args, dice):
    card, to = args[0], args[2]
    name, card = _hands(st)[seat].pop(_held(st, seat, card))
    left_hand(st, card)
    _hands(st).setdefault(to, []).append([name, card])
    if _decks(st)[name]["open"]:
        return [Event(public=f"{title(seat)} gives `{card}` to {title(to)}.")]
    return [Event(public=f"{title(seat)} gives a card to {title(to)}.",
                  private={to: f"{title(seat)} gives you `{card}`.", "gm": f"{title(seat)} gives `{card}` to {title(to)}."})]


def locked(st, seat) -> dict[str, str]:
    """card (lower case) -> the open trade that locks it, for ``seat``'s offers (trade.py)."""
    return {c.lower(): t["id"] for t in table(st)["trades"] if t["status"] == "open" and t["from"] == seat
            for c in t["give"]}


def _unlocked(st, seat, card):
    tid = locked(st, seat).get(card.lower())
    if tid:
        raise refuse(f"`{card}` is locked in your open offer {tid} (`withdraw {tid}` frees it).")


def parse_reshuffle(rs, st, seat, words):
    if len(words) != 1:
        raise InvalidOrder("usage: `reshuffle <deck>`")
    d = _deck(st, words[0])
    if not d["discard"]:
        raise refuse(f"`{words[0].lower()}` has no discards to shuffle in.")
    return (words[0].lower(),)


def apply_reshuffle(rs, st, seat, args, dice):
    d = _decks(st)[args[0]]
    d["cards"] = Dice(st["dice"]).shuffle(d["cards"] + d["discard"], f"shuffle {args[0]}")
    d["discard"] = []
    return [Event(public=f"{title(seat)} shuffles the discards back into `{args[0]}` ({len(d['cards'])} cards).",
                  reveals=True)]


def parse_show(rs, st, seat, words):
    if len(words) != 3 or words[1].lower() != "to":
        raise InvalidOrder("usage: `show <card> to <seat>`")
    i = _held(st, seat, words[0])
    to = parse_seat(rs, words[2])
    if to == seat:
        raise refuse("You see your own hand.")
    return (_hands(st)[seat][i][1], "to", to)


def apply_show(rs, st, seat, args, dice):
    card, to = args[0], args[2]
    seen = _shown(st).setdefault(card.lower(), [])
    if to not in seen:
        seen.append(to)
    return [Event(public=f"{title(seat)} shows {title(to)} a card.",
                  private={to: f"{title(seat)} shows you `{card}`.", "gm": f"{title(seat)} shows `{card}` to {title(to)}."})]


def view_part(st, seat) -> dict:
    decks = {n: {"cards": len(d["cards"]), "discard": list(d["discard"]), "open": d["open"]} for n, d in _decks(st).items()}
    hands = {}
    for s, cards in _hands(st).items():
        if seat is not None and (is_gm(seat) or seat == s):
            hands[s] = [c for _, c in cards]
        else:
            shown = [c for n, c in cards if _decks(st)[n]["open"] or seat in _shown(st).get(c.lower(), ())]
            hands[s] = shown + ["?"] * (len(cards) - len(shown))
    return {"decks": decks, "hands": hands}


def secret_lines(st, seat) -> list[str]:
    out = []
    for s, cards in sorted(_hands(st).items()):
        hidden = [c for n, c in cards if not _decks(st)[n]["open"]]
        if hidden and (s == seat or is_gm(seat)):
            out.append(("your hand: " if s == seat else f"{title(s)}'s hand: ") + ", ".join(f"`{c}`" for c in hidden))
    return out


def redact_give(args):
    return f"give (a card) to {args[2]}"



def legal_draw(rs, st, seat):
    """At tabletop, the seat to act may draw from any deck with cards left."""
    if rs.mode == "tabletop" and seat == to_act(st):
        for name, d in table(st)["decks"].items():
            if d["cards"]:
                yield table_action("draw", (name,))


VERBS = (
    Order("deck", "deck <name> [open] <card> <card>...: a new deck, shuffled", parse_deck, apply_deck, vocabulary=True,
          unlisted="a new deck's cards are the table's free text", dice=False),
    Order("draw", "draw <deck>: its top card into your hand", parse_draw, apply_draw, vocabulary=True,
          legal=legal_draw, dice=False),
    Order("discard", "discard <card>: face up on its deck's discards", parse_discard, apply_discard, vocabulary=True,
          unlisted="a card of the seat's hand, discarded when it chooses; offered by no turn", dice=False),
    Order("give", "give <card> to <seat>", parse_give, apply_give, redact=redact_give, vocabulary=True,
          unlisted="a card of the seat's hand, given when it chooses; offered by no turn", dice=False),
    Order("show", "show <card> to <seat>: one seat sees a card of your hand", parse_show, apply_show,
          redact=lambda args: f"show (a card) to {args[2]}",
          unlisted="a card of the seat's hand, shown when it chooses; offered by no turn", dice=False),
    Order("reshuffle", "reshuffle <deck>: the discards back in, shuffled", parse_reshuffle, apply_reshuffle,
          vocabulary=True, unlisted='the discards go back in when the table chooses; offered by no turn', dice=False),
)
