"""20.2 Demoralization as the variant changes it (seed 004) and the Sauron levels (reconstructed).

- 9.1: each side is one army with its Demoralization Level (data/charts.toml [levels], reconstructed);
- 20.2: a dead leader, of either side, adds his original Rally Points (Combat + Morale as printed) to
  his side's total (``_kill_leader``); wounds add nothing (ruling);
- 20.21: Narsil turning to shards +10, their disintegration +10 more (c19_21_narsil.py);
- 16.61/16.62: the Ring's 20 points come and go (``ring_dem``);
- 16.69 (ruling): the loss of a unit or leader turned evil counts for Sauron's army, whom it serves;
- 22.3: a declined challenge adds the leader's current Rally Points (``dem_extra``).
"""
from __future__ import annotations

from engine.core import State
from engine.spi.standard import StandardRules


def dem_total(rs, state: State, army: str) -> int:
    t = state["dem"].get(army, 0) + state["sau"]["dem_extra"].get(army, 0)
    if army == "sauron":
        t += state["sau"]["ring_dem"]
    return t


def on_unit_lost(rs, state: State, uid: str, points: int) -> None:
    """16.69 (ruling): a unit or leader turned evil serves Sauron; its loss counts against his army."""
    side = state.get("turned", {}).get(uid)
    if side:
        state["dem"][side] = state["dem"].get(side, 0) + points
        return
    StandardRules.hooks.on_unit_lost(rs, state, uid, points)


def dem_level(rs, state: State, army: str) -> int | None:
    return rs.raw(state)["levels"].get(army)
