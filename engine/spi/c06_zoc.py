"""6.0 Zones of control: which enemy units exert a zone of control on a hex, and the hexes a side's
enemies control (movement stops on entering one; 7.31 obliges an attack).
"""
from __future__ import annotations

from engine.core import State
from engine.hexgrid import Hex


class ZonesOfControl:
    # --- zones of control
    def exerting(self, state: State, h: Hex, seat: str, occ=None) -> list[str]:
        """Enemy combat units whose ZOC covers hex ``h`` (for ``seat``)."""
        occ = occ if occ is not None else self.occupancy(state)
        ch = self.charts_for(state)
        through = self.zoc_through_fn(state)
        out = []
        for nb in h.neighbours():
            for x in occ.get(str(nb), ()):
                u = self.units[x]
                if not u.has_zoc or self.side_of(state, x) == seat:
                    continue
                if not ch["zoc"].get("disrupted_exert", True) and state["units"][x].get("disrupted"):
                    continue
                if through(nb, h):
                    out.append(x)
        return out

    def zoc_map(self, state: State, seat: str, occ=None) -> set[Hex]:
        """Hexes in the ZOC of ``seat``'s enemies."""
        occ = occ if occ is not None else self.occupancy(state)
        ch = self.charts_for(state)
        through = self.zoc_through_fn(state)
        hexes = self.hexmap.hexes
        out: set[Hex] = set()
        for hx, ids in occ.items():
            for x in ids:
                u = self.units[x]
                if not u.has_zoc or self.side_of(state, x) == seat:
                    continue
                if not ch["zoc"].get("disrupted_exert", True) and state["units"][x].get("disrupted"):
                    continue
                h = Hex.parse(hx)
                for nb in h.neighbours():
                    if nb in hexes and through(h, nb):
                        out.add(nb)
                break  # one exerting unit is enough for the hex
        return out
