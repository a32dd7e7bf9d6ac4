"""Pillow drawing of one seat's view of a hex game.

The renderer sees nothing but the view dict it is given (the engine has
already stripped what the seat may not know) and the public map.

Two layers:

* the *base* (terrain, roads, hexsides, hex numbers, edge names, the static
  part of the side panel: legend, compass) depends only on the map and the
  window (and, on a map without walls, on which of its ruleset's keys the view uses:
  the legend explains those only when they appear); it is drawn supersampled once
  and kept in a small in-memory cache keyed on the map (id and shape), the
  window and the legend's entries. A map edited in place needs
  :func:`clear_cache`;
* the *view* layer (zone highlight, held city levels hatched, ringed hexes,
  gate control, cracked hexsides, counters with their marks and badges, rungs
  across their hexsides, arrows, marker chits, place names not covered by
  counters, the dynamic part of the panel) is drawn on a copy of the base for
  every call; sprites and text masks are cached (in memory and on disk), and the
  part under the counters that changes only now and then (zone, held levels,
  ringed hexes, gates, cracks) is kept drawn on the base (render/hex_underlay.py).

The renderer names no game and no piece: the view's ``display`` (the ruleset's declaration; the
vocabulary is engine/display.py's) says which shape each unit type is drawn with, which style each
marker type has and what the legend explains; each unit's ``look`` carries its generic marks.
Markers are drawn by their declared style: ``crack`` on its ``hexside``; ``rungs`` as
a chit in its ``hex`` and leaning across its ``hexside`` (when that is a side
of the hex); anything else as a chit in its hex (or, with only a hexside, on
the hexside's middle).

Output is deterministic: the same view and map give the same PNG bytes in any
process (no metadata, bundled font, no iteration over unordered sets).
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.hexgrid import Hex, Hexside
from render import counters as C
from render import style as S
from render import hex_underlay as UL
from render import png
from render.geometry import Layout

# Split by concern (issue 26): the parts, each re-exported here (callers import from render.hexmap):
# hex_common (sizes, Frame, view readers), hex_terrain (drawing primitives), hex_pieces (counters, marker
# masks, place names), hex_legend (legend, compass), hex_base (the cached base layer), hex_header (header,
# footer, side panel), hex_crop (what part of the map: whole, around, the phase's preview crop).
from render.hex_common import (FULL_HEX, MAX_MAP_W, MAX_MAP_H, MIN_HEX, MARGIN, PANEL_W, K, BASE_CACHE_SIZE,
    _lock, PREVIEW_W, LEGIBLE_PX, CROP_PX, AROUND_RADIUS, RADIUS_MIN, RADIUS_MAX, CROP_MAP_W,
    CROP_MIN_HEX, CROP_MAX_HEX, COUNTER_DY, FOCUS_MARGIN, FOCUS_MIN_COLS, FOCUS_MIN_ROWS, Frame, CAP_RATIO,
    ID_SAMPLE, MAX_ASPECT, MAX_IMAGE_W, _fingerprint, _lerp, _layout, PAD, PANEL_MIN_H, _parse_hex, _side_dir,
    _parse_side, _side_color, _side_title, _Stamper, _as_list, _as_dict, HEADER_TARGET_PX, RESULT_SCALE,
    HEADER_MIN_W, _memo, _number_width, _id_boxes, kept, _trimmed, _trims)  # noqa: F401
from render.hex_terrain import (_seed, draw_terrain, _draw_wall, draw_hexside, _draw_gate_leaves, draw_tunnel,
    _text_rotated, _hex_number_px)  # noqa: F401
from render.hex_legend import (LEGEND_TERRAIN, LEGEND_SIDES, LEG_ROW, _STEPS, _MapFacts, Legend, _rows,
    _levels_title, _facts_cache, _map_facts, _view_keys, _legend_of, legend_for, _legend_origin, _legend_shapes,
    _legend_text, _compass, _style_of)  # noqa: F401
from render.hex_base import (_base_cache, _build_base, _base, _digests, _disk_name, cache_dir, set_cache_dir)  # noqa: F401
from render.disk_cache import forget_packs, pack_for
from render.hex_bands import header_band, _bands, _footer
from render.hex_header import (_ARROW, _arrow, _beyond_text, footer_height, _tall, header_px, _line_h, _header_height,
    _turn_text, _over_text, _zone_text, _track_items, _track_rows, _header_lines, _clip_px, _header, _wrap,
    _demoralized, _panel)  # noqa: F401
from render.hex_crop import (_crop_hex, _crop_width, _legible, max_focus_cols, _span, _grow, _focus_entries,
    focus_hexes, _focus_height, _fits, _best_window, _focus_window, _whole, frame_for, _window, _Beyond, _beyond)  # noqa: F401
from render.hex_pieces import (_hex_mask, _draw_crack, _hatch_mask, _ring_mask, _unit_texts, _counter,
    _badge_width, _badge, _labels, badge_ops, label_ops, _look, number_box, shape_of, frame_texts, _frames, _counter_args, counter_ink,
    counter_plate, _counter_ink, _counter_plate)  # noqa: F401


def clear_cache() -> None:
    """Forget every cached base layer and sprite (tests, benchmarks, or after
    editing a map in place)."""
    with _lock:
        _base_cache.clear()
        _digests.clear()
        _facts_cache.clear()
    _legend_of.cache_clear()
    C.counter_sprite.cache_clear()
    C.marker_sprite.cache_clear()
    C.rungs_sprite.cache_clear()
    C.ready_arrow_sprite.cache_clear()
    C.drop_sprite.cache_clear()
    for f in (C.id_mask, C.id_length, C.id_ink, C.id_plate, C._metrics):
        f.cache_clear()
    _hex_mask.cache_clear()
    _hatch_mask.cache_clear()
    _ring_mask.cache_clear()
    S.text_length.cache_clear()
    S._text_mask.cache_clear()
    _memo.forget()
    kept.cache_clear()
    UL.clear()
    _trims.clear()
    _frames.clear()
    _bands.clear()
    _counter_ink.cache_clear()
    _counter_plate.cache_clear()
    forget_packs()


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
    glyphs: tuple = ()   # (kind, text, (x0, y0, x1, y1)) of each id, plate, hex number and place name drawn, in image px

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
    beyond = list(fr.beyond) if fr.mode == "focus" else []  # (worked out by frame_for)
    off = sum(len(g.units) for g in beyond)
    lines = _header_lines(view, fr, width)
    top = _header_height(hp, len(lines))
    lay = _layout(fr, leg, top)  # the base layer's (loaded with what lies under the counters, below)
    # everything but the base is drawn from the pack of this map and window (one file: render/disk_cache.py)
    with pack_for((_fingerprint(hexmap), fr.window, fr.s, fr.panel, leg, top),
                  lambda: _disk_name(hexmap, fr, leg, top)[:-len(".base")]):
        return _compose_in(view, hexmap, fr, leg, hp, beyond, off, lines, top, lay)


def _compose_in(view: dict, hexmap, fr: Frame, leg, hp: int, beyond: list, off: int, lines: list, top: int,
                lay: Layout) -> tuple[Image.Image, Layout, Hex | None, RenderInfo]:
    """:func:`compose_info`'s drawing, once it has its frame, header and layout."""
    s = fr.s
    focus = fr.focus
    sides = _as_dict(view.get("sides"))
    display = _as_dict(view.get("display"))
    shapes = _as_dict(display.get("shapes"))

    hex_markers, cracks, rungs, side_chits = markers(view, display, lay)

    # under the counters: zone, held levels, ringed hexes, gates, cracks (render/hex_underlay.py: the
    # base with them drawn on, kept while they stay the same)
    what = UL.plan(view, hexmap, lay, cracks)
    below, lay, legend_top = UL.underlay(hexmap, fr, leg, top, what)
    fh = footer_height(hp, beyond)  # the picture made at its full height: _footer draws in place, no 2nd copy
    img = _tall(below, fh) if fh else below.copy()
    d = ImageDraw.Draw(img)

    npx = _hex_number_px(s)
    pcs = pieces(view, hexmap, lay, s, sides, shapes, hex_markers, rungs, side_chits, npx)
    for layer in pcs.layers[:-1]:
        for _, ops in layer:
            for src, xy, mask in ops:
                S.paste(img, src, xy, mask)
    glyphs, label_sizes, reach = pcs.glyphs, pcs.label_sizes, pcs.reach
    if fr.mode != "whole":
        glyphs += [("hex", text, box) for text, box in frame_texts(lay, hexmap, npx)[0]]

    if focus is not None:
        d.polygon(lay.corners(focus, shrink=0.93), outline=S.FOCUS, width=max(2, round(s / 10)))
    # nothing drawn over an id (issue 26): a neighbour's stack count or marker chit, a hex number's halo,
    # the focus outline give way to the ids an order names
    for _, ops in pcs.layers[-1]:
        for src, xy, mask in ops:
            S.paste(img, src, xy, mask)

    if fr.panel:
        _panel(img, lay, view, legend_top)
    # the header band: pasted as drawn for these lines when nothing drawn since the under-layer reaches it
    # (render/hex_bands.py)
    band = lay.top  # (not ``top``: the markers' loop took that name)
    if focus is not None:
        reach = min(reach, lay.center(focus)[1] - lay.h * 0.5 - s / 5)
    reach = min([reach] + [g[2][1] for g in glyphs if g[0] == "label"])
    clear_top = band and reach >= band
    glyphs += header_band(img, below, lay.width, view, lines, hp, band, repr(what)) if clear_top else \
        _header(img, lay.width, view, lines, hp)
    if beyond:
        img = _footer(img, lay, view, beyond, hp, top=below.height)
    _memo.flush()
    info = RenderInfo(img.width, img.height, min(label_sizes) if label_sizes else None, hp, npx, fr.mode,
                      fr.window, off, tuple(glyphs))
    return img, lay, focus, info


