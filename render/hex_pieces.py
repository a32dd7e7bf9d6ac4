"""The view layer's pieces: counters (sprites from ``render.counters``) with their badges, marker masks,
cracked hexsides, place names."""
from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import counters as C
from render import style as S
from render.geometry import SQRT3, Layout, hex_corners
from render.disk_cache import as_is, dump_image, dump_kept, load_image, load_kept, pack_get, pack_note
from render.hex_common import _as_list, _fingerprint, _lerp, _number_width, _parse_hex, _side_color, _trimmed


# --------------------------------------------------------------------------
# View layer
# --------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _hex_mask(s: float, alpha: int) -> Image.Image:
    w, h = math.ceil(2 * s) + 2, math.ceil(SQRT3 * s) + 2
    big = Image.new("L", (w * 4, h * 4), 0)
    ImageDraw.Draw(big).polygon(hex_corners(w * 2, h * 2, s * 4), fill=alpha)
    return big.reduce(4)


def _draw_crack(d: ImageDraw.ImageDraw, a, b, s: float) -> None:
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


@lru_cache(maxsize=8)
def _hatch_mask(s: float) -> Image.Image:
    """A hex of diagonal stripes over a faint tint (a held city level)."""
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


def _look(u: dict) -> dict:
    """A unit's generic marks (engine/display.py)."""
    look = u.get("look")
    return look if isinstance(look, dict) else {}


def _unit_texts(u: dict) -> tuple[str, str, str]:
    """Top, bottom and middle texts of a unit's counter."""
    kind = str(u.get("type") or "")
    uid = str(u.get("id") or "")
    look = _look(u)
    if kind == "leader":
        uid = uid or str(u.get("name") or "")  # the id, as orders name it (CONVENTIONS: ids on the counters)
    bottom = str(look["bottom"]) if look.get("bottom") is not None else str(u.get("ratings") or "")
    return uid, bottom, str(look.get("beside") or "")


def shape_of(u: dict, shapes: dict) -> str:
    """The symbol a unit is drawn with: its type's shape in the ruleset's declaration, else its type."""
    kind = str(u.get("type") or "")
    shape = shapes.get(kind) if isinstance(shapes, dict) else None
    return shape if isinstance(shape, str) else kind


def _counter(u: dict, sides: dict, size: int, shapes: dict | None = None) -> Image.Image:
    return C.counter_sprite(*_counter_args(u, sides, size, shapes))


def counter_ink(args: tuple) -> tuple[Image.Image, int, int]:
    """The counter sprite of ``args`` (:func:`_counter_args`) cut to its ink (hex_common._trimmed), and the
    cut's corner in the sprite: what a map pastes. From memory, the render's pack (issue 26: a new
    process takes it from there, without the whole sprite nor finding its ink), or cut; told to the pack."""
    got = _counter_ink(args)
    pack_note(("ink",) + args, got, dump_kept)
    return got


@lru_cache(maxsize=2048)
def _counter_ink(args: tuple) -> tuple[Image.Image, int, int]:
    got = load_kept(pack_get(("ink",) + args), "RGBA")
    return got if isinstance(got, tuple) else _trimmed(C.counter_sprite(*args))


def counter_plate(args: tuple, box: tuple) -> Image.Image:
    """The part ``box`` of the counter sprite of ``args`` (its id's plate, pasted again over whatever is
    drawn after): from memory, the render's pack, or cut; told to the pack."""
    got = _counter_plate(args, box)
    pack_note(("plate", box) + args, got, dump_image)
    return got


@lru_cache(maxsize=2048)
def _counter_plate(args: tuple, box: tuple) -> Image.Image:
    got = load_image(pack_get(("plate", box) + args), "RGBA")
    return got if got is not None else _trimmed(C.counter_sprite(*args), box)[0]


