"""7.1 Missile fire: who may fire (a missile rating, not Disrupted), the range (7.12), the target.
The order: ``fire <unit> [<unit>...] at <hex>``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import distance
from engine.orders import Order
from engine.spi import c07_combat
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking
from engine.spi import common


def _can_fire(rs, state: State, uid: str) -> bool:
    r = rs.hooks.ratings(rs, state, uid)
    if not r or not r.missile:
        return False
    if state["units"][uid].get("disrupted") and not rs.charts_for(state)["disrupted"].get("may_attack", False):
        return False
    return True


def missile_range(rs, state: State, uid: str) -> int:
    ch = rs.charts_for(state)["missile"]
    return ch["mounted_range"] if rs.units[uid].is_cavalry else ch["range"]


def _target_units(rs, state: State, seat: str, hx: str, occ=None) -> list[str]:
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    return sorted(x for x in occ.get(hx, ()) if rs.units[x].is_combat and hooks.side_of(rs, state, x) != seat)


def _check_fire(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uids, hx = list(args[:-2]), args[-1]
    c07_combat._combat_phase_check(rs, state, seat, "fire", "7.1")
    if c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("only the phasing side fires", "7.1")
    targets = _target_units(rs, state, seat, hx)
    if not targets:
        raise IllegalOrder(f"there is no enemy combat unit in {hx} to fire at", "7.1")
    for uid in uids:
        c02_units._own_on_map(rs, state, seat, uid)
        if not rs.hooks._can_fire(rs, state, uid):
            why = "is Disrupted" if state["units"][uid].get("disrupted") else "has no missile rating"
            raise IllegalOrder(f"{uid} {why} and may not fire", "7.1")
        if uid in state["ph"]["fired"]:
            raise IllegalOrder(f"{uid} has already fired this phase", "7.1")
        d = distance(state["units"][uid]["hex"], hx)
        rng = rs.hooks.missile_range(rs, state, uid)
        if d > rng or d == 0:
            raise IllegalOrder(f"{hx} is {d} hexes from {uid}; its range is {rng} (counting the target hex, "
                               "not the firer's)", "7.12")


def _apply_fire(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uids, hx = list(args[:-2]), args[-1]
    return c07_combat._attacks(rs, state, seat, dice, uids, hx, "fire")


def _parse_fire(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) < 3 or words[-2].lower() != "at":
        raise InvalidOrder(f"usage: {FIRE.usage}")
    uids = sorted({c02_units.resolve_unit(rs, w) for w in words[:-2]})
    return (*uids, "at", common._hex_token(words[-1]))


def _legal_fire(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) != "combat" or c03_sequence.phasing(rs, state) != seat or state["ph"]["segment"] != "fire":
        return
    mine = sorted(x for x in state["units"] if hooks.side_of(rs, state, x) == seat and c02_units.on_map(rs, state, x))
    enemies = sorted({state["units"][x]["hex"] for x in state["units"]
                      if hooks.side_of(rs, state, x) != seat and rs.units[x].is_combat and c02_units.on_map(rs, state, x)})
    for uid in mine:
        if uid in state["ph"]["fired"] or not rs.hooks._can_fire(rs, state, uid):
            continue
        rng = rs.hooks.missile_range(rs, state, uid)
        for hx in enemies:
            if 0 < distance(state["units"][uid]["hex"], hx) <= rng:
                a = Action("fire", (uid, "at", hx))
                if c03_sequence._ok(rs, state, seat, a):
                    yield a


# the orders of this file (engine/orders.py), each naming its functions above
FIRE = Order("fire", "`fire <unit> [<unit>...] at <hex>`, e.g. `fire GB1 at 2007`",
              parse=_parse_fire,
              check=_check_fire,
              apply=_apply_fire,
              legal=_legal_fire,
              cases=("7.1",))
