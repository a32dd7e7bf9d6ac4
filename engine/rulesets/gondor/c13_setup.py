"""Gondor's set-up (13.0-13.2, 16.71-16.72): where each side may deploy, the cauldrons and oil
counters placed face down, re-placing a counter until the side is done. The order: ``deploy <unit> <hex>``
(``engine/spi/c13_setup.py: DEPLOY``).
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.hexgrid import Hex

from .common import SIDE_TITLES
from engine.spi import c05_stacking


# ------------------------------------------------------- set-up orders
def _check_deploy(rs, state: State, seat: str, uid: str, hx: str,
                  occ: dict[str, list[str]] | None = None) -> None:
    u = rs.units.get(uid)
    if u is None:
        raise IllegalOrder(f"there is no unit `{uid}` in this game")
    if state["turn"] != 0:
        raise IllegalOrder("units are deployed only during the set-up", "13.0")
    if u.side != seat:
        raise IllegalOrder(f"{uid} is a {SIDE_TITLES[u.side]} counter, not yours")
    if u.setup == "reinforcement":
        if u.type == "banner":
            raise IllegalOrder(f"{uid} is the Banner of the King: Gandalf's spell brings it forth with Aragorn",
                               "18.11")
        when = f"on Game-Turn {u.arrives}" if isinstance(u.arrives, int) else "with the Riders of Rohan"
        raise IllegalOrder(f"{uid} is a reinforcement: it arrives {when}", u.section)
    if u.setup[:1].isdigit():
        raise IllegalOrder(f"{uid} starts in hex {u.setup} and is placed there", u.section)
    h = Hex.parse(hx)
    if h not in rs.hexmap:
        raise IllegalOrder(f"hex {hx} is off the map")
    if h not in rs.zones[u.setup]:
        where = {
            "east": ("within four hexes of the Eastern edge (rows 23-26 on this map), not on a mountain", "13.1"),
            "city": ("inside Minas Tirith or within two hexes of its walls, not on a mountain", "13.2"),
            "city-inside": ("inside Minas Tirith", "16.71"),
        }[u.setup]
        raise IllegalOrder(f"{uid} must be set up {where[0]}; {hx} is not", where[1])
    if occ is None:
        occ = c05_stacking.occupancy(rs, state)
    stack = [rs.units[x] for x in occ.get(hx, ()) if x != uid]
    lim = rs.charts["stacking"]
    if stack and any(o.side != seat for o in stack):
        raise IllegalOrder(f"hex {hx} holds enemy units", "5.0")
    if u.is_combat and sum(o.is_combat for o in stack) >= lim["combat_units"]:
        other = next(o.id for o in stack if o.is_combat)
        raise IllegalOrder(f"hex {hx} already holds a combat unit ({other}); one combat unit per hex "
                           "(Standard Rules stacking, reconstructed)")
    if u.is_siege and sum(o.is_siege for o in stack) >= lim["siege_equipment"]:
        other = next(o.id for o in stack if o.is_siege)
        raise IllegalOrder(f"hex {hx} already holds siege equipment ({other}); one per hex "
                           "(Standard Rules stacking, reconstructed)")


def legal_setup(rs, state: State, seat: str) -> Iterator[Action]:
    """13.0: the set-up's `done` and deployments (an entry of Gondor's ``LEGAL_EXTRA``)."""
    if state["turn"] != 0:
        return
    # undeployed units first, then re-placements
    mine = [uid for uid, u in rs.units.items() if u.side == seat
            and u.setup not in ("reinforcement",) and not u.setup[:1].isdigit()]
    mine.sort(key=lambda x: (state["units"][x]["status"] != "pool", x))
    pool_left = any(state["units"][x]["status"] == "pool" for x in mine)
    if not pool_left:
        yield Action("done")
    occ = c05_stacking.occupancy(rs, state)
    for uid in mine:
        u = rs.units[uid]
        for hx in rs._zone_labels[u.setup]:
            if state["units"][uid]["hex"] == hx:
                continue
            if hx in occ:  # only an occupied hex can break stacking
                try:
                    rs.hooks._check_deploy(rs, state, seat, uid, hx, occ)
                except IllegalOrder:
                    continue
            yield Action("deploy", (uid, hx))


def _apply_deploy(rs, state: State, seat: str, *args: str) -> list[Event]:
    uid, hx = args
    u = rs.units[uid]
    rec = state["units"][uid]
    again = rec["hex"] is not None
    rec["hex"], rec["status"] = hx, "map"
    if u.type == "cauldron":
        text = (f"{SIDE_TITLES[seat]} {'moves' if again else 'deploys'} cauldron {uid} "
                f"{'to' if again else 'in'} {hx}, with its three oil counters beneath it (16.71, 16.72).")
        return [Event(public=text, section="16.71")]
    sec = u.section
    text = f"{SIDE_TITLES[seat]} {'re-places' if again else 'deploys'} {u.label()} {'to' if again else 'in'} {hx} ({sec})."
    return [Event(public=text, section=sec)]
