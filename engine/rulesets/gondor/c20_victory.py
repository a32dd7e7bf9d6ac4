"""20.0 Victory: the road (20.1), the city levels controlled (20.2), the end of the game and its
level of victory; what must hold after every action (the road, the garrison flag, the Banner).
"""
from __future__ import annotations

from functools import cached_property

from engine.display import look
from engine.core import Event, State
from engine.hexgrid import Hex
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules

from .common import (BANNER, GROND)


# ------------------------------------------------------------- state
def init_extra(self, state: State) -> None:
    self._check_tunnel_rule(state)
    state["road"] = {h: None for h in self._road_hexes_20_1}
    state["grond_active"] = False        # 17.13 (SiegeRules reads it)
    state["garrison_broken"] = None      # 19.13: the Game-Turn the garrison was first demoralized
    self._road_refresh(state)


@cached_property
def _road_hexes_20_1(self) -> tuple[str, ...]:
    return tuple(self.gondor_charts["victory"]["road"])


def _cmd(self, state: State, table: str) -> dict:
    """One of this module's chart tables, with a group's override."""
    return self.charts_for(state).raw.get(table, {})


# ------------------------------------------------------- after actions
def _refresh(self, state: State) -> list[str]:
    """What must hold after every action and at every step start: the
        road (20.1), the sticky garrison flag (19.13), the Banner (18.14)."""
    self._road_refresh(state)
    lines = self._banner_sanity(state)
    if state.get("garrison_broken") is None and self.demoralized(state, "garrison"):
        state["garrison_broken"] = state["turn"]
    return lines


def check_victory(self, state: State) -> dict | None:
    self._refresh(state)
    return StandardRules.check_victory(self, state)


def on_step_start(self, state: State) -> list[Event]:
    events: list[Event] = []
    lines = self._refresh(state)
    if lines:
        events.append(Event(public="; ".join(lines) + ".", section="18.14"))
    if state.get("garrison_broken") is not None and not state.get("garrison_broken_told"):
        state["garrison_broken_told"] = True
        ch = self._cmd(state, "dem_events")
        events.append(Event(public=f"The Minas Tirith garrison has been demoralized: {-ch['sauron_garrison_broken']} "
                                   "points come off Sauron's Demoralization total for the rest of the game "
                                   "(19.13).", section="19.13"))
    events.extend(self._banner_step(state))
    return events


# ------------------------------------------------------- 20.2 city levels
@cached_property
def _level_gates(self) -> dict[int, list[str]]:
    """Level -> the gate hexsides leading into it from the level below (20.2)."""
    out: dict[int, list[str]] = {}
    for hs, kind in self.hexmap.hexsides.items():
        if kind != "gate":
            continue
        a, b = hs.hexes()
        la, lb = self.hexmap.level(a), self.hexmap.level(b)
        if abs(la - lb) == 1:
            out.setdefault(max(la, lb), []).append(str(hs))
    return out


def levels_controlled(self, state: State) -> list[int]:
    """20.2: the city levels Sauron controls: every gate into the level
        from the level below is his, and no undisrupted Westernesse combat
        unit is inside it."""
    gates_held = [lv for lv, gates in sorted(self._level_gates.items())
                  if all(state["gates"].get(g) == "sauron" for g in gates)]
    if not gates_held:  # asked after every order: most of the game no level's gates are his
        return []
    held = set()
    for uid, r in state["units"].items():
        u = self.units[uid]
        if r["status"] == "map" and u.side == "westernesse" and u.is_combat and not r.get("disrupted"):
            lv = self.hexmap.level(Hex.parse(r["hex"]))
            if lv:
                held.add(lv)
    return [lv for lv in gates_held if lv not in held]


# -------------------------------------------------------------- 20.1 road
def _road_refresh(self, state: State) -> None:
    road = state.setdefault("road", {h: None for h in self._road_hexes_20_1})
    seen: set[str] = set()  # one pass: the first combat unit found on each road hex holds it
    hexes = self._road_hexes_20_1
    for uid, r in state["units"].items():
        h = r["hex"]
        if h in hexes and h not in seen and r["status"] == "map" and self.units[uid].is_combat:
            road[h] = self.units[uid].side
            seen.add(h)


def road_controlled(self, state: State) -> bool:
    road = state.get("road") or {}
    return all(road.get(h) == "sauron" for h in self._road_hexes_20_1)


def final_result(self, state: State) -> dict:
    base = StandardRules.final_result(self, state)
    self._refresh(state)
    lvl = self.dem_level(state, "garrison")
    g, s = self.dem_total(state, "garrison"), self.dem_total(state, "sauron")
    a = self.demoralized(state, "garrison")
    b = not self.demoralized(state, "sauron")
    c = self.road_controlled(state)
    road = state.get("road") or {}
    held = ", ".join(f"{h} {self.title_of(road[h]) if road.get(h) else 'nobody'}" for h in self._road_hexes_20_1)
    yes = {True: "yes", False: "no"}
    winner = "sauron" if a and b and c else "westernesse"
    parts = [f"A, the Minas Tirith garrison demoralized: {yes[a]} ({g} points, level {lvl})",
             f"B, Sauron not demoralized: {yes[b]} ({s} points, level {self.dem_level(state, 'sauron')})",
             f"C, Sauron controls the road (the last to hold or pass {' and '.join(self._road_hexes_20_1)}): "
             f"{yes[c]} (last: {held})"]
    if winner == "sauron":
        verdict = "Sauron achieves all three and wins (20.1)."
    else:
        missed = _phrase([p[0] for p, ok in zip(parts, (a, b, c)) if not ok])
        verdict = f"Westernesse prevents {missed} and wins (20.1)."
    summary = f"{base['summary']} Victory (20.1): " + "; ".join(parts) + ". " + verdict
    return {"winner": winner, "summary": summary, "section": "20.1"}


# -------------------------------------------------------------------- view
def result_why(self, state: State, over: dict) -> str:
    return {"westernesse": "Minas Tirith holds", "sauron": "Minas Tirith falls"}.get(over.get("winner"), "")


def view_extra(self, state: State, own: str | None, view: dict) -> None:
    road = state.get("road") or {}
    view["road"] = {h: road.get(h) for h in self._road_hexes_20_1}
    levels = self.levels_controlled(state)
    view["levels"] = levels
    view["grond_active"] = bool(state.get("grond_active"))
    for u in view.get("units", []):
        if u.get("id") == GROND:
            u["active"] = bool(state.get("grond_active"))
            look(u)["glow"] = u["active"]  # drawn: Grond operated (17.13)
    notes = view.setdefault("notes", [])
    held = ", ".join(f"{h} {self.title_of(road[h]) if road.get(h) else 'nobody'}" for h in self._road_hexes_20_1)
    notes.append(f"Road (20.1), last held: {held}")
    if levels:
        notes.append(f"City levels Sauron controls (20.2): {', '.join(str(x) for x in levels)}")
    if state.get("grond_active"):
        notes.append("Grond is operated (17.13)")
    if state.get("garrison_broken") is not None:
        notes.append(f"Garrison demoralized on Game-Turn {state['garrison_broken']}: Sauron -20 for good (19.13)")
    if self._banner_unfurled(state):
        e = next((e for e in state["effects"] if e.get("banner")), None)
        until = f" until Game-Turn {e['until']['turn']}" if e else ""
        notes.append(f"Banner of the King in {state['units'][BANNER]['hex']}{until} (18.2)")