def markers(view: dict, display: dict, lay: Layout) -> tuple[dict, list, list, list]:
    """The view's markers in the window, by their declared style: chits by hex, cracked hexsides, rungs
    (hex, direction) and chits on a hexside alone."""
    hex_markers: dict[Hex, list[str]] = {}
    cracks: list[Hexside] = []
    rungs: list[tuple[Hex, str]] = []
    side_chits: list[tuple[Hexside, str]] = []
    for m in _as_list(view.get("markers")):
        if not isinstance(m, dict):
            continue
        kind = _style_of(display, str(m.get("type") or ""))
        h = _parse_hex(m.get("hex"))
        side = _parse_side(m.get("hexside")) if m.get("hexside") is not None else None
        if kind == "rungs":
            if h is None or not lay.contains(h):
                continue
            hex_markers.setdefault(h, []).append(kind)
            dname = _side_dir(h, side) if side is not None else None
            if dname is not None:
                rungs.append((h, dname))
            continue
        if kind == "crack":
            if side is not None and any(lay.contains(x) for x in side.hexes()):
                cracks.append(side)
            continue
        if h is not None:
            if lay.contains(h):
                hex_markers.setdefault(h, []).append(kind)
        elif side is not None and any(lay.contains(x) for x in side.hexes()):
            side_chits.append((side, kind))
    return hex_markers, cracks, rungs, side_chits


