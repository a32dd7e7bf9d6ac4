"""Pillow drawing of one seat's view of a hex game.

The renderer sees nothing but the view dict it is given (the engine has
already stripped what the seat may not know) and the public map.

Two layers:

* the *base* (terrain, roads, hexsides, hex numbers, edge names, the static
  part of the side panel: legend, compass) depends only on the map and the
  window (and, on a map without walls, on which siege keys the view uses: the
  legend explains those only when they appear); it is drawn supersampled once
  and kept in a small in-memory cache keyed on the map (id and shape), the
  window and the legend's entries. A map edited in place needs
  :func:`clear_cache`;
* the *view* layer (zone highlight, city levels Sauron holds, road-control
  hexes, gate control, breaches, counters with their badges, ladders across
  their walls, ready towers' arrows, marker chits, place names not covered by
  counters, the dynamic part of the panel) is drawn on a copy of the base for
  every call; sprites and text masks are cached.

Markers are drawn by ``type``: ``breached`` on its ``hexside``; ``ladder`` as
a chit in its ``hex`` and a ladder across its ``hexside`` (when that is a side
of the hex); anything else as a chit in its hex (or, with only a hexside, on
the hexside's middle).

Output is deterministic: the same view and map give the same PNG bytes in any
process (no metadata, bundled font, no iteration over unordered sets).
"""
from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.hexgrid import OPPOSITE, Hex, HexError, Hexside
from render import counters as C
from render import style as S
from render.geometry import SQRT3, Layout, hex_corners

# --------------------------------------------------------------------------
# Sizes
# --------------------------------------------------------------------------
FULL_HEX = 25          # hex size (centre to corner) of the whole map, px, at most
MAX_MAP_W = 1480       # the whole map's part of the image fits in this (hexes shrink to fit, down to MIN_HEX)
MAX_MAP_H = 1250
MIN_HEX = 12
MARGIN = 20
PANEL_W = 340
K = 2                  # supersampling of the base layer's shapes
BASE_CACHE_SIZE = 8
PNG_COLORS = 256

_lock = threading.Lock()
_base_cache: "OrderedDict[tuple, tuple[Image.Image, Layout, int]]" = OrderedDict()


def clear_cache() -> None:
    """Forget every cached base layer and sprite (tests, benchmarks, or after
    editing a map in place)."""
    with _lock:
        _base_cache.clear()
        _facts_cache.clear()
    _legend_of.cache_clear()
    C.counter_sprite.cache_clear()
    C.marker_sprite.cache_clear()
    C.ladder_sprite.cache_clear()
    C.ready_arrow_sprite.cache_clear()
    C.oil_sprite.cache_clear()
    _hex_mask.cache_clear()
    _hatch_mask.cache_clear()
    _ring_mask.cache_clear()
    S.text_length.cache_clear()
    S._text_mask.cache_clear()


# --------------------------------------------------------------------------
# Windows
# --------------------------------------------------------------------------
PREVIEW_W = 550        # Discord shows an attached image inline about this wide
LEGIBLE_PX = 9.0       # counter ids and the header are at least this high (font size, px) at PREVIEW_W
CROP_PX = 9.5          # a crop is chosen for counter ids this high at PREVIEW_W (LEGIBLE_PX with room to spare)
AROUND_RADIUS = 5      # hexes either side of the centre hex in an ``around`` crop, by default
RADIUS_MIN, RADIUS_MAX = 2, 12
CROP_MAP_W = 960       # a crop's map is drawn about this wide (hexes from CROP_MIN_HEX to CROP_MAX_HEX)
CROP_MIN_HEX = 24
CROP_MAX_HEX = 56
COUNTER_DY = 0.2       # a counter sits this many hex sizes below its hex's centre (its hex number shows above)
FOCUS_MARGIN = 1       # hexes kept round the action in a focus crop
FOCUS_MIN_COLS, FOCUS_MIN_ROWS = 9, 7


@dataclass(frozen=True)
class Frame:
    """What part of the map is drawn, how: the window (columns c0..c1, rows
    r0..r1), the hex size, the hex an ``around`` crop centres on, whether the
    side panel (legend, tracks, pool) is drawn, and the mode (``whole``,
    ``focus`` or ``around``)."""
    window: tuple[int, int, int, int]
    s: float
    focus: Hex | None
    panel: bool
    mode: str


def _crop_hex(ncols: int) -> float:
    """The hex size of a crop ``ncols`` columns wide: its map about CROP_MAP_W wide."""
    return float(max(CROP_MIN_HEX, min(CROP_MAX_HEX, math.floor(CROP_MAP_W / (1.5 * (ncols - 1) + 2)))))


def _crop_width(ncols: int, s: float) -> int:
    return math.ceil(2 * MARGIN + 1.5 * s * (ncols - 1) + 2 * s)


CAP_RATIO = 0.71       # the bundled font's capital height, as a fraction of its size
ID_SAMPLE = "OA12"     # a long counter id: the crop is chosen for ids this wide to stay legible


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


