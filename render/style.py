"""Colours, fonts and small drawing helpers shared by the renderer.

Only Pillow's bundled font is used (``ImageFont.load_default(size=N)``, Aileron
Regular, basic layout), so the output never depends on the fonts installed on
the machine.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageColor, ImageDraw, ImageFont

from render.disk_cache import as_is as _as_is, load_image as _load_image, pack_get as _pack_get, pack_note as _pack_note

RGB = tuple[int, int, int]

# --- terrain --------------------------------------------------------------
TERRAIN: dict[str, RGB] = {
    "clear": (226, 228, 196),
    "slope": (214, 204, 160),
    "rough": (200, 190, 152),
    "forest": (178, 202, 146),
    "mountain": (176, 160, 138),
    "city": (200, 196, 188),
    # river terrains
    "river": (122, 168, 204),
    "riverbank": (208, 222, 190),
    "grove": (170, 198, 138),
    "watchtower": (186, 178, 164),
    "landing": (196, 180, 150),
}
TERRAIN_UNKNOWN: RGB = (230, 225, 215)
# City levels L1..L7: graded stone, L1 darkest, L7 (the top) lightest.
CITY_LEVELS: dict[int, RGB] = {
    1: (150, 144, 136),
    2: (166, 160, 151),
    3: (182, 176, 167),
    4: (198, 193, 184),
    5: (214, 210, 201),
    6: (230, 227, 219),
    7: (247, 245, 240),
}
TERRAIN_INK: dict[str, RGB] = {
    "slope": (150, 132, 88),
    "rough": (120, 108, 84),
    "forest": (58, 104, 52),
    "mountain": (104, 86, 66),
    "grove": (66, 116, 54),
    "river": (64, 112, 160),
    "watchtower": (84, 74, 62),
    "landing": (104, 72, 40),
}

BACKGROUND: RGB = (236, 230, 212)     # around the map
FRAME: RGB = (92, 84, 70)
HEX_LINE: RGB = (150, 146, 124)
HEX_NUMBER: RGB = (70, 66, 56)
NUMBER_HALO: RGB = (246, 243, 232)
LABEL: RGB = (44, 38, 30)
ROAD_EDGE: RGB = (128, 100, 62)
ROAD: RGB = (214, 188, 134)
WALL: RGB = (52, 46, 40)
WALL_FACE: RGB = (120, 112, 100)
GATE_WOOD: RGB = (150, 96, 44)
TUNNEL: RGB = (40, 36, 32)
ZONE: RGB = (255, 214, 0)
ZONE_EDGE: RGB = (196, 140, 0)
FOCUS: RGB = (214, 40, 40)
HELD_LEVEL: RGB = (190, 20, 20)       # hatching over a held city level (a view's ``levels``)
ROAD_FREE: RGB = (120, 116, 104)      # a ringed hex nobody holds (a view's ``road``)

PANEL_BG: RGB = (246, 242, 230)
HEADER_BG: RGB = (44, 40, 34)          # the band over the map: turn, phase, who acts
HEADER_INK: RGB = (246, 242, 230)
HEADER_MUTED: RGB = (196, 188, 170)
PANEL_INK: RGB = (36, 32, 26)
PANEL_MUTED: RGB = (110, 102, 88)
PANEL_RULE: RGB = (196, 186, 162)

NEUTRAL_SIDE: RGB = (110, 110, 110)


def color(value, default: RGB = NEUTRAL_SIDE) -> RGB:
    """A side colour from the view (``"#8b1a1a"``); anything unusable gives
    ``default``."""
    if isinstance(value, str):
        try:
            c = ImageColor.getrgb(value)
            return (c[0], c[1], c[2])
        except ValueError:
            return default
    if isinstance(value, (tuple, list)) and len(value) >= 3:
        try:
            return (int(value[0]) & 255, int(value[1]) & 255, int(value[2]) & 255)
        except (TypeError, ValueError):
            return default
    return default


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` toward ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t),
            round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def luminance(c: RGB) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def ink_on(c: RGB) -> RGB:
    """Black or white, whichever reads better on ``c``."""
    return (255, 255, 255) if luminance(c) < 150 else (20, 18, 16)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=max(6, int(size)))


def fit_font(text: str, max_width: float, size: int, min_size: int = 6):
    """The largest font no bigger than ``size`` that fits ``text`` in
    ``max_width`` (down to ``min_size``), and the text, cut if even the smallest
    font is too wide."""
    s = int(size)
    while s > min_size and text_length(text, s) > max_width:
        s -= 1
    if text_length(text, s) <= max_width:
        return font(s), text
    while len(text) > 1 and text_length(text, s) > max_width:
        text = text[:-1]
    return font(s), text


def text_length(text: str, size: int) -> float:
    """The width (px) of ``text`` at font size ``size``: from memory, the render's pack (issue 26: a
    header's long lines cost a new process some 0.1 ms each, measured again and again to clip them),
    or measured; told to the render's pack."""
    got = _text_length(text, size)
    _pack_note(("len", text, size), got, _as_is)
    return got


@lru_cache(maxsize=8192)
def _text_length(text: str, size: int) -> float:
    got = _pack_get(("len", text, size))
    return got if isinstance(got, float) else font(size).getlength(text)


text_length.cache_clear = _text_length.cache_clear  # type: ignore[attr-defined]


