"""7.175 (variant, seed 004): a combat unit with missile capability adjacent to enemy combat units in
its Friendly Combat Phase must fire at one of them, unless friendly units attack every enemy unit
adjacent to it in the Melee Segment (its own melee counts, for an "Ee" unit).

Checked when the phasing player is done (ruling): a unit that could still fire at an adjacent enemy
and has not, while some adjacent enemy hex was not meleed, holds `done` back; once the fire segment is
over, only while a melee against that hex is still possible (so that a phase can always end).
"""
from __future__ import annotations

from engine.core import Action, IllegalOrder, State
from engine.hexgrid import Hex
from engine.spi.c03_done import DONE
from engine.spi.standard import StandardRules
from engine.spi import c06_zoc
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


def missile_obliged(rs, state: State, seat: str) -> list[tuple[str, list[str]]]:
    """(unit, adjacent enemy hexes not yet meleed) for each unit still under 7.175."""
    out = []
    occ = c05_stacking.occupancy(rs, state)
    hit = set(state["ph"].get("melee_hexes", []))
    for uid in sorted(state["units"]):
        if hooks.side_of(rs, state, uid) != seat or not c02_units.on_map(rs, state, uid) or uid in state["ph"]["fired"]:
            continue
        if not rs.hooks._can_fire(rs, state, uid):
            continue
        h = Hex.parse(state["units"][uid]["hex"])
        adj = sorted({state["units"][t]["hex"] for t in c06_zoc.exerting(rs, state, h, seat, occ)})
        left = [x for x in adj if x not in hit]
        if left:
            out.append((uid, left))
    return out


def _check_done(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    DONE.check(rs, state, seat, args)  # the standard's (3.0, 13.0, 7.31)
    if not c07_22_leader_combat.variant(rs, state) or c03_sequence.kind(rs, state) != "combat" or c03_sequence.phasing(rs, state) != seat:
        return
    for uid, left in missile_obliged(rs, state, seat):
        if state["ph"]["segment"] == "fire":
            if any(c03_sequence._ok(rs, state, seat, Action("fire", (uid, "at", hx))) for hx in left):
                raise IllegalOrder(f"{uid} is adjacent to enemy units ({', '.join(left)}) and must fire at one "
                                   "of them, unless every one is meleed", "7.175")
        else:
            for hx in left:
                mine = sorted(x for x in state["units"] if hooks.side_of(rs, state, x) == seat and c02_units.on_map(rs, state, x)
                              and rs.units[x].is_combat and x not in state["ph"]["meleed"])
                if any(c03_sequence._ok(rs, state, seat, Action("melee", (x, "at", hx))) for x in mine):
                    raise IllegalOrder(f"{uid} did not fire, so every enemy next to it must be meleed; {hx} "
                                       "has not been", "7.175")


def apply(rs, state: State, seat: str, action: Action):
    if action.verb == "melee":
        state["ph"].setdefault("melee_hexes", []).append(action.args[-1])
    return StandardRules.apply(rs, state, seat, action)
