"""Trades of cards between seats: ``offer <seat> <cards> for <cards>`` (cards joined by ``+``, or
``nothing``), answered by that seat with ``accept t1``, ``refuse t1`` or ``counter t1 <cards> for
<cards>``, or taken back by the offerer with ``withdraw t1``. The cards offered are locked while the
offer is open (they cannot be given, discarded or offered again). What is traded is known to the two
seats and the moderator; the others read only that an offer was made and how it ended."""
from __future__ import annotations

from engine.core import Event, InvalidOrder
from engine.modes import deck
from engine.modes.common import is_gm, need_id, parse_seat, refuse, table, title
from engine.orders import Order


def _trades(st) -> list:
    return table(st)["trades"]


def trade(st, tid):
    return next((t for t in _trades(st) if t["id"] == tid), None)


def check_unlocked(st, seat, card) -> None:
    deck._unlocked(st, seat, card)


def _cards(word: str) -> list[str]:
    if word.lower() == "nothing":
        return []
    return [need_id(c, "card") for c in word.split("+")]


def _held_all(st, seat, cards) -> list[str]:
    out = []
    for c in cards:
        i = deck._held(st, seat, c)
        check_unlocked(st, seat, c)
        out.append(deck._hands(st)[seat][i][1])
    if len({c.lower() for c in out}) != len(out):
        raise InvalidOrder("each card once")
    return out


def _parse_terms(rs, st, seat, words, usage):
    if len(words) != 3 or words[1].lower() != "for":
        raise InvalidOrder(f"usage: `{usage}`")
    give, get = _held_all(st, seat, _cards(words[0])), _cards(words[2])
    if not give and not get:
        raise InvalidOrder("a trade gives or asks for at least one card")
    return "+".join(give) or "nothing", "+".join(get) or "nothing"


def parse_offer(rs, st, seat, words):
    if is_gm(seat):
        raise refuse("The moderator trades nothing.")
    if not words:
        raise InvalidOrder("usage: `offer <seat> <card>[+<card>] for <card>[+<card>]` (or `nothing`)")
    to = parse_seat(rs, words[0])
    if to == seat:
        raise refuse("A trade is with another seat.")
    give, get = _parse_terms(rs, st, seat, words[1:], "offer <seat> <cards> for <cards>")
    return (to, give, "for", get)


def _open(st, frm, to, give, get, line_public, line_private):
    tid = f"t{len(_trades(st)) + 1}"
    _trades(st).append({"id": tid, "from": frm, "to": to, "give": _cards(give), "get": _cards(get), "status": "open"})
    text = line_private.format(tid=tid, give=give.replace("+", ", "), get=get.replace("+", ", "))
    return tid, Event(public=line_public.format(tid=tid),
                      private={s: text for s in (frm, to, "gm")})


def apply_offer(rs, st, seat, args, dice):
    to, give, _, get = args
    _, ev = _open(st, seat, to, give, get, f"{title(seat)} makes {title(to)} an offer ({{tid}}).",
                  f"offer {{tid}}: {title(seat)} gives {{give}} to {title(to)} for {{get}} "
                  f"({title(to)}: `accept {{tid}}`, `refuse {{tid}}` or `counter {{tid}} ...`).")
    return [ev]


def _open_trade(st, tid, seat, role):
    t = trade(st, tid)
    if t is None or not (is_gm(seat) or seat in (t["from"], t["to"])):
        raise refuse(f"There is no trade `{tid[:10]}` of yours.")
    if t["status"] != "open":
        raise refuse(f"Trade {tid} is already {t['status']}.")
    if seat != t[role]:
        raise refuse(f"Trade {tid} is answered by {title(t[role])}.")
    return t


def parse_answer(st, seat, verb, tid, rest):
    """``accept``/``refuse`` of a trade (from proposals.parse_ruling)."""
    if rest:
        raise InvalidOrder(f"usage: `{verb} {tid}`")
    t = _open_trade(st, tid, seat, "to")
    if verb == "accept":
        _held_all(st, seat, t["get"])
    return (tid,)


def apply_answer(st, seat, verb, tid):
    t = trade(st, tid)
    if verb == "refuse":
        t["status"] = "refused"
        return [Event(public=f"{title(seat)} refuses trade {tid}.")]
    hands = deck._hands(st)
    for frm, to, cards in ((t["from"], t["to"], t["give"]), (t["to"], t["from"], t["get"])):
        for c in cards:
            pair = hands[frm].pop(deck._held(st, frm, c))
            deck.left_hand(st, pair[1])
            hands.setdefault(to, []).append(pair)
    t["status"] = "accepted"
    return [Event(public=f"{title(seat)} accepts trade {tid}: the cards change hands.",
                  private={s: f"trade {tid} done: {title(t['from'])} gave {', '.join(t['give']) or 'nothing'}, "
                              f"{title(t['to'])} gave {', '.join(t['get']) or 'nothing'}." for s in (t["from"], t["to"], "gm")})]


def parse_withdraw(rs, st, seat, words):
    if len(words) != 1:
        raise InvalidOrder("usage: `withdraw <trade id>`")
    _open_trade(st, words[0].lower(), seat, "from")
    return (words[0].lower(),)


def apply_withdraw(rs, st, seat, args, dice):
    trade(st, args[0])["status"] = "withdrawn"
    return [Event(public=f"{title(seat)} withdraws offer {args[0]}.")]


def parse_counter(rs, st, seat, words):
    if not words:
        raise InvalidOrder("usage: `counter <trade id> <cards> for <cards>`")
    t = _open_trade(st, words[0].lower(), seat, "to")
    give, get = _parse_terms(rs, st, seat, words[1:], "counter <trade id> <cards> for <cards>")
    return (t["id"], give, "for", get)


def apply_counter(rs, st, seat, args, dice):
    old = trade(st, args[0])
    old["status"] = "countered"
    _, ev = _open(st, seat, old["from"], args[1], args[3],
                  f"{title(seat)} answers {args[0]} with a counter-offer ({{tid}}).",
                  f"counter-offer {{tid}} to {args[0]}: {title(seat)} gives {{give}} to {title(old['from'])} "
                  f"for {{get}}.")
    return [ev]


def view_part(st, seat) -> list[dict]:
    out = []
    for t in _trades(st):
        if seat is not None and (is_gm(seat) or seat in (t["from"], t["to"])):
            out.append(dict(t))
        else:
            out.append({"id": t["id"], "from": t["from"], "to": t["to"], "status": t["status"]})
    return out


VERBS = (
    Order("offer", "offer <seat> <card>[+<card>] for <card>[+<card>]|nothing: a trade (your cards locked while open)",
          parse_offer, apply_offer, redact=lambda args: f"offer (private) to {args[0]}",
          unlisted="the cards and terms are the seat's free choice", dice=False),
    Order("counter", "counter <trade id> <cards> for <cards>", parse_counter, apply_counter,
          redact=lambda args: f"counter {args[0]} (private)",
          unlisted="the cards and terms are the seat's free choice", dice=False),
    Order("withdraw", "withdraw <trade id>", parse_withdraw, apply_withdraw,
          unlisted="names an open trade of the seat's, withdrawn when it chooses", dice=False),
)
