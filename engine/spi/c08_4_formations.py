"""8.4 Special formations: Shield Wall and Wedge, formed by two units and a leader (8.41), moving
and fighting as one; a Wedge waits the turn it forms. The orders: ``form shieldwall|wedge <unit>
<unit> <leader>`` and ``disband <unit> <hex>``.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.orders import Order
from engine.spi import c04_movement
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking
from engine.spi import common


# --- formations (8.4)
def formation_of(rs, state: State, uid: str) -> str | None:
    for fid, f in state["formations"].items():
        if uid in f["units"]:
            return fid
    return None


def _formed_this_turn(rs, state: State, fid: str) -> bool:
    return state["formations"][fid]["turn"] == state["turn"]


def _wedge_waits(rs, state: State, uid: str) -> bool:
    """8.4: a Wedge may neither move nor attack on the turn it forms."""
    f = formation_of(rs, state, uid)
    return bool(f and rs.hooks._formed_this_turn(rs, state, f) and state["formations"][f]["kind"] == "wedge"
                and rs.charts_for(state)["formations"].get("wedge_waits", True))


def _check_form(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    kind, a, b, leader = args
    c03_sequence._need_kind(rs, state, ("move",), "forming a special formation", "8.4")
    if not rs.hooks.may_form(rs, state, seat, kind):
        raise IllegalOrder(f"{c02_units.title_of(rs, seat)} units may not form a {kind}", "8.41")
    spec = rs.charts_for(state)["formations"][kind]
    for x in (a, b):
        u = c02_units._own_on_map(rs, state, seat, x)
        if u.type not in spec["types"]:
            raise IllegalOrder(f"{x} is {u.type}; a {kind} is made of {' or '.join(spec['types'])} units", "8.4")
        if formation_of(rs, state, x):
            raise IllegalOrder(f"{x} is already in a formation", "8.4")
        if state["units"][x].get("disrupted"):
            raise IllegalOrder(f"{x} is Disrupted", "8.4")
        if x in state["ph"]["moved"]:
            raise IllegalOrder(f"{x} has already moved this phase", "8.4")
    ul = c02_units._own_on_map(rs, state, seat, leader)
    if not ul.is_leader:
        raise IllegalOrder(f"{leader} is not a leader", "8.4")
    frozen = next((e for e in state["effects"] if e.get("frozen") and leader in e["frozen"]), None)
    if frozen:
        raise IllegalOrder(f"{leader} is frozen by {frozen['title']}", frozen.get("section"))
    ha, hb = state["units"][a]["hex"], state["units"][b]["hex"]
    if state["units"][leader]["hex"] != ha:
        raise IllegalOrder(f"{leader} must be stacked with {a} in {ha}", "8.4")
    if distance(ha, hb) != 1:
        raise IllegalOrder(f"{b} must be next to {a}", "8.4")
    info = rs.hexmap.hexes[Hex.parse(ha)]
    if rs.charts_for(state)["tec"].get(info.terrain, {}).get("cost", 1) != 1:
        raise IllegalOrder(f"{ha} is {info.terrain}: formations form only in clear hexes", "8.4")
    side = rs.hooks.hexside_rule(rs, state, [b], Hex.parse(hb), Hex.parse(ha))
    if side is None or side == "all" or side:
        raise IllegalOrder(f"{b} cannot step into {ha}", "8.4")


def _check_disband(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    uid, hx = args
    c03_sequence._need_kind(rs, state, ("move",), "leaving a formation", "8.4")
    c02_units._own_on_map(rs, state, seat, uid)
    f = formation_of(rs, state, uid)
    if not f:
        raise IllegalOrder(f"{uid} is not in a formation", "8.4")
    if uid in state["ph"]["moved"]:
        raise IllegalOrder(f"{uid} has already moved this phase", "8.4")
    here = Hex.parse(state["units"][uid]["hex"])
    h = Hex.parse(hx)
    if h.distance(here) != 1 or h not in rs.hexmap:
        raise IllegalOrder(f"{hx} is not next to {here}", "8.4")
    occ = c05_stacking.occupancy(rs, state)
    cost, zoc = c04_movement._step_cost_fn(rs, state, seat, [uid], here, occ)
    if cost(here, h) is None or rs.hooks.hexside_rule(rs, state, [uid], here, h) == "all":
        raise IllegalOrder(f"{uid} cannot step into {hx}", "8.4")
    if c05_stacking.combat_units_in(rs, state, hx, occ):
        raise IllegalOrder(f"{hx} already holds a combat unit", "5.0")


def _legal_forms(rs, state: State, seat: str) -> Iterator[Action]:
    occ = c05_stacking.occupancy(rs, state)
    for leader in sorted(state["units"]):
        if hooks.side_of(rs, state, leader) != seat or not rs.units[leader].is_leader or not c02_units.on_map(rs, state, leader):
            continue
        ha = state["units"][leader]["hex"]
        for a in c05_stacking.combat_units_in(rs, state, ha, occ):
            for nb in Hex.parse(ha).neighbours():
                for b in c05_stacking.combat_units_in(rs, state, str(nb), occ):
                    for kind in ("shieldwall", "wedge"):
                        act = Action("form", (kind, a, b, leader))
                        if c03_sequence._ok(rs, state, seat, act):
                            yield act


def _apply_form(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    kind, a, b, leader = args
    hx = state["units"][a]["hex"]
    state["units"][b]["hex"] = hx
    n = 1
    while f"F{n}" in state["formations"]:
        n += 1
    fid = f"F{n}"
    state["formations"][fid] = {"kind": kind, "units": [a, b], "leader": leader, "turn": state["turn"]}
    state["ph"]["moved"].extend([a, b])
    title = {"shieldwall": "Shield Wall", "wedge": "Wedge"}[kind]
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {a} and {b} form a {title} with {leader} in {hx} (8.4).",
                  section="8.4")]


def _apply_disband(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    uid, hx = args
    f = formation_of(rs, state, uid)
    del state["formations"][f]
    state["units"][uid]["hex"] = hx
    state["ph"]["moved"].append(uid)
    return [Event(public=f"{c02_units.title_of(rs, seat)}: {uid} leaves its formation for {hx}; the formation is "
                         "dissolved (8.4).", section="8.4")]


def _parse_form(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 4 or words[0].lower() not in ("shieldwall", "wedge"):
        raise InvalidOrder(f"usage: {FORM.usage}")
    a, b, ldr = (c02_units.resolve_unit(rs, w) for w in words[1:])
    return (words[0].lower(), a, b, ldr)


def _parse_disband(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2:
        raise InvalidOrder(f"usage: {DISBAND.usage}")
    return (c02_units.resolve_unit(rs, words[0]), common._hex_token(words[1]))


def _legal_disbands(rs, state: State, seat: str) -> Iterator[Action]:
    """8.4: in its Movement Phase a unit not yet moved may leave its formation by stepping into a hex next
    to it (the formation is dissolved)."""
    if c03_sequence.kind(rs, state) != "move":
        return
    for fid in sorted(state["formations"]):
        for uid in state["formations"][fid]["units"]:
            if hooks.side_of(rs, state, uid) != seat or uid in state["ph"]["moved"] or not c02_units.on_map(rs, state, uid):
                continue
            for nb in sorted(Hex.parse(state["units"][uid]["hex"]).neighbours()):
                act = Action("disband", (uid, str(nb)))
                if nb in rs.hexmap and c03_sequence._ok(rs, state, seat, act):
                    yield act


def _legal_form_orders(rs, state: State, seat: str) -> Iterator[Action]:
    if c03_sequence.kind(rs, state) == "move":
        yield from _legal_forms(rs, state, seat)


# the orders of this file (engine/orders.py), each naming its functions above
FORM = Order("form", "`form shieldwall|wedge <unit> <unit> <leader>`",
              parse=_parse_form,
              check=_check_form,
              apply=_apply_form,
              legal=_legal_form_orders,
              cases=("8.4", "8.41"))
DISBAND = Order("disband", "`disband <unit> <hex>`",
              parse=_parse_disband,
              check=_check_disband,
              apply=_apply_disband,
              legal=_legal_disbands,
              cases=("8.4",))
