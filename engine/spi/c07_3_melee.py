"""7.3 Melee: who may melee (a melee rating, not Disrupted, not a waiting Wedge), the targets in
contact, and 7.31: a unit that begins the combat phase in an enemy zone of control must attack one
of the units exerting it. The order: ``melee <unit> [<unit>...] at <hex>``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex
from engine.orders import Order
from engine.spi import c06_zoc
from engine.spi import c07_1_fire
from engine.spi import c07_combat
from engine.spi import c08_4_formations
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking
from engine.spi import common


def _can_melee(rs, state: State, uid: str) -> bool:
    r = rs.hooks.ratings(rs, state, uid)
    if not r or not r.melee:
        return False
    if state["units"][uid].get("disrupted") and not rs.charts_for(state)["disrupted"].get("may_attack", False):
        return False
    if c08_4_formations._wedge_waits(rs, state, uid):
        return False
    return True


def _check_melee(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uids, hx = list(args[:-2]), args[-1]
    c07_combat._combat_phase_check(rs, state, seat, "melee", "7.3")
    if c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("only the phasing side attacks", "7.3")
    occ = c05_stacking.occupancy(rs, state)
    targets = c07_1_fire._target_units(rs, state, seat, hx, occ)
    if not targets:
        raise IllegalOrder(f"there is no enemy combat unit in {hx} to attack", "7.3")
    for uid in uids:
        c02_units._own_on_map(rs, state, seat, uid)
        if c08_4_formations._wedge_waits(rs, state, uid):
            raise IllegalOrder("a Wedge may not attack on the turn it forms", "8.4")
        if not rs.hooks._can_melee(rs, state, uid):
            why = "is Disrupted" if state["units"][uid].get("disrupted") else "has no melee rating"
            raise IllegalOrder(f"{uid} {why} and may not melee", "7.3")
        if uid in state["ph"]["meleed"]:
            raise IllegalOrder(f"{uid} has already attacked this phase (one attack a phase)", "7.31")
        if hx not in [state["units"][t]["hex"] for t in rs.hooks._melee_targets(rs, state, uid, occ)]:
            raise IllegalOrder(f"{uid} is not in contact with {hx}: melee needs the target's zone of control "
                               "to reach the attacker (no attacks through walls)", "7.31")


def _melee_targets(rs, state: State, uid: str, occ=None) -> list[str]:
    """Enemy units ``uid`` may melee: those whose ZOC covers it (7.31)."""
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    h = Hex.parse(state["units"][uid]["hex"])
    return c06_zoc.exerting(rs, state, h, hooks.side_of(rs, state, uid), occ)


def _obligations(rs, state: State, seat: str) -> list[str]:
    """7.31: phasing units that start the combat phase in an enemy ZOC."""
    occ = c05_stacking.occupancy(rs, state)
    out = []
    for uid in sorted(state["units"]):
        u = rs.units[uid]
        if u.is_combat and hooks.side_of(rs, state, uid) == seat and c02_units.on_map(rs, state, uid) and rs.hooks._can_melee(rs, state, uid):
            if c06_zoc.exerting(rs, state, Hex.parse(state["units"][uid]["hex"]), seat, occ):
                out.append(uid)
    return out


def _unmet_obligations(rs, state: State, seat: str) -> list[str]:
    occ = c05_stacking.occupancy(rs, state)
    out = []
    for uid in state["ph"]["must"]:
        if hooks.side_of(rs, state, uid) != seat or not c02_units.on_map(rs, state, uid) or uid in state["ph"]["meleed"]:
            continue
        if not rs.hooks._can_melee(rs, state, uid):
            continue
        if c06_zoc.exerting(rs, state, Hex.parse(state["units"][uid]["hex"]), seat, occ):  # still in that ZOC
            out.append(uid)
    return out


def _apply_melee(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uids, hx = list(args[:-2]), args[-1]
    state["ph"]["segment"] = "melee"
    return c07_combat._attacks(rs, state, seat, dice, uids, hx, "melee")


def _parse_melee(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) < 3 or words[-2].lower() != "at":
        raise InvalidOrder(f"usage: {MELEE.usage}")
    uids = sorted({c02_units.resolve_unit(rs, w) for w in words[:-2]})
    return (*uids, "at", common._hex_token(words[-1]))


def _legal_melee(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) != "combat" or c03_sequence.phasing(rs, state) != seat:
        return
    occ = c05_stacking.occupancy(rs, state)
    mine = sorted(x for x in state["units"] if hooks.side_of(rs, state, x) == seat and c02_units.on_map(rs, state, x))
    for uid in mine:
        if uid in state["ph"]["meleed"] or not rs.units[uid].is_combat or not rs.hooks._can_melee(rs, state, uid):
            continue
        for t in rs.hooks._melee_targets(rs, state, uid, occ):
            a = Action("melee", (uid, "at", state["units"][t]["hex"]))
            if c03_sequence._ok(rs, state, seat, a):
                yield a


# the orders of this file (engine/orders.py), each naming its functions above
MELEE = Order("melee", "`melee <unit> [<unit>...] at <hex>`, e.g. `melee GS1 at 2008`",
              parse=_parse_melee,
              check=_check_melee,
              apply=_apply_melee,
              legal=_legal_melee,
              cases=("7.3", "7.31"))