def _counter_args(u: dict, sides: dict, size: int, shapes: dict | None = None) -> tuple:
    """The arguments of the counter sprite (counters.counter_sprite) unit ``u`` is drawn with."""
    top, bottom, mid = _unit_texts(u)
    kind = str(u.get("type") or "")
    shape = shape_of(u, shapes or {})
    look = _look(u)
    # ``real`` and a hollow drop or a faded symbol exist only in the owner's own view; without
    # them the counter looks the same whatever the truth
    real = None if u.get("real") is None else bool(u["real"])
    drop = look.get("drop") if look.get("drop") in ("full", "hollow") else ""
    glow = bool(look.get("glow"))
    ready = bool(_as_list(look.get("arrows")))
    fill = _side_color(sides, u.get("side"))
    if u.get("face_down"):
        # a hidden piece (engine/modes/pieces.py): greyed, its id `?n` and "face down" to the others;
        # to its owner and the moderator its own id with "hidden"
        fill = S.mix(fill, (128, 128, 128), 0.6)
        bottom = "face down" if kind == "face-down" else "hidden"
    band = look.get("band") if look.get("band") in ("lit", "plain") else ""
    return (size, fill, shape, top, bottom, mid, bool(u.get("reduced")), bool(u.get("disrupted")), real, drop, glow,
            ready, band, bool(look.get("fade")))


def _badge_width(text: str, size: int) -> float:
    return max(size + 4, S.text_length(text, size) + 8)


def _badge(img: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int,
           fill=(30, 28, 24), ink=(255, 255, 255)) -> None:
    for src, xy, mask in badge_ops(x, y, text, size, fill, ink):
        S.paste(img, src, xy, mask)


