"""Hex geometry for SPI maps.

SPI prints flat-topped hexes in vertical columns and numbers each hex ``XXYY``:
column ``XX``, row ``YY``. Even-numbered columns sit half a hex lower than
odd-numbered ones ("even-q" offset), so hex 0201 touches 0101 and 0102.

Directions are the six hexsides of a flat-topped hex: ``n ne se s sw nw``.
A hexside is written ``XXYY/d``; its canonical form always uses ``n``, ``ne``
or ``se`` (``1905/s`` is the same hexside as ``1906/n``).

Everything here is pure: no state, no randomness.
"""
from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, NamedTuple

DIRECTIONS: tuple[str, ...] = ("n", "ne", "se", "s", "sw", "nw")
OPPOSITE = {"n": "s", "ne": "sw", "se": "nw", "s": "n", "sw": "ne", "nw": "se"}
CANONICAL_DIRS = ("n", "ne", "se")

_HEX_RE = re.compile(r"^(\d{2})(\d{2})$")
_SIDE_RE = re.compile(r"^(\d{4})/(n|ne|se|s|sw|nw)$")


class HexError(ValueError):
    """A hex or hexside label that is not well formed."""


_PARSED: dict = {}  # "XXYY" -> Hex, filled by Hex.parse


class Hex(NamedTuple):
    """A hex ``XXYY``. A named tuple: hashing and comparison run in C, which
    matters for path finding over a whole map."""

    col: int
    row: int

    @classmethod
    def parse(cls, text: str) -> "Hex":
        h = _PARSED.get(text)
        if h is not None:
            return h
        m = _HEX_RE.match(text.strip())
        if not m:
            raise HexError(f"`{text}` is not a hex number (four digits, XXYY)")
        h = cls(int(m.group(1)), int(m.group(2)))
        if len(text) == 4:  # at most 10,000 of these
            _PARSED[text] = h
        return h

    def __str__(self) -> str:
        return f"{self.col:02d}{self.row:02d}"

    # --- neighbours -----------------------------------------------------
    def neighbour(self, direction: str) -> "Hex":
        c, r = self.col, self.row
        shifted = c % 2 == 0  # even columns sit half a hex lower
        if direction == "n":
            return Hex(c, r - 1)
        if direction == "s":
            return Hex(c, r + 1)
        if direction == "ne":
            return Hex(c + 1, r if shifted else r - 1)
        if direction == "se":
            return Hex(c + 1, r + 1 if shifted else r)
        if direction == "nw":
            return Hex(c - 1, r if shifted else r - 1)
        if direction == "sw":
            return Hex(c - 1, r + 1 if shifted else r)
        raise HexError(f"`{direction}` is not a direction (n ne se s sw nw)")

    def neighbours(self) -> list["Hex"]:
        nb = _NEIGHBOURS.get(self)
        if nb is None:
            nb = tuple(self.neighbour(d) for d in DIRECTIONS)
            if len(_NEIGHBOURS) < NEIGHBOURS_KEPT:
                _NEIGHBOURS[self] = nb
        return nb

    def direction_to(self, other: "Hex") -> str | None:
        for d in DIRECTIONS:
            if self.neighbour(d) == other:
                return d
        return None

    # --- cube coordinates --------------------------------------------------
    def cube(self) -> tuple[int, int, int]:
        # even-q: x = col, z = row - (col + (col & 1)) / 2 ; but our shift is on
        # even columns, which is "even-q" in redblob terms with col parity.
        x = self.col
        z = self.row - (self.col + (self.col & 1)) // 2
        y = -x - z
        return x, y, z

    @classmethod
    def from_cube(cls, x: int, y: int, z: int) -> "Hex":
        col = x
        row = z + (x + (x & 1)) // 2
        return cls(col, row)

    def distance(self, other: "Hex") -> int:
        ax, ay, az = self.cube()
        bx, by, bz = other.cube()
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))


_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}
# (at most this many hexes' neighbours kept: the maps' few thousand hexes; a search a hostile chart sends
# off the map to its 50,000-hex bound kept 350,000 hexes for the life of the process)
NEIGHBOURS_KEPT = 20_000


def hex_of(value: "Hex | str") -> Hex:
    return value if isinstance(value, Hex) else Hex.parse(value)


def distance(a: "Hex | str", b: "Hex | str") -> int:
    return hex_of(a).distance(hex_of(b))


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """A hexside in canonical form: ``hex`` plus one of ``n``, ``ne``, ``se``."""

    hex: Hex
    direction: str

    @classmethod
    def of(cls, h: "Hex | str", direction: str) -> "Hexside":
        h = hex_of(h)
        if direction not in OPPOSITE:
            raise HexError(f"`{direction}` is not a direction (n ne se s sw nw)")
        if direction in CANONICAL_DIRS:
            return cls(h, direction)
        return cls(h.neighbour(direction), OPPOSITE[direction])

    @classmethod
    def between(cls, a: "Hex | str", b: "Hex | str") -> "Hexside":
        a, b = hex_of(a), hex_of(b)
        d = a.direction_to(b)
        if d is None:
            raise HexError(f"{a} and {b} are not adjacent")
        return cls.of(a, d)

    @classmethod
    def parse(cls, text: str) -> "Hexside":
        text = text.strip()
        m = _SIDE_RE.match(text)
        if m:
            return cls.of(Hex.parse(m.group(1)), m.group(2))
        if "/" in text:  # also accept 2101/2201
            a, _, b = text.partition("/")
            try:
                return cls.between(Hex.parse(a), Hex.parse(b))
            except HexError:
                pass
        raise HexError(f"`{text}` is not a hexside (XXYY/d with d one of n ne se s sw nw)")

    def hexes(self) -> tuple[Hex, Hex]:
        return self.hex, self.hex.neighbour(self.direction)

    def __str__(self) -> str:
        return f"{self.hex}/{self.direction}"


