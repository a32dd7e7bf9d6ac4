"""The map (data/map.toml, reconstructed): provinces made of hexes with the seed's prefixed numbers
(``E0630``, ``W3022``), a terrain per hex, and the named places. The provinces are the board's areas
(`/game map around:` takes a province); the hexes are where pieces stand."""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.rulesets.wotr.common import load_toml

HEX_RE = re.compile(r"^[EW]\d{4}$")
CELL_W, CELL_H = 230, 150


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    hexes: tuple[str, ...]
    cell: tuple[int, int]
    label: tuple[float, float]
    poly: tuple[tuple[float, float], ...]


class Board:
    def __init__(self, data: dict):
        self.data = data
        self.terrain: dict[str, str] = {}
        self.province_of: dict[str, str] = {}
        self.areas: dict[str, Province] = {}
        for pid, p in data["provinces"].items():
            c, r = p["cell"]
            x0, y0 = 20 + c * CELL_W + (30 if c >= 4 else 0), 40 + r * CELL_H
            poly = ((x0, y0), (x0 + CELL_W - 6, y0), (x0 + CELL_W - 6, y0 + CELL_H - 6), (x0, y0 + CELL_H - 6))
            self.areas[pid] = Province(pid, p["name"], tuple(p["hexes"]), (c, r),
                                       (x0 + CELL_W / 2, y0 + 22), poly)
            for hx, t in p["hexes"].items():
                if not HEX_RE.match(hx) or t not in data["terrains"]:
                    raise ValueError(f"bad hex `{hx}` or terrain `{t}` in the map")
                if hx in self.province_of:
                    raise ValueError(f"hex {hx} is in two provinces")
                self.terrain[hx] = t
                self.province_of[hx] = pid
        self.places: dict[str, str] = dict(data["places"])
        for name, hx in self.places.items():
            if hx not in self.terrain:
                raise ValueError(f"place {name} at {hx}: no such hex")
        self.place_at = {hx: name for name, hx in self.places.items()}
        self.ids = list(self.areas)
        self.width = 20 + 7 * CELL_W + 50
        self.height = 40 + 5 * CELL_H + 20

    @classmethod
    def load(cls) -> "Board":
        return cls(load_toml("map.toml"))

    def hex(self, word: str) -> str:
        """A hex number, or a place name (``minas-tirith``) for its hex; ValueError otherwise."""
        w = word.strip()
        if w.lower() in self.places:
            return self.places[w.lower()]
        w = w.upper()
        if w in self.terrain:
            return w
        raise ValueError(f"there is no hex `{word[:20]}` on this map (hexes like E0630, W3022, or a place such as minas-tirith)")

    def parse_province(self, word: str) -> str:
        w = word.strip().lower()
        if w in self.areas:
            return w
        cands = [p for p, a in self.areas.items() if p.startswith(w) or w in a.name.lower()]
        if len(cands) == 1:
            return cands[0]
        raise ValueError(f"no province `{word[:20]}`; provinces: {', '.join(self.areas)}")