def badge_ops(x: float, y: float, text: str, size: int, fill=(30, 28, 24), ink=(255, 255, 255)) -> list:
    """A stack's count badge as pastes (S.stamp_ops'): its rounded plate, then its text."""
    h = size + 4
    w = _badge_width(text, size)
    x0, y0 = round(x - w / 2), round(y - h / 2)
    plate = _badge_plate(round(x + w / 2) - x0, round(y + h / 2) - y0, h // 2, fill)
    return [(plate, (x0, y0), plate)] + S.stamp_ops((x, y + 0.5), text, size, ink, "mm")


@lru_cache(maxsize=256)
def _badge_plate(w: int, h: int, radius: int, fill) -> Image.Image:
    """A badge's rounded plate (drawn unsmoothed: pasted, the same pixels as drawn in place)."""
    im = Image.new("RGBA", (w + 1, h + 1), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle([0, 0, w, h], radius, fill=tuple(fill) + (255,), outline=(255, 255, 255, 255),
                                         width=1)
    return im


LABEL_FRAC = 0.62        # a place name's font size, as a fraction of the hex size ...
# ... and where it may go in its hex (fractions of the hex size from its centre), in the order tried:
# the middle, then the bands left free by the hex numbers below and above it (issue 26)
LABEL_SPOTS = [(0.0, 0.1), (-0.5, 0.1), (0.5, 0.1), (0.0, 0.66), (-0.5, 0.66), (0.5, 0.66), (0.0, -0.2),
               (-0.5, -0.2), (0.5, -0.2)]


def number_box(lay: Layout, h, npx: int) -> tuple[float, float, float, float]:
    """The box of hex ``h``'s number drawn at ``npx`` px (centred at the hex's top)."""
    cx, cy = lay.center(h)
    tw = _number_width(str(h), npx)
    top = cy - lay.s * 0.84
    return cx - tw / 2 - 1, top, cx + tw / 2 + 1, top + npx * 1.05


@lru_cache(maxsize=1024)
def _label_extent(text: str, px: int) -> tuple[int, int, int, int]:
    """The box of a place name's ink and halo at ``px``, from the point it is centred on."""
    return S.font(px).getbbox(text, anchor="mm", stroke_width=2)


def _meets(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


_frames: dict = {}   # (map, layout, npx) -> frame_texts(...)


def frame_texts(lay: Layout, hexmap, npx: int) -> tuple[tuple, tuple]:
    """What a window's hex numbers and place names take, the same for every view (issue 26: worked out once
    a window, not for every map): each hex's number in the window and its box (:func:`number_box`, the
    hexes in order), and each place name with the spots (font size, x, y, box of its ink and halo) where it
    covers no hex number, in the order tried (:func:`_labels` takes the first that runs under no counter).
    From memory, the render's pack (render/disk_cache.py), or worked out."""
    key = (_fingerprint(hexmap), lay, npx)
    got = _frames.get(key)
    packed = ("frame-texts", npx, repr(hexmap.labels))
    if got is None:
        got = _frame_texts_valid(pack_get(packed))
        if got is None:
            got = _frame_texts(lay, hexmap, npx)
        if len(_frames) > 64:
            _frames.clear()
        _frames[key] = got
    pack_note(packed, got, as_is)
    return got


def _frame_texts_valid(raw):
    """A pack's value for :func:`frame_texts` (None: not one)."""
    if not (isinstance(raw, tuple) and len(raw) == 2 and all(isinstance(x, tuple) for x in raw)):
        return None
    return raw


def _frame_texts(lay: Layout, hexmap, npx: int) -> tuple[tuple, tuple]:
    numbers = tuple((str(h), number_box(lay, h, npx)) for h in sorted(hexmap.hexes) if lay.contains(h))
    boxes = [b for _, b in numbers]
    s = lay.s
    spots = []
    for lab in hexmap.labels:
        if not isinstance(lab, dict):
            continue
        h = _parse_hex(lab.get("hex"))
        text = str(lab.get("text", ""))
        if h is None or not text or not lay.contains(h):
            continue
        cx, cy = lay.center(h)
        l, t, r, b = _label_extent(text, round(s * LABEL_FRAC))
        reach = r - l + s * 2  # the numbers the name may meet, wherever it goes
        near = [n for n in boxes if abs((n[0] + n[2]) / 2 - cx) < reach and abs(n[1] - cy) < s * 2]
        cands = []
        for px in range(round(s * LABEL_FRAC), min(npx, round(s * LABEL_FRAC)) - 1, -1):
            for dx, dy in LABEL_SPOTS:
                l, t, r, b = _label_extent(text, px)
                x = min(max(round(cx + dx * s), lay.margin + 4 - l), lay.map_w - lay.margin - 4 - r)
                y = round(cy + dy * s)
                box = (x + l, y + t, x + r, y + b)
                if not any(_meets(box, o) for o in near):
                    cands.append((px, x, y, box))
        spots.append((text, tuple(cands)))
    return numbers, tuple(spots)


def _labels(img: Image.Image, lay: Layout, hexmap, occupied, npx: int) -> list[tuple[str, tuple]]:
    """The map's place names, each where it covers no hex number (issue 26) and runs under no counter:
    in its hex's middle, a little aside, or in the band the hex numbers leave free below or above it, at
    its size or smaller (down to a hex number's); a name that fits nowhere is left out. Their text and
    boxes (ink and halo)."""
    ops, out = label_ops(lay, hexmap, occupied, npx)
    for src, xy, mask in ops:
        S.paste(img, src, xy, mask)
    return out


def label_ops(lay: Layout, hexmap, occupied, npx: int) -> tuple[list, list[tuple[str, tuple]]]:
    """:func:`_labels` as pastes (S.stamp_ops'), and the names' texts and boxes."""
    ops, out = [], []
    for text, cands in frame_texts(lay, hexmap, npx)[1]:
        for px, x, y, box in cands:
            if not any(_meets(box, o) for o in occupied):
                ops += S.stamp_ops((x, y), text, px, S.LABEL, "mm", 2, (246, 243, 232))
                out.append((text, box))
                break
    return ops, out
