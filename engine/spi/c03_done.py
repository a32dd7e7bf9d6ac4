"""3.0 `done`: a seat ends its part of the step, and the step that every seat is done with gives way to the
next (the sequence of play; at set-up, 13.0, a seat is done when every counter is placed). The order's
functions and the step's end, called by module and by the order's record (issue 43)."""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.orders import Order
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c07_3_melee
from engine.spi import hooks
from engine.spi.common import _phrase


def _parse_done(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if words:
        raise InvalidOrder("usage: `done`")
    return ()


def _legal_done(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) != "setup" and c03_sequence._ok(rs, state, seat, Action("done")):
        yield Action("done")


def _apply_done(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    if state["turn"] == 0:
        state["done"].append(seat)
        events = [Event(public=f"{c02_units.title_of(rs, seat)} has finished setting up (13.0).", section="13.0")]
        if not rs.active_seats(state):
            events.extend(rs.hooks.on_setup_step_end(rs, state))
            events.extend(rs.hooks.next_step(rs, state))
        return events
    state["done"].append(seat)
    events = [Event(public=f"{c02_units.title_of(rs, seat)} is done with the {c03_sequence.step(rs, state)['title']}.")]
    if not rs.active_seats(state):
        events.extend(rs.hooks.next_step(rs, state))
    return events


def _check_done(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    """A seat may be done when every counter of its is placed (set-up, 13.0), and in a Combat Phase when each
    of its units that began it in an enemy zone of control has attacked (7.31). A game amends it through its
    ``DONE`` record (``replace(DONE, check=...)``), calling this one as ``DONE.check``."""
    if state["turn"] == 0:
        left = [uid for uid, u in rs.units.items() if hooks.side_of(rs, state, uid) == seat and state["units"][uid]["status"] == "pool"]
        if left:
            more = f" and {len(left) - 6} more" if len(left) > 6 else ""
            noun = "counter" if len(left) == 1 else "counters"
            raise IllegalOrder(f"{len(left)} {noun} still to deploy: {', '.join(left[:6])}{more}",
                               c03_sequence.step(rs, state)["section"])
        return
    if c03_sequence.kind(rs, state) == "combat":
        left = c07_3_melee._unmet_obligations(rs, state, seat)
        if left:
            raise IllegalOrder(
                f"{_phrase(left[:6])} began the phase in an enemy zone of control and must attack one of the "
                "units exerting it before you are done", "7.31")


def next_step(rs, state: State) -> list[Event]:
    """The step is over (every seat that acts in it is done): the next step of the sequence of play begins
    (3.0), the next Game-Turn after the last step (and the end of the game after the last turn, 3.0), set-up
    over with the first step of play (13.0). The standard ``Hooks.next_step``; a game may amend it (Gondor:
    a Siege Phase nobody acts in ends at once)."""
    order = rs.step_order
    first_play = rs.sequence["step"][0]["id"]
    i = order.index(state["step"])
    state["done"] = []
    events: list[Event] = []
    if i + 1 < len(order):
        state["step"] = order[i + 1]
        if state["step"] == first_play:
            state["turn"] = 1
            events.append(Event(public="Set-up is complete (13.0).", section="13.0"))
    else:
        end = rs.hooks.end_of_turn(rs, state)
        events.extend(end)
        if state["over"]:
            return events
        state["turn"] += 1
        state["step"] = first_play
    state["ph"] = c03_sequence._fresh_phase(rs)
    if state["turn"] > rs.sequence["turns"]:
        v = rs.hooks.final_result(rs, state)
        state["over"] = v
        events.append(Event(public=v["summary"], section=v.get("section"), new_phase=True))
        return events
    rs.hooks._expire_effects(rs, state)
    step = c03_sequence.step(rs, state)
    if step.get("kind") == "combat":
        state["ph"]["must"] = c07_3_melee._obligations(rs, state, step["side"])
    head = "Set-up" if state["turn"] == 0 else (
        f"Game-Turn {state['turn']} ({'night' if c03_sequence.is_night(rs, state) else 'day'})")
    events.extend(hooks.on_step_start(rs, state))
    if state["over"]:
        return events
    # who acts (a ruleset may have found a seat with nothing to do here)
    who = " and ".join(c02_units.title_of(rs, s) for s in (rs.active_seats(state) or step["seats"]))
    events.append(Event(public=f"{head}: {step['title']}. {who} to act ({step['section']}).",
                        section=step["section"], new_phase=True))
    return events


# the orders of this file (engine/orders.py), each naming its functions above
# 3.0: a seat ends its part of the phase (at set-up, 13.0: when every counter is placed)
DONE = Order("done", "`done`",
              parse=_parse_done,
              check=_check_done,
              apply=_apply_done,
              legal=_legal_done,
              cases=("3.0", "13.0", "7.31"))