TEXT_MAGIC = b"palantir-text 1\n"


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, anchor: str, stroke: int):
    """Coverage mask of ``text`` (and, with ``stroke``, of its halo) and the
    offset of the mask's corner from the anchor point: from memory, from the
    disk cache beside the base layers and sprites (render/disk_cache.py: one
    ``.text`` file a string, with its sizes and CRC, named by a digest of the
    renderer's source and the arguments; written under a unique name and
    renamed into place; one that does not load is drawn again), or drawn."""
    import hashlib

    from render.disk_cache import _renderer_version, cache_dir, frame, store_file, unframe

    got = _load_packed(_pack_get(("text", text, size, anchor, stroke)))
    if got is not None:
        return got
    folder = cache_dir()
    if folder is None:
        return _draw_text_mask(text, size, anchor, stroke)
    key = repr((_renderer_version(), text, int(size), anchor, int(stroke)))
    path = folder / (hashlib.sha256(key.encode()).hexdigest()[:40] + ".text")
    if (got := unframe(path, TEXT_MAGIC, "<IIiiII")) is not None:
        (w, h, l, t, halo), body = got
        n = w * h
        if len(body) == n * (2 if halo else 1):
            m = Image.frombytes("L", (w, h), bytes(body[:n]))
            return m, (Image.frombytes("L", (w, h), bytes(body[n:])) if halo else None), l, t
    got = _draw_text_mask(text, size, anchor, stroke)
    m, halo_img, l, t = got
    body = m.tobytes() + (halo_img.tobytes() if halo_img is not None else b"")
    store_file(folder, path, frame(TEXT_MAGIC, "<IIiiII", (m.width, m.height, l, t, halo_img is not None), body))
    return got


def _dump_packed(got) -> tuple:
    """A text mask (:func:`_text_mask`'s) as the render's pack keeps it (render/disk_cache.py)."""
    m, halo, l, t = got
    return (m.width, m.height, l, t, m.tobytes(), halo.tobytes() if halo is not None else None)


def _load_packed(raw):
    """:func:`_dump_packed`'s text mask (None: not one)."""
    try:
        w, h, l, t, m, halo = raw
    except (TypeError, ValueError):
        return None
    if not (isinstance(w, int) and isinstance(h, int) and w > 0 and h > 0 and isinstance(m, bytes)
            and len(m) == w * h and (halo is None or isinstance(halo, bytes) and len(halo) == w * h)):
        return None
    return _load_image(("L", w, h, m)), _load_image(("L", w, h, halo)) if halo is not None else None, l, t


def _draw_text_mask(text: str, size: int, anchor: str, stroke: int):
    f = font(size)
    l, t, r, b = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    w, h = max(1, r - l), max(1, b - t)
    m = Image.new("L", (w, h), 0)
    ImageDraw.Draw(m).text((-l, -t), text, font=f, anchor=anchor, fill=255)
    halo = None
    if stroke:
        halo = Image.new("L", (w, h), 0)
        ImageDraw.Draw(halo).text((-l, -t), text, font=f, anchor=anchor, fill=255, stroke_width=stroke, stroke_fill=255)
    return m, halo, l, t


def stamp(img, xy, text: str, size: int, fill, anchor: str = "la", stroke: int = 0, stroke_fill=None) -> None:
    """Draw ``text`` on ``img`` like ``ImageDraw.text`` (position rounded to
    whole pixels), from a cache of rendered masks: the same strings drawn
    again cost only a paste."""
    for src, pos, mask in stamp_ops(xy, text, size, fill, anchor, stroke, stroke_fill):
        paste(img, src, pos, mask)


def stamp_ops(xy, text: str, size: int, fill, anchor: str = "la", stroke: int = 0, stroke_fill=None) -> list:
    """What :func:`stamp` pastes, in order: (colour, corner, mask) (its halo, then its ink), for a
    picture kept as pastes (render/record.py draws each step's pieces from them)."""
    if not text:
        return []
    got = _text_mask(text, int(size), anchor, int(stroke))
    _pack_note(("text", text, int(size), anchor, int(stroke)), got, _dump_packed)
    m, halo, l, t = got
    pos = (round(xy[0]) + l, round(xy[1]) + t)
    out = []
    if halo is not None and stroke_fill is not None:
        out.append((stroke_fill, pos, halo))
    out.append((fill, pos, m))
    return out


def paste(img: Image.Image, src, xy: tuple[int, int], mask: Image.Image) -> None:
    """``img.paste(src, xy, mask)`` (``src`` an image of ``img``'s mode or RGBA on RGB, or a colour of
    ``img``'s mode), by Pillow's core paste, the same call ``Image.paste`` makes once it has checked its
    arguments (issue 26: those checks cost as much as pasting a counter): for a picture being drawn
    (writable, loaded); anything else goes through ``Image.paste``."""
    if img.readonly or not isinstance(src, (tuple, Image.Image)) or (
            isinstance(src, Image.Image) and src.mode != img.mode and not (img.mode == "RGB" and src.mode == "RGBA")):
        img.paste(src, xy, mask)
        return
    w, h = mask.size if not isinstance(src, Image.Image) else src.size
    x, y = xy
    img.im.paste(src.im if isinstance(src, Image.Image) else src, (x, y, x + w, y + h), mask.im)
