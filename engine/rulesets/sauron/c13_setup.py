"""13.0 Set-up (reconstructed): every counter starts on its default hex (data/setup.toml, from the
replay's description, facts.md 9.2); Sauron, then Westernesse, may re-place counters within their
zones (13.1: before the Gates, outside Mordor, rows 12-20; 13.2: the Alliance's half, rows 1-8)
before saying `done`. The order: ``deploy <unit> <hex>`` (``engine/spi/c13_setup.py: DEPLOY``).
"""
from __future__ import annotations

from functools import cached_property
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.hexgrid import Hex

from .common import SIDE_TITLES
from engine.rulesets.sauron import c08_1_stacking
from engine.spi import c02_units
from engine.spi import c05_stacking

ZONE_ROWS = {"front": (12, 20), "alliance": (1, 8)}


@cached_property
def setup_zones(rs) -> dict[str, frozenset[str]]:
    tec = rs.charts["tec"]
    mordor = rs.mordor_hexes
    out = {}
    for z, (r0, r1) in ZONE_ROWS.items():
        out[z] = frozenset(str(h) for h, i in rs.hexmap.hexes.items()
                           if r0 <= h.row <= r1 and tec.get(i.terrain, {}).get("passable", True)
                           and str(h) not in mordor)
    return out


def _check_deploy(rs, state: State, seat: str, uid: str, hx: str, occ=None) -> None:
    u = rs.units.get(uid)
    if u is None:
        raise IllegalOrder(f"there is no unit `{uid}` in this game")
    if state["turn"] != 0:
        raise IllegalOrder("units are deployed only during the set-up", "13.0")
    if u.side != seat:
        raise IllegalOrder(f"{uid} is a {SIDE_TITLES[u.side]} counter, not yours")
    if u.setup == "reinforcement":
        raise IllegalOrder(f"{uid} is a reinforcement: it enters from Game-Turn {u.arrives}", u.section)
    if state["units"][uid]["status"] == "out" or u.setup not in rs.setup_zones:
        raise IllegalOrder(f"{uid} is not in this game", u.section)
    if Hex.parse(hx) not in rs.hexmap:
        raise IllegalOrder(f"hex {hx} is off the map")
    if hx not in rs.setup_zones[u.setup]:
        where = {"front": ("before the Gates (rows 12-20), not in Mordor nor the mountains", "13.1"),
                 "forts": ("in the mountains beside the path just inside the Gate (the fortifications)",
                           "Expanded Game")}.get(u.setup, ("in the Alliance's half of Dagorlad (rows 1-8), not in "
                                                           "the mountains", "13.2"))
        if rs.name == "sauron-expanded" and u.setup != "forts":
            where = ("behind the Gate or in its fortifications" if u.setup == "front" else "outside the Gate",
                     "Expanded Game")
        raise IllegalOrder(f"{uid} must be set up {where[0]}; {hx} is not", where[1])
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    stack = [x for x in occ.get(hx, ()) if x != uid]
    if u.is_combat and any(rs.units[x].is_combat for x in stack):
        other = next(x for x in stack if rs.units[x].is_combat)
        raise IllegalOrder(f"hex {hx} already holds a combat unit ({other}); one combat unit per hex", "5.0")
    if u.is_siege and any(rs.units[x].is_siege for x in stack):
        raise IllegalOrder(f"hex {hx} already holds a catapult; one piece of siege equipment per hex", "5.0")
    everyone = stack + [uid]
    for x in everyone:  # 8.11: leaders with their own nationality
        if rs.units[x].is_leader:
            why = c08_1_stacking.stack_fault(rs, state, x, [y for y in everyone if y != x])
            if why:
                raise IllegalOrder(why, "8.11")


def _apply_deploy(rs, state: State, seat: str, *args: str) -> list[Event]:
    uid, hx = args
    u = rs.units[uid]
    rec = state["units"][uid]
    rec["hex"], rec["status"] = hx, "map"
    sec = "13.1" if u.side == "sauron" else "13.2"
    return [Event(public=f"{SIDE_TITLES[seat]} re-places {u.label()} to {hx} ({sec}).", section=sec)]


def _legal_deploys(rs, state: State, seat: str) -> Iterator[Action]:
    """`done` first (every counter starts placed), then a few re-placements: each counter
        to the free hexes of its zone next to where it stands (autocomplete narrows the rest)."""
    if seat not in state["done"]:
        yield Action("done")
    occ = c05_stacking.occupancy(rs, state)
    for uid in sorted(state["units"]):
        u = rs.units[uid]
        if u.side != seat or u.setup == "reinforcement" or not c02_units.on_map(rs, state, uid):
            continue
        h = Hex.parse(state["units"][uid]["hex"])
        for n in h.neighbours():
            hx = str(n)
            try:
                rs.hooks._check_deploy(rs, state, seat, uid, hx, occ)
            except IllegalOrder:
                continue
            yield Action("deploy", (uid, hx))


def legal_setup(rs, state: State, seat: str) -> Iterator[Action]:
    """13.0: the set-up's `done` and re-placements (an entry of Sauron's ``LEGAL_EXTRA``)."""
    if state["turn"] == 0:
        yield from _legal_deploys(rs, state, seat)