MAX_ASPECT = 1.3       # a focus crop is at most this many times as tall as it is wide
MAX_IMAGE_W = 1100     # ... and at most this wide


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
    for c0 in range(max(lo_c, min(cols) - n + 1), min(hi_c - n + 1, max(cols)) + 1):
        inc = [h for h in hexes if c0 <= h.col < c0 + n]
        if not inc:
            continue
        for r0 in range(max(lo_r, min(rows) - m + 1), min(hi_r - m + 1, max(rows)) + 1):
            k = sum(1 for h in inc if r0 <= h.row < r0 + m)
            key = (-k, abs(c0 + (n - 1) / 2 - mc) + abs(r0 + (m - 1) / 2 - mr), c0, r0)
            if best is None or key < best[0]:
                best = (key, (c0, r0))
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
        hexes = focus_hexes(view, hexmap)
        if not hexes:
            # nothing on the map and no zone: the middle of the map, at the legible size
            (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
            hexes = [Hex((cmin + cmax) // 2, (rmin + rmax) // 2)]
        probe = Frame((0, 0, 0, 0), CROP_MIN_HEX, None, False, "focus")
        hl = len(_header_lines(view, probe))
        win, fl = _focus_window(hexmap, hexes, hl, 0), 0
        for _ in range(4):  # the band under the map for what a crop leaves out takes rows from it
            n = len(_beyond(view, hexmap, win))
            if n <= fl:
                break
            fl = n
            win = _focus_window(hexmap, hexes, hl, fl)
        return Frame(win, _crop_hex(win[1] - win[0] + 1), None, False, "focus")
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


def _fingerprint(hexmap) -> tuple:
    return (hexmap.id, tuple(hexmap.columns), tuple(hexmap.rows), len(hexmap.hexes), len(hexmap.hexsides),
            hexmap.title)


# --------------------------------------------------------------------------
# Base layer
# --------------------------------------------------------------------------
def _seed(h: Hex) -> int:
    return (h.col * 7919 + h.row * 104729 + h.col * h.row * 31) % 9973


def draw_terrain(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, terrain: str, level: int,
                 seed: int = 0, outline: bool = True) -> None:
    """One hex of terrain (fill and texture), centre ``cx, cy``, size ``r``,
    in the coordinates of ``d``."""
    if terrain == "city" or level:
        fill = S.CITY_LEVELS.get(level, S.TERRAIN["city"])
    else:
        fill = S.TERRAIN.get(terrain, S.TERRAIN_UNKNOWN)
    d.polygon(hex_corners(cx, cy, r), fill=fill)
    ink = S.TERRAIN_INK.get(terrain)
    lw = max(1, round(r / 14))
    if terrain == "mountain":
        shade = S.mix(fill, ink, 0.35)
        peaks = ((-0.38, 0.22, 0.3), (0.12, -0.05, 0.36), (0.42, 0.38, 0.22)) if seed % 2 else \
                ((-0.45, -0.02, 0.27), (0.05, 0.3, 0.34), (0.46, 0.02, 0.24))
        for px, py, ps in peaks:
            x, y, w = cx + px * r, cy + py * r, ps * r
            top = (x, y - w * 0.95)
            d.polygon([(x - w, y + w * 0.45), top, (x + w, y + w * 0.45)], fill=S.mix(fill, (255, 255, 255), 0.18))
            d.polygon([top, (x + w, y + w * 0.45), (x + w * 0.15, y + w * 0.45)], fill=shade)
            d.line([(x - w, y + w * 0.45), top, (x + w, y + w * 0.45)], fill=ink, width=lw, joint="curve")
    elif terrain == "forest":
        trees = ((-0.35, -0.05), (0.05, -0.22), (0.38, 0.02), (-0.12, 0.3), (0.25, 0.36))
        tr = r * 0.19
        for i, (px, py) in enumerate(trees):
            if (seed + i) % 7 == 0:
                continue
            x, y = cx + px * r, cy + py * r
            d.line([(x, y), (x, y + tr * 1.5)], fill=(96, 72, 44), width=lw)
            d.ellipse([x - tr, y - tr * 1.2, x + tr, y + tr * 0.8], fill=(88, 142, 70), outline=ink, width=lw)
    elif terrain == "rough":
        rocks = ((-0.42, -0.2), (-0.1, 0.05), (0.3, -0.28), (0.4, 0.22), (-0.3, 0.34), (0.05, 0.42), (0.12, -0.5))
        for i, (px, py) in enumerate(rocks):
            x, y = cx + px * r, cy + py * r
            rr = r * (0.06 + 0.03 * ((seed + i) % 3))
            d.ellipse([x - rr * 1.3, y - rr, x + rr * 1.3, y + rr], fill=S.mix(fill, ink, 0.55))
    elif terrain == "slope":
        # hachures: short strokes along a curve, like a contour's ticks
        for i in range(5):
            t = -0.5 + i * 0.25
            x = cx + t * r * 1.1
            y = cy + 0.12 * r - (0.3 * r) * (1 - (2 * t) ** 2)
            d.line([(x, y), (x + r * 0.06, y + r * 0.3)], fill=S.mix(fill, ink, 0.7), width=lw)
    elif terrain == "grove":
        # a few small trees, lighter and fewer than a forest's
        tr = r * 0.16
        for px, py in ((-0.34, 0.12), (0.3, 0.02), (-0.02, 0.42)) if seed % 2 else ((-0.3, 0.02), (0.32, 0.14), (0.02, 0.42)):
            x, y = cx + px * r, cy + py * r
            d.ellipse([x - tr, y - tr, x + tr, y + tr], fill=(126, 172, 96), outline=ink, width=lw)
    elif terrain == "river":
        # two light ripples
        wave = S.mix(fill, (255, 255, 255), 0.38)
        for oy in (0.08, 0.42):
            pts = [(cx + (i / 8 - 0.5) * r * 0.9, cy + oy * r + math.sin(i / 8 * 2 * math.pi) * r * 0.07) for i in range(9)]
            d.line(pts, fill=wave, width=lw, joint="curve")
    elif terrain == "watchtower":
        # a squat stone tower with a broken crown, under where a place name goes
        w, top, bot = r * 0.18, cy + r * 0.42, cy + r * 0.8
        stone = S.mix(fill, (255, 255, 255), 0.3)
        d.rectangle([cx - w, top, cx + w, bot], fill=stone, outline=ink, width=lw)
        q = w * 0.5
        for i, hgt in enumerate((0.12, 0.06, 0.12)):
            x = cx - w + i * (w - q / 2) + (q / 4 if i else 0)
            d.rectangle([x, top - r * hgt, x + q, top], fill=stone, outline=ink, width=lw)
        d.rectangle([cx - w * 0.3, bot - r * 0.14, cx + w * 0.3, bot], fill=ink)
    elif terrain == "landing":
        # a jetty of planks out to the east, on two posts, under where a place name goes
        x0, x1, y0, y1 = cx - r * 0.3, cx + r * 0.62, cy + r * 0.4, cy + r * 0.6
        for x in (x0 + r * 0.2, x1 - r * 0.12):
            d.line([(x, y1), (x, y1 + r * 0.14)], fill=ink, width=lw)
        d.rectangle([x0, y0, x1, y1], fill=(168, 124, 74), outline=ink, width=lw)
        for i in range(1, 5):
            x = x0 + (x1 - x0) * i / 5
            d.line([(x, y0), (x, y1)], fill=ink, width=max(1, lw // 2 or 1))
    if outline:
        d.polygon(hex_corners(cx, cy, r), outline=S.HEX_LINE, width=max(1, round(r / 25)))


def _draw_wall(d: ImageDraw.ImageDraw, a, b, width: float, color=S.WALL) -> None:
    w = max(1, round(width))
    d.line([a, b], fill=color, width=w)
    rr = width / 2
    for x, y in (a, b):
        d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=color)


def _lerp(a, b, t):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def draw_hexside(d: ImageDraw.ImageDraw, a, b, kind: str, s: float) -> None:
    """A wall, gate or tower along the hexside ``a``-``b`` (hex size ``s``),
    in the coordinates of ``d``."""
    ww = s * 0.2
    if kind == "wall":
        _draw_wall(d, a, b, ww)
        _draw_wall(d, _lerp(a, b, 0.02), _lerp(a, b, 0.98), ww * 0.3, S.WALL_FACE)
    elif kind == "tower":
        _draw_wall(d, a, b, ww * 1.45)
        _draw_wall(d, _lerp(a, b, 0.02), _lerp(a, b, 0.98), ww * 0.3, S.WALL_FACE)
        m = _lerp(a, b, 0.5)
        q = s * 0.22
        d.rectangle([m[0] - q, m[1] - q, m[0] + q, m[1] + q], fill=S.WALL)
        q2 = q * 0.55
        d.rectangle([m[0] - q2, m[1] - q2, m[0] + q2, m[1] + q2], fill=S.WALL_FACE)
    elif kind == "gate":
        p1, p2 = _lerp(a, b, 0.24), _lerp(a, b, 0.76)
        _draw_wall(d, a, p1, ww)
        _draw_wall(d, p2, b, ww)
        _draw_gate_leaves(d, a, b, s, S.GATE_WOOD)
        q = s * 0.11
        for p in (p1, p2):
            d.rectangle([p[0] - q, p[1] - q, p[0] + q, p[1] + q], fill=S.WALL)


def _draw_gate_leaves(d: ImageDraw.ImageDraw, a, b, s: float, fill) -> None:
    """The two leaves of a gate across the middle of hexside ``a``-``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ln = math.hypot(dx, dy) or 1
    ux, uy = dx / ln, dy / ln
    px, py = -uy * s * 0.17, ux * s * 0.17
    p1, p2 = _lerp(a, b, 0.27), _lerp(a, b, 0.73)
    m = _lerp(a, b, 0.5)
    out = max(1, round(s * 0.05))
    for q1, q2 in ((p1, m), (m, p2)):
        d.polygon([(q1[0] + px, q1[1] + py), (q2[0] + px, q2[1] + py), (q2[0] - px, q2[1] - py), (q1[0] - px, q1[1] - py)],
                  fill=fill, outline=S.WALL, width=out)


def draw_tunnel(d: ImageDraw.ImageDraw, x: float, y: float, r: float) -> None:
    """A tunnel mouth: a dark arch."""
    d.pieslice([x - r, y - r, x + r, y + r], 180, 360, fill=S.TUNNEL)
    d.rectangle([x - r, y, x + r, y + r * 0.5], fill=S.TUNNEL)
    ri = r * 0.55
    d.pieslice([x - ri, y - ri + r * 0.2, x + ri, y + ri + r * 0.2], 180, 360, fill=(12, 10, 8))
    d.rectangle([x - ri, y + r * 0.2, x + ri, y + r * 0.5], fill=(12, 10, 8))


def _text_rotated(img: Image.Image, xy, text: str, size: int, fill, angle: int) -> None:
    f = S.font(size)
    l, t, r, b = f.getbbox(text)
    m = Image.new("L", (r - l + 2, b - t + 2), 0)
    ImageDraw.Draw(m).text((1 - l, 1 - t), text, font=f, fill=255)
    m = m.rotate(angle, expand=True)
    x, y = xy
    img.paste(fill, (round(x - m.width / 2), round(y - m.height / 2)), m)


def _layout(fr: Frame, leg: "Legend | None", top: int = 0) -> Layout:
    c0, c1, r0, r1 = fr.window
    return Layout(s=fr.s, c0=c0, c1=c1, r0=r0, r1=r1, margin=MARGIN, panel_w=PANEL_W if leg is not None else 0,
                  min_height=(top + PANEL_MIN_H + leg.height() + PAD) if leg is not None else 0, top=top)


def _build_base(hexmap, fr: Frame, leg: "Legend | None", top: int) -> tuple[Image.Image, Layout, int]:
    c0, c1, r0, r1 = fr.window
    s = fr.s
    lay = _layout(fr, leg, top)
    W, H = lay.width, lay.height
    big = Image.new("RGB", (W * K, H * K), S.BACKGROUND)
    d = ImageDraw.Draw(big)
    hexes = [h for h in sorted(hexmap.hexes) if lay.contains(h)]
    sk = s * K

    # terrain
    for h in hexes:
        info = hexmap.hexes[h]
        cx, cy = lay.center(h, K)
        draw_terrain(d, cx, cy, sk, info.terrain, info.level, _seed(h), outline=False)

    # roads: centre to centre between adjacent road hexes
    roads = {h for h in hexmap.hexes if hexmap.hexes[h].road}
    segs = []
    for h in sorted(roads):
        nbs = [nb for nb in h.neighbours() if nb in roads]
        for dname in ("n", "ne", "se", "s", "sw", "nw"):
            nb = h.neighbour(dname)
            if nb not in roads or nb < h:
                continue
            if not (lay.contains(h) or lay.contains(nb)):
                continue
            a, b = lay.center(h, K), lay.center(nb, K)
            if not lay.contains(h):
                a = _lerp(b, a, 0.5)
            if not lay.contains(nb):
                b = _lerp(a, b, 0.5)
            segs.append((a, b))
        # a road hex on the map edge with one road neighbour leads off the map
        if len(nbs) == 1 and lay.contains(h):
            away = h.neighbour({"n": "s", "s": "n", "ne": "sw", "sw": "ne", "se": "nw", "nw": "se"}[h.direction_to(nbs[0])])
            if away not in hexmap.hexes:
                a = lay.center(h, K)
                b = lay.center(away, K)
                segs.append((a, _lerp(a, b, 0.55)))
    for width, col in ((sk * 0.26, S.ROAD_EDGE), (sk * 0.15, S.ROAD)):
        for a, b in segs:
            d.line([a, b], fill=col, width=round(width))
            for x, y in (a, b):
                rr = width / 2
                d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=col)

    # hex outlines
    for h in hexes:
        cx, cy = lay.center(h, K)
        pts = hex_corners(cx, cy, sk)  # a closed line: a polygon's wide outline costs a mask of the whole image
        d.line(pts + pts[:1], fill=S.HEX_LINE, width=K)

    # hexsides: walls first, then towers and gates on top
    order = {"wall": 0, "tower": 1, "gate": 2}
    sides = sorted(hexmap.hexsides.items(), key=lambda kv: (order.get(kv[1], 3), kv[0]))
    for side, kind in sides:
        a_hex, b_hex = side.hexes()
        if not (lay.contains(a_hex) or lay.contains(b_hex)):
            continue
        a, b = lay.side_points(side.hex, side.direction, K)
        draw_hexside(d, a, b, kind, sk)

    # tunnels
    for h in hexes:
        if hexmap.hexes[h].tunnel:
            cx, cy = lay.center(h, K)
            draw_tunnel(d, cx + sk * 0.66, cy + sk * 0.05, sk * 0.17)

    # frame
    mx0, my0 = lay.margin * K * 0.5, (lay.top + lay.margin * 0.5) * K
    d.rectangle([mx0, my0, lay.map_w * K - mx0, (lay.map_h - lay.margin * 0.5) * K], outline=S.FRAME, width=K)
    # panel background
    legend_top = H
    if leg is not None:
        d.rectangle([lay.map_w * K, 0, W * K, H * K], fill=S.PANEL_BG)
        d.line([(lay.map_w * K, 0), (lay.map_w * K, H * K)], fill=S.PANEL_RULE, width=K * 2)
        legend_top = _legend_shapes(d, lay, leg)
    # the header band (its text is the view's: drawn per call)
    if top:
        d.rectangle([0, 0, W * K, top * K], fill=S.HEADER_BG)
    img = big.reduce(K)
    d = ImageDraw.Draw(img)

    # hex numbers and city levels
    fnum = S.font(_hex_number_px(s))
    flev = S.font(max(8, round(s * 0.4)))
    for h in hexes:
        cx, cy = lay.center(h)
        d.text((cx, cy - s * 0.84), str(h), font=fnum, fill=S.HEX_NUMBER, anchor="ma")
        lvl = hexmap.hexes[h].level
        if lvl:
            d.text((cx - s * 0.76, cy), str(lvl), font=flev, fill=S.mix(S.CITY_LEVELS.get(lvl, (128, 128, 128)), (0, 0, 0), 0.55), anchor="mm")

    # map edges, named by compass direction
    (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
    by_side = {v: k for k, v in hexmap.edges.items()}
    fs = round(lay.margin * 0.6)
    spaced = lambda t: " ".join(t.upper())  # noqa: E731
    if "top" in by_side and r0 == rmin:
        d.text((lay.map_w / 2, lay.top + lay.margin / 2), spaced(by_side["top"]), font=S.font(fs), fill=S.FRAME, anchor="mm")
    if "bottom" in by_side and r1 == rmax:
        d.text((lay.map_w / 2, lay.map_h - lay.margin / 2), spaced(by_side["bottom"]), font=S.font(fs), fill=S.FRAME, anchor="mm")
    if "left" in by_side and c0 == cmin:
        _text_rotated(img, (lay.margin / 2, (lay.top + lay.map_h) / 2), spaced(by_side["left"]), fs, S.FRAME, 90)
    if "right" in by_side and c1 == cmax:
        _text_rotated(img, (lay.map_w - lay.margin / 2, (lay.top + lay.map_h) / 2), spaced(by_side["right"]), fs, S.FRAME, -90)

    if leg is not None:
        _legend_text(img, lay, legend_top, hexmap, leg)
    return img, lay, legend_top


def _hex_number_px(s: float) -> int:
    return max(8, round(s * 0.4))


def _base(hexmap, window, s, leg: "Legend | None" = None, *, frame: Frame | None = None,
          top: int = 0) -> tuple[Image.Image, Layout, int]:
    """The cached base layer of ``frame`` (or of ``window`` at hex size ``s``, with a panel), with
    the legend ``leg`` (default: the map's own; none without a panel) and a header band ``top`` high."""
    if frame is None:
        frame = Frame(window, s, None, True, "whole")
    if not frame.panel:
        leg = None
    elif leg is None:
        leg = legend_for(hexmap)
    key = (_fingerprint(hexmap), frame.window, frame.s, frame.panel, leg, top)
    with _lock:
        hit = _base_cache.get(key)
        if hit is not None:
            _base_cache.move_to_end(key)
            return hit
    built = _build_base(hexmap, frame, leg, top)
    with _lock:
        _base_cache[key] = built
        while len(_base_cache) > BASE_CACHE_SIZE:
            _base_cache.popitem(last=False)
    return built


# --------------------------------------------------------------------------
# Legend (static part of the panel)
# --------------------------------------------------------------------------
PAD = 16
PANEL_MIN_H = 420      # room kept above the legend for the dynamic part of the panel
# Every terrain the renderer knows, in the legend's order; a map's legend shows
# only the terrains on that map (others, unknown here, after these by name).
LEGEND_TERRAIN = (("clear", "Clear"), ("slope", "Slope"), ("rough", "Rough"), ("grove", "Grove"),
                  ("forest", "Forest"), ("mountain", "Mountain"), ("riverbank", "Riverbank"), ("river", "River"),
                  ("city", "City"), ("watchtower", "Watchtower"), ("landing", "Landing"))
LEGEND_SIDES = (("wall", "Wall"), ("gate", "Gate"), ("tower", "Tower"), ("breach", "Breach"),
                ("road", "Road"), ("tunnel", "Tunnel"))
LEGEND_MARKERS = (("fire", "Fire"), ("ladder", "Ladder"), ("head", "Head"), ("ability", "Ability used"),
                  ("disarray", "Disarray"))
_VIEW_ONLY = ("ability", "disarray")  # drawn in the legend only when a view has them
LEGEND_SIEGE = (("oil", "Oil (hollow: dummy)"), ("grond", "Grond operated"), ("tower", "Tower ready"),
                ("banner", "King's Banner"), ("level", "Level held by Sauron"), ("road", "Road control"))
LEG_ROW = 26
_STEPS = {"header": 22, "levels": 24 + 46, "markers": LEG_ROW + 8, "key": 92 + 10, "compass": 74}


class _MapFacts(NamedTuple):
    """What a map has that its legend shows."""
    terrain: tuple[tuple[str, str], ...]   # (terrain, name), in legend order
    levels: tuple[int, ...]                # city levels present
    sides: tuple[str, ...]                 # of LEGEND_SIDES' keys
    walled: bool                           # walls, gates or towers: a siege map


@dataclass(frozen=True)
class Legend:
    """The entries of one legend: a map's facts, and the siege keys shown
    (every one on a siege map; elsewhere only those the view uses)."""
    terrain: tuple[tuple[str, str], ...]
    levels: tuple[int, ...]
    sides: tuple[tuple[str, str], ...]
    markers: tuple[tuple[str, str], ...]
    siege: tuple[tuple[str, str], ...]

    def sections(self, top: int) -> dict[str, int]:
        """The top y of each section present, from the legend's top ``top``;
        ``end`` is where the legend ends."""
        out = {}
        y = top + _STEPS["header"]
        for name, rows in (("terrain", _rows(self.terrain)), ("levels", 0), ("sides", _rows(self.sides)),
                           ("markers", 0), ("siege", _rows(self.siege))):
            if not getattr(self, name):
                continue
            out[name] = y
            y += _STEPS[name] if name in _STEPS else rows * LEG_ROW + 8
        for name in ("key", "compass"):
            out[name] = y
            y += _STEPS[name]
        out["end"] = y
        return out

    def height(self) -> int:
        return self.sections(0)["end"]

    def names(self) -> list[str]:
        """Every entry's label (tests, and a quick look at what a legend shows)."""
        out = [n for _, n in self.terrain]
        if self.levels:
            out.append(_levels_title(self.levels))
        return out + [n for group in (self.sides, self.markers, self.siege) for _, n in group]


def _rows(entries) -> int:
    return (len(entries) + 1) // 2


def _levels_title(levels: tuple[int, ...]) -> str:
    if levels == (1, 2, 3, 4, 5, 6, 7):
        return "City levels 1-7 (7 = Citadel)"
    if len(levels) == 1:
        return f"City level {levels[0]}"
    return f"City levels {levels[0]}-{levels[-1]}"


_facts_cache: "OrderedDict[tuple, _MapFacts]" = OrderedDict()


def _map_facts(hexmap) -> _MapFacts:
    key = _fingerprint(hexmap)
    with _lock:
        hit = _facts_cache.get(key)
    if hit is not None:
        return hit
    infos = list(hexmap.hexes.values())
    present = {str(i.terrain) for i in infos if i.terrain}
    levels = tuple(sorted({i.level for i in infos if isinstance(i.level, int) and i.level > 0}))[:11]
    if levels:
        present.discard("city")          # the city-levels strip shows the city
    known = dict(LEGEND_TERRAIN)
    terrain = tuple((t, n) for t, n in LEGEND_TERRAIN if t in present) + \
        tuple((t, t.replace("_", " ").replace("-", " ").capitalize()) for t in sorted(present - known.keys()))
    kinds = set(hexmap.hexsides.values())
    has = {"wall": "wall" in kinds, "gate": "gate" in kinds, "tower": "tower" in kinds,
           "breach": "wall" in kinds or "tower" in kinds,
           "road": any(i.road for i in infos), "tunnel": any(i.tunnel for i in infos)}
    facts = _MapFacts(terrain, levels, tuple(t for t, _ in LEGEND_SIDES if has[t]),
                      bool(kinds & {"wall", "gate", "tower"}))
    with _lock:
        _facts_cache[key] = facts
        while len(_facts_cache) > BASE_CACHE_SIZE:
            _facts_cache.popitem(last=False)
    return facts


_UNIT_KEYS = {"grond": "grond", "siege_tower": "tower", "banner": "banner", "cauldron": "oil"}


def _view_keys(view: dict) -> tuple[str, ...]:
    """The siege keys a view uses (markers, special counters, held levels,
    road control): what a legend off a siege map still has to explain."""
    found = set()
    for m in _as_list(view.get("markers")):
        if isinstance(m, dict):
            kind = m.get("type")
            if kind in ("fire", "ladder", "head", "ability", "disarray"):
                found.add(kind)
            elif kind in ("breached", "breach"):
                found.add("breach")
    for u in _as_list(view.get("units")):
        if isinstance(u, dict):
            t = u.get("type")
            k = _UNIT_KEYS.get(t) if isinstance(t, str) else None
            if k:
                found.add(k)
            if u.get("carrying") == "oil":
                found.add("oil")
            if u.get("ready"):
                found.add("tower")
    if any(isinstance(lv, int) and not isinstance(lv, bool) and lv > 0 for lv in _as_list(view.get("levels"))):
        found.add("level")
    if _as_dict(view.get("road")):
        found.add("road")
    return tuple(sorted(found))


@lru_cache(maxsize=32)
def _legend_of(facts: _MapFacts, keys: tuple[str, ...]) -> Legend:
    every = facts.walled
    sides = tuple((t, n) for t, n in LEGEND_SIDES if t in facts.sides or (t == "breach" and "breach" in keys))
    return Legend(facts.terrain, facts.levels, sides,
                  tuple(e for e in LEGEND_MARKERS if (every and e[0] not in _VIEW_ONLY) or e[0] in keys),
                  tuple(e for e in LEGEND_SIEGE if every or e[0] in keys))


def legend_for(hexmap, view: dict | None = None) -> Legend:
    """The legend drawn for ``view`` on ``hexmap`` (the map's own, cached; a
    view adds siege keys only on a map without walls)."""
    facts = _map_facts(hexmap)
    keys = () if facts.walled or not view else _view_keys(view)
    return _legend_of(facts, keys)


def _legend_origin(lay: Layout, leg: Legend) -> int:
    return lay.height - leg.height() - PAD


def _legend_shapes(d: ImageDraw.ImageDraw, lay: Layout, leg: Legend) -> int:
    """Draws the legend's shapes (at K x scale) and returns its top y (1x)."""
    x0 = lay.map_w + PAD
    top = _legend_origin(lay, leg)
    at = leg.sections(top)
    d.line([(x0 * K, (top - 8) * K), ((lay.width - PAD) * K, (top - 8) * K)], fill=S.PANEL_RULE, width=K)
    r = 10
    colw = (lay.panel_w - 2 * PAD) // 2
    if "terrain" in at:
        y = at["terrain"]
        for i, (t, _) in enumerate(leg.terrain):
            cx = x0 + r + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + r
            draw_terrain(d, cx * K, cy * K, r * K, t, 0, 1)
    if "levels" in at:
        y = at["levels"] + 24
        for i, lvl in enumerate(leg.levels):
            cx = x0 + r + i * 26
            cy = y + r
            draw_terrain(d, cx * K, cy * K, r * K, "city", lvl)
    if "sides" in at:
        y = at["sides"]
        for i, (t, _) in enumerate(leg.sides):
            cx = x0 + 14 + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + 10
            a, b = ((cx - 13) * K, cy * K), ((cx + 13) * K, cy * K)
            if t in ("wall", "gate", "tower"):
                draw_hexside(d, a, b, t, 26 * K)
            elif t == "breach":
                draw_hexside(d, a, b, "wall", 26 * K)
            elif t == "road":
                d.line([a, b], fill=S.ROAD_EDGE, width=round(6 * K))
                d.line([a, b], fill=S.ROAD, width=round(3.5 * K))
            elif t == "tunnel":
                draw_tunnel(d, cx * K, (cy + 2) * K, 8 * K)
    if "siege" in at:
        # the swatches under the hatching and the road ring
        y = at["siege"]
        for i, (t, _) in enumerate(leg.siege):
            cx = x0 + r + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + r
            if t == "level":
                draw_terrain(d, cx * K, cy * K, r * K, "city", 2)
            elif t == "road":
                draw_terrain(d, cx * K, cy * K, r * K, "clear", 0)
    return top


def _legend_text(img: Image.Image, lay: Layout, top: int, hexmap, leg: Legend) -> None:
    d = ImageDraw.Draw(img)
    x0 = lay.map_w + PAD
    fl = S.font(13)
    fsm = S.font(11)
    at = leg.sections(top)
    d.text((x0, top), "LEGEND", font=S.font(14), fill=S.PANEL_MUTED)
    colw = (lay.panel_w - 2 * PAD) // 2
    if "terrain" in at:
        y = at["terrain"]
        for i, (_, name) in enumerate(leg.terrain):
            f, name = S.fit_font(name, colw - 30, 13, 10)
            d.text((x0 + 26 + (i % 2) * colw, y + (i // 2) * LEG_ROW + 10), name, font=f, fill=S.PANEL_INK, anchor="lm")
    if "levels" in at:
        y = at["levels"]
        d.text((x0, y), _levels_title(leg.levels), font=fl, fill=S.PANEL_INK)
        y += 24
        for i, lvl in enumerate(leg.levels):
            ink = S.mix(S.CITY_LEVELS.get(lvl, S.TERRAIN["city"]), (0, 0, 0), 0.6)
            d.text((x0 + 10 + i * 26, y + 10), str(lvl), font=fsm, fill=ink, anchor="mm")
    if "sides" in at:
        y = at["sides"]
        for i, (t, name) in enumerate(leg.sides):
            cx = x0 + 14 + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + 10
            if t == "breach":
                _draw_breach(d, (cx - 13, cy), (cx + 13, cy), 26)
            d.text((cx + 22, cy), name, font=fl, fill=S.PANEL_INK, anchor="lm")
    if "markers" in at:
        # marker chits
        y = at["markers"]
        ms = 18
        for i, (t, name) in enumerate(leg.markers):
            spr = C.marker_sprite(ms, t)
            p = C.marker_pad(ms)
            x = x0 + i * 100
            img.paste(spr, (x - p, y - p + 2), spr)
            d.text((x + ms + 6, y + ms / 2 + 2), name, font=fl, fill=S.PANEL_INK, anchor="lm")
    if "siege" in at:
        y = at["siege"]
        grey = (96, 96, 96)
        for i, (t, name) in enumerate(leg.siege):
            x = x0 + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + 10
            tx = x + 26
            if t == "oil":
                for j, dummy in enumerate((False, True)):
                    spr = C.oil_sprite(20, dummy)
                    img.paste(spr, (x - 2 + j * 14, round(cy - 12)), spr)
                tx = x + 36
            elif t in ("grond", "tower", "banner"):
                kind = {"grond": "grond", "tower": "siege_tower", "banner": "banner"}[t]
                spr = C.counter_sprite(20, grey, kind, "", "", active=(t == "grond"), ready=(t == "tower"))
                p = C.sprite_pad(20)
                img.paste(spr, (x - p, round(cy - 10) - p), spr)
                tx = x + 30
                if t == "tower":
                    arr, ox, oy = C.ready_arrow_sprite(17, "ne")
                    img.paste(arr, (x + 10 + ox, round(cy) + oy), arr)
            elif t == "level":
                m = _hatch_mask(10)
                img.paste(S.SAURON_LEVEL, (x + 10 - m.width // 2, round(cy - m.height / 2)), m)
            elif t == "road":
                halo, ring = _ring_mask(10, True), _ring_mask(10, False)
                img.paste((255, 255, 255), (x + 10 - halo.width // 2, round(cy - halo.height / 2)), halo)
                img.paste(S.ROAD_FREE, (x + 10 - ring.width // 2, round(cy - ring.height / 2)), ring)
            f, name = S.fit_font(name, colw - (tx - x) - 4, 13, 10)
            d.text((tx, cy), name, font=f, fill=S.PANEL_INK, anchor="lm")
    # counter anatomy
    y = at["key"]
    size = 46
    spr = C.counter_sprite(size, (96, 96, 96), "infantry", "ID", "De-3-X")
    p = C.sprite_pad(size)
    img.paste(spr, (x0 - p + 2, y - p + 4), spr)
    tx = x0 + size + 14
    lines = ["unit id / type / ratings", "pale with stripe = reduced", "D badge = disrupted", "n badge = units in the hex"]
    for i, t in enumerate(lines):
        d.text((tx, y + 2 + i * 18), t, font=fsm, fill=S.PANEL_INK)
    d.text((tx, y + 2 + 4 * 18), "Leaders: R rally, M magic", font=fsm, fill=S.PANEL_INK)
    # compass rose: where each compass point is on the screen
    y = at["compass"]
    _compass(img, (x0 + 36, y + 36), 30, hexmap.edges)
    title = str(hexmap.title)
    ft, title = S.fit_font(title, lay.panel_w - 2 * PAD - 90, 13)
    d.text((x0 + 84, y + 20), title, font=ft, fill=S.PANEL_INK)
    if hexmap.meta.get("reconstructed"):
        d.text((x0 + 84, y + 40), "reconstructed map", font=fsm, fill=S.PANEL_MUTED)


def _compass(img: Image.Image, c, r: float, edges: dict) -> None:
    big = Image.new("RGBA", (round(r * 2.6) * K, round(r * 2.6) * K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    o = big.width / 2
    rk = r * K
    screen = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}
    where = {k: screen[v] for k, v in edges.items() if v in screen} or \
        {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}
    d.ellipse([o - rk * 0.5, o - rk * 0.5, o + rk * 0.5, o + rk * 0.5], outline=S.PANEL_MUTED + (255,), width=K)
    for name, (dx, dy) in where.items():
        px, py = -dy, dx
        tip = (o + dx * rk * 0.8, o + dy * rk * 0.8)
        w = rk * 0.16
        col = (150, 30, 30, 255) if name == "north" else S.PANEL_INK + (255,)
        d.polygon([tip, (o + px * w, o + py * w), (o - px * w, o - py * w)], fill=col)
    small = big.reduce(K)
    img.paste(small, (round(c[0] - small.width / 2), round(c[1] - small.height / 2)), small)
    d = ImageDraw.Draw(img)
    f = S.font(11)
    for name, (dx, dy) in where.items():
        d.text((c[0] + dx * r * 1.05, c[1] + dy * r * 1.05), name[:1].upper(), font=f, fill=S.PANEL_INK, anchor="mm")


# --------------------------------------------------------------------------
# View layer
# --------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _hex_mask(s: float, alpha: int) -> Image.Image:
    w, h = math.ceil(2 * s) + 2, math.ceil(SQRT3 * s) + 2
    big = Image.new("L", (w * 4, h * 4), 0)
    ImageDraw.Draw(big).polygon(hex_corners(w * 2, h * 2, s * 4), fill=alpha)
    return big.reduce(4)


def _draw_breach(d: ImageDraw.ImageDraw, a, b, s: float) -> None:
    m = _lerp(a, b, 0.5)
    dx, dy = b[0] - a[0], b[1] - a[1]
    ln = math.hypot(dx, dy) or 1
    ux, uy = dx / ln, dy / ln
    px, py = -uy, ux
    # a gap of rubble across the wall and a red jagged crack
    g = s * 0.2
    d.line([(m[0] - ux * g, m[1] - uy * g), (m[0] + ux * g, m[1] + uy * g)], fill=(236, 226, 200), width=max(3, round(s * 0.22)))
    pts = []
    for i, t in enumerate((-0.42, -0.22, -0.05, 0.12, 0.3, 0.45)):
        off = (0.12 if i % 2 else -0.12) * s
        pts.append((m[0] + px * t * s + ux * off, m[1] + py * t * s + uy * off))
    d.line(pts, fill=(255, 255, 255), width=max(3, round(s * 0.16)), joint="curve")
    d.line(pts, fill=(200, 36, 24), width=max(2, round(s * 0.09)), joint="curve")


def _parse_hex(v) -> Hex | None:
    if v is None:
        return None
    try:
        return Hex.parse(str(v))
    except (HexError, ValueError):
        return None


def _side_dir(h: Hex, side: Hexside) -> str | None:
    """The direction of ``side`` seen from ``h`` (None: not one of its sides)."""
    a, b = side.hexes()
    if h == a:
        return side.direction
    if h == b:
        return OPPOSITE[side.direction]
    return None


@lru_cache(maxsize=8)
def _hatch_mask(s: float) -> Image.Image:
    """A hex of diagonal stripes over a faint tint (a level Sauron holds)."""
    w, h = math.ceil(2 * s) + 2, math.ceil(SQRT3 * s) + 2
    k = 4
    hexm = Image.new("L", (w * k, h * k), 0)
    ImageDraw.Draw(hexm).polygon(hex_corners(w * k / 2, h * k / 2, s * k * 0.94), fill=255)
    stripes = Image.new("L", (w * k, h * k), 30)
    ds = ImageDraw.Draw(stripes)
    gap = max(5.0, s * 0.3) * k
    lw = max(1.5, s * 0.075) * k
    x = -h * k
    while x < w * k:
        ds.line([(x, h * k), (x + h * k, 0)], fill=108, width=round(lw))
        x += gap
    out = Image.new("L", (w * k, h * k), 0)
    out.paste(stripes, (0, 0), hexm)
    return out.reduce(k)


@lru_cache(maxsize=16)
def _ring_mask(s: float, halo: bool) -> Image.Image:
    """A ring just inside a hex's edge (a road-control hex); ``halo``: the
    wider white ring under it."""
    w, h = math.ceil(2 * s) + 2, math.ceil(SQRT3 * s) + 2
    k = 4
    m = Image.new("L", (w * k, h * k), 0)
    lw = max(2.5, s * 0.11) * k
    if halo:
        lw += 2 * k
    pts = hex_corners(w * k / 2, h * k / 2, s * k * 0.84)
    ImageDraw.Draw(m).line(pts + [pts[0], pts[1]], fill=255, width=round(lw), joint="curve")
    return m.reduce(k)


def _parse_side(v) -> Hexside | None:
    try:
        return Hexside.parse(str(v))
    except (HexError, ValueError):
        return None


def _side_color(sides: dict, side) -> tuple[int, int, int]:
    info = sides.get(side) if isinstance(side, str) else None
    if isinstance(info, dict):
        return S.color(info.get("color"))
    return S.NEUTRAL_SIDE


def _side_title(sides: dict, side) -> str:
    info = sides.get(side) if isinstance(side, str) else None
    if isinstance(info, dict) and info.get("title"):
        return str(info["title"])
    return str(side).replace("_", " ").title() if side else "?"


def _unit_texts(u: dict) -> tuple[str, str, str]:
    """Top, bottom and middle texts of a unit's counter."""
    kind = str(u.get("type") or "")
    uid = str(u.get("id") or "")
    if kind == "leader":
        name = uid or str(u.get("name") or "")  # the id, as orders name it (CONVENTIONS: ids on the counters)
        bits = []
        if u.get("rally") is not None:
            bits.append(f"R{u['rally']}")
        if u.get("magic") is not None:
            bits.append(f"M{u['magic']}")
        return name, " ".join(bits) or str(u.get("ratings") or ""), ""
    if kind == "cauldron":
        oil = u.get("oil")
        if oil is not None:
            return uid, "oil", str(oil)
    return uid, str(u.get("ratings") or ""), ""


def _counter(u: dict, sides: dict, size: int) -> Image.Image:
    top, bottom, mid = _unit_texts(u)
    kind = str(u.get("type") or "")
    # ``real`` and ``oil_real`` exist only in the owner's own view; without
    # them the counter looks the same whatever the truth
    real = None if u.get("real") is None else bool(u["real"])
    oil = ""
    if u.get("carrying") == "oil":
        oil = "oil" if u.get("oil_real") is None else ("real" if u["oil_real"] else "dummy")
    active = kind == "grond" and bool(u.get("active"))
    ready = bool(_as_list(u.get("ready")))
    fill = _side_color(sides, u.get("side"))
    if u.get("face_down"):
        # a hidden piece (engine/modes/pieces.py): greyed, its id `?n` and "face down" to the others;
        # to its owner and the moderator its own id with "hidden"
        fill = S.mix(fill, (128, 128, 128), 0.6)
        bottom = "face down" if kind == "face-down" else "hidden"
    ring = u.get("ring") if u.get("ring") in ("worn", "carried") else ""  # the One Ring's bearer (Sauron 16.6)
    return C.counter_sprite(size, fill, kind, top, bottom, mid,
                            bool(u.get("reduced")), bool(u.get("disrupted")), real, oil, active, ready, ring)


def _badge_width(text: str, size: int) -> float:
    return max(size + 4, S.text_length(text, size) + 8)


def _badge(img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int,
           fill=(30, 28, 24), ink=(255, 255, 255)) -> None:
    h = size + 4
    w = _badge_width(text, size)
    d.rounded_rectangle([round(x - w / 2), round(y - h / 2), round(x + w / 2), round(y + h / 2)], h // 2,
                        fill=fill, outline=(255, 255, 255), width=1)
    S.stamp(img, (x, y + 0.5), text, size, ink, "mm")


class _Stamper:
    """``ImageDraw.text`` look-alike drawing from cached text masks."""

    def __init__(self, img: Image.Image):
        self.img = img

    def text(self, xy, text, font, fill, anchor: str = "la", stroke_width: int = 0, stroke_fill=None) -> None:
        S.stamp(self.img, xy, text, font.size, fill, anchor, stroke_width, stroke_fill)


def _as_list(v) -> list:
    return v if isinstance(v, list) else []


def _as_dict(v) -> dict:
    return v if isinstance(v, dict) else {}


@dataclass(frozen=True)
class RenderInfo:
    """What a drawing used, for checking it can be read once shown ``PREVIEW_W`` wide: the image's
    size, the smallest font (px) of a counter id drawn (None: no counter), of the header's text and
    of the hex numbers; the mode and window; how many counters of the action fell outside a focus crop."""
    width: int
    height: int
    label_px: int | None
    header_px: int
    hex_number_px: int
    mode: str
    window: tuple[int, int, int, int]
    off_view: int = 0
    glyphs: tuple = ()   # (kind, text, (x0, y0, x1, y1)) of each id and hex number drawn whole, in image px

    @property
    def preview_scale(self) -> float:
        """The factor the image is scaled by when shown ``PREVIEW_W`` wide."""
        return PREVIEW_W / self.width

    def at_preview(self, px: float | None) -> float | None:
        return None if px is None else px * self.preview_scale


def render_view(view: dict, hexmap, *, around: str | None = None, radius: int | None = None,
                focus: bool = False) -> bytes:
    """PNG bytes of ``view`` drawn on ``hexmap``: the whole map with its side panel; with
    ``focus`` a crop to where the action is; with ``around="XXYY"`` a zoomed crop ``radius``
    hexes (default AROUND_RADIUS) either side of that hex. Every kind has the header band
    (turn, phase, who acts, the deadline). Raises ValueError for a bad ``around`` or ``radius``."""
    return render_view_info(view, hexmap, around=around, radius=radius, focus=focus)[0]


def render_view_info(view: dict, hexmap, *, around: str | None = None, radius: int | None = None,
                     focus: bool = False) -> tuple[bytes, RenderInfo]:
    """:func:`render_view`'s PNG and the :class:`RenderInfo` of its drawing."""
    img, _, _, info = compose_info(view, hexmap, around=around, radius=radius, focus=focus)
    return encode(img), info


def compose(view: dict, hexmap, *, around: str | None = None, radius: int | None = None,
            focus: bool = False) -> tuple[Image.Image, Layout, Hex | None]:
    """The picture (an RGB image) that :func:`render_view` encodes."""
    img, lay, centre, _ = compose_info(view, hexmap, around=around, radius=radius, focus=focus)
    return img, lay, centre


def compose_info(view: dict, hexmap, *, around: str | None = None, radius: int | None = None,
                 focus: bool = False) -> tuple[Image.Image, Layout, Hex | None, RenderInfo]:
    """:func:`compose`, and what the drawing used (:class:`RenderInfo`)."""
    fr = frame_for(view, hexmap, around=around, radius=radius, focus=focus)
    leg = legend_for(hexmap, view) if fr.panel else None
    width = _layout(fr, leg).width
    hp = header_px(width)
    beyond = _beyond(view, hexmap, fr.window) if fr.mode == "focus" else []
    off = sum(len(g.units) for g in beyond)
    lines = _header_lines(view, fr, width)
    top = _header_height(hp, len(lines))
    base, lay, legend_top = _base(hexmap, fr.window, fr.s, leg, frame=fr, top=top)
    s = fr.s
    focus = fr.focus
    img = base.copy()
    d = ImageDraw.Draw(img)
    sides = _as_dict(view.get("sides"))

    # zone highlight
    zone = [h for h in (_parse_hex(z) for z in _as_list(view.get("zone"))) if h is not None and lay.contains(h)]
    if zone:
        mask = _hex_mask(s, 84)
        for h in zone:
            cx, cy = lay.center(h)
            img.paste(S.ZONE, (round(cx - mask.width / 2), round(cy - mask.height / 2)), mask)
        # outline the zone's boundary only
        zset = set(zone)
        zw = max(2, round(s / 10))
        for h in zone:
            for dname in ("n", "ne", "se", "s", "sw", "nw"):
                if h.neighbour(dname) not in zset:
                    a, b = lay.side_points(h, dname)
                    d.line([a, b], fill=S.ZONE_EDGE, width=zw)
        # the zone's hex numbers again, on a halo: the shade must not dim what a `deploy` names
        for h in zone:
            cx, cy = lay.center(h)
            S.stamp(img, (cx, cy - s * 0.84), str(h), _hex_number_px(s), S.HEX_NUMBER, "ma", 2, S.NUMBER_HALO)

    # city levels Sauron controls (20.2): red hatching, light enough to read through
    levels = {lv for lv in _as_list(view.get("levels")) if isinstance(lv, int) and not isinstance(lv, bool) and lv > 0}
    if levels:
        mask = _hatch_mask(s)
        ox, oy = mask.width / 2, mask.height / 2
        for h, info in hexmap.hexes.items():
            if info.level in levels and lay.contains(h):
                cx, cy = lay.center(h)
                img.paste(S.SAURON_LEVEL, (round(cx - ox), round(cy - oy)), mask)

    # road-control hexes (20.1): a ring in the holder's colour (grey: nobody)
    for key, owner in sorted(_as_dict(view.get("road")).items(), key=lambda kv: str(kv[0])):
        h = _parse_hex(key)
        if h is None or not lay.contains(h):
            continue
        cx, cy = lay.center(h)
        held = isinstance(owner, str) and owner
        halo, ring = _ring_mask(s, True), _ring_mask(s, False)
        col = _side_color(sides, owner) if held else S.ROAD_FREE
        if held:
            tint = _hex_mask(s, 70)
            img.paste(col, (round(cx - tint.width / 2), round(cy - tint.height / 2)), tint)
        img.paste((255, 255, 255), (round(cx - halo.width / 2), round(cy - halo.height / 2)), halo)
        img.paste(col, (round(cx - ring.width / 2), round(cy - ring.height / 2)), ring)

    # markers, by type: breaches on hexsides, ladders in a hex against a
    # hexside, everything else a chit in its hex (or on its hexside)
    hex_markers: dict[Hex, list[str]] = {}
    breaches: list[Hexside] = []
    ladders: list[tuple[Hex, str]] = []
    side_chits: list[tuple[Hexside, str]] = []
    for m in _as_list(view.get("markers")):
        if not isinstance(m, dict):
            continue
        kind = str(m.get("type") or "")
        h = _parse_hex(m.get("hex"))
        side = _parse_side(m.get("hexside")) if m.get("hexside") is not None else None
        if kind == "ladder":
            if h is None or not lay.contains(h):
                continue
            hex_markers.setdefault(h, []).append(kind)
            dname = _side_dir(h, side) if side is not None else None
            if dname is not None:
                ladders.append((h, dname))
            continue
        if kind in ("breached", "breach"):
            if side is not None and any(lay.contains(x) for x in side.hexes()):
                breaches.append(side)
            continue
        if h is not None:
            if lay.contains(h):
                hex_markers.setdefault(h, []).append(kind)
        elif side is not None and any(lay.contains(x) for x in side.hexes()):
            side_chits.append((side, kind))

    # gate control and breaches (under the counters: they show on the hexside's far side)
    for key, owner in _as_dict(view.get("gates")).items():
        side = _parse_side(key)
        if side is None or not any(lay.contains(x) for x in side.hexes()):
            continue
        a, b = lay.side_points(side.hex, side.direction)
        _draw_gate_leaves(d, a, b, s, _side_color(sides, owner))

    for side in breaches:
        a, b = lay.side_points(side.hex, side.direction)
        _draw_breach(d, a, b, s)

    # counters, grouped by hex in the view's order
    stacks: dict[Hex, list[dict]] = {}
    for u in _as_list(view.get("units")):
        if not isinstance(u, dict):
            continue
        h = _parse_hex(u.get("hex"))
        if h is not None and lay.contains(h):
            stacks.setdefault(h, []).append(u)
    size = round(s * 1.34)
    pad = C.sprite_pad(size)
    step = s * 0.16
    badge_size = max(9, round(s * 0.4))
    occupied: list[tuple[float, float, float, float]] = []
    glyphs: list = []
    badges = []
    label_sizes: list[int] = []
    for h, units in stacks.items():
        cx, cy = lay.center(h)
        cy += s * COUNTER_DY
        occupied.append((cx - size * 0.7, cy - size * 0.7, cx + size * 0.7, cy + size * 0.7))
        shown = units[:3]
        n = len(shown)
        # the top counter sits where a lone counter would; those under it
        # peek out up and to the right
        pos = [(cx + step * i, cy - step * i) for i in range(n)]
        # the first unit listed is the top of the stack: drawn last
        for i in range(n - 1, -1, -1):
            spr = _counter(shown[i], sides, size)
            top_text = _unit_texts(shown[i])[0]
            fs = C.id_font_size(size, top_text)
            label_sizes.append(fs)
            x, y = pos[i]
            img.paste(spr, (round(x - size / 2) - pad, round(y - size / 2) - pad), spr)
            if i == 0 and top_text:  # the top counter's id is drawn whole
                ix, iy = round(x - size / 2) + size / 2, round(y - size / 2) + size * C.ID_Y
                tw = S.text_length(top_text, fs)
                glyphs.append(("id", top_text, (ix - tw / 2 - 1, max(iy - fs * 0.5, round(y - size / 2) + 2), ix + tw / 2 + 1,
                                                    iy + fs * 0.45)))
        if len(units) > 1:
            # the count sits off the stack's top right corner
            text = f"+{len(units) - 3}" if len(units) > 3 else str(len(units))
            bw = _badge_width(text, badge_size)
            fx = pos[0][0] + size / 2
            bx, by = pos[-1]
            bx = max(bx + size / 2, fx + bw / 2 - size * 0.1)
            by = by - size / 2
            badges.append((bx, by, text, (170, 28, 28) if len(units) > 3 else (30, 28, 24)))
    # ladders across their wall and ready towers' arrows, over the counters
    for h, dname in ladders:
        spr, ox, oy = C.ladder_sprite(s, dname)
        cx, cy = lay.center(h)
        img.paste(spr, (round(cx) + ox, round(cy) + oy), spr)
    for h, units in stacks.items():
        dirs = []
        for u in units:
            for key in _as_list(u.get("ready")):
                side = _parse_side(key)
                dname = _side_dir(h, side) if side is not None else None
                if dname is not None and dname not in dirs:
                    dirs.append(dname)
        cx, cy = lay.center(h)
        for dname in dirs:
            spr, ox, oy = C.ready_arrow_sprite(s, dname)
            img.paste(spr, (round(cx) + ox, round(cy) + oy), spr)

    for bx, by, text, fill in badges:  # after every counter, so no neighbour hides them
        _badge(img, d, bx, by, text, badge_size, fill=fill)

    # hex markers: chits on the stack's left edge, or in the middle of an empty hex
    ms = max(12, round(s * 0.62))
    mp = C.marker_pad(ms)
    for h, kinds in hex_markers.items():
        cx, cy = lay.center(h)
        kinds = kinds[:4]
        if h in stacks:
            left = cx - size / 2
            top = cy + s * COUNTER_DY - size / 2
            y0 = top + size * 0.62
            spots = [(left, y0), (left, y0 - ms * 1.05), (left - ms * 0.9, y0), (left - ms * 0.9, y0 - ms * 1.05)]
        else:
            g = ms * 0.56
            spots = {1: [(cx, cy + s * 0.1)], 2: [(cx - g, cy + s * 0.1), (cx + g, cy + s * 0.1)]}.get(
                len(kinds), [(cx - g, cy - g * 0.7 + s * 0.1), (cx + g, cy - g * 0.7 + s * 0.1),
                             (cx - g, cy + g * 1.1 + s * 0.1), (cx + g, cy + g * 1.1 + s * 0.1)])
        for kind, (x, y) in zip(kinds, spots):
            spr = C.marker_sprite(ms, kind)
            img.paste(spr, (round(x - ms / 2) - mp, round(y - ms / 2) - mp), spr)
    for side, kind in side_chits:
        a, b = lay.side_points(side.hex, side.direction)
        x, y = _lerp(a, b, 0.5)
        spr = C.marker_sprite(ms, kind)
        img.paste(spr, (round(x - ms / 2) - mp, round(y - ms / 2) - mp), spr)

    label_boxes = _labels(img, lay, hexmap, occupied)

    # the hex numbers of occupied hexes again, over the counters, and of those a place name runs
    # over, over the name: an order needs them
    npx = _hex_number_px(s)
    under = []
    if label_boxes:
        for h in sorted(hexmap.hexes):
            if lay.contains(h) and h not in stacks:
                cx, cy = lay.center(h)
                tw = S.text_length(str(h), npx) / 2 + 2
                nb = (cx - tw, cy - s * 0.84, cx + tw, cy - s * 0.84 + npx)
                if any(nb[0] < b[2] and b[0] < nb[2] and nb[1] < b[3] and b[1] < nb[3] for b in label_boxes):
                    under.append(h)
    for h in [*under, *stacks]:
        cx, cy = lay.center(h)
        S.stamp(img, (cx, cy - s * 0.84), str(h), npx, S.HEX_NUMBER, "ma", 2, S.NUMBER_HALO)
    if fr.mode != "whole":
        for h in sorted(hexmap.hexes):
            if lay.contains(h):
                cx, cy = lay.center(h)
                tw = S.text_length(str(h), npx)
                glyphs.append(("hex", str(h), (cx - tw / 2 - 1, cy - s * 0.84, cx + tw / 2 + 1,
                                               cy - s * 0.84 + npx * 1.05)))

    if focus is not None:
        d.polygon(lay.corners(focus, shrink=0.93), outline=S.FOCUS, width=max(2, round(s / 10)))

    if fr.panel:
        _panel(img, lay, view, legend_top)
    glyphs += _header(img, lay.width, view, lines, hp)
    if beyond:
        img = _footer(img, lay, view, beyond, hp)
    info = RenderInfo(img.width, img.height, min(label_sizes) if label_sizes else None, hp, npx, fr.mode,
                      fr.window, off, tuple(glyphs))
    return img, lay, focus, info


class _Beyond(NamedTuple):
    """Counters of the action outside a focus crop, in one direction: its name (``south``,
    ``north-east``...), the units, the nearest of their hexes to the crop."""
    direction: str
    units: tuple
    nearest: Hex


def _beyond(view: dict, hexmap, window: tuple[int, int, int, int]) -> list[_Beyond]:
    """The counters of the action a focus crop leaves out, grouped by direction (north first, clockwise)."""
    c0, c1, r0, r1 = window
    groups: dict[str, list] = {}
    for h, u in _focus_entries(view, hexmap):
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


_ARROW = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0), "north-east": (1, -1),
          "south-east": (1, 1), "south-west": (-1, 1), "north-west": (-1, -1)}


def _arrow(d: ImageDraw.ImageDraw, x: float, y: float, r: float, direction: str, fill) -> None:
    dx, dy = _ARROW[direction]
    n = math.hypot(dx, dy)
    dx, dy = dx / n, dy / n
    px, py = -dy, dx
    d.polygon([(x + dx * r, y + dy * r), (x - dx * r * 0.7 + px * r * 0.8, y - dy * r * 0.7 + py * r * 0.8),
               (x - dx * r * 0.7 - px * r * 0.8, y - dy * r * 0.7 - py * r * 0.8)], fill=fill, outline=S.HEADER_INK)


def _beyond_text(view: dict, g: _Beyond) -> str:
    sides = _as_dict(view.get("sides"))
    counts: dict = {}
    for u in g.units:
        counts[u.get("side")] = counts.get(u.get("side"), 0) + 1
    n = len(g.units)
    who = " and ".join(f"{k} {_side_title(sides, sd)}" for sd, k in counts.items()) if len(counts) > 1 else \
        f"{n} {_side_title(sides, next(iter(counts)))}"
    one = n == 1 and g.units[0].get("id")
    what = f"{who} counter{'s' if n > 1 else ''}" + (f" ({g.units[0]['id']})" if one else "")
    return f"{g.direction}: {what}, nearest {g.nearest} (/game map around:{g.nearest})"


def _footer(img: Image.Image, lay: Layout, view: dict, beyond: list[_Beyond], px: int) -> Image.Image:
    """The image with a band under it naming the counters of the action off the crop, each
    direction with an arrow, and the same arrows on the map's edge, where those counters lie."""
    sides = _as_dict(view.get("sides"))
    fh = _header_height(px, len(beyond))
    out = Image.new("RGB", (img.width, img.height + fh), S.HEADER_BG)
    out.paste(img, (0, 0))
    d = ImageDraw.Draw(out)
    txt = _Stamper(out)
    lh = _line_h(px)
    x0, x1 = round(px * 0.6), img.width - round(px * 0.6)
    y = img.height + round(px * 0.45)
    f = S.font(px)
    r = MARGIN * 0.42
    top, bottom = lay.top + MARGIN * 0.5, lay.map_h - MARGIN * 0.5
    for g in beyond:
        col = _side_color(sides, g.units[0].get("side"))
        _arrow(d, x0 + px * 0.5, y + lh / 2, px * 0.5, g.direction, col)
        txt.text((x0 + px * 1.4, y + lh / 2), _clip_px(_beyond_text(view, g), px, x1 - x0 - px * 1.4), font=f,
                 fill=S.HEADER_INK, anchor="lm")
        y += lh
        # the arrow on the map's edge, in the margin (over no hex), towards the nearest counter
        cx, cy = lay.center(g.nearest)
        ex = min(max(cx, MARGIN), lay.map_w - MARGIN)
        ey = min(max(cy, top + MARGIN), bottom - MARGIN)
        dx, dy = _ARROW[g.direction]
        if dx:
            ex = r + 1 if dx < 0 else lay.map_w - r - 1
        if dy:
            ey = lay.top + r + 1 if dy < 0 else lay.map_h - r - 1
        _arrow(d, ex, ey, r, g.direction, col)
    return out


def _labels(img: Image.Image, lay: Layout, hexmap, occupied) -> list[tuple[float, float, float, float]]:
    """The map's place names, except where they would run under counters; their boxes."""
    boxes = []
    s = lay.s
    flab = S.font(round(s * 0.62))
    for lab in hexmap.labels:
        if not isinstance(lab, dict):
            continue
        h = _parse_hex(lab.get("hex"))
        text = str(lab.get("text", ""))
        if h is None or not text or not lay.contains(h):
            continue
        cx, cy = lay.center(h)
        tw = S.text_length(text, flab.size)
        x = min(max(cx, lay.margin + tw / 2 + 4), lay.map_w - lay.margin - tw / 2 - 4)
        y = cy + s * 0.1
        box = (x - tw / 2, y - s * 0.4, x + tw / 2, y + s * 0.4)
        if any(box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3] for o in occupied):
            continue
        S.stamp(img, (x, y), text, flab.size, S.LABEL, "mm", 2, (246, 243, 232))
        boxes.append(box)
    return boxes


# --------------------------------------------------------------------------
# Header band (over the map, and the panel when there is one)
# --------------------------------------------------------------------------
HEADER_TARGET_PX = LEGIBLE_PX + 1   # the header's font, at PREVIEW_W wide


def header_px(width: int) -> int:
    """The header's font size (px) on an image ``width`` wide: HEADER_TARGET_PX once shown PREVIEW_W wide."""
    return max(12, math.ceil(HEADER_TARGET_PX * width / PREVIEW_W))


def _line_h(px: int) -> int:
    return round(px * 1.34)


def _header_height(px: int, n: int) -> int:
    return 2 * round(px * 0.45) + n * _line_h(px)


def _turn_text(view: dict) -> str:
    turn, turns = view.get("turn"), view.get("turns")
    if turn == 0:
        return "Set-up"
    if isinstance(turn, int) and not isinstance(turn, bool):
        if isinstance(turns, int) and not isinstance(turns, bool) and turns > 0:
            return f"Turn {min(turn, turns)} of {turns}"  # a game over after its last turn: never past it
        return f"Turn {turn}"
    return ""


def _over_text(view: dict) -> str:
    """The end of the game in one short line, the winner first (the view's ``result``; the full
    reasoning is in the log)."""
    over = view.get("over")
    if not over:
        return ""
    res = view.get("result")
    if isinstance(res, str) and res:
        return f"Game over: {res}"
    return "Game over"


def _zone_text(view: dict) -> str:
    """A set-up map's line: the acting side's zone (shaded on the map) by its hex range, and how many
    counters it has still to place (the view's ``zone``, ``zone_title`` and ``pool``)."""
    hexes = [h for h in (_parse_hex(z) for z in _as_list(view.get("zone"))) if h is not None]
    if not hexes or view.get("over"):
        return ""
    cols, rows = [h.col for h in hexes], [h.row for h in hexes]
    title = str(view.get("zone_title") or "Set-up zone")
    text = f"{title}: columns {min(cols):02d}-{max(cols):02d}, rows {min(rows):02d}-{max(rows):02d}"
    pool = _as_dict(view.get("pool"))
    sides = _as_dict(view.get("sides"))
    left = [(a, pool.get(a)) for a in _as_list(view.get("active")) if isinstance(pool.get(a), int)]
    if left:
        text += " · to place: " + ", ".join(f"{n} {_side_title(sides, a)}" for a, n in left)
    return text


def _track_items(view: dict) -> list[tuple[dict, str]]:
    out = []
    for t in _as_list(view.get("tracks")):
        if isinstance(t, dict):
            pts, lvl = t.get("points"), t.get("level")
            val = f"{pts}/{lvl}" if lvl not in (None, "", "-") else f"{pts}"
            out.append((t, f"{t.get('name') or ''} {val}".strip()))
    return out


def _track_rows(view: dict, px: int, width: float) -> list[list[tuple[dict, str]]]:
    """Every track, wrapped into rows that fit ``width`` at font size ``px`` (a track never dropped)."""
    rows: list[list] = []
    x = width + 1
    for t, item in _track_items(view):
        w = px * 0.8 + S.text_length(item, px)
        if rows and x + w <= width:
            rows[-1].append((t, item))
        else:
            rows.append([(t, item)])
            x = 0
        x += w + px * 1.4
    return rows


RESULT_SCALE = 1.45   # the result of a game over is drawn this much larger than the header's other lines
HEADER_MIN_W = 824    # the narrowest focus crop: a header's lines are counted at this width before the crop


def _header_lines(view: dict, fr: Frame | None, width: int = HEADER_MIN_W) -> list[tuple[str, object]]:
    """The header's lines, (kind, text): title, phase (or the result), who acts, the tracks (as many
    rows as they take on an image ``width`` px wide), what is in effect."""
    title = str(view.get("title") or view.get("ruleset") or "")
    bits = [b for b in (title, _turn_text(view)) if b]
    if "night" in view and view.get("board") != "area":
        bits.append("Night" if view.get("night") else "Day")
    if fr is not None and fr.mode == "around" and fr.focus is not None:
        bits.append(f"around {fr.focus}")
    lines = [("title", " · ".join(bits)), ("phase", _over_text(view) or str(view.get("phase_title") or view.get("phase") or ""))]
    zone = _zone_text(view)
    if zone:
        lines.append(("zone", zone))
    if view.get("over") and view.get("result"):
        lines.append(("gap", ""))  # the result is drawn larger, over two lines' height
    if not view.get("over") or view.get("deadline"):
        lines.append(("act", ""))
    if fr is not None and not fr.panel:
        px = header_px(width)
        for row in _track_rows(view, px, width - 2 * round(px * 0.6)):
            lines.append(("tracks", row))
        for n in [str(n) for n in _as_list(view.get("notes")) if n][:2]:
            lines.append(("note", n))
    return lines


def _clip_px(text: str, px: int, width: float) -> str:
    """``text`` cut (with an ellipsis) to ``width`` px at font size ``px``: never a smaller font."""
    if S.text_length(text, px) <= width:
        return text
    while len(text) > 1 and S.text_length(text + "…", px) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _header(img: Image.Image, width: int, view: dict, lines: list[tuple[str, object]], px: int) -> list:
    """Draws the header's ``lines`` (see :func:`_header_lines`) at font size ``px`` across the top
    ``width`` px of ``img`` (on the band the base drew)."""
    d = ImageDraw.Draw(img)
    txt = _Stamper(img)
    f = S.font(px)
    sides = _as_dict(view.get("sides"))
    lh = _line_h(px)
    x0, x1 = round(px * 0.6), width - round(px * 0.6)
    y = round(px * 0.45)
    drawn: list = []
    for kind, text in lines:
        mid = y + lh / 2
        if kind == "title":
            seat = view.get("seat")
            label = f"{_side_title(sides, seat)}'s view - PRIVATE" if seat else "Public view"
            col = _side_color(sides, seat) if seat else (88, 84, 76)
            w = S.text_length(label, px) + px
            d.rounded_rectangle([x1 - w, y + 1, x1, y + lh - 1], round(lh / 3), fill=col)
            txt.text((x1 - w / 2, mid), label, font=f, fill=S.ink_on(col), anchor="mm")
            txt.text((x0, mid), _clip_px(text, px, x1 - w - x0 - px), font=f, fill=S.HEADER_INK, anchor="lm",
                     stroke_width=1, stroke_fill=S.HEADER_INK)
        elif kind == "act":
            active = [a for a in _as_list(view.get("active")) if isinstance(a, str)]
            x = x0
            if not view.get("over"):
                txt.text((x, mid), "To act:", font=f, fill=S.HEADER_MUTED, anchor="lm")
                x += S.text_length("To act:", px) + px * 0.5
                if not active:
                    txt.text((x, mid), "nobody", font=f, fill=S.HEADER_MUTED, anchor="lm")
                    x += S.text_length("nobody", px) + px
                for a in active:
                    t = _side_title(sides, a)
                    col = _side_color(sides, a)
                    w = S.text_length(t, px) + px
                    if x + w > x1:
                        break
                    d.rounded_rectangle([x, y + 1, x + w, y + lh - 1], round(lh / 2) - 1, fill=col,
                                        outline=S.HEADER_INK, width=1)
                    txt.text((x + w / 2, mid), t, font=f, fill=S.ink_on(col), anchor="mm")
                    x += w + px * 0.4
            deadline = view.get("deadline")
            if isinstance(deadline, str) and deadline:
                t = _clip_px(deadline, px, max(px, x1 - x - px))
                txt.text((x1, mid), t, font=f, fill=S.HEADER_INK, anchor="rm")
        elif kind == "tracks":
            x = x0
            for t, item in text:
                w = S.text_length(item, px)
                over = _demoralized(t)
                col = _side_color(sides, t.get("side"))
                d.rounded_rectangle([x, y + lh * 0.3, x + px * 0.5, y + lh * 0.7], 2, fill=col)
                txt.text((x + px * 0.8, mid), item, font=f, fill=(255, 120, 100) if over else S.HEADER_INK,
                         anchor="lm")
                x += w + px * 2.2
        elif kind == "phase" and view.get("over") and view.get("result"):
            big = round(px * RESULT_SCALE)
            line = _clip_px(str(text), big, x1 - x0)
            txt.text((x0, y + lh), line, font=S.font(big), fill=(255, 214, 120), anchor="lm")
            drawn.append(("result", line, (x0 - 2, y + lh * 0.15, x0 + S.text_length(line, big) + 4, y + lh * 1.85)))
        elif kind == "gap":
            pass
        else:
            ink = S.HEADER_MUTED if kind in ("note", "off") else S.HEADER_INK
            txt.text((x0, mid), _clip_px(text, px, x1 - x0), font=f, fill=ink, anchor="lm")
        y += lh
    return drawn


# --------------------------------------------------------------------------
# Panel (dynamic part)
# --------------------------------------------------------------------------
def _wrap(text: str, f, width: float) -> list[str]:
    out, line = [], ""
    for word in text.split():
        cand = f"{line} {word}".strip()
        if S.text_length(cand, f.size) <= width or not line:
            line = cand
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


def _demoralized(track: dict) -> bool:
    """Whether a demoralization track is shown as demoralized: the view's
    ``demoralized`` flag when it has one (the rules decide: in some games the
    points must exceed the level), else points at or over the level."""
    if "demoralized" in track:
        return bool(track["demoralized"])
    pts, lvl = track.get("points"), track.get("level")
    num = (int, float)
    return (isinstance(pts, num) and isinstance(lvl, num) and not isinstance(pts, bool)
            and not isinstance(lvl, bool) and lvl > 0 and pts >= lvl)


def _panel(img: Image.Image, lay: Layout, view: dict, limit: int) -> None:
    d = ImageDraw.Draw(img)
    txt = _Stamper(img)
    x0 = lay.map_w + PAD
    x1 = lay.width - PAD
    width = x1 - x0
    sides = _as_dict(view.get("sides"))
    y = lay.top + PAD  # the title, whose view, the turn, the phase and who acts are in the header

    # tracks
    tracks = [t for t in _as_list(view.get("tracks")) if isinstance(t, dict)]
    if tracks:
        d.line([(x0, y), (x1, y)], fill=S.PANEL_RULE, width=1)
        y += 8
        fv = S.font(14)
        for t in tracks:
            if y + 44 > limit - 12:
                break
            name = str(t.get("name") or "")
            pts = t.get("points")
            lvl = t.get("level")
            val = f"{pts} / {lvl}" if lvl is not None else f"{pts}"
            vw = S.text_length(val, fv.size)
            fnt, name = S.fit_font(name, width - vw - 10, 14, 10)
            txt.text((x0, y), name, font=fnt, fill=S.PANEL_INK)
            over = _demoralized(t)
            txt.text((x1, y), val, font=fv, fill=(180, 24, 24) if over else S.PANEL_INK, anchor="ra")
            y += 19
            col = _side_color(sides, t.get("side"))
            d.rounded_rectangle([x0, y, x1, y + 14], 4, fill=(228, 222, 206), outline=S.PANEL_RULE)
            if isinstance(pts, (int, float)) and isinstance(lvl, (int, float)) and lvl > 0 and pts > 0:
                frac = min(1.0, pts / lvl)
                xe = x0 + max(8, round((x1 - x0) * frac))
                d.rounded_rectangle([x0, y, xe, y + 14], 4, fill=col)
            if over:
                txt.text(((x0 + x1) / 2, y + 7), "DEMORALIZED", font=S.font(11), fill=(255, 255, 255), anchor="mm")
            y += 25

    # counters off the map
    pool = _as_dict(view.get("pool"))
    if not pool:
        for u in _as_list(view.get("units")):
            if isinstance(u, dict) and u.get("hex") is None and isinstance(u.get("side"), str):
                pool[u["side"]] = pool.get(u["side"], 0) + 1
    if pool and y + 50 < limit:
        d.line([(x0, y), (x1, y)], fill=S.PANEL_RULE, width=1)
        y += 8
        f = S.font(14)
        txt.text((x0, y), "Off the map (pool)", font=f, fill=S.PANEL_MUTED)
        y += 21
        for side_name, n in pool.items():
            if y + 20 > limit - 10:
                break
            col = _side_color(sides, side_name)
            d.rounded_rectangle([x0, y + 2, x0 + 14, y + 16], 3, fill=col)
            txt.text((x0 + 22, y + 9), _side_title(sides, side_name), font=f, fill=S.PANEL_INK, anchor="lm")
            txt.text((x1, y + 9), str(n), font=f, fill=S.PANEL_INK, anchor="rm")
            y += 21

    # what is in effect now (spells, formations, a retreat awaited): short public lines
    notes = [str(n) for n in _as_list(view.get("notes")) if n]
    if notes and y + 50 < limit:
        d.line([(x0, y), (x1, y)], fill=S.PANEL_RULE, width=1)
        y += 8
        f = S.font(14)
        txt.text((x0, y), "In effect", font=f, fill=S.PANEL_MUTED)
        y += 21
        fn = S.font(12)
        for n in notes:
            if y + 18 > limit - 10:
                break
            fnt, line = S.fit_font(n, width, 12, 9)
            txt.text((x0, y), line, font=fnt or fn, fill=S.PANEL_INK)
            y += 17


# --------------------------------------------------------------------------
# Encoding
# --------------------------------------------------------------------------
def encode(img: Image.Image) -> bytes:
    """PNG bytes, deterministic (no metadata, fixed palette reduction)."""
    q = img.quantize(PNG_COLORS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


__all__ = ["render_view", "render_view_info", "compose", "compose_info", "encode", "clear_cache", "legend_for",
           "Legend", "RenderInfo", "Frame", "frame_for", "focus_hexes"]
