"""20.0 Victory: the road (20.1), the city levels controlled (20.2), the end of the game and its
level of victory; what must hold after every action (the road, the garrison flag, the Banner).
"""
from __future__ import annotations

from functools import cached_property

from engine.display import look
from engine.core import Event, State
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules

from .common import (BANNER, GROND)
from engine.rulesets.gondor import c15_city
from engine.rulesets.gondor import c18_banner
from engine.spi import c02_units


# ------------------------------------------------------------- state
def init_extra(rs, state: State) -> None:
    c15_city._check_tunnel_rule(rs, state)
    state["road"] = {h: None for h in rs._road_hexes_20_1}
    state["grond_active"] = False        # 17.13 (SiegeRules reads it)
    state["garrison_broken"] = None      # 19.13: the Game-Turn the garrison was first demoralized
    _road_refresh(rs, state)


@cached_property
def _road_hexes_20_1(rs) -> tuple[str, ...]:
    return tuple(rs.gondor_charts["victory"]["road"])


def _cmd(rs, state: State, table: str) -> dict:
    """One of this module's chart tables, with a group's override."""
    return rs.charts_for(state).raw.get(table, {})


# ------------------------------------------------------- after actions
def _refresh(rs, state: State) -> list[str]:
    """What must hold after every action and at every step start: the
        road (20.1), the sticky garrison flag (19.13), the Banner (18.14)."""
    _road_refresh(rs, state)
    lines = c18_banner._banner_sanity(rs, state)
    if state.get("garrison_broken") is None and rs.hooks.demoralized(rs, state, "garrison"):
        state["garrison_broken"] = state["turn"]
    return lines


def check_victory(rs, state: State) -> dict | None:
    _refresh(rs, state)
    return StandardRules.hooks.check_victory(rs, state)


def on_step_start(rs, state: State) -> list[Event]:
    events: list[Event] = []
    lines = _refresh(rs, state)
    if lines:
        events.append(Event(public="; ".join(lines) + ".", section="18.14"))
    if state.get("garrison_broken") is not None and not state.get("garrison_broken_told"):
        state["garrison_broken_told"] = True
        ch = _cmd(rs, state, "dem_events")
        events.append(Event(public=f"The Minas Tirith garrison has been demoralized: {-ch['sauron_garrison_broken']} "
                                   "points come off Sauron's Demoralization total for the rest of the game "
                                   "(19.13).", section="19.13"))
    events.extend(c18_banner._banner_step(rs, state))
    return events


# ------------------------------------------------------- 20.2 city levels
@cached_property
def _level_gates(rs) -> dict[int, list[str]]:
    """Level -> the gate hexsides leading into it from the level below (20.2)."""
    out: dict[int, list[str]] = {}
    for hs, kind in rs.hexmap.hexsides.items():
        if kind != "gate":
            continue
        a, b = hs.hexes()
        la, lb = rs.hexmap.level(a), rs.hexmap.level(b)
        if abs(la - lb) == 1:
            out.setdefault(max(la, lb), []).append(str(hs))
    return out


def levels_controlled(rs, state: State) -> list[int]:
    """20.2: the city levels Sauron controls: every gate into the level
        from the level below is his, and no undisrupted Westernesse combat
        unit is inside it."""
    gates_held = [lv for lv, gates in sorted(rs._level_gates.items())
                  if all(state["gates"].get(g) == "sauron" for g in gates)]
    if not gates_held:  # asked after every order: most of the game no level's gates are his
        return []
    held = set()
    city = rs.hexmap.city_levels  # (asked a few times a view: a unit's hex looked up, not parsed, first)
    for uid, r in state["units"].items():
        lv = city.get(r["hex"]) if r["status"] == "map" else None
        if lv and lv not in held:
            u = rs.units[uid]
            if u.side == "westernesse" and u.is_combat and not r.get("disrupted"):
                held.add(lv)
    return [lv for lv in gates_held if lv not in held]


