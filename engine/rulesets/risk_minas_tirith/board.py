"""The board as data: areas, adjacency, ends, entries (see data/build_board.py)."""
from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

DATA = Path(__file__).parent / "data"


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    kind: str          # land, rammas, fort, wall, city
    zone: str          # city, inner, rammas, outer
    adj: tuple[str, ...]
    banner: bool
    catapult: bool
    label: tuple[float, float]
    poly: tuple[tuple[float, float], ...]


class Board:
    def __init__(self, data: dict):
        self.data = data
        self.areas: dict[str, Area] = {}
        for a in data["areas"]:
            self.areas[a["id"]] = Area(a["id"], a["name"], a["kind"], a["zone"], tuple(a["adj"]), a["banner"],
                                       a["catapult"], tuple(a["label"]), tuple(tuple(p) for p in a["poly"]))
        self.ids = list(self.areas)
        self.ends = {k: list(v) for k, v in data["ends"].items()}
        self.entries = {k: list(v) for k, v in data["entries"].items()}
        self.start = data["start"]
        self.gate = tuple(data["gate"]["between"])
        self.walls = [a for a in self.ids if self.areas[a].kind == "wall"]
        self.width, self.height = data["width"], data["height"]

    @classmethod
    def load(cls, path: Path = DATA / "board.json") -> "Board":
        return cls(json.loads(path.read_text()))

    def __contains__(self, aid: str) -> bool:
        return aid in self.areas

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.areas[a].adj

    @cached_property
    def distances(self) -> dict[str, dict[str, int]]:
        """Territories apart, over every border (for archery and catapult range: they fire over walls)."""
        out = {}
        for s in self.ids:
            d = {s: 0}
            q = deque([s])
            while q:
                x = q.popleft()
                for y in self.areas[x].adj:
                    if y not in d:
                        d[y] = d[x] + 1
                        q.append(y)
            out[s] = d
        return out

    def distance(self, a: str, b: str) -> int:
        return self.distances[a].get(b, 99)

    @cached_property
    def end_distance(self) -> dict[str, dict[str, int]]:
        """How far each area is from a side's end of the battlefield, counting only
        borders that side's battalions may use on foot (no climbing walls; Evil not
        through the Gate) -- the measure retreats must reduce."""
        out = {}
        for side, ends in self.ends.items():
            d = {e: 0 for e in ends}
            q = deque(ends)
            while q:
                x = q.popleft()
                for y in self.areas[x].adj:
                    if y in d:
                        continue
                    # y -> x must be a move a retreating force of `side` could make
                    if not self.foot_step(side, y, x, gate_open=False, climb=False):
                        continue
                    d[y] = d[x] + 1
                    q.append(y)
            out[side] = d
        return out

    def foot_step(self, side: str, x: str, y: str, gate_open: bool, climb: bool) -> bool:
        """May infantry of ``side`` step from x to y (walls and Gate rules, seed 'Walls')?"""
        kx, ky = self.areas[x].kind, self.areas[y].kind
        if y not in self.areas[x].adj:
            return False
        if ky == "wall" and kx not in ("wall", "city"):
            return side == "evil" and climb
        if kx == "wall" and ky not in ("wall", "city"):
            return side == "evil"
        if {x, y} == set(self.gate):
            return side == "good" or gate_open
        return True
