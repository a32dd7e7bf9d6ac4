"""Shared by the hex map's modules: sizes, the frame (what part of a map is drawn), small readers of a view."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image

from engine.hexgrid import OPPOSITE, Hex, HexError, Hexside
from render import counters as C
from render import style as S
from render.disk_cache import DiskMemo, dump_kept, kept_image, pack_note
from render.geometry import Layout

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

_lock = threading.Lock()


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
    beyond: tuple = field(default=(), compare=False, repr=False)  # a focus crop's counters left out (hex_crop._beyond)


CAP_RATIO = 0.71       # the bundled font's capital height, as a fraction of its size
ID_SAMPLE = "OA12"     # a long counter id: the crop is chosen for ids this wide to stay legible


MAX_ASPECT = 1.3       # a focus crop is at most this many times as tall as it is wide
MAX_IMAGE_W = 1100     # ... and at most this wide


def _fingerprint(hexmap) -> tuple:
    return (hexmap.id, tuple(hexmap.columns), tuple(hexmap.rows), len(hexmap.hexes), len(hexmap.hexsides),
            hexmap.title)


def _lerp(a, b, t):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _layout(fr: Frame, leg: "Legend | None", top: int = 0) -> Layout:
    c0, c1, r0, r1 = fr.window
    return Layout(s=fr.s, c0=c0, c1=c1, r0=r0, r1=r1, margin=MARGIN, panel_w=PANEL_W if leg is not None else 0,
                  min_height=(top + PANEL_MIN_H + leg.height() + PAD) if leg is not None else 0, top=top)


# --------------------------------------------------------------------------
# The side panel's sizes
# --------------------------------------------------------------------------
PAD = 16
PANEL_MIN_H = 420      # room kept above the legend for the dynamic part of the panel


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


# --------------------------------------------------------------------------
# The header band's sizes
# --------------------------------------------------------------------------
HEADER_TARGET_PX = LEGIBLE_PX + 1   # the header's font, at PREVIEW_W wide


RESULT_SCALE = 1.45   # the result of a game over is drawn this much larger than the header's other lines
HEADER_MIN_W = 824    # the narrowest focus crop: a header's lines are counted at this width before the crop


# --------------------------------------------------------------------------
# What a map works out from the font for each hex number and counter id, kept on disk (issue 26: a new
# process's first map otherwise measures every hex number and draws every id's mask again to place them)
# --------------------------------------------------------------------------
_memo = DiskMemo("measures")


def _number_width(text: str, px: int) -> float:
    """The width of the hex number ``text`` at ``px`` (style.text_length, remembered on disk)."""
    return _memo.get(("n", text, px), lambda: S.text_length(text, px))


def _id_boxes(size: int, text: str) -> tuple[int, tuple, tuple]:
    """A ``size`` px counter's id ``text``: its font size, the box of its ink and of its plate
    (counters.py's id_font_size, id_ink, id_plate, remembered on disk)."""
    return _memo.get(("id", size, text), lambda: (C.id_font_size(size, text), C.id_ink(size, text),
                                                  C.id_plate(size, text)))


def kept(fn, *args):
    """``fn(*args)`` (a marker chit, a mask, rungs or an arrow across a hexside: drawn supersampled, the
    same every time) from memory, from the render's pack, from its file in the cache folder, or drawn
    (disk_cache.kept_image); told to the render's pack."""
    got = _kept(fn, *args)
    pack_note(("kept", fn.__module__, fn.__qualname__, *args), got, dump_kept)
    return got


@lru_cache(maxsize=256)
def _kept(fn, *args):
    return kept_image((fn.__module__, fn.__qualname__, *args), lambda: fn(*args),
                      ("kept", fn.__module__, fn.__qualname__, *args))


kept.cache_clear = _kept.cache_clear  # type: ignore[attr-defined]


_trims: dict = {}


def _trimmed(spr: Image.Image, box: tuple | None = None) -> tuple[Image.Image, int, int]:
    """``spr`` cut to the box of its ink (its alpha's; with ``box``, cut to ``box``), and the cut's corner
    in ``spr``: a counter's sprite has a clear margin as wide as a third of it on every side (for its
    shadow and marks), and pasting the clear part changes nothing but costs as much. Kept while the
    sprite lives (it is held here with its cut)."""
    key = (id(spr), box)
    got = _trims.get(key)
    if got is None or got[0] is not spr:
        if len(_trims) > 512:  # at most some 10 MB held
            _trims.clear()
        b = box or spr.getbbox(alpha_only=True) or (0, 0, 1, 1)  # an RGBA sprite: its alpha's box
        got = _trims[key] = (spr, spr.crop(b), b[0], b[1])
    return got[1], got[2], got[3]
