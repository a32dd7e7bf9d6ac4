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
from render.hex_stacks import Pieces, markers, pieces  # noqa: F401  (a map's pieces as layered pastes)
from render.hex_pieces import (_hex_mask, _draw_crack, _hatch_mask, _ring_mask, _unit_texts, _counter,
    _badge_width, _badge, _labels, _look, number_box, shape_of, frame_texts, _frames, _counter_args, counter_ink,
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
    glyphs += header_band(img, below, lay.width, view, lines, hp, band) if clear_top else \
        _header(img, lay.width, view, lines, hp)
    if beyond:
        img = _footer(img, lay, view, beyond, hp, top=below.height)
    _memo.flush()
    info = RenderInfo(img.width, img.height, min(label_sizes) if label_sizes else None, hp, npx, fr.mode,
                      fr.window, off, tuple(glyphs))
    return img, lay, focus, info


# --------------------------------------------------------------------------
# Encoding
# --------------------------------------------------------------------------
def encode(img: Image.Image) -> bytes:
    """PNG bytes, deterministic (no metadata; 256 colours, on a palette worked out from a sample of the
    picture and checked against it, else the full quantize: render/png.py)."""
    return png.encode(img)


__all__ = ["render_view", "render_view_info", "compose", "compose_info", "markers", "pieces", "Pieces", "encode", "clear_cache", "legend_for",
           "Legend", "RenderInfo", "Frame", "frame_for", "focus_hexes"]
