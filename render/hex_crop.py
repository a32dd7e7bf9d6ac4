"""What part of a hex map a picture shows: the whole map, a zoom ``around`` a hex, or a phase's map
cropped to where the action is, made for Discord's 550 px preview (at most MAX_IMAGE_W wide, no taller
than MAX_ASPECT times its width), and the counters of the action a crop leaves out."""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import accumulate
from typing import NamedTuple

from engine.hexgrid import Hex, HexError
from render import counters as C
from render.geometry import SQRT3
from render.hex_common import (AROUND_RADIUS, CAP_RATIO, CROP_MAP_W, CROP_MAX_HEX, CROP_MIN_HEX, CROP_PX,
    FOCUS_MARGIN, FOCUS_MIN_COLS, FOCUS_MIN_ROWS, FULL_HEX, Frame, ID_SAMPLE, MARGIN, MAX_ASPECT, MAX_IMAGE_W,
    MAX_MAP_H, MAX_MAP_W, MIN_HEX, PREVIEW_W, RADIUS_MAX, RADIUS_MIN, _as_list, _parse_hex)
from render.hex_header import _header_height, _header_lines, header_px


def _crop_hex(ncols: int) -> float:
    """The hex size of a crop ``ncols`` columns wide: its map about CROP_MAP_W wide."""
    return float(max(CROP_MIN_HEX, min(CROP_MAX_HEX, math.floor(CROP_MAP_W / (1.5 * (ncols - 1) + 2)))))


def _crop_width(ncols: int, s: float) -> int:
    return math.ceil(2 * MARGIN + 1.5 * s * (ncols - 1) + 2 * s)


def _legible(ncols: int) -> bool:
    """Whether a crop (no panel) ``ncols`` columns wide shows counter ids at
    least CROP_PX high (capital height) once scaled to PREVIEW_W."""
    s = _crop_hex(ncols)
    cap = C.id_font_size(round(s * 1.34), ID_SAMPLE) * CAP_RATIO
    return cap * PREVIEW_W / _crop_width(ncols, s) >= CROP_PX


@lru_cache(maxsize=1)
def max_focus_cols() -> int:
    """The widest legible crop, in columns."""
    n = 40
    while n > FOCUS_MIN_COLS and not _legible(n):
        n -= 1
    return n


def _span(v: int, lo: int, hi: int, r: int) -> tuple[int, int]:
    """``v - r .. v + r``, moved (not shrunk) to stay within ``lo .. hi``."""
    n = 2 * r
    if hi - lo <= n:
        return lo, hi
    a = min(max(v - r, lo), hi - n)
    return a, a + n


def _grow(a: int, b: int, lo: int, hi: int, n: int) -> tuple[int, int]:
    """``a .. b`` widened evenly to at least ``n`` long, within ``lo .. hi``."""
    while b - a + 1 < n and (a > lo or b < hi):
        if a > lo:
            a -= 1
        if b - a + 1 < n and b < hi:
            b += 1
    return a, b


def _focus_entries(view: dict, hexmap=None) -> list[tuple[Hex, dict | None]]:
    """:func:`focus_hexes`, each with its unit (None: a hex the phase concerns)."""
    units = [u for u in _as_list(view.get("units")) if isinstance(u, dict)]
    where = {str(u.get("id")): (_parse_hex(u.get("hex")), u) for u in units}
    active = {a for a in _as_list(view.get("active")) if isinstance(a, str)}
    out = [(h, u) for u in units if u.get("side") in active and (h := _parse_hex(u.get("hex"))) is not None]
    out += [(h, None) for h in (_parse_hex(z) for z in _as_list(view.get("zone"))) if h is not None]
    for p in _as_list(view.get("pending")):
        if isinstance(p, dict):
            h, u = where.get(str(p.get("unit")), (None, None))
            if h is not None:
                out.append((h, u))
            out += [(h, None) for h in (_parse_hex(o) for o in _as_list(p.get("options"))) if h is not None]
    if not out:
        out = [(h, u) for u in units if (h := _parse_hex(u.get("hex"))) is not None]
    if hexmap is not None:
        out = [e for e in out if e[0] in hexmap.hexes]
    return out


def focus_hexes(view: dict, hexmap=None) -> list[Hex]:
    """Where the action is, from the view alone: every unit of the seats that
    act, the hexes the phase concerns (a set-up zone, a retreat's units and
    its choices); none of those (nobody acts, or the acting seats have no
    counter down): every unit on the map. One entry per unit (a crowded hex
    weighs more)."""
    return [h for h, _ in _focus_entries(view, hexmap)]


def _focus_height(ncols: int, nrows: int, header_lines: int, footer_lines: int) -> tuple[int, int]:
    """(width, height) of a focus crop ``ncols`` by ``nrows`` hexes with a header and a footer of so many lines."""
    s = _crop_hex(ncols)
    w = _crop_width(ncols, s)
    px = header_px(w)
    h = (_header_height(px, header_lines) + math.ceil(2 * MARGIN + SQRT3 * s * (nrows + 0.5))
         + (_header_height(px, footer_lines) if footer_lines else 0))
    return w, h


