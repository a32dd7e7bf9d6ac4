"""Tabletop turn order: the seats act in turn (the ruleset's seat order); ``done`` passes to the
next, and after the last seat a new round begins. The moderator may ``pass <seat>`` for a seat (in
every mode: at tabletop the seat to act, elsewhere the ruleset's own ``done`` for that seat)."""
from __future__ import annotations

from engine.core import Event, InvalidOrder, OrderError
from engine.modes.common import is_gm, parse_seat, refuse, split_reason, table, title, with_reason, table_action
from engine.orders import Order


def new_turns(seats) -> dict:
    return {"round": 1, "order": list(seats), "at": 0}


def to_act(st) -> str:
    t = table(st)["turns"]
    return t["order"][t["at"]]


def parse_done(rs, st, seat, words):
    if words:
        raise InvalidOrder("usage: `done`")
    if is_gm(seat):
        raise refuse("The moderator passes a seat with `pass <seat> because <reason>`.")
    if seat != to_act(st):
        raise refuse(f"It is {title(to_act(st))}'s turn.")
    return ()


def advance(st) -> list:
    t = table(st)["turns"]
    t["at"] += 1
    if t["at"] >= len(t["order"]):
        t["at"] = 0
        t["round"] += 1
        return [Event(public=f"Round {t['round']} begins: {title(to_act(st))} to act.", new_phase=True)]
    return [Event(public=f"{title(to_act(st))} to act (round {t['round']}).", new_phase=True)]


def apply_done(rs, st, seat, args, dice):
    return [Event(public=f"{title(seat)} is done.")] + advance(st)


def parse_pass(rs, st, seat, words):
    words, reason = split_reason(words)
    if not is_gm(seat):
        raise refuse("Only the moderator passes for a seat; your own turn ends with `done`.")
    if len(words) != 1 or not reason:
        raise InvalidOrder("usage: `pass <seat> because <reason>`")
    who = parse_seat(rs, words[0])
    if rs.mode == "tabletop":
        if who != to_act(st):
            raise refuse(f"It is {title(to_act(st))}'s turn, not {title(who)}'s.")
    else:
        if who not in rs.inner.active_seats(st):
            raise refuse(f"{title(who)} has nothing to do now.")
        try:
            rs.inner.parse(st, who, "done")
        except OrderError as e:
            raise refuse(f"{title(who)} cannot be passed now: {e}") from None
    return with_reason((who,), reason)


def apply_pass(rs, st, seat, args, dice):
    who, reason = args[0], " ".join(args[2:])
    head = Event(public=f"Moderator passes for {title(who)} ({reason}).")
    if rs.mode == "tabletop":
        return [head] + advance(st)
    return [head] + rs.inner.apply(st, who, rs.inner.parse(st, who, "done"))



def legal_done(rs, st, seat):
    """At tabletop, the seat to act ends its turn."""
    if rs.mode == "tabletop" and seat == to_act(st):
        yield table_action("done", ())


def legal_pass(rs, st, seat):
    """The moderator may end the part of each seat that acts now."""
    if is_gm(seat):
        for s in rs.active_seats(st):
            yield table_action("pass", (s, "because", "the moderator's ruling"))


VERBS = (
    Order("done", "done: your turn is over", parse_done, apply_done, modes=("tabletop",), vocabulary=True,
          legal=legal_done, dice=False, touches=("table",)),
    Order("pass", "pass <seat> because <reason>: the moderator ends a seat's part of the phase", parse_pass, apply_pass,
          legal=legal_pass, dice=False),
)
