"""The map (data/map.toml, reconstructed): provinces made of hexes with the seed's prefixed numbers
(``E0630``, ``W3022``), a terrain per hex, and the named places. The provinces are the board's areas
(`/game map around:` takes a province); the hexes are where pieces stand."""
from __future__ import annotations

import re
from dataclasses import dataclass

from engine.rulesets.wotr.common import cached_by_text, load_toml, toml_text

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

    # ------------------------------------------------------------------ a group's own map
    REQUIRED_PROVINCES = ("gorgoroth", "nurn", "south-ithilien", "north-ithilien", "east-emnet")

    @classmethod
    def from_text(cls, text: str) -> "Board":
        """A group's map file (the schema of data/map.toml), checked: the places the victory conditions and
        magic cards name, the provinces the rules name, E0630 in South Ithilien and W3022 in East Emnet
        (seed:001). ValueError with a short reason otherwise. Cached by its text."""
        return cached_by_text(_CACHE, text, cls._from_text)

    @classmethod
    def _from_text(cls, text: str) -> "Board":
        data = toml_text(text, "the map file")
        default = load_toml("map.toml")
        data.setdefault("terrains", default["terrains"])
        if not isinstance(data.get("provinces"), dict) or not isinstance(data.get("places"), dict):
            raise ValueError("the map file needs [provinces.<id>] tables and a [places] table")
        if set(data["places"]) != set(default["places"]):
            raise ValueError("the map's [places] are exactly: " + ", ".join(sorted(default["places"])))
        try:
            for pid, p in data["provinces"].items():
                if not isinstance(p.get("hexes"), dict) or not isinstance(p.get("name"), str):
                    raise ValueError(f"province {pid[:20]} needs a name and hexes")
                p.setdefault("cell", [0, 0])
            b = cls(data)
        except (KeyError, TypeError) as e:
            raise ValueError(f"the map file is incomplete ({str(e)[:60]})") from None
        for pid in cls.REQUIRED_PROVINCES:
            if pid not in b.areas:
                raise ValueError(f"the map needs the province `{pid}` (the variant's rules name it)")
        if b.province_of.get("E0630") != "south-ithilien" or b.province_of.get("W3022") != "east-emnet":
            raise ValueError("the seed puts E0630 in South Ithilien and W3022 in East Emnet")
        return b

    def layout(self) -> dict:
        """What the province picture needs (a game on its group's own map carries it in its views)."""
        return {"width": self.width, "height": self.height,
                "provinces": [[a.id, a.name, *a.poly[0], *a.poly[2]] for a in self.areas.values()]}


_CACHE: dict[str, Board] = {}