@dataclass
class Pieces:
    """What goes over the under-layer, as pastes (``(source, corner, mask)``, S.paste's), in layers drawn in
    order: counters, rungs, arrows, stack counts, marker chits, place names, hex numbers over counters, and
    last the ids' plates (after the focus outline). Each layer is a list of chunks ``(key, pastes)``: one a
    hex (or a marker, or the place names), ``key`` saying what the chunk was drawn from when
    :func:`pieces` was given a ``memo`` (render/record.py draws each step of a game from the chunks, each
    worked out once), else None. Also the glyphs drawn, the counter ids' font sizes, the highest row
    reached and the boxes the stacks cover."""
    layers: list
    glyphs: list
    label_sizes: list
    reach: float
    occupied: list


def _stack_key(h, units) -> tuple:
    import orjson

    return h, orjson.dumps(units, option=orjson.OPT_SORT_KEYS, default=str)


def pieces(view: dict, hexmap, lay: Layout, s: float, sides: dict, shapes: dict, hex_markers: dict, rungs: list,
           side_chits: list, npx: int, memo: dict | None = None) -> Pieces:
    """The pieces of ``view`` over the under-layer (:class:`Pieces`); with ``memo`` (a dict kept across
    calls for one map and window) a hex's stack, a marker's chit and the place names are worked out once
    for what they are drawn from."""
    stacks: dict[Hex, list[dict]] = {}
    for u in _as_list(view.get("units")):
        if not isinstance(u, dict):
            continue
        h = _parse_hex(u.get("hex"))
        if h is not None and lay.contains(h):
            stacks.setdefault(h, []).append(u)
    size = round(s * 1.34)
    counters, arrows, badges, numbers, plates = [], [], [], [], []
    glyphs: list = []
    label_sizes: list[int] = []
    occupied: list = []
    reach = float("inf")  # the highest row anything below is drawn on (the header band is pasted if it is under it)
    for h, units in stacks.items():
        key = _stack_key(h, units) if memo is not None else None
        got = memo.get(("stack",) + key) if memo is not None else None
        if got is None:
            got = _stack(h, units, lay, s, size, sides, shapes, npx)
            if memo is not None:
                memo[("stack",) + key] = got
        ops, g, plate_ops, sizes, r, arrow_ops, badge, number_ops, box = got
        counters.append((("c",) + key if key else None, ops))
        arrows.append((("a",) + key if key else None, arrow_ops))
        badges.append((("b",) + key if key else None, badge))
        numbers.append((("n",) + key if key else None, number_ops))
        plates.append((("p",) + key if key else None, plate_ops))
        glyphs += g
        label_sizes += sizes
        reach = min(reach, r)
        occupied.append(box)
    # rungs across their hexside, over the counters
    rung_ops = []
    for h, dname in rungs:
        spr, ox, oy = kept(C.rungs_sprite, s, dname)
        cx, cy = lay.center(h)
        reach = min(reach, round(cy) + oy)
        rung_ops.append((("r", h, dname), [(spr, (round(cx) + ox, round(cy) + oy), spr)]))
    # hex markers: chits on the stack's left edge, or in the middle of an empty hex
    ms = max(12, round(s * 0.62))
    mp = C.marker_pad(ms)
    chits = []
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
        ops = []
        for kind, (x, y) in zip(kinds, spots):
            spr = kept(C.marker_sprite, ms, kind)
            reach = min(reach, round(y - ms / 2) - mp)
            ops.append((spr, (round(x - ms / 2) - mp, round(y - ms / 2) - mp), spr))
        chits.append((("m", h, tuple(kinds), h in stacks), ops))
    for side, kind in side_chits:
        a, b = lay.side_points(side.hex, side.direction)
        x, y = _lerp(a, b, 0.5)
        spr = kept(C.marker_sprite, ms, kind)
        reach = min(reach, round(y - ms / 2) - mp)
        chits.append((("s", str(side), kind), [(spr, (round(x - ms / 2) - mp, round(y - ms / 2) - mp), spr)]))
    # place names, each clear of every hex number (issue 26); the hex numbers of occupied hexes again,
    # over the counters: an order needs them
    lkey = ("l", tuple(occupied))
    got = memo.get(lkey) if memo is not None else None
    if got is None:
        got = label_ops(lay, hexmap, occupied, npx)
        if memo is not None:
            memo[lkey] = got
    names, drawn = got
    glyphs += [("label", text, box) for text, box in drawn]
    layers = [counters, rung_ops, arrows, badges, chits, [(lkey if memo is not None else None, names)], numbers, plates]
    return Pieces(layers, glyphs, label_sizes, reach, occupied)