# -------------------------------------------------------------- 20.1 road
def _road_refresh(rs, state: State) -> None:
    road = state.setdefault("road", {h: None for h in rs._road_hexes_20_1})
    seen: set[str] = set()  # one pass: the first combat unit found on each road hex holds it
    hexes = rs._road_hexes_20_1
    for uid, r in state["units"].items():
        h = r["hex"]
        if h in hexes and h not in seen and r["status"] == "map" and rs.units[uid].is_combat:
            road[h] = rs.units[uid].side
            seen.add(h)


def road_controlled(rs, state: State) -> bool:
    road = state.get("road") or {}
    return all(road.get(h) == "sauron" for h in rs._road_hexes_20_1)


def final_result(rs, state: State) -> dict:
    base = StandardRules.hooks.final_result(rs, state)
    _refresh(rs, state)
    lvl = rs.hooks.dem_level(rs, state, "garrison")
    g, s = rs.hooks.dem_total(rs, state, "garrison"), rs.hooks.dem_total(rs, state, "sauron")
    a = rs.hooks.demoralized(rs, state, "garrison")
    b = not rs.hooks.demoralized(rs, state, "sauron")
    c = road_controlled(rs, state)
    road = state.get("road") or {}
    held = ", ".join(f"{h} {c02_units.title_of(rs, road[h]) if road.get(h) else 'nobody'}" for h in rs._road_hexes_20_1)
    yes = {True: "yes", False: "no"}
    winner = "sauron" if a and b and c else "westernesse"
    parts = [f"A, the Minas Tirith garrison demoralized: {yes[a]} ({g} points, level {lvl})",
             f"B, Sauron not demoralized: {yes[b]} ({s} points, level {rs.hooks.dem_level(rs, state, 'sauron')})",
             f"C, Sauron controls the road (the last to hold or pass {' and '.join(rs._road_hexes_20_1)}): "
             f"{yes[c]} (last: {held})"]
    if winner == "sauron":
        verdict = "Sauron achieves all three and wins (20.1)."
    else:
        missed = _phrase([p[0] for p, ok in zip(parts, (a, b, c)) if not ok])
        verdict = f"Westernesse prevents {missed} and wins (20.1)."
    summary = f"{base['summary']} Victory (20.1): " + "; ".join(parts) + ". " + verdict
    return {"winner": winner, "summary": summary, "section": "20.1"}


# -------------------------------------------------------------------- view
def result_why(rs, state: State, over: dict) -> str:
    return {"westernesse": "Minas Tirith holds", "sauron": "Minas Tirith falls"}.get(over.get("winner"), "")


def view_extra(rs, state: State, own: str | None, view: dict) -> None:
    road = state.get("road") or {}
    view["road"] = {h: road.get(h) for h in rs._road_hexes_20_1}
    levels = levels_controlled(rs, state)
    view["levels"] = levels
    view["grond_active"] = bool(state.get("grond_active"))
    for u in view.get("units", []):
        if u.get("id") == GROND:
            u["active"] = bool(state.get("grond_active"))
            look(u)["glow"] = u["active"]  # drawn: Grond operated (17.13)
    notes = view.setdefault("notes", [])
    held = ", ".join(f"{h} {c02_units.title_of(rs, road[h]) if road.get(h) else 'nobody'}" for h in rs._road_hexes_20_1)
    notes.append(f"Road (20.1), last held: {held}")
    if levels:
        notes.append(f"City levels Sauron controls (20.2): {', '.join(str(x) for x in levels)}")
    if state.get("grond_active"):
        notes.append("Grond is operated (17.13)")
    if state.get("garrison_broken") is not None:
        notes.append(f"Garrison demoralized on Game-Turn {state['garrison_broken']}: Sauron -20 for good (19.13)")
    if c18_banner._banner_unfurled(rs, state):
        e = next((e for e in state["effects"] if e.get("banner")), None)
        until = f" until Game-Turn {e['until']['turn']}" if e else ""
        notes.append(f"Banner of the King in {state['units'][BANNER]['hex']}{until} (18.2)")
