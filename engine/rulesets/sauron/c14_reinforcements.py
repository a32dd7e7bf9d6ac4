"""14.0 Reinforcements (reconstructed schedule, data/oob.toml `arrives`): Sauron's army comes up the
Morannon passage from the bottom edge, through the Gates, from Game-Turn 1 and all by 12 (facts.md 3);
the Elves along the West (top) edge from Game-Turn 2; 14.3 (variant): the six spare Westernesse
counters, in any number the players agree (``options: extra=``), on or after Game-Turn 3, entering as
14.2 says (the West edge).
"""
from __future__ import annotations

from functools import cached_property

from engine.core import InvalidOrder, State

EXTRA_IDS = ("MX1", "EX1", "EX2", "EX3", "EX4", "EX5")


@cached_property
def entry_hexes(self) -> dict[str, list[str]]:
    e = self.charts["entry"]
    tec = self.charts["tec"]
    west = [str(h) for h in sorted(self.hexmap.edge_hexes(e["westernesse_edge"]))
            if tec.get(self.hexmap.hexes[h].terrain, {}).get("passable", True)]
    return {"sauron": list(e["sauron"]), "westernesse": west}


def reinforcement_entry(self, state: State, uid: str) -> list[str] | None:
    u = self.units[uid]
    if u.arrives is None or state["units"][uid]["status"] != "reinforcement":
        return None
    if state["turn"] < int(u.arrives):
        return None
    return self.entry_hexes[u.side]


@staticmethod
def parse_extra(v: str) -> list[str]:
    """14.3: `extra=all`, `extra=<0-6>` (the Men first, then the Elf Archers) or a list of ids."""
    v = v.strip().upper()
    if v in ("ALL", "YES", "ON", "TRUE"):
        return list(EXTRA_IDS)
    if v in ("NONE", "NO", "OFF", "FALSE"):
        return []
    if v.isdigit():
        n = int(v)
        if not 0 <= n <= 6:
            raise InvalidOrder("`extra` is 0 to 6 spare counters (14.3)")
        return list(EXTRA_IDS[:n])
    ids = [x.strip() for x in v.replace("+", ",").split(",") if x.strip()]
    bad = [x for x in ids if x not in EXTRA_IDS]
    if bad or not ids:
        raise InvalidOrder(f"`extra` names the spare counters {', '.join(EXTRA_IDS)} (or all, or a number 0-6) "
                           "(14.3)")
    return sorted(set(ids), key=EXTRA_IDS.index)
