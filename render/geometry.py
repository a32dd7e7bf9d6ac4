"""Pixel geometry of a flat-topped, even-columns-lower hex map (see
``engine.hexgrid``), for the whole map or a window of it."""
from __future__ import annotations

import math
from dataclasses import dataclass

from engine.hexgrid import Hex

SQRT3 = math.sqrt(3.0)

# Corner angles of a flat-topped hex, screen y pointing down:
# 0 = right, 1 = lower right, 2 = lower left, 3 = left, 4 = upper left, 5 = upper right.
_CORNERS = [(math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)]
# The two corners bounding each hexside.
SIDE_CORNERS = {"n": (4, 5), "ne": (5, 0), "se": (0, 1), "s": (1, 2), "sw": (2, 3), "nw": (3, 4)}


@dataclass(frozen=True)
class Layout:
    """Where the hexes of columns ``c0..c1`` and rows ``r0..r1`` go on an
    image. ``s`` is the hex size (centre to corner) in pixels; ``top`` is the
    height of the header band above the map."""

    s: float
    c0: int
    c1: int
    r0: int
    r1: int
    margin: int
    panel_w: int
    min_height: int = 0
    top: int = 0

    @property
    def h(self) -> float:  # hex height (flat side to flat side)
        return SQRT3 * self.s

    @property
    def map_w(self) -> int:
        return math.ceil(2 * self.margin + 1.5 * self.s * (self.c1 - self.c0) + 2 * self.s)

    @property
    def map_h(self) -> int:
        return self.top + math.ceil(2 * self.margin + self.h * (self.r1 - self.r0 + 1.5))

    @property
    def width(self) -> int:
        return self.map_w + self.panel_w

    @property
    def height(self) -> int:
        return max(self.map_h, self.min_height)

    def contains(self, h: Hex) -> bool:
        return self.c0 <= h.col <= self.c1 and self.r0 <= h.row <= self.r1

    def center(self, h: Hex, k: float = 1.0) -> tuple[float, float]:
        """Centre of ``h``, scaled by ``k`` (for supersampled drawing)."""
        x = self.margin + self.s + 1.5 * self.s * (h.col - self.c0)
        y = self.top + self.margin + self.h * (h.row - self.r0 + 0.5)
        if h.col % 2 == 0:
            y += self.h / 2
        return x * k, y * k

    def corners(self, h: Hex, k: float = 1.0, shrink: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.center(h, k)
        r = self.s * k * shrink
        return [(cx + r * dx, cy + r * dy) for dx, dy in _CORNERS]

    def side_points(self, h: Hex, direction: str, k: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
        pts = self.corners(h, k)
        a, b = SIDE_CORNERS[direction]
        return pts[a], pts[b]


def hex_corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * dx, cy + r * dy) for dx, dy in _CORNERS]
