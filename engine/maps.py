"""Hex maps as data.

A map file is JSON. Every hex on the map is listed, one per line, as
``"XXYY": "<terrain> [L<level>] [road] [tunnel]"`` so that a group owning the
printed map can correct it hex by hex. Hexsides with a feature are listed as
``"XXYY/d": "wall" | "gate" | "tower"`` (any spelling of the hexside is
accepted; it is stored canonically). See ``docs/reconstructed.md``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable

from engine.hexgrid import Hex, Hexside, distance

HEX_FLAGS = {"road", "tunnel"}
HEXSIDE_TYPES = {"wall", "gate", "tower"}


class MapError(ValueError):
    pass


@dataclass(frozen=True)
class HexInfo:
    terrain: str
    level: int = 0  # 0 outside the city; 1 (lowest) .. 7 (the Citadel)
    road: bool = False
    tunnel: bool = False

    @classmethod
    def parse(cls, text: str, where: str) -> "HexInfo":
        tokens = text.split()
        if not tokens:
            raise MapError(f"{where}: empty hex description")
        terrain, level, flags = tokens[0], 0, set()
        for t in tokens[1:]:
            if t[0] == "L" and t[1:].isdigit():
                level = int(t[1:])
            elif t in HEX_FLAGS:
                flags.add(t)
            else:
                raise MapError(f"{where}: unknown hex token `{t}`")
        return cls(terrain, level, "road" in flags, "tunnel" in flags)

    def format(self) -> str:
        parts = [self.terrain]
        if self.level:
            parts.append(f"L{self.level}")
        if self.road:
            parts.append("road")
        if self.tunnel:
            parts.append("tunnel")
        return " ".join(parts)


@dataclass
class HexMap:
    id: str
    title: str
    columns: tuple[int, int]
    rows: tuple[int, int]
    hexes: dict[Hex, HexInfo]
    hexsides: dict[Hexside, str]
    edges: dict[str, str] = field(default_factory=dict)  # compass -> "top"/"bottom"/"left"/"right"
    labels: list[dict] = field(default_factory=list)
    main_gate: Hexside | None = None
    meta: dict = field(default_factory=dict)

    # --- loading --------------------------------------------------------
    @classmethod
    def from_json(cls, data: dict) -> "HexMap":
        hexes = {}
        for k, v in data["hexes"].items():
            hexes[Hex.parse(k)] = HexInfo.parse(v, k)
        sides = {}
        for k, v in data.get("hexsides", {}).items():
            if v not in HEXSIDE_TYPES:
                raise MapError(f"{k}: unknown hexside type `{v}`")
            sides[Hexside.parse(k)] = v
        mg = data.get("main_gate")
        m = cls(
            id=data["id"],
            title=data.get("title", data["id"]),
            columns=tuple(data["columns"]),
            rows=tuple(data["rows"]),
            hexes=hexes,
            hexsides=sides,
            edges=dict(data.get("edges", {})),
            labels=list(data.get("labels", [])),
            main_gate=Hexside.parse(mg) if mg else None,
            meta={k: data[k] for k in ("reconstructed", "reason", "notes", "sources") if k in data},
        )
        return m

    @classmethod
    def load(cls, path: str | Path) -> "HexMap":
        return cls.from_json(json.loads(Path(path).read_text()))

    def to_json(self) -> dict:
        out = {"id": self.id, "title": self.title, **self.meta,
               "columns": list(self.columns), "rows": list(self.rows),
               "edges": self.edges, "main_gate": str(self.main_gate) if self.main_gate else None,
               "labels": self.labels,
               "hexsides": {str(k): v for k, v in sorted(self.hexsides.items())},
               "hexes": {str(h): i.format() for h, i in sorted(self.hexes.items())}}
        return out

    # --- queries ----------------------------------------------------------
    def __contains__(self, h: Hex) -> bool:
        return h in self.hexes

    def info(self, h: Hex) -> HexInfo:
        return self.hexes[h]

    def hexside(self, a: Hex, b: Hex) -> str | None:
        """The feature on the hexside between adjacent ``a`` and ``b`` (None: none); HexError if they are
        not adjacent. Two hexes are looked up in :attr:`side_index` (zones of control ask it of every
        neighbour of every enemy hex)."""
        if type(a) is Hex and type(b) is Hex:
            got = self.side_index.get((a, b))
            if got is not None:
                return got[0]
            if b in a.neighbours():
                return None
        return self.hexsides.get(Hexside.between(a, b))

    @cached_property
    def side_index(self) -> dict[tuple[Hex, Hex], tuple[str, str]]:
        """(a, b) -> (feature, canonical hexside label), both directions: a
        constant-time lookup for movement and zones of control."""
        out = {}
        for hs, kind in self.hexsides.items():
            a, b = hs.hexes()
            out[(a, b)] = out[(b, a)] = (kind, str(hs))
        return out

    def level(self, h: Hex) -> int:
        i = self.hexes.get(h)
        return i.level if i else 0

    def in_city(self, h: Hex) -> bool:
        return self.level(h) > 0

    @cached_property
    def city_hexes(self) -> frozenset[Hex]:
        return frozenset(h for h, i in self.hexes.items() if i.level > 0)

    @cached_property
    def city_levels(self) -> dict[str, int]:
        """Each city hex's level by its name as a state holds it (``"2513"``): no hex parsed to ask."""
        return {str(h): i.level for h, i in self.hexes.items() if i.level > 0}

    def within_of(self, h: Hex, targets: Iterable[Hex], n: int) -> bool:
        return any(distance(h, t) <= n for t in targets)

    def edge_hexes(self, edge: str) -> list[Hex]:
        """Hexes on a map edge, named by compass direction (``east``...)."""
        side = self.edges.get(edge, edge)
        (c0, c1), (r0, r1) = self.columns, self.rows
        if side == "top":
            return [h for h in self.hexes if h.row == r0]
        if side == "bottom":
            return [h for h in self.hexes if h.row == r1]
        if side == "left":
            return [h for h in self.hexes if h.col == c0]
        if side == "right":
            return [h for h in self.hexes if h.col == c1]
        raise MapError(f"unknown edge `{edge}`")

    def distance_from_edge(self, h: Hex, edge: str) -> int:
        """1 for a hex on the edge, 2 for the next row in, and so on."""
        side = self.edges.get(edge, edge)
        (c0, c1), (r0, r1) = self.columns, self.rows
        return {"top": h.row - r0, "bottom": r1 - h.row,
                "left": h.col - c0, "right": c1 - h.col}[side] + 1
