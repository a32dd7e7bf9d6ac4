"""13.0 Set-up (13.1 the Misty Mountain Orcs, 13.2 the Gondorians, in their zones) and Gondor's
disarray (13.21: a die roll at the start; disordered units may not fire or melee). The order:
``deploy <unit> <hex>`` (``engine/spi/c13_setup.py: DEPLOY``).
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex

from .common import SIDE_TITLES
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.rulesets.celebrant import c15_16_terrain
from engine.spi import c02_units
from engine.spi import c05_stacking


# ------------------------------------------------------- extra orders
# --- deploy (13.0-13.2)
def _setup_zone(rs, uid: str) -> frozenset[str]:
    u = rs.units[uid]
    z = rs._zone_sets
    return z["orcs"] if u.setup == "orcs" else (z["gondor"] | z["rearguard"])


def _check_deploy(rs, state: State, seat: str, uid: str, hx: str, occ=None) -> None:
    u = rs.units[uid]
    if state["turn"] != 0:
        raise IllegalOrder("units are deployed only during the set-up", "13.0")
    if u.side != seat:
        raise IllegalOrder(f"{uid} is a {SIDE_TITLES[u.side]} counter, not yours")
    if not rs.in_play(state, uid):
        raise IllegalOrder(f"{uid} is not in this game (21.0 options)", "21.0")
    if u.setup == "reinforcement":
        sec = u.section
        raise IllegalOrder(f"{uid} is a reinforcement: the {'Balchoth' if sec == '14.5' else 'Eotheod'} "
                           "enter later", sec)
    if hx not in _setup_zone(rs, uid):
        where = ("on the Orc hill: within six hexes of the western edge and thirteen of the northern edge",
                 "13.1") if u.setup == "orcs" else (
            "around the central grove (two rows north and south, four columns east and west) or in the "
            "seven Rearguard hexes", "13.2")
        raise IllegalOrder(f"{uid} must be set up {where[0]}; {hx} is not", where[1])
    if u.is_cavalry and Hex.parse(hx) in c15_16_terrain._cavalry_closed(rs, state):
        raise IllegalOrder(f"{hx} is the landing: impassable to cavalry", "16.21")
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    stack = [x for x in occ.get(hx, ()) if x != uid]
    if u.is_combat and any(rs.units[x].is_combat for x in stack):
        other = next(x for x in stack if rs.units[x].is_combat)
        raise IllegalOrder(f"hex {hx} already holds a combat unit ({other}); one combat unit per hex", "5.0")


def _apply_deploy(rs, state: State, seat: str, *args: str) -> list[Event]:
    uid, hx = args
    u = rs.units[uid]
    rec = state["units"][uid]
    again = rec["hex"] is not None
    rec["hex"], rec["status"] = hx, "map"
    sec = "13.1" if u.setup == "orcs" else "13.2"
    rear = " (Rearguard)" if hx in rs._zone_sets["rearguard"] else ""
    text = (f"{SIDE_TITLES[seat]} {'re-places' if again else 'deploys'} {u.label()} "
            f"{'to' if again else 'in'} {hx}{rear} ({sec}).")
    return [Event(public=text, section=sec)]


def _legal_deploys(rs, state: State, seat: str) -> Iterator[Action]:
    mine = [uid for uid, u in rs.units.items() if u.side == seat and u.setup != "reinforcement"
            and rs.in_play(state, uid)]
    mine.sort(key=lambda x: (state["units"][x]["status"] != "pool", x))
    if not any(state["units"][x]["status"] == "pool" for x in mine):
        yield Action("done")
    occ = c05_stacking.occupancy(rs, state)
    for uid in mine:
        for hx in sorted(_setup_zone(rs, uid)):
            if state["units"][uid]["hex"] == hx:
                continue
            if hx in occ or rs.units[uid].is_cavalry:
                try:
                    rs.hooks._check_deploy(rs, state, seat, uid, hx, occ)
                except IllegalOrder:
                    continue
            yield Action("deploy", (uid, hx))


def _disarray_roll(rs, state: State) -> list[Event]:
    """13.21: Cirion's rally roll at the start of each turn until it succeeds."""
    cel = state["cel"]
    if not cel["disarray"]:
        cel["disordered"] = False
        return []
    leaders = [x for x in sorted(state["units"]) if rs.units[x].is_leader and c02_units.army_of(rs, x) == "gondor"
               and c02_units.on_map(rs, state, x)]
    if "CIR" in leaders:
        who = "CIR"
    elif leaders:
        who = max(leaders, key=lambda x: (c08_3_rally.leader_rating(rs, state, x), x))
    else:
        cel["disarray"], cel["disordered"] = False, False
        return []
    d = Dice(state["dice"])
    rating = c08_3_rally.leader_rating(rs, state, who)
    totals = rs.charts_for(state).rally_totals(rating)
    if totals == "auto":
        ok, how = True, "automatic"
    else:
        a, b = d.d6("disarray"), d.d6("disarray")
        ok, how = a + b in totals, f"{a}+{b}={a + b}"
    if ok:
        cel["disarray"], cel["disordered"] = False, False
        text = (f"Game-Turn {state['turn']}: {who} (Rally Rating {rating}) rallies Gondor out of disarray: "
                f"{how}; the army is in good order (13.21).")
    else:
        cel["disordered"] = True
        text = (f"Game-Turn {state['turn']}: {who} (Rally Rating {rating}) fails to rally Gondor: {how}; every "
                "Gondorian unit is Disordered this turn: no attacks, Morale -1 (13.21).")
    return [Event(public=text, section="13.21", rolls=d.rolls)]


def is_disordered(rs, state: State, uid: str) -> bool:
    """13.21: every Gondorian unit, in a turn Cirion failed his rally roll."""
    return state["cel"]["disordered"] and c02_units.army_of(rs, uid) == "gondor" and rs.units[uid].is_combat


def _disorder_check(rs, state: State, seat: str, uids: list[str], segment: str, section: str) -> None:
    c07_combat._combat_phase_check(rs, state, seat, segment, section)
    for uid in uids:
        if rs.units.get(uid) and rs.units[uid].side == seat and c02_units.on_map(rs, state, uid) \
                and is_disordered(rs, state, uid) and not rs.raw(state)["disarray"].get("may_attack", False):
            raise IllegalOrder(f"{uid} is Disordered: Gondor is in disarray this turn (Cirion's rally roll "
                               "failed) and its units may not attack", "13.21")


def legal_setup(rs, state: State, seat: str) -> Iterator[Action]:
    """13.0: the set-up's `done` and deployments (an entry of Field of Celebrant's ``LEGAL_EXTRA``)."""
    if state["turn"] == 0:
        yield from _legal_deploys(rs, state, seat)
