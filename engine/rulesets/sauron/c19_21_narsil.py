"""19.21 Narsil (variant, seed 004: 19.211, 19.212, 20.21). Elendil bears Narsil (facts.md 9.2);
Gil-galad the spear Aiglos. An intact magic weapon adds 3 to its bearer's Rally Rating (the overview's
12 and 10; reconstructed). The original 19.21 is not known; ruling: Narsil breaks when its bearer is
caught in his unit's combat result or dies (19.211 "destroyed by missile or melee combat"); the shards
then go to the nearest living Numenorean (Elendil, Isildur, Anarion) and give only +1 Combat in leader
combat (19.212); they disintegrate when their bearer dies. 20.21: shards +10 Westernesse
demoralization, their disintegration +10 more.
"""
from __future__ import annotations

from engine.core import State
from engine.hexgrid import distance

from .common import NUMENOREANS
from engine.spi import c02_units


def _break_narsil(rs, state: State, why: str, here: str | None = None) -> str:
    items = state["sau"]["items"]
    bearer = items.get("narsil")
    if bearer is None:
        return ""
    items["narsil"] = None
    ch = rs.raw(state)["narsil"]
    state["sau"]["dem_extra"]["westernesse"] += ch["shards_dem"]
    here = here or state["units"][bearer]["hex"]
    heirs = sorted((distance(here, state["units"][x]["hex"]) if here else 0, x) for x in NUMENOREANS
                   if c02_units.on_map(rs, state, x))
    if heirs:
        items["shards"] = heirs[0][1]
        to = f"; {heirs[0][1]} takes up the shards (19.211)"
    else:
        items["shards"] = None
        state["sau"]["dem_extra"]["westernesse"] += ch["disintegrate_dem"]
        to = f"; no Numenorean remains and the shards disintegrate: +{ch['disintegrate_dem']} more (20.21)"
    return f"Narsil breaks ({why}): +{ch['shards_dem']} Westernesse demoralization (20.21){to}"
