"""The free cavalry advance (seed:002, How to do Battle, Note): once a ground attack has cleared a
Territory and every retreat is done, up to as many attacking cavalry as attacked may move in at once,
free (`advance`, an offer any other order lets lapse); or the turn of a side forced back ends (Retreat)."""
from __future__ import annotations

import itertools
from typing import Iterator

from engine import pending
from engine.core import Action, Event, IllegalOrder, State
from engine.dice import Dice
from engine.rulesets.risk_minas_tirith import forces, movement, turn
from engine.rulesets.risk_minas_tirith.common import TITLES, TYPES, MOUNTED, S_GROUND, S_RETREAT, _group_text


def _free_advance(rs, state: State, seat: str, n: int, src: str, dst: str, turn_ends: bool) -> int:
    """How many attacking cavalry may move in for free (seed, How to do Battle, Note)."""
    if turn_ends or forces._side_of(state, dst) is not None or state["areas"][src]["side"] != seat:
        return 0
    cav = sum(state["areas"][src]["u"].get(t, 0) for t in MOUNTED)
    if cav and movement._enter_ok(rs, state, seat, src, dst, {"cavalry": 1}, []) is None:
        return min(n, cav)
    return 0


def _after_battle(rs, state: State, battle: dict, dice: Dice, events: list[Event]) -> None:
    """Once every retreat of a ground attack is done: the free cavalry advance,
        or the end of a turn whose side was forced back (seed, Retreat)."""
    seat, src, dst = battle["seat"], battle["src"], battle["dst"]
    if turn._finish_if_won(rs, state, events):
        return
    adv = _free_advance(rs, state, seat, battle["n"], src, dst, battle["turn_ends"])
    if adv:
        state["pending"] = pending.new(FREE_ADVANCE, seat, advance={"from": src, "to": dst, "max": adv})
        events.append(Event(public=f"{forces._name(rs, dst)} is cleared: up to {adv} attacking cavalry may "
                                   f"advance for free (`advance <n>cav from {src} to {dst}`).", section=S_GROUND))
    if battle["turn_ends"]:
        events.append(Event(public=f"{TITLES[seat]} was forced to retreat: the turn ends.", section=S_RETREAT))
        events.extend(turn._end_turn(rs, state, dice))


def _parse_advance(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    return movement._parse_route(rs, state, seat, "advance", rest)


def _check_advance(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    pend = state["pending"] or {}
    adv = pend.get("advance")
    g, leaders, src, via, dst = movement._split_move(a)
    if not adv or adv["from"] != src or adv["to"] != dst:
        raise IllegalOrder("a free advance follows at once an attack that cleared the Territory", S_GROUND)
    if leaders or any(t not in MOUNTED for t in g):
        raise IllegalOrder("only the attacking cavalry advance for free", S_GROUND)
    if sum(g.values()) > adv["max"]:
        raise IllegalOrder(f"at most {adv['max']} attacking cavalry may advance", S_GROUND)
    movement._check_group_at(rs, state, seat, src, g, leaders, S_GROUND)
    why = movement._enter_ok(rs, state, seat, src, dst, g, leaders)
    if why:
        raise IllegalOrder(why, S_GROUND)


def _legal_advance(rs, state: State, pend: dict) -> Iterator[Action]:
    adv = pend.get("advance")
    if adv:
        rec = state["areas"][adv["from"]]
        for g in _advance_groups(rec, adv["max"]):
            yield Action("advance", (*_group_text(g, []).split(), "from", adv["from"], "to", adv["to"]))


def _advance_groups(rec: dict, most: int) -> Iterator[dict[str, int]]:
    """Every split of the area's cavalry of at most ``most`` battalions (at most 3: the
        attackers), largest counts first (seed, How to do Battle, Note)."""
    types = [t for t in TYPES if rec["u"].get(t) and t in MOUNTED]
    for counts in itertools.product(*(range(min(rec["u"][t], most), -1, -1) for t in types)):
        g = {t: c for t, c in zip(types, counts) if c}
        if g and sum(g.values()) <= most:
            yield g


def _do_advance(rs, state, seat, a, dice):
    g, leaders, src, via, dst = movement._split_move(a)
    forces._remove(rs, state, src, g, leaders)
    forces._add(rs, state, dst, seat, g, leaders)
    movement._move_fired(rs, state, src, dst, g)
    state["pending"] = None
    return [Event(public=f"{TITLES[seat]}'s cavalry advance for free: {_group_text(g, [])} from "
                         f"{forces._name(rs, src)} to {forces._name(rs, dst)}.", section=S_GROUND)]


def _legal_free_advance(rs, state: State, p: dict) -> Iterator[Action]:
    return _legal_advance(rs, state, p)


def _awaited_advance(rs, state: State, p: dict) -> str:
    return "advance its cavalry"


def _first_advance(rs, state: State, p: dict) -> str:
    return "a free advance follows at once an attack that cleared the Territory"


FREE_ADVANCE = pending.Decision("advance", S_GROUND, answers=("advance",), legal=_legal_free_advance,
                                awaited=_awaited_advance, first=_first_advance, offer=True)
