"""3.0 The sequence of play: the step a game is in, its kind (move, combat, rally...), the seat that moves
in it, night (11.0), a new phase's record, and whether an order would pass now. Functions of the ruleset,
called by module (``c03_sequence.kind(rs, state)``; issue 43)."""
from __future__ import annotations

import threading
from contextlib import contextmanager

from engine.core import Action, IllegalOrder, InvalidOrder, State


def _fresh_phase(rs) -> dict:
    return {"moved": [], "fired": [], "meleed": [], "dueled": [], "rally_tries": {}, "rallied": [],
            "entered": {}, "segment": "fire", "must": [], "cast": [], "advance": None}


def is_night(rs, state: State) -> bool:
    return state["turn"] in rs.sequence.get("night_turns", [])


def step(rs, state: State) -> dict:
    return rs.steps[state["step"]]


def kind(rs, state: State) -> str:
    return step(rs, state).get("kind", "setup" if state["turn"] == 0 else "other")


def phasing(rs, state: State) -> str | None:
    s = step(rs, state)
    return s.get("side") or (s["seats"][0] if len(s["seats"]) == 1 else None)


def _need_kind(rs, state: State, kinds: tuple[str, ...], what: str, section: str) -> None:
    if kind(rs, state) not in kinds:
        raise IllegalOrder(f"{what} only in the {' or '.join(kinds)} phase; now: {step(rs, state)['title']}", section)


def _ok(rs, state: State, seat: str, action: Action) -> bool:
    try:
        rs.check(state, seat, action)
        return True
    except (IllegalOrder, InvalidOrder):
        return False


_MEMO = threading.local()  # the action being checked or applied, per thread (games run in worker threads)


@contextmanager
def _current_memo(action: Action):
    prev = getattr(_MEMO, "memo", None)
    _MEMO.memo = action.memo
    try:
        yield
    finally:
        _MEMO.memo = prev


def order_memo(rs) -> dict:
    """The memo of the action being checked or applied (``Action.memo``): what a check found
    that the apply of the same order on the same state needs, e.g. a move's path and cost."""
    memo = getattr(_MEMO, "memo", None)
    return memo if memo is not None else {}
