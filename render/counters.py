"""SPI-style counters and marker chits, drawn once and cached as RGBA sprites.

A sprite is keyed only on what it shows (size, colour, type, texts, flags), so
two units that look the same share one sprite and the cache stays small.
Shapes are drawn supersampled and reduced (anti-aliased); text is drawn at the
final size so it stays crisp.
"""
from __future__ import annotations

import hashlib
import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.disk_cache import frame, store_file, unframe
from render.style import RGB, font, fit_font, ink_on, mix

SS = 4  # supersampling of sprite shapes

# The symbol library, keyed by shape (the vocabulary: engine/display.py; a ruleset's declaration says
# which shape each of its unit types is drawn with)
SHAPES = ("infantry", "cavalry", "archer", "leader", "club", "thrower", "tower", "ram", "pot", "beast", "flag")
BOXED = ("infantry", "cavalry", "archer", "club")   # shapes drawn in a box (the box of an unknown shape)

# The marks' colours (shared with the legend)
DROP_INK: RGB = (40, 28, 12)          # a drop's rim
DROP_FILL: RGB = (214, 142, 28)
DROP_HOLLOW: RGB = (250, 246, 236)    # ... a hollow one's inside
GLOW: RGB = (236, 40, 20)             # a glowing counter
BOLT: RGB = (255, 214, 40)
READY: RGB = (34, 168, 64)            # a counter's green rim and its arrows
BAND_GOLD: RGB = (240, 196, 52)       # a band on the counter's corner
BAND_FIRE: RGB = (255, 92, 24)        # ... lit: its fiery glow
BAND_EDGE: RGB = (70, 44, 0)
RUNGS_WOOD: RGB = (196, 136, 60)      # rungs leaning across a hexside
RUNGS_EDGE: RGB = (44, 28, 10)


def _pad(size: int) -> int:
    return max(3, round(size * 0.22))


# --------------------------------------------------------------------------
# Type symbols, drawn in the box (x0, y0, x1, y1) at supersampled scale
# --------------------------------------------------------------------------
def _box(d: ImageDraw.ImageDraw, b, ink, lw):
    d.rectangle(b, outline=ink, width=lw)


