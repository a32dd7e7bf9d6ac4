"""The header and footer bands of a map as drawn, kept in memory (issue 26: the map post's warm render
pastes them, drawn once for a text, in place of stamping each line's texts again): the footer's band (it
fills its band first, so it is the same whatever ran into it) and the header's, drawn on the under-layer's
band, pasted only when nothing drawn since reaches it (render/hexmap.py decides) and when the header
draws nothing under its band. In memory only (see :func:`header_band`)."""
from __future__ import annotations

import weakref
from collections import OrderedDict

from PIL import Image, ImageDraw

from render import style as S
from render.geometry import Layout
from render.hex_common import MARGIN, _as_dict, _side_color, _Stamper, _lock
from render.hex_crop import _Beyond
from render.hex_header import _ARROW, _arrow, _beyond_text, _clip_px, _header, _header_height, _line_h

_bands: "OrderedDict[tuple, tuple]" = OrderedDict()  # drawn header and footer bands (issue 26: the map post's
BANDS_KEPT = 16                                      # warm render pastes them, drawn once a text)


def footer_band(width: int, px: int, top: int, fh: int, items: tuple) -> Image.Image:
    """:func:`_footer`'s band, ``width`` by ``fh`` from row ``top`` down: for each (direction, text, colour)
    of ``items`` an arrow and its line (the band is filled first: what it covers is the same whatever ran
    into it). Drawn where it goes (a text's place is rounded half to even: 12.5 and 1013.5 do not round
    alike), then cut out."""
    key = ("footer", width, px, top, fh, items)
    with _lock:
        hit = _bands.get(key)
    if hit is not None:
        return hit[0]
    band = Image.new("RGB", (width, top + fh), S.HEADER_BG)
    d = ImageDraw.Draw(band)
    txt = _Stamper(band)
    lh = _line_h(px)
    x0, x1 = round(px * 0.6), width - round(px * 0.6)
    y = top + round(px * 0.45)
    f = S.font(px)
    for direction, text, col in items:
        _arrow(d, x0 + px * 0.5, y + lh / 2, px * 0.5, direction, col)
        txt.text((x0 + px * 1.4, y + lh / 2), _clip_px(text, px, x1 - x0 - px * 1.4), font=f, fill=S.HEADER_INK,
                 anchor="lm")
        y += lh
    band = band.crop((0, top, width, top + fh))
    _keep(key, (band,))
    return band


def _keep(key, value) -> None:
    with _lock:
        _bands[key] = value
        while len(_bands) > BANDS_KEPT:
            _bands.popitem(last=False)


HEADER_SPILL = 8  # rows under the header band checked, when it is first drawn, for anything it drew there


def header_band(img: Image.Image, below: Image.Image, width: int, view: dict, lines: list, px: int,
                top: int) -> list:
    """:func:`_header` drawn on ``img``, whose rows above ``top`` are still ``below``'s (the caller drew
    nothing there): the band drawn on ``below``'s once for these lines and this view's header (issue 26),
    then pasted. A header that draws under ``top`` is drawn every time. Not kept in the render's pack
    (render/disk_cache.py), nor the footer's: a new turn's bands are half a MiB each, and written with the
    window's pack at every map they made it the most written part of the disk cache (1.2 GiB over a scripted
    game's 230 maps), while a restarted process's first map draws them again in no time it shows
    (bench_render's cold render: 72.1 ms against 72.9 with them in the pack)."""
    what = (width, px, top, repr(lines), repr([view.get(k) for k in (
        "seat", "sides", "active", "over", "deadline", "result")]))
    key = ("header", id(below)) + what
    with _lock:
        hit = _bands.get(key)
    if hit is None or hit[0]() is not below:
        band = below.crop((0, 0, width, top + HEADER_SPILL))
        under = band.crop((0, top, width, top + HEADER_SPILL)).tobytes()
        drawn = _header(band, width, view, lines, px)
        spilt = band.crop((0, top, width, top + HEADER_SPILL)).tobytes() != under
        hit = (weakref.ref(below), None if spilt else band.crop((0, 0, width, top)), tuple(drawn))
        _keep(key, hit)
    if hit[1] is None:
        return _header(img, width, view, lines, px)
    img.paste(hit[1], (0, 0))
    return list(hit[2])


def _footer(img: Image.Image, lay: Layout, view: dict, beyond: list[_Beyond], px: int,
            top: int | None = None) -> Image.Image:
    """The image with a band under it naming the counters of the action off the crop, each
    direction with an arrow, and the same arrows on the map's edge, where those counters lie.
    With ``top``, the image already has room for the band from ``top`` down (:func:`footer_height`):
    the band is drawn there, in place (no copy of the whole picture), over whatever ran into it."""
    sides = _as_dict(view.get("sides"))
    fh = _header_height(px, len(beyond))
    if top is None:
        out = Image.new("RGB", (img.width, img.height + fh), S.HEADER_BG)
        out.paste(img, (0, 0))
        top = img.height
    else:
        out = img
    items = tuple((g.direction, _beyond_text(view, g), _side_color(sides, g.units[0].get("side"))) for g in beyond)
    out.paste(footer_band(out.width, px, top, fh, items), (0, top))
    d = ImageDraw.Draw(out)
    r = MARGIN * 0.42
    top, bottom = lay.top + MARGIN * 0.5, lay.map_h - MARGIN * 0.5
    for g, (_, _, col) in zip(beyond, items):
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
