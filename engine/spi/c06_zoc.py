"""6.0 Zones of control: which enemy units exert a zone of control on a hex, and the hexes a side's
enemies control (movement stops on entering one; 7.31 obliges an attack).
"""
from __future__ import annotations

from engine.core import State
from engine.hexgrid import Hex
from engine.spi import hooks
from engine.spi import c05_stacking


# --- zones of control
def exerting(rs, state: State, h: Hex, seat: str, occ=None) -> list[str]:
    """Enemy combat units whose ZOC covers hex ``h`` (for ``seat``)."""
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    ch = rs.charts_for(state)
    through = rs.hooks.zoc_through_fn(rs, state)
    out = []
    for nb in h.neighbours():
        for x in occ.get(str(nb), ()):
            u = rs.units[x]
            if not u.has_zoc or hooks.side_of(rs, state, x) == seat:
                continue
            if not ch["zoc"].get("disrupted_exert", True) and state["units"][x].get("disrupted"):
                continue
            if through(nb, h):
                out.append(x)
    return out


def zoc_map(rs, state: State, seat: str, occ=None) -> set[Hex]:
    """Hexes in the ZOC of ``seat``'s enemies."""
    return enemy_hexes(rs, state, seat, occ)[0]


def enemy_hexes(rs, state: State, seat: str, occ=None) -> tuple[set[Hex], set[Hex], set[Hex]]:
    """One pass over the occupied hexes, for a move's step costs: (the hexes in the zone of control
        of ``seat``'s enemies (6.0), the hexes holding an enemy combat unit, those holding an enemy
        leader (4.27))."""
    occ = occ if occ is not None else c05_stacking.occupancy(rs, state)
    ch = rs.charts_for(state)
    through = rs.hooks.zoc_through_fn(rs, state)
    hexes = rs.hexmap.hexes
    units = rs.units
    side_of = hooks.side_of
    disrupted_exert = ch["zoc"].get("disrupted_exert", True)
    zoc: set[Hex] = set()
    combat: set[Hex] = set()
    leaders: set[Hex] = set()
    for hx, ids in occ.items():
        exerts = False
        for x in ids:
            if side_of(rs, state, x) == seat:
                continue
            u = units[x]
            if u.is_combat:
                combat.add(Hex.parse(hx))
            if u.is_leader:
                leaders.add(Hex.parse(hx))
            if exerts or not u.has_zoc:
                continue
            if not disrupted_exert and state["units"][x].get("disrupted"):
                continue
            exerts = True  # one exerting unit is enough for the hex
            h = Hex.parse(hx)
            for nb in h.neighbours():
                if nb in hexes and through(h, nb):
                    zoc.add(nb)
    return zoc, combat, leaders