def ring(center: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [center]
    out = []
    h = center
    for _ in range(radius):
        h = h.neighbour("sw")
    # walk the six sides
    for d in ("n", "ne", "se", "s", "sw", "nw"):
        for _ in range(radius):
            out.append(h)
            h = h.neighbour(d)
    return out


def within(center: Hex, radius: int) -> list[Hex]:
    out = []
    for r in range(radius + 1):
        out.extend(ring(center, r))
    return out


def _cube_round(x: float, y: float, z: float) -> tuple[int, int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz


def line(a: "Hex | str", b: "Hex | str") -> list[Hex]:
    """The hexes a straight line from the centre of ``a`` to the centre of ``b``
    passes through, both ends included. Ties along a hexside are broken by a
    small nudge toward one side, consistently (SPI leaves such lines to the
    players; we pick one rule and keep it)."""
    a, b = hex_of(a), hex_of(b)
    n = a.distance(b)
    if n == 0:
        return [a]
    ax, ay, az = a.cube()
    bx, by, bz = b.cube()
    eps = (1e-6, 2e-6, -3e-6)
    out = []
    for i in range(n + 1):
        t = i / n
        x = ax + (bx - ax) * t + eps[0]
        y = ay + (by - ay) * t + eps[1]
        z = az + (bz - az) * t + eps[2]
        out.append(Hex.from_cube(*_cube_round(x, y, z)))
    return out


# Every step costs at least this much (a road at half a Movement Point is the
# cheapest printed; a chart may go down to a quarter): a step priced lower,
# zero, negative or not a number by a bad chart is read as this, so that the
# search always ends. And no search takes more than MAX_EXPANSIONS hexes off
# its queue (a map has one or two thousand), whatever the costs.
MIN_STEP = 0.25
MAX_EXPANSIONS = 50_000


def _dijkstra(start: Hex | None, step_cost: Callable[[Hex, Hex], float | None], budget: float | None,
              goal: Hex | None, expand: Callable[[Hex], bool] | None = None,
              starts: dict[Hex, float] | None = None) -> tuple[dict[Hex, float], dict[Hex, Hex]]:
    """Cheapest costs from ``start`` (or from several ``starts`` with their
    initial costs), stopping once ``goal`` is settled, and each hex's
    predecessor. ``expand(h)`` False means movement ends in ``h`` (a zone of
    control, say); ``start`` always expands (hexes in ``starts``, entry hexes,
    do not). Ties break on the hex order. ``starts`` given but empty: nothing
    is reachable."""
    if starts is not None and not starts:
        return {}, {}
    origin = dict(starts) if starts is not None else {start: 0.0}
    best: dict[Hex, float] = dict(origin)
    prev: dict[Hex, Hex] = {}
    heap: list[tuple[float, Hex]] = sorted((c, h) for h, c in origin.items())
    expansions = 0
    # (the search runs for every stack a listing offers moves to: names bound once, not looked up per hex)
    pop, push, known, inf = heapq.heappop, heapq.heappush, best.get, float("inf")
    limit = inf if budget is None else budget
    while heap:
        expansions += 1
        if expansions > MAX_EXPANSIONS:
            break
        cost, h = pop(heap)
        if cost > known(h, inf):
            continue
        if h == goal:
            break
        if expand is not None and h != start and not expand(h):
            continue
        for nb in h.neighbours():
            c = step_cost(h, nb)
            if c is None:
                continue
            if not c >= MIN_STEP:  # below the floor, or NaN
                c = MIN_STEP
            nc = cost + c
            if nc > limit:
                continue
            if nc < known(nb, inf):
                best[nb] = nc
                prev[nb] = h
                push(heap, (nc, nb))
    return best, prev


def cheapest_path(
    start: Hex | None,
    goal: Hex,
    step_cost: Callable[[Hex, Hex], float | None],
    budget: float | None = None,
    expand: Callable[[Hex], bool] | None = None,
    starts: dict[Hex, float] | None = None,
) -> tuple[float, list[Hex]] | None:
    """``step_cost(a, b)`` gives the cost of moving from ``a`` into adjacent
    ``b``, or None where that step is forbidden. Returns ``(cost, [start, ...,
    goal])``, or None if ``goal`` cannot be reached within ``budget``."""
    best, prev = _dijkstra(start, step_cost, budget, goal, expand, starts)
    if goal not in best:
        return None
    path = [goal]
    while path[-1] in prev:
        path.append(prev[path[-1]])
    return best[goal], path[::-1]


def reachable(
    start: Hex | None,
    step_cost: Callable[[Hex, Hex], float | None],
    budget: float,
    expand: Callable[[Hex], bool] | None = None,
    starts: dict[Hex, float] | None = None,
) -> dict[Hex, float]:
    """Every hex reachable from ``start`` (or ``starts``) within ``budget``, with its cost."""
    return _dijkstra(start, step_cost, budget, None, expand, starts)[0]


def iter_grid(cols: Iterable[int], rows: Iterable[int]) -> Iterator[Hex]:
    rows = list(rows)
    for c in cols:
        for r in rows:
            yield Hex(c, r)
