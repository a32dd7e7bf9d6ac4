"""18.1 The Gates of Morannon (variant, seed 004): with Sauron inside Mordor, before the Sauron
Movement Phase (the First Magic Leader Phase, A) or after the Sauron Combat Phase (the Second, E), he
may close or open the Gates, once a Game-Turn: closed, they stop movement and melee through them, and
missile fire through them comes only from the units inside Mordor. 18.11 (expanded game): they stay
open. The order: ``gates close`` / ``gates open``.
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.hexgrid import Hex
from engine.orders import Order
from engine.spi.standard import StandardRules
from engine.rulesets.sauron import c07_22_leader_combat
from engine.spi import c07_1_fire
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


def _always(a: Hex, b: Hex) -> bool:
    return True


@cached_property
def mordor_hexes(rs) -> frozenset[str]:
    return frozenset(rs.map_data["zones"]["mordor"])


@cached_property
def gate_sides(rs) -> frozenset[frozenset]:
    return frozenset(frozenset(hs.hexes()) for hs, t in rs.hexmap.hexsides.items() if t == "gate")


def gates_closed(rs, state: State) -> bool:
    return state["sau"]["gates"] == "closed"


def _through_gate(rs, a: Hex, b: Hex) -> bool:
    return frozenset((a, b)) in rs.gate_sides

# --- hooks: movement and melee stop at closed gates
def hexside_rule(rs, state: State, uids: list[str], a: Hex, b: Hex, retreat: bool = False):
    if _through_gate(rs, a, b) and gates_closed(rs, state):
        return None
    return StandardRules.hooks.hexside_rule(rs, state, uids, a, b, retreat)


def why_hexside(rs, state, uids, a, b) -> str:
    if _through_gate(rs, a, b):
        return "the Gates of Morannon are closed (18.1)"
    return StandardRules.hooks.why_hexside(rs, state, uids, a, b)


def _why_unreachable(rs, state: State, seat: str, uids: list[str], dest: str) -> str:
    start = state["units"][uids[0]]["hex"]
    if gates_closed(rs, state) and start and (start in rs.mordor_hexes) != (dest in rs.mordor_hexes):
        return f"the Gates of Morannon are closed: no unit passes them ({start} to {dest})"
    return StandardRules.hooks._why_unreachable(rs, state, seat, uids, dest)


def _why_section(rs, state: State, seat: str, hx: str, why: str) -> str:
    if "Gates of Morannon" in why:
        return "18.1"
    return StandardRules.hooks._why_section(rs, state, seat, hx, why)


def zoc_through(rs, state: State, a: Hex, b: Hex) -> bool:
    if gates_closed(rs, state) and _through_gate(rs, a, b):
        return False
    return StandardRules.hooks.zoc_through(rs, state, a, b)


def zoc_through_fn(rs, state: State):
    if not gates_closed(rs, state):
        if type(rs).hooks.zoc_through is zoc_through:  # nothing else limits a ZOC here: always
            return _always
        return StandardRules.hooks.zoc_through_fn(rs, state)
    sides = rs.gate_sides
    return lambda a, b: frozenset((a, b)) not in sides


def _check_fire(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    c07_1_fire._check_fire(rs, state, seat, args)
    if not gates_closed(rs, state):
        return
    hx = args[-1]
    inside = rs.mordor_hexes
    for uid in args[:-2]:
        if hx in inside and state["units"][uid]["hex"] not in inside:
            raise IllegalOrder(f"the Gates are closed: only the units inside Mordor fire through them; {uid} "
                               f"is outside and {hx} inside", "18.1")

# --- the order
def _parse_gates(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 1 or words[0].lower() not in ("close", "open"):
        raise InvalidOrder(f"usage: {GATES.usage}")
    return (words[0].lower(),)


def _check_gates(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    what, = args
    if seat != "sauron":
        raise IllegalOrder("only Sauron closes or opens the Gates of Morannon", "18.1")
    if not c07_22_leader_combat.variant(rs, state):
        raise IllegalOrder("closing the Gates is an addition of the variant (options: variant=off leaves it "
                           "out)", "18.1")
    if state["sau"].get("expanded"):
        raise IllegalOrder("in the expanded game the Gates stay open", "18.11")
    if c03_sequence.kind(rs, state) != "magic" or c03_sequence.phasing(rs, state) != "sauron":
        raise IllegalOrder("the Gates are closed or opened before the Sauron Movement Phase or after the "
                           "Sauron Combat Phase (the Magic Leader Phases)", "18.1")
    if not c02_units.on_map(rs, state, "SAU") or state["units"]["SAU"]["hex"] not in rs.mordor_hexes:
        raise IllegalOrder("Sauron must be inside Mordor to close or open the Gates", "18.1")
    if state["sau"]["gates_turn"] == state["turn"]:
        raise IllegalOrder("the Gates were already closed or opened this Game-Turn; they stay so", "18.1")
    if (what == "close") == gates_closed(rs, state):
        raise IllegalOrder(f"the Gates are already {'closed' if what == 'close' else 'open'}", "18.1")
    if what == "close":
        occ = c05_stacking.occupancy(rs, state)
        for side in rs.gate_sides:
            a, b = sorted(side)
            sa, sb = c05_stacking.side_in(rs, state, str(a), occ), c05_stacking.side_in(rs, state, str(b), occ)
            if "westernesse" in (sa, sb) and (str(a) in rs.mordor_hexes) != (str(b) in rs.mordor_hexes):
                w = a if sa == "westernesse" else b
                if str(w) in rs.mordor_hexes:
                    raise IllegalOrder(f"Westernesse units stand in the gateway ({w}): the Gates cannot close",
                                       "18.1")


def _apply_gates(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    what, = args
    state["sau"]["gates"] = "closed" if what == "close" else "open"
    state["sau"]["gates_turn"] = state["turn"]
    return [Event(public=f"Sauron {'closes' if what == 'close' else 'opens'} the Gates of Morannon; they stay "
                         "so for the rest of the Game-Turn (18.1).", section="18.1")]


def _legal_gates(rs, state: State, seat: str) -> Iterator[Action]:
    for what in ("close", "open"):
        a = Action("gates", (what,))
        if c03_sequence._ok(rs, state, seat, a):
            yield a


# the orders of this file (engine/orders.py), each naming its functions above
GATES = Order("gates", "`gates close` or `gates open`",
              parse=_parse_gates,
              check=_check_gates,
              apply=_apply_gates,
              legal=_legal_gates,
              cases=("18.1",),
              dice=False)
