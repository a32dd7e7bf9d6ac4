"""16.1 Siege engines: catapults (one firing a Game-Turn, 16.12; at troops with missile strength e,
range 2; never through mountains, 16.24) and Grond (16.13: carried by a Troll or Uruk-Hai unit,
operated by 17.13).
"""
from __future__ import annotations

from engine.core import Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, line
from engine.units import Ratings
from engine.spi.standard import StandardRules

from .common import (GROND, NAZGUL)
from engine.rulesets.gondor import c16_0_siege_phase
from engine.spi import c07_1_fire
from engine.spi import c02_units


def _fired_this_turn(rs, state: State, cat: str) -> bool:
    return state["siege"]["fired"].get(cat) == state["turn"]


def _catapults(rs, state: State, seat: str) -> list[str]:
    return sorted(u for u, d in rs.units.items() if d.type == "catapult" and d.side == seat
                  and c02_units.on_map(rs, state, u))


# ------------------------------------------------------- catapult fire
def ratings(rs, state: State, uid: str):
    if rs.units[uid].type == "catapult":
        return Ratings(None, c16_0_siege_phase.siege_chart(rs, state)["catapult_missile"], 1, "Z")
    return StandardRules.hooks.ratings(rs, state, uid)


def missile_range(rs, state: State, uid: str) -> int:
    if rs.units[uid].type == "catapult":
        return c16_0_siege_phase.siege_chart(rs, state)["catapult_range"]
    return StandardRules.hooks.missile_range(rs, state, uid)


def _check_fire(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    c07_1_fire._check_fire(rs, state, seat, args)
    for uid in args[:-2]:
        if rs.units[uid].type == "catapult" and _fired_this_turn(rs, state, uid):
            raise IllegalOrder(f"{uid} has already fired this Game-Turn (one firing a turn, 16.12)", "16.12")


def _apply_fire(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    for uid in args[:-2]:
        if rs.units[uid].type == "catapult":
            state["siege"]["fired"][uid] = state["turn"]
    return c07_1_fire._apply_fire(rs, state, seat, args, dice)


def _own_catapult(rs, state: State, seat: str, uid: str, section: str) -> Hex:
    u = c02_units._own_on_map(rs, state, seat, uid)
    if u.type != "catapult":
        raise IllegalOrder(f"{uid} is not a catapult", section)
    if _fired_this_turn(rs, state, uid):
        raise IllegalOrder(f"{uid} has already fired this Game-Turn (one firing a turn, 16.12)", "16.12")
    return Hex.parse(state["units"][uid]["hex"])


def _clear_line(rs, a: Hex, b: Hex) -> Hex | None:
    """16.24, 16.61: the first mountain hex between ``a`` and ``b`` (ends excluded), if any."""
    for h in line(a, b)[1:-1]:
        if h in rs.hexmap and rs.hexmap.hexes[h].terrain == "mountain":
            return h
    return None


# ------------------------------------------------------------ 16.13 Grond
def _grond_carrier(rs, uid: str) -> bool:
    u = rs.units[uid]
    return u.is_combat and (u.type == "troll" or "uruk" in u.tags)


def check_stack_move(rs, state: State, seat: str, uids: list[str]) -> None:
    StandardRules.hooks.check_stack_move(rs, state, seat, uids)
    if GROND in uids and not any(_grond_carrier(rs, x) for x in uids):
        raise IllegalOrder("Grond moves only carried by a Troll or Uruk-Hai unit stacked and moving with it "
                           "(e.g. `move TR1 GRD <hex>`)", "16.13")


def _check_movers(rs, state: State, seat: str, uids: list[str]) -> None:
    rs.seat_check(state, seat)
    for e in state["effects"]:
        if e.get("spell") == "stalemate-nazgul" and NAZGUL in uids:
            raise IllegalOrder("the Nazgul Lord is stalemated and may not move for one Game-Turn", "17.22")
    StandardRules.hooks._check_movers(rs, state, seat, uids)