def _symbol(d: ImageDraw.ImageDraw, kind: str, b, ink: RGB, lw: int) -> None:
    x0, y0, x1, y1 = b
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if kind == "infantry":
        _box(d, b, ink, lw)
        d.line([(x0, y0), (x1, y1)], fill=ink, width=lw)
        d.line([(x0, y1), (x1, y0)], fill=ink, width=lw)
    elif kind == "cavalry":
        _box(d, b, ink, lw)
        d.line([(x0, y1), (x1, y0)], fill=ink, width=lw)
    elif kind == "archer":
        _box(d, b, ink, lw)
        # a bow drawn to the right: arc, string, arrow
        bx0, bx1 = x0 + w * 0.22, x0 + w * 0.62
        by0, by1 = y0 + h * 0.14, y1 - h * 0.14
        d.arc([bx0 - (bx1 - bx0), by0, bx1, by1], start=-90, end=90, fill=ink, width=lw)
        d.line([(bx0, by0), (bx0, by1)], fill=ink, width=max(1, lw // 2))
        d.line([(x0 + w * 0.14, cy), (x1 - w * 0.12, cy)], fill=ink, width=lw)
        t = h * 0.16
        d.polygon([(x1 - w * 0.06, cy), (x1 - w * 0.06 - t * 1.4, cy - t), (x1 - w * 0.06 - t * 1.4, cy + t)], fill=ink)
    elif kind == "leader":
        r = min(w, h) * 0.58
        pts = []
        for i in range(10):
            a = math.radians(-90 + 36 * i)
            rr = r if i % 2 == 0 else r * 0.42
            pts.append((cx + rr * math.cos(a), cy + 0.06 * h + rr * math.sin(a)))
        d.polygon(pts, fill=ink)
    elif kind == "thrower":
        # wheels, frame, throwing arm with a stone
        wr = h * 0.14
        base_y = y1 - wr
        d.line([(x0 + w * 0.12, base_y), (x1 - w * 0.12, base_y)], fill=ink, width=lw)
        for fx in (0.24, 0.76):
            d.ellipse([x0 + w * fx - wr, base_y - wr, x0 + w * fx + wr, base_y + wr], outline=ink, width=max(1, lw // 2))
        px, py = cx, y0 + h * 0.42
        d.line([(x0 + w * 0.3, base_y), (px, py), (x0 + w * 0.7, base_y)], fill=ink, width=lw)
        ax, ay = x0 + w * 0.12, y0 + h * 0.08
        d.line([(x1 - w * 0.2, y0 + h * 0.62), (ax, ay)], fill=ink, width=lw)
        sr = h * 0.12
        d.ellipse([ax - sr, ay - sr * 0.2, ax + sr * 1.6, ay + sr * 1.6], fill=ink)
    elif kind == "tower":
        tw0, tw1 = cx - w * 0.2, cx + w * 0.2
        top = y0 - h * 0.02
        d.polygon([(tw0, top + h * 0.18), (tw1, top + h * 0.18), (tw1 + w * 0.05, y1), (tw0 - w * 0.05, y1)],
                  outline=ink, width=lw)
        mw = (tw1 - tw0) / 5
        for i in (0, 2, 4):
            d.rectangle([tw0 + i * mw, top, tw0 + (i + 1) * mw, top + h * 0.2], fill=ink)
        for fy in (0.45, 0.7):
            d.line([(tw0 - w * 0.02, y0 + h * fy), (tw1 + w * 0.02, y0 + h * fy)], fill=ink, width=max(1, lw // 2))
        # drawbridge
        d.line([(tw1, y0 + h * 0.32), (tw1 + w * 0.22, y0 + h * 0.5)], fill=ink, width=lw)
    elif kind == "ram":
        wr = h * 0.13
        base_y = y1 - wr
        d.rectangle([x0 + w * 0.02, cy - h * 0.16, x1 - w * 0.22, cy + h * 0.1], fill=ink)
        # a beast-headed ram
        d.polygon([(x1 - w * 0.24, cy - h * 0.32), (x1, cy - h * 0.03), (x1 - w * 0.24, cy + h * 0.2)], fill=ink)
        d.line([(x0 + w * 0.1, y0 + h * 0.02), (x0 + w * 0.3, cy - h * 0.16)], fill=ink, width=max(1, lw // 2))
        d.line([(x1 - w * 0.42, y0 + h * 0.02), (x1 - w * 0.36, cy - h * 0.16)], fill=ink, width=max(1, lw // 2))
        d.line([(x0 + w * 0.1, y0 + h * 0.02), (x1 - w * 0.42, y0 + h * 0.02)], fill=ink, width=max(1, lw // 2))
        for fx in (0.15, 0.45, 0.72):
            d.ellipse([x0 + w * fx - wr, base_y - wr, x0 + w * fx + wr, base_y + wr], fill=ink)
    elif kind == "pot":
        pw = w * 0.56
        rim = cy - h * 0.02
        d.chord([cx - pw / 2, rim - h * 0.45, cx + pw / 2, y1 - h * 0.02], start=0, end=180, fill=ink)
        d.line([(cx - pw / 2 - w * 0.06, rim), (cx + pw / 2 + w * 0.06, rim)], fill=ink, width=lw)
        # steam
        for fx in (-0.16, 0.0, 0.16):
            sx = cx + w * fx
            d.arc([sx - w * 0.05, y0 - h * 0.02, sx + w * 0.05, y0 + h * 0.2], start=90, end=270, fill=ink, width=max(1, lw // 2))
            d.arc([sx - w * 0.05, y0 + h * 0.18, sx + w * 0.05, y0 + h * 0.4], start=-90, end=90, fill=ink, width=max(1, lw // 2))
    elif kind == "beast":
        d.ellipse([x0 + w * 0.12, y0 + h * 0.16, x1 - w * 0.24, y1 - h * 0.2], fill=ink)
        d.ellipse([x1 - w * 0.4, y0, x1 - w * 0.06, y0 + h * 0.55], fill=ink)
        d.line([(x1 - w * 0.1, y0 + h * 0.35), (x1 - w * 0.02, y1 - h * 0.05)], fill=ink, width=lw * 2)
        for fx in (0.22, 0.38, 0.56, 0.68):
            d.rectangle([x0 + w * fx - w * 0.04, y1 - h * 0.3, x0 + w * fx + w * 0.04, y1], fill=ink)
        # howdah
        d.rectangle([x0 + w * 0.26, y0, x0 + w * 0.56, y0 + h * 0.18], outline=ink, width=max(1, lw // 2))
    elif kind == "club":
        _box(d, b, ink, lw)
        # a club across the box
        d.line([(x0 + w * 0.2, y1 - h * 0.18), (x1 - w * 0.3, y0 + h * 0.3)], fill=ink, width=lw * 2)
        r = h * 0.17
        d.ellipse([x1 - w * 0.3 - r, y0 + h * 0.3 - r, x1 - w * 0.3 + r, y0 + h * 0.3 + r], fill=ink)
    elif kind == "flag":
        # a black swallow-tailed flag with a white tree and stars
        px = x0 + w * 0.16
        d.line([(px, y0 - h * 0.08), (px, y1 + h * 0.04)], fill=ink, width=lw)
        d.ellipse([px - lw, y0 - h * 0.08 - lw, px + lw, y0 - h * 0.08 + lw], fill=ink)
        fx1, fy0, fy1 = x1 - w * 0.02, y0 - h * 0.02, y1 - h * 0.12
        flag = [(px, fy0), (fx1, fy0), (fx1 - w * 0.14, (fy0 + fy1) / 2), (fx1, fy1), (px, fy1)]
        d.polygon(flag, fill=(14, 14, 14, 255), outline=ink, width=max(1, lw // 2))
        tx = px + (fx1 - w * 0.14 - px) * 0.5
        white = (250, 250, 250, 255)
        tw = max(1, lw // 2)
        d.line([(tx, fy1 - h * 0.1), (tx, fy0 + h * 0.22)], fill=white, width=tw)
        for dy, dx in ((0.3, 0.2), (0.48, 0.15)):
            yb = fy0 + h * (dy + 0.22)
            d.line([(tx - w * dx, yb - h * 0.16), (tx, yb), (tx + w * dx, yb - h * 0.16)], fill=white, width=tw)
        # the stars above the tree
        sr = h * 0.05
        for sx in (-0.12, 0.0, 0.12):
            cxs, cys = tx + w * sx, fy0 + h * (0.12 if sx else 0.08)
            d.ellipse([cxs - sr, cys - sr, cxs + sr, cys + sr], fill=white)
    else:
        _box(d, b, ink, lw)


def _droplet(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB, lw: int) -> None:
    """A drop of radius ``r`` (its round part), point up, centred near ``cx, cy``."""
    cy += r * 0.25
    tip = (cx, cy - r * 2.05)
    a = math.radians(28)
    left = (cx - r * math.cos(a), cy - r * math.sin(a))
    right = (cx + r * math.cos(a), cy - r * math.sin(a))
    # a halo, then the drop
    o = lw * 1.6
    d.ellipse([cx - r - o, cy - r - o, cx + r + o, cy + r + o], fill=(255, 255, 255, 255))
    d.polygon([(tip[0], tip[1] - o * 1.6), (left[0] - o, left[1]), (right[0] + o, right[1])], fill=(255, 255, 255, 255))
    edge = DROP_INK + (255,)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=edge)
    d.polygon([tip, left, right], fill=edge)
    ri = r - lw * 1.1
    d.ellipse([cx - ri, cy - ri, cx + ri, cy + ri], fill=fill + (255,))
    d.polygon([(tip[0], tip[1] + lw * 2.2), (left[0] + lw * 1.2, left[1] + lw * 0.4),
               (right[0] - lw * 1.2, right[1] + lw * 0.4)], fill=fill + (255,))


def _band(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, worn: bool, k: int, face: RGB) -> None:
    """A gold band with a dark rim; lit (``worn``), thick and ringed by a fiery glow with fire inside it;
    plain, a thinner band, hollow."""
    if worn:
        for i in range(4):  # the glow, widest and faintest first
            e = r * (1.55 - 0.12 * i)
            d.ellipse([cx - e, cy - e, cx + e, cy + e], fill=BAND_FIRE + (70 + 45 * i,))
    band = r * (0.45 if worn else 0.4)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=BAND_EDGE + (255,))
    d.ellipse([cx - r + k, cy - r + k, cx + r - k, cy + r - k], fill=BAND_GOLD + (255,))
    ri = r - band
    d.ellipse([cx - ri - k, cy - ri - k, cx + ri + k, cy + ri + k], fill=BAND_EDGE + (255,))
    if worn:
        d.ellipse([cx - ri, cy - ri, cx + ri, cy + ri], fill=BAND_FIRE + (255,))
    else:
        d.ellipse([cx - ri, cy - ri, cx + ri, cy + ri], fill=face + (255,))


def _bolt(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, lw: int) -> None:
    """A lightning mark in a dark disc of radius ``r``."""
    d.ellipse([cx - r - lw, cy - r - lw, cx + r + lw, cy + r + lw], fill=(255, 255, 255, 255))
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(40, 10, 6, 255))
    pts = [(cx + r * 0.22, cy - r * 0.78), (cx - r * 0.42, cy + r * 0.1), (cx - r * 0.02, cy + r * 0.1),
           (cx - r * 0.22, cy + r * 0.8), (cx + r * 0.46, cy - r * 0.16), (cx + r * 0.04, cy - r * 0.16)]
    d.polygon(pts, fill=BOLT + (255,))


# --------------------------------------------------------------------------
# Counters
# --------------------------------------------------------------------------
# --------------------------------------------------------------------------
# The disk cache (issue 26: a process's first map otherwise pays for drawing
# each sprite): one raw RGBA file a sprite, with its size and CRC, in the base
# layers' folder (render/disk_cache.py: cache_dir, [render] cache_dir), named by
# a digest of the renderer's source and of everything the sprite is drawn from.
# Written under a unique name and renamed into place; a file that does not load
# (cut short, another size, a bad CRC) is drawn again and rewritten.
# --------------------------------------------------------------------------
SPRITE_MAGIC = b"palantir-sprite 1\n"


def _sprite_load(path, size: tuple[int, int]) -> Image.Image | None:
    got = unframe(path, SPRITE_MAGIC, "<III")
    if got is None:
        return None
    (w, h), body = got
    if (w, h) != size or len(body) != w * h * 4:
        return None
    return Image.frombytes("RGBA", (w, h), bytes(body))


def _sprite_store(folder, path, img: Image.Image) -> None:
    body = img.tobytes()
    store_file(folder, path, frame(SPRITE_MAGIC, "<III", (img.width, img.height), body))


def _on_disk(key: tuple, size: tuple[int, int], draw) -> Image.Image:
    """The sprite ``key`` (``size`` px) from the disk cache, or ``draw()`` (and stored there). (A map takes
    what it pastes of a sprite from its pack: render/hex_pieces.py, counter_ink and counter_plate.)"""
    from render.disk_cache import _renderer_version, cache_dir

    folder = cache_dir()
    if folder is None:
        return draw()
    path = folder / (hashlib.sha256(repr((_renderer_version(), key)).encode()).hexdigest()[:40] + ".sprite")
    got = _sprite_load(path, size)
    if got is None:
        got = draw()
        _sprite_store(folder, path, got)
    return got


@lru_cache(maxsize=2048)
def counter_sprite(size: int, fill: RGB, kind: str, top: str, bottom: str, mid: str = "",
                   reduced: bool = False, disrupted: bool = False,
                   real: bool | None = None, drop: str = "", glow: bool = False,
                   ready: bool = False, band: str = "", fade: bool = False) -> Image.Image:
    """The sprite :func:`draw_counter` draws, from memory, the disk cache, or drawn."""
    args = (int(size), tuple(int(c) for c in fill), str(kind), str(top), str(bottom), str(mid), bool(reduced),
            bool(disrupted), real if real is None else bool(real), str(drop), bool(glow), bool(ready), str(band),
            bool(fade))
    full = size + 2 * _pad(size)
    return _on_disk(("counter",) + args, (full, full), lambda: draw_counter(*args))


def draw_counter(size: int, fill: RGB, kind: str, top: str, bottom: str, mid: str = "",
                 reduced: bool = False, disrupted: bool = False,
                 real: bool | None = None, drop: str = "", glow: bool = False,
                 ready: bool = False, band: str = "", fade: bool = False) -> Image.Image:
    """An RGBA sprite of a ``size`` px counter of symbol ``kind`` (a shape of ``SHAPES``; anything else
    a box with its first three letters), with a margin of ``_pad(size)`` on every side for its shadow
    and badges. The marks are engine/display.py's: ``mid`` is the text beside the symbol; ``real``
    (None: unknown) puts a REAL / DUMMY band at the bottom in place of ``bottom``; ``fade`` greys the
    symbol; ``drop`` is "" (none), "full" or "hollow": a drop on the right edge; ``glow`` rims the
    counter in a red glow with a lightning mark; ``ready`` rims it green; ``band`` is "" , "lit" (a
    fiery band on the top right corner) or "plain" (a plain hollow band on the bottom right corner)."""
    pad = _pad(size)
    full = size + 2 * pad
    k = SS
    big = Image.new("RGBA", (full * k, full * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    face = mix(fill, (255, 255, 255), 0.52) if reduced else fill
    ink = ink_on(face)
    edge = mix(fill, (0, 0, 0), 0.55)
    x0, y0 = pad * k, pad * k
    x1, y1 = x0 + size * k, y0 + size * k
    rad = size * k * 0.13
    sh = max(1, round(size / 22)) * k
    if glow:
        # a red glow all round (drawn under the counter, in the margin)
        g = pad * k * 0.85
        steps = 5
        for i in range(steps):
            e = g * (1 - i / steps)
            a = round(60 + 160 * (i + 1) / steps)
            d.rounded_rectangle([x0 - e, y0 - e, x1 + e, y1 + e], rad + e, fill=GLOW + (a,))
    d.rounded_rectangle([x0 + sh, y0 + sh, x1 + sh, y1 + sh], rad, fill=(0, 0, 0, 110))
    d.rounded_rectangle([x0, y0, x1, y1], rad, fill=face + (255,), outline=edge + (255,), width=max(k, round(size * k / 28)))
    if ready:
        rw = max(2 * k, round(size * k / 11))
        d.rounded_rectangle([x0 - rw // 2, y0 - rw // 2, x1 + rw // 2, y1 + rw // 2], rad + rw // 2,
                            outline=READY + (255,), width=rw)
    if reduced:
        # a diagonal stripe across the top right corner marks the reduced side
        st = size * k * 0.17
        d.polygon([(x1 - size * k * 0.44, y0), (x1 - size * k * 0.44 + st, y0), (x1, y0 + size * k * 0.44 - st),
                   (x1, y0 + size * k * 0.44)], fill=mix(fill, (0, 0, 0), 0.1) + (255,))
    lw = max(k, round(size * k / 19))
    if kind == "leader":
        sb = (x0 + size * k * 0.3, y0 + size * k * 0.3, x1 - size * k * 0.3, y0 + size * k * 0.72)
    elif kind in BOXED or kind not in SHAPES:
        sb = (x0 + size * k * 0.2, y0 + size * k * 0.35, x1 - size * k * 0.2, y0 + size * k * 0.67)
    else:
        sb = (x0 + size * k * 0.18, y0 + size * k * 0.31, x1 - size * k * 0.18, y0 + size * k * 0.71)
    if mid:
        sb = (x0 + size * k * 0.08, sb[1], x0 + size * k * 0.6, sb[3])
    sym_ink = mix(ink, face, 0.6) if fade else ink
    _symbol(d, kind, sb, sym_ink + (255,), lw)
    if disrupted:
        r = size * k * 0.18
        bx, by = x0 + r * 0.4, y0 + r * 0.4
        d.ellipse([bx - r, by - r, bx + r, by + r], fill=(242, 194, 48, 255), outline=(60, 40, 0, 255), width=k)
    if real is not None:
        bw = max(k, round(size * k / 28))
        d.rounded_rectangle([x0 + bw, y1 - size * k * 0.29, x1 - bw, y1 - bw], rad * 0.8,
                            fill=((40, 150, 60, 255) if real else (70, 70, 70, 255)))
    if drop:
        _droplet(d, x1 - size * k * 0.02, y0 + size * k * 0.5, size * k * 0.13,
                 DROP_HOLLOW if drop == "hollow" else DROP_FILL, max(k, round(size * k / 30)))
    if glow:
        _bolt(d, x1 - size * k * 0.02, y0 + size * k * 0.5, size * k * 0.16, max(k, round(size * k / 30)))
    if band in ("lit", "plain"):
        rr = size * k * (0.2 if band == "lit" else 0.17)
        _band(d, x1 - rr * 0.6, (y0 + rr * 0.6) if band == "lit" else (y1 - rr * 0.6), rr,
              band == "lit", max(k, round(size * k / 40)), face)
    img = big.reduce(k)
    d = ImageDraw.Draw(img)
    cx = pad + size / 2
    inner = size * 0.9
    if real is not None:
        f, t = fit_font("REAL" if real else "DUMMY", inner * 0.92, round(size * 0.24))
        d.text((cx, pad + size * 0.855), t, font=f, fill=(255, 255, 255), anchor="mm")
    elif bottom:
        f, t = fit_font(bottom, inner, round(size * 0.28))
        d.text((cx, pad + size * 0.85), t, font=f, fill=ink, anchor="mm")
    if mid:
        f, t = fit_font(mid, size * 0.34, round(size * 0.36))
        d.text((pad + size * 0.78, pad + size * 0.52), t, font=f, fill=ink, anchor="mm")
    if kind not in SHAPES:
        f, t = fit_font((kind or "?")[:3].upper(), size * 0.5, round(size * 0.22))
        d.text((cx, pad + size * 0.51), t, font=f, fill=ink, anchor="mm")
    if disrupted:
        r = size * 0.18
        bx, by = pad + r * 0.4, pad + r * 0.4
        d.text((bx, by + 0.5), "D", font=font(round(r * 1.4)), fill=(30, 20, 0), anchor="mm")
    if top:
        # last, the id on a plate of the bare face: no badge, stripe or ring runs under it (issue 26)
        fs, t = id_fit(top, inner, round(size * ID_FRAC))
        px0, py0, px1, py1 = id_plate(size, top)
        d.rectangle([pad + px0, pad + py0, pad + px1 - 1, pad + py1 - 1], fill=face + (255,))
        m, ml, mt = id_mask(t, fs)
        img.paste(ink + (255,), (pad + round(size / 2) + ml, pad + round(size * ID_Y) + mt), m)
    return img


ID_Y = 0.17      # ... centred this fraction of its size below its top
ID_FRAC = 0.38   # a counter's top text (its unit id) is drawn this fraction of the counter's size high


def id_font_size(size: int, text: str) -> int:
    """The font size (px) the top text ``text`` of a ``size`` px counter is drawn with:
    ``ID_FRAC`` of the size, smaller only if the text would not fit."""
    return id_fit(text, size * 0.9, round(size * ID_FRAC))[0]


# --------------------------------------------------------------------------
# Ids: the bundled font, with its I (a bare stem, read as a 1 at phone size)
# redrawn serifed, bars top and bottom, on the pixel grid like the font's
# hinted stems (issue 26), and every other glyph drawn a little bolder, with a
# stroke of ID_STROKE px round it: the font's 2 px stems come out 1.1 px at a
# phone's 550 px and the digits thinned into letters (5, 3, 9 read as S, D).
# A redrawn 5 (square-shouldered), a footed 1, wider letter spacing, a gap
# between letters and digits, a larger id, a thicker I and other fonts (DejaVu
# Sans, bold and condensed) were tried and read worse (tesseract, the busiest
# phase maps at 550 px; strokes of 0.25-0.35 px read best, 0.5 px worse).
# --------------------------------------------------------------------------
ID_STROKE = 0.35  # px
_I_W = 0.44      # a serifed I's bars, as a fraction of the font size
_I_SIDE = 0.09   # ... and the space either side of them
_I_BAR = 1.5     # ... and their thickness, in stems


def _id_advance(ch: str, px: float) -> float:
    if ch == "I":
        return px * (_I_W + 2 * _I_SIDE)
    return font(int(px)).getlength(ch)


@lru_cache(maxsize=4096)
def id_length(text: str, px: int) -> float:
    """The width (px) of the id ``text`` drawn at font size ``px``."""
    return sum(_id_advance(ch, px) for ch in text)


def id_fit(text: str, max_width: float, size: int, min_size: int = 6) -> tuple[int, str]:
    """Like ``style.fit_font`` for an id: the largest size no bigger than ``size`` at which ``text``
    fits ``max_width`` (down to ``min_size``), and the text, cut if even that is too wide."""
    s = int(size)
    while s > min_size and id_length(text, s) > max_width:
        s -= 1
    while len(text) > 1 and id_length(text, s) > max_width:
        text = text[:-1]
    return s, text


@lru_cache(maxsize=64)
def _metrics(px: int) -> tuple[int, int]:
    """The bundled font's capital height and stem width (whole px) at size ``px``, from its H."""
    f = font(px)
    l, t, r, b = f.getbbox("H", anchor="ls")
    m = Image.new("L", (r - l + 4, b - t + 4), 0)
    ImageDraw.Draw(m).text((2 - l, 2 - t), "H", font=f, fill=255, anchor="ls")
    row = [m.getpixel((x, m.height // 4)) for x in range(m.width)]  # above the bar: the left stem
    stem = 0
    while stem < len(row) and row[stem] < 128:
        stem += 1
    end = stem
    while end < len(row) and row[end] >= 128:
        end += 1
    return -t, max(1, end - stem)


def _glyph(d: ImageDraw.ImageDraw, ch: str, x: float, base: int, px: int) -> None:
    """The id glyph ``ch`` drawn white at font size ``px``, its advance box from ``x``, on the baseline
    ``base`` (whole px: the redrawn strokes lie on the pixel grid, crisp like the font's hinted ones)."""
    cap, sw = _metrics(px)
    if ch == "I":
        x0 = round(x + px * _I_SIDE)
        x1 = x0 + max(3 * sw, round(px * _I_W))
        xm = (x0 + x1 - sw) // 2
        bw = max(sw, round(sw * _I_BAR))
        d.rectangle([x0, base - cap, x1 - 1, base - cap + bw - 1], fill=255)
        d.rectangle([x0, base - bw, x1 - 1, base - 1], fill=255)
        d.rectangle([xm, base - cap, xm + sw - 1, base - 1], fill=255)
    else:
        d.text((x, base), ch, font=font(px), fill=255, anchor="ls", stroke_width=ID_STROKE, stroke_fill=255)


@lru_cache(maxsize=4096)
def id_mask(text: str, px: int) -> tuple[Image.Image, int, int]:
    """The coverage mask of the id ``text`` at font size ``px`` and its corner's offset (whole px) from
    the point it is centred on (the middle of its advance, halfway up the font's ascent and descent:
    Pillow's ``anchor="mm"``)."""
    px = int(px)
    asc, desc = font(px).getmetrics()
    w = id_length(text, px)
    m = Image.new("L", (math.ceil(w) + 4, asc + desc + 4), 0)
    d = ImageDraw.Draw(m)
    x, base = 2.0, 2 + asc
    for ch in text:
        _glyph(d, ch, x, base, px)
        x += _id_advance(ch, px)
    return m, -round(2 + w / 2), -round(2 + asc - (asc - desc) / 2)


@lru_cache(maxsize=1024)
def id_ink(size: int, text: str) -> tuple[int, int, int, int]:
    """The box (whole px, from the counter's top left corner) of the ink of the id ``text`` of a
    ``size`` px counter."""
    fs, t = id_fit(text, size * 0.9, round(size * ID_FRAC))
    m, ml, mt = id_mask(t, fs)
    l, tp, r, b = m.getbbox() or (0, 0, 1, 1)
    ox, oy = round(size / 2) + ml, round(size * ID_Y) + mt
    return ox + l, oy + tp, ox + r, oy + b


@lru_cache(maxsize=1024)
def id_plate(size: int, text: str) -> tuple[int, int, int, int]:
    """The box (whole px, from the counter's top left corner) of the plate the id ``text`` of a
    ``size`` px counter is drawn on: its ink and a margin, inside the counter's edge."""
    l, tp, r, b = id_ink(size, text)
    m_ = max(1, round(id_font_size(size, text) * 0.12))
    edge = max(1, round(size / 28)) + 1
    return max(edge, l - m_), max(edge, tp - m_), min(size - edge, r + m_), b + m_


def sprite_pad(size: int) -> int:
    return _pad(size)


# --------------------------------------------------------------------------
# Marker chits
# --------------------------------------------------------------------------
MARKER_STYLES = ("flame", "rungs", "head", "star", "cross")   # chits (engine/display.py); "crack" is a hexside's
MARKER_BG = {"flame": (252, 232, 168), "rungs": (236, 222, 196), "head": (226, 226, 226),
             "star": (226, 214, 246), "cross": (250, 214, 196)}


@lru_cache(maxsize=64)
def marker_sprite(size: int, kind: str) -> Image.Image:
    """A ``size`` px marker chit in style ``kind`` (of ``MARKER_STYLES``; anything else: a chit with its
    first four letters)."""
    pad = max(2, round(size * 0.12))
    full = size + 2 * pad
    k = SS
    big = Image.new("RGBA", (full * k, full * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    x0, y0 = pad * k, pad * k
    s = size * k
    x1, y1 = x0 + s, y0 + s
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    sh = max(1, round(size / 18)) * k
    rad = s * 0.16
    bg = MARKER_BG.get(kind, (240, 236, 224))
    d.rounded_rectangle([x0 + sh, y0 + sh, x1 + sh, y1 + sh], rad, fill=(0, 0, 0, 100))
    d.rounded_rectangle([x0, y0, x1, y1], rad, fill=bg + (255,), outline=(60, 50, 40, 255), width=max(k, round(s / 20)))
    if kind == "flame":
        flame = [(cx, y0 + s * 0.08), (cx + s * 0.14, y0 + s * 0.3), (cx + s * 0.26, y0 + s * 0.22),
                 (cx + s * 0.34, y0 + s * 0.6), (cx + s * 0.24, y1 - s * 0.1), (cx - s * 0.24, y1 - s * 0.1),
                 (cx - s * 0.34, y0 + s * 0.58), (cx - s * 0.22, y0 + s * 0.34), (cx - s * 0.12, y0 + s * 0.44)]
        d.polygon(flame, fill=(214, 58, 20, 255))
        inner = [(cx, y0 + s * 0.38), (cx + s * 0.14, y0 + s * 0.6), (cx + s * 0.12, y1 - s * 0.14),
                 (cx - s * 0.12, y1 - s * 0.14), (cx - s * 0.14, y0 + s * 0.64)]
        d.polygon(inner, fill=(255, 200, 40, 255))
    elif kind == "rungs":
        ink = (96, 60, 24, 255)
        lw = max(k, round(s / 11))
        d.line([(cx - s * 0.2, y1 - s * 0.1), (cx - s * 0.06, y0 + s * 0.1)], fill=ink, width=lw)
        d.line([(cx + s * 0.16, y1 - s * 0.1), (cx + s * 0.3, y0 + s * 0.1)], fill=ink, width=lw)
        for i in range(1, 5):
            t = i / 5
            ya = y1 - s * 0.1 - t * s * 0.8
            xa = cx - s * 0.2 + t * s * 0.14
            d.line([(xa, ya), (xa + s * 0.36, ya)], fill=ink, width=max(k, lw * 2 // 3))
    elif kind == "head":
        skin = (206, 176, 140, 255)
        ink = (40, 30, 20, 255)
        r = s * 0.27
        hy = cy - s * 0.06
        d.ellipse([cx - r, hy - r * 1.1, cx + r, hy + r * 1.1], fill=skin, outline=ink, width=k * 2)
        # closed eyes and a grim mouth
        for ex in (-0.35, 0.35):
            d.line([(cx + r * ex - r * 0.2, hy - r * 0.15), (cx + r * ex + r * 0.2, hy - r * 0.15)], fill=ink, width=k * 2)
        d.line([(cx - r * 0.3, hy + r * 0.5), (cx + r * 0.3, hy + r * 0.5)], fill=ink, width=k * 2)
        # blood drips
        for dx in (-0.25, 0.15):
            d.polygon([(cx + r * dx - s * 0.04, hy + r * 1.0), (cx + r * dx + s * 0.04, hy + r * 1.0),
                       (cx + r * dx, y1 - s * 0.06)], fill=(170, 20, 20, 255))
    elif kind == "star":  # a gold star
        import math
        pts = []
        for i in range(10):
            r = s * (0.4 if i % 2 == 0 else 0.17)
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((cx + r * math.cos(a), cy + s * 0.03 + r * math.sin(a)))
        d.polygon(pts, fill=(226, 168, 20, 255), outline=(110, 70, 10, 255), width=k * 2)
    elif kind == "cross":  # a red cross
        ink = (150, 24, 24, 255)
        lw = max(k, round(s / 9))
        d.line([(x0 + s * 0.2, y0 + s * 0.2), (x1 - s * 0.2, y1 - s * 0.2)], fill=ink, width=lw)
        d.line([(x1 - s * 0.2, y0 + s * 0.2), (x0 + s * 0.2, y1 - s * 0.2)], fill=ink, width=lw)
    img = big.reduce(k)
    if kind not in MARKER_STYLES:
        d = ImageDraw.Draw(img)
        f, t = fit_font((kind or "?")[:4].upper(), size * 0.86, round(size * 0.34))
        d.text((pad + size / 2, pad + size / 2), t, font=f, fill=(40, 30, 20), anchor="mm")
    return img


def marker_pad(size: int) -> int:
    return max(2, round(size * 0.12))


# --------------------------------------------------------------------------
# Hexside decorations: rungs leaning across a hexside, a ready counter's arrow
# --------------------------------------------------------------------------
# screen angle (degrees, y down) from a flat-topped hex's centre to the middle of each side
SIDE_ANGLE = {"n": -90.0, "ne": -30.0, "se": 30.0, "s": 90.0, "sw": 150.0, "nw": 210.0}


def _frame(s: float, direction: str):
    a = math.radians(SIDE_ANGLE[direction])
    return (math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))


def _crop(big: Image.Image, k: int, o: float) -> tuple[Image.Image, int, int]:
    img = big.reduce(k)
    box = img.getbbox() or (0, 0, 1, 1)
    off = round(o / k)
    return img.crop(box), box[0] - off, box[1] - off


@lru_cache(maxsize=64)
def rungs_sprite(s: float, direction: str) -> tuple[Image.Image, int, int]:
    """Rungs standing in a hex of size ``s`` and leaning across its ``direction`` side;
    with the offset of the sprite's corner from the hex centre."""
    k = SS
    half = math.ceil(s * 1.3)
    big = Image.new("RGBA", (2 * half * k, 2 * half * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    o = half * k
    (ux, uy), (px, py) = _frame(s, direction)
    sk = s * k
    d0, d1, wd = 0.46 * sk, 0.98 * sk, 0.15 * sk

    def at(t, w):
        return (o + ux * t + px * w, o + uy * t + py * w)

    rail = max(round(1.5 * k), round(sk * 0.075))
    edge = rail + 2 * max(k, round(sk * 0.035))
    rungs = [d0 + (d1 - d0) * (i + 0.5) / 5 for i in range(5)]
    for col, lw in ((RUNGS_EDGE + (255,), edge), (RUNGS_WOOD + (255,), rail)):
        for w in (-wd, wd):
            d.line([at(d0, w * 0.8), at(d1, w)], fill=col, width=lw)
        for t in rungs:
            f = 0.8 + 0.2 * (t - d0) / (d1 - d0)
            d.line([at(t, -wd * f), at(t, wd * f)], fill=col, width=max(k, lw * 2 // 3))
        # round the rails' ends
        for w in (-wd, wd):
            for t, ww in ((d0, w * 0.8), (d1, w)):
                x, y = at(t, ww)
                r = lw / 2
                d.ellipse([x - r, y - r, x + r, y + r], fill=col)
    return _crop(big, k, o)


@lru_cache(maxsize=64)
def ready_arrow_sprite(s: float, direction: str) -> tuple[Image.Image, int, int]:
    """A green arrow from a ready counter's hex (size ``s``) toward its
    ``direction`` side; with the offset of the sprite's corner from the hex centre."""
    k = SS
    half = math.ceil(s * 1.3)
    big = Image.new("RGBA", (2 * half * k, 2 * half * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    o = half * k
    (ux, uy), (px, py) = _frame(s, direction)
    sk = s * k

    def at(t, w):
        return (o + ux * t + px * w, o + uy * t + py * w)

    t0, t1, w = 0.64 * sk, 1.1 * sk, 0.23 * sk
    tri = [at(t1, 0), at(t0, -w), at(t0 + (t1 - t0) * 0.28, 0), at(t0, w)]
    ow = max(k, round(sk * 0.03))
    d.line(tri + [tri[0], tri[1]], fill=(255, 255, 255, 255), width=ow * 3, joint="curve")
    d.polygon(tri, fill=READY + (255,), outline=(10, 60, 20, 255), width=ow)
    return _crop(big, k, o)


@lru_cache(maxsize=16)
def drop_sprite(size: int, hollow: bool = False) -> Image.Image:
    """The drop mark on its own (``size`` px high), for the legend."""
    k = SS
    w = size
    big = Image.new("RGBA", (w * k, w * k), (0, 0, 0, 0))
    _droplet(ImageDraw.Draw(big), w * k / 2, w * k * 0.6, w * k * 0.26, DROP_HOLLOW if hollow else DROP_FILL,
             max(k, round(w * k / 14)))
    return big.reduce(k)