def _stack(h, units: list[dict], lay: Layout, s: float, size: int, sides: dict, shapes: dict, npx: int) -> tuple:
    """One hex's stack (the first unit listed on top, those under it peeking out up and to the right, at
    most three drawn): the counters' pastes, their glyphs, the top id's plate, the ids' font sizes, the
    highest row drawn, the arrows, the count badge, the hex number over them and the box they cover."""
    pad = C.sprite_pad(size)
    step = s * 0.16
    badge_size = max(9, round(s * 0.4))
    cx, cy = lay.center(h)
    cy += s * COUNTER_DY
    box = (cx - size * 0.7, cy - size * 0.7, cx + size * 0.7, cy + size * 0.7)
    shown = units[:3]
    n = len(shown)
    pos = [(cx + step * i, cy - step * i) for i in range(n)]
    ops, glyphs, plates, sizes = [], [], [], []
    reach = float("inf")
    for i in range(n - 1, -1, -1):  # the first unit listed is the top of the stack: drawn last
        args = _counter_args(shown[i], sides, size, shapes)
        top_text = args[3]
        fs, ink, plate = _id_boxes(size, top_text)
        sizes.append(fs)
        x, y = pos[i]
        ink_spr, ix, iy = counter_ink(args)
        yy = round(y - size / 2) - pad + iy
        reach = min(reach, yy)
        ops.append((ink_spr, (round(x - size / 2) - pad + ix, yy), ink_spr))
        if i == 0 and top_text:  # the top counter's id is drawn whole
            ox, oy = round(x - size / 2), round(y - size / 2)  # the bare plate the id is drawn on:
            px0, py0, px1, py1 = plate       # its ink with a margin of face round it
            ix0, iy0, ix1, iy1 = ink
            glyphs.append(("id", top_text, (ox + ix0 - 1, oy + iy0 - 1, ox + ix1 + 1, oy + iy1 + 1)))
            glyphs.append(("plate", top_text, (ox + px0, oy + py0, ox + px1, oy + py1)))
            spr = counter_plate(args, (pad + px0, pad + py0, pad + px1, pad + py1))
            plates.append((spr, (ox + px0, oy + py0), spr))
    badge = []
    if len(units) > 1:
        # the count sits off the stack's top right corner
        text = f"+{len(units) - 3}" if len(units) > 3 else str(len(units))
        bw = _badge_width(text, badge_size)
        fx = pos[0][0] + size / 2
        bx, by = pos[-1]
        bx = max(bx + size / 2, fx + bw / 2 - size * 0.1)
        by = by - size / 2
        reach = min(reach, by - (badge_size + 4) / 2 - 2)
        badge = badge_ops(bx, by, text, badge_size, (170, 28, 28) if len(units) > 3 else (30, 28, 24))
    dirs = []
    for u in units:
        for key in _as_list(_look(u).get("arrows")):
            side = _parse_side(key)
            dname = _side_dir(h, side) if side is not None else None
            if dname is not None and dname not in dirs:
                dirs.append(dname)
    hx, hy = lay.center(h)
    arrows = []
    for dname in dirs:
        spr, ox, oy = kept(C.ready_arrow_sprite, s, dname)
        reach = min(reach, round(hy) + oy)
        arrows.append((spr, (round(hx) + ox, round(hy) + oy), spr))
    reach = min(reach, hy - s * 0.84 - 4)  # (its halo's top, and a margin)
    number = S.stamp_ops((hx, hy - s * 0.84), str(h), npx, S.HEX_NUMBER, "ma", 2, S.NUMBER_HALO)
    return ops, glyphs, plates, sizes, reach, arrows, badge, number, box


# --------------------------------------------------------------------------
# Encoding
# --------------------------------------------------------------------------
def encode(img: Image.Image) -> bytes:
    """PNG bytes, deterministic (no metadata; 256 colours, on a palette worked out from a sample of the
    picture and checked against it, else the full quantize: render/png.py)."""
    return png.encode(img)


__all__ = ["render_view", "render_view_info", "compose", "compose_info", "markers", "pieces", "Pieces", "encode", "clear_cache", "legend_for",
           "Legend", "RenderInfo", "Frame", "frame_for", "focus_hexes"]
