"""19.0 Demoralization: the points each army has lost (the garrison and Sauron's, 19.1-19.13), the
garrison demoralized for the rest of the game (19.13).
"""
from __future__ import annotations

from engine.core import State
from engine.spi.common import _phrase
from engine.spi.standard import StandardRules

from .common import ARAGORN
from engine.rulesets.gondor import c20_victory


# ----------------------------------------------------- 19.x demoralization
def _garrison_points(rs, state: State) -> list[tuple[int, str]]:
    """19.11 A-D: the points added to or taken from the garrison's total."""
    ch = c20_victory._cmd(rs, state, "dem_events")
    out = []
    lv = c20_victory.levels_controlled(rs, state)
    if lv:
        out.append((ch["garrison_per_level"] * len(lv), f"city level{'s' if len(lv) > 1 else ''} "
                                                         f"{_phrase([str(x) for x in lv])} (19.11 A)"))
    if state.get("grond_breached_main"):
        out.append((ch["grond_main_gate"], "the Main Gate breached by Grond (19.11 B)"))
    if "rohan" in state.get("arrived", {}) and state["turn"] >= state["arrived"]["rohan"]:
        out.append((ch["rohan"], "the Riders of Rohan have arrived (19.11 C)"))
    if state["turn"] >= int(rs.units[ARAGORN].arrives):
        out.append((ch["aragorn"], "Aragorn's host has arrived (19.11 D)"))
    return out


def _sauron_points(rs, state: State) -> list[tuple[int, str]]:
    ch = c20_victory._cmd(rs, state, "dem_events")
    out = []
    if state.get("garrison_broken") is not None:
        out.append((ch["sauron_garrison_broken"], "the garrison has been demoralized (19.13)"))
    lv = c20_victory.levels_controlled(rs, state)
    if lv:
        out.append((ch["sauron_per_level"] * len(lv), "city levels he controls (19.13)"))
    return out


def dem_total(rs, state: State, army: str) -> int:
    base = StandardRules.hooks.dem_total(rs, state, army)
    if army == "garrison":
        return base + sum(p for p, _ in _garrison_points(rs, state))
    if army == "sauron":
        return base + sum(p for p, _ in _sauron_points(rs, state))
    return base
