"""The hex map's drawing primitives: terrain, hexsides (walls, gates, towers), tunnels, rotated text."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.hexgrid import Hex
from render import style as S
from render.geometry import hex_corners
from render.hex_common import _lerp


# --------------------------------------------------------------------------
# Drawing primitives (the base layer's and the legend's)
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


def _hex_number_px(s: float) -> int:
    return max(8, round(s * 0.4))