def _fits(ncols: int, nrows: int, header_lines: int, footer_lines: int) -> bool:
    w, h = _focus_height(ncols, nrows, header_lines, footer_lines)
    return h <= MAX_ASPECT * w and w <= MAX_IMAGE_W


def _best_window(hexes: list[Hex], a: int, b: int, lo_c: int, hi_c: int, lo_r: int, hi_r: int, n: int,
                 m: int) -> tuple[int, int]:
    """(c0, r0) of the ``n`` by ``m`` window within the map holding the most of ``hexes``
    (ties: nearest the action's middle, then the top left)."""
    cols = sorted(h.col for h in hexes)
    rows = sorted(h.row for h in hexes)
    mc, mr = cols[len(cols) // 2], rows[len(rows) // 2]
    best = None
    # a table of the action up to each column and row (padded to every window searched): any window's
    # count is four look-ups
    ca, cb = max(lo_c, cols[0] - n + 1), min(hi_c - n + 1, cols[-1])
    ra, rb = max(lo_r, rows[0] - m + 1), min(hi_r - m + 1, rows[-1])
    c_lo, r_lo = ca - 1, ra - 1
    nc, nr = cb + n - c_lo + 1, rb + m - r_lo + 1
    table = [[0] * nr for _ in range(nc)]
    for h in hexes:
        if c_lo < h.col < c_lo + nc and r_lo < h.row < r_lo + nr:
            table[h.col - c_lo][h.row - r_lo] += 1
    prev = None
    for c in range(nc):  # each column's running sum down its rows, plus the column before's table
        cur = list(accumulate(table[c]))
        table[c] = prev = cur if prev is None else [x + y for x, y in zip(cur, prev)]
    most = -1  # the most of the action a window holds so far
    for c0 in range(ca, cb + 1):
        lo, hi = table[c0 - 1 - c_lo], table[c0 + n - 1 - c_lo]
        if hi[-1] == lo[-1]:
            continue
        band = [x - y for x, y in zip(hi, lo)]  # the action in columns c0 .. c0 + n - 1, up to each row
        ks = [band[a + m] - band[a] for a in range(ra - 1 - r_lo, rb - r_lo)]  # each window's, r0 = ra ...
        k = max(ks)
        if k < most:
            continue
        for i in (i for i, x in enumerate(ks) if x == k):  # only this column's fullest need the tie-break
            r0 = ra + i
            key = (-k, abs(c0 + (n - 1) / 2 - mc) + abs(r0 + (m - 1) / 2 - mr), c0, r0)
            if best is None or key < best[0]:
                best, most = (key, (c0, r0)), k
    return best[1] if best else (lo_c, lo_r)


def _focus_window(hexmap, hexes: list[Hex], header_lines: int = 3, footer_lines: int = 2) -> tuple[int, int, int, int]:
    """The crop round ``hexes``: at most :func:`max_focus_cols` columns wide and no taller than
    MAX_ASPECT times its width (header and footer included); when the action does not fit, the
    window holding the most of it (the rest is pointed at from the footer, see :func:`_beyond`)."""
    (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
    n = min(max_focus_cols(), cmax - cmin + 1)
    m = rmax - rmin + 1
    while m > FOCUS_MIN_ROWS and not _fits(n, m, header_lines, footer_lines):
        m -= 1
    a, b = max(cmin, min(h.col for h in hexes) - FOCUS_MARGIN), min(cmax, max(h.col for h in hexes) + FOCUS_MARGIN)
    r0, r1 = max(rmin, min(h.row for h in hexes) - FOCUS_MARGIN), min(rmax, max(h.row for h in hexes) + FOCUS_MARGIN)
    if b - a + 1 > n or r1 - r0 + 1 > m:
        # too big to read: the window of the legible size holding the most of the action
        c0, q0 = _best_window(hexes, a, b, cmin, cmax, rmin, rmax, min(n, b - a + 1), min(m, r1 - r0 + 1))
        inside = [h for h in hexes if c0 <= h.col < c0 + n and q0 <= h.row < q0 + m]
        a = max(c0, min(h.col for h in inside) - FOCUS_MARGIN)
        b = min(c0 + n - 1, max(h.col for h in inside) + FOCUS_MARGIN)
        r0 = max(q0, min(h.row for h in inside) - FOCUS_MARGIN)
        r1 = min(q0 + m - 1, max(h.row for h in inside) + FOCUS_MARGIN)
    a, b = _grow(a, b, cmin, cmax, FOCUS_MIN_COLS)
    r0, r1 = _grow(r0, r1, rmin, rmax, FOCUS_MIN_ROWS)
    # a few columns and many rows: wider, until the aspect fits (n by m always does)
    while not _fits(b - a + 1, r1 - r0 + 1, header_lines, footer_lines) and b - a + 1 < n:
        a, b = _grow(a, b, cmin, cmax, b - a + 2)
    return a, b, r0, r1


def _whole(hexmap) -> Frame:
    (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
    fit_w = (MAX_MAP_W - 2 * MARGIN) / (1.5 * (cmax - cmin) + 2)
    fit_h = (MAX_MAP_H - 2 * MARGIN) / (SQRT3 * (rmax - rmin + 1.5))
    s = max(MIN_HEX, min(FULL_HEX, math.floor(min(fit_w, fit_h) * 2) / 2))
    return Frame((cmin, cmax, rmin, rmax), s, None, True, "whole")


def frame_for(view: dict, hexmap, *, around: str | None = None, radius: int | None = None,
              focus: bool = False) -> Frame:
    """The part of the map to draw: ``around`` a hex (``radius`` hexes either
    side, zoomed in), else with ``focus`` where the action is (see
    :func:`focus_hexes`; at most :func:`max_focus_cols` columns wide, so that
    counter ids stay legible in a preview), else the whole map. Raises
    ValueError for a bad ``around`` or ``radius``."""
    (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
    if around is None:
        if not focus:
            return _whole(hexmap)
        entries = _focus_entries(view, hexmap)  # worked out once: each trial window's _beyond reads them
        hexes = [h for h, _ in entries]
        if not hexes:
            # nothing on the map and no zone: the middle of the map, at the legible size
            (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
            hexes = [Hex((cmin + cmax) // 2, (rmin + rmax) // 2)]
        probe = Frame((0, 0, 0, 0), CROP_MIN_HEX, None, False, "focus")
        hl = len(_header_lines(view, probe))
        win, fl = _focus_window(hexmap, hexes, hl, 0), 0
        for _ in range(4):  # the band under the map for what a crop leaves out takes rows from it
            beyond = _beyond(view, hexmap, win, entries)
            n = len(beyond)
            if n <= fl:
                break
            fl = n
            win = _focus_window(hexmap, hexes, hl, fl)
            beyond = None
        if beyond is None:
            beyond = _beyond(view, hexmap, win, entries)
        return Frame(win, _crop_hex(win[1] - win[0] + 1), None, False, "focus", tuple(beyond))
    r = AROUND_RADIUS if radius is None else radius
    if isinstance(r, bool) or not isinstance(r, int) or not RADIUS_MIN <= r <= RADIUS_MAX:
        raise ValueError(f"`radius` is a number of hexes from {RADIUS_MIN} to {RADIUS_MAX}")
    try:
        centre = Hex.parse(str(around))
    except HexError:
        raise ValueError(f"`{around}` is not a hex number (XXYY)") from None
    if centre not in hexmap.hexes:
        raise ValueError(f"hex {centre} is not on the {hexmap.title} map")
    c0, c1 = _span(centre.col, cmin, cmax, r)
    r0, r1 = _span(centre.row, rmin, rmax, r)
    return Frame((c0, c1, r0, r1), _crop_hex(c1 - c0 + 1), centre, False, "around")


def _window(hexmap, around: str | None) -> tuple[tuple[int, int, int, int], float, Hex | None]:
    """(window, hex size, centre hex) of the whole map or an ``around`` crop (benchmarks)."""
    f = frame_for({}, hexmap, around=around)
    return f.window, f.s, f.focus


class _Beyond(NamedTuple):
    """Counters of the action outside a focus crop, in one direction: its name (``south``,
    ``north-east``...), the units, the nearest of their hexes to the crop."""
    direction: str
    units: tuple
    nearest: Hex


def _beyond(view: dict, hexmap, window: tuple[int, int, int, int], entries=None) -> list[_Beyond]:
    """The counters of the action a focus crop leaves out, grouped by direction (north first, clockwise);
    ``entries``: ``_focus_entries(view, hexmap)`` if the caller has them."""
    c0, c1, r0, r1 = window
    groups: dict[str, list] = {}
    for h, u in (_focus_entries(view, hexmap) if entries is None else entries):
        if u is None or (c0 <= h.col <= c1 and r0 <= h.row <= r1):
            continue
        ns = "north" if h.row < r0 else "south" if h.row > r1 else ""
        ew = "west" if h.col < c0 else "east" if h.col > c1 else ""
        groups.setdefault("-".join(x for x in (ns, ew) if x), []).append((h, u))
    order = ("north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west")
    out = []
    for d in order:
        if d in groups:
            g = groups[d]
            far = lambda h: max(0, c0 - h.col, h.col - c1) + max(0, r0 - h.row, h.row - r1)  # noqa: E731
            near = min((h for h, _ in g), key=lambda h: (far(h), h))
            seen = []
            for _, u in g:
                if u not in seen:
                    seen.append(u)
            out.append(_Beyond(d, tuple(seen), near))
    return out
