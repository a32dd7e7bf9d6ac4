"""A hex map's pieces as layered pastes (issue 40): what goes over the under-layer (counters and their
stacks' counts, rungs, arrows, marker chits, place names, hex numbers, the ids' plates), worked out as
``(source, corner, mask)`` pastes in the order :func:`render.hexmap.compose` draws them, a chunk a hex, so
that the PNG map and the HTML record (render/record.py) draw the same pieces from one rule."""
from __future__ import annotations

from dataclasses import dataclass

from engine.hexgrid import Hex, Hexside
from render import counters as C
from render import style as S
from render.geometry import Layout
from render.hex_common import (COUNTER_DY, _as_list, _id_boxes, _lerp, _parse_hex, _parse_side, _side_dir, kept)
from render.hex_legend import _style_of
from render.hex_pieces import _badge_width, _counter_args, _look, badge_ops, counter_ink, counter_plate, label_ops


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
