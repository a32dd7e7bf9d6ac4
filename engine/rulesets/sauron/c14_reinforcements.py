"""14.0 Reinforcements (reconstructed schedule, data/oob.toml `arrives`): Sauron's army comes up the
Morannon passage from the bottom edge, through the Gates, from Game-Turn 1 and all by 12 (facts.md 3);
the Elves along the West (top) edge from Game-Turn 2; 14.3 (variant): the six spare Westernesse
counters, in any number the players agree (``options: extra=``), on or after Game-Turn 3, entering as
14.2 says (the West edge).
"""
from __future__ import annotations

from functools import cached_property

from engine.core import InvalidOrder, State
from engine.options import items

EXTRA_IDS = ("MX1", "EX1", "EX2", "EX3", "EX4", "EX5")


@cached_property
def entry_hexes(rs) -> dict[str, list[str]]:
    e = rs.charts["entry"]
    tec = rs.charts["tec"]
    west = [str(h) for h in sorted(rs.hexmap.edge_hexes(e["westernesse_edge"]))
            if tec.get(rs.hexmap.hexes[h].terrain, {}).get("passable", True)]
    return {"sauron": list(e["sauron"]), "westernesse": west}


def reinforcement_entry(rs, state: State, uid: str) -> list[str] | None:
    u = rs.units[uid]
    if u.arrives is None or state["units"][uid]["status"] != "reinforcement":
        return None
    if state["turn"] < int(u.arrives):
        return None
    return rs.entry_hexes[u.side]


# what ``extra=`` takes (options.py declares it; the refusal says it)
EXTRA_TAKES = (f"all, none, a number from 0 to {len(EXTRA_IDS)} (the Men first, then the Elf Archers), or spare "
               f"counter ids joined by `+` ({'+'.join(EXTRA_IDS[:2])}) (14.3)")


@staticmethod
def parse_extra(v: str) -> list[str]:
    """14.3: `extra=all`, `extra=<0-6>` (the Men first, then the Elf Archers) or ids joined by `+`."""
    v = v.strip().upper()
    if v in ("ALL", "YES", "ON", "TRUE"):
        return list(EXTRA_IDS)
    if v in ("NONE", "NO", "OFF", "FALSE"):
        return []
    if v.isascii() and v.isdigit():
        if not 0 <= int(v) <= len(EXTRA_IDS):
            raise InvalidOrder(f"takes {EXTRA_TAKES}, not `{v[:10]}`")
        return list(EXTRA_IDS[:int(v)])
    ids = items(v)  # (a comma is refused: the one list separator is `+`)
    bad = [x for x in ids if x not in EXTRA_IDS]
    if bad or not ids:
        raise InvalidOrder(f"takes {EXTRA_TAKES}, not `{(bad or [v])[0][:10]}`")
    return sorted(set(ids), key=EXTRA_IDS.index)
