"""The part of a map's view layer under its counters (issue 26: the map post's warm render): the set-up
zone shaded and outlined, with its hex numbers on a halo; the city levels held, hatched; the ringed hexes;
gate control; cracked hexsides. It changes only when those do (a set-up, a level taken, a gate won), not
with every move, so the base layer with it drawn on is kept in a small in-memory cache keyed on the base
layer's key and on exactly what is drawn (:func:`plan`): the next map of the same window copies it and
draws only the counters and what goes over them. It is kept on disk too, beside the base layers and like
them (render/hex_base.py: raw RGB with its CRC; an ``.under`` file named by the base's file name and what
is drawn): a new process's first map of a game whose zone, levels and gates have not changed loads it in
place of the base, and draws none of it."""
from __future__ import annotations

import hashlib
from collections import OrderedDict

from PIL import Image, ImageDraw

from engine.hexgrid import Hex, Hexside
from render import style as S
from render.geometry import Layout
from render import hex_base
from render.hex_common import Frame, _as_dict, _as_list, _layout, _lock, _parse_hex, _parse_side, _side_color, kept
from render.hex_pieces import _draw_crack, _hatch_mask, _hex_mask, _ring_mask
from render.hex_terrain import _draw_gate_leaves, _hex_number_px

UNDERLAY_CACHE_SIZE = 4   # full-size images kept (each as big as its base layer)
_cache: "OrderedDict[tuple, tuple[Image.Image, Layout, int]]" = OrderedDict()


def plan(view: dict, hexmap, lay: Layout, cracks: list[Hexside]) -> tuple:
    """What the underlay draws, in order: the zone's hexes, the held levels' hexes, the ringed hexes
    (hex, colour, held), the gates (hexside, colour) and the cracked hexsides in the window."""
    sides = _as_dict(view.get("sides"))
    zone = tuple(h for h in (_parse_hex(z) for z in _as_list(view.get("zone"))) if h is not None and lay.contains(h))
    levels = {lv for lv in _as_list(view.get("levels")) if isinstance(lv, int) and not isinstance(lv, bool) and lv > 0}
    held = tuple(h for h, info in hexmap.hexes.items() if info.level in levels and lay.contains(h)) if levels else ()
    road = []
    for key, owner in sorted(_as_dict(view.get("road")).items(), key=lambda kv: str(kv[0])):
        h = _parse_hex(key)
        if h is None or not lay.contains(h):
            continue
        taken = bool(isinstance(owner, str) and owner)
        road.append((h, _side_color(sides, owner) if taken else S.ROAD_FREE, taken))
    gates = []
    for key, owner in _as_dict(view.get("gates")).items():
        side = _parse_side(key)
        if side is not None and any(lay.contains(x) for x in side.hexes()):
            gates.append((side, _side_color(sides, owner)))
    return zone, held, tuple(road), tuple(gates), tuple(cracks)


def underlay(hexmap, frame: Frame, leg, top: int, what: tuple) -> tuple[Image.Image, Layout, int]:
    """The base layer of ``frame`` (hex_base._base's arguments) with ``what`` (:func:`plan`) drawn on it,
    its layout and where its legend's text starts: the base itself when there is nothing to draw, else
    from memory, from disk, or drawn (and kept in both). The caller copies it before drawing on it."""
    if not any(what):
        return hex_base._base(hexmap, frame.window, frame.s, leg, frame=frame, top=top)
    key = (hex_base._fingerprint(hexmap), frame.window, frame.s, frame.panel, leg, top, what)
    with _lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    lay = _layout(frame, leg, top)
    folder = hex_base.cache_dir()
    path = None
    got = None
    if folder is not None:
        name = repr((hex_base._disk_name(hexmap, frame, leg, top), what))
        path = folder / (hashlib.sha256(name.encode()).hexdigest()[:40] + ".under")
        loaded = hex_base._load(path, lay)
        if loaded is not None:
            got = (loaded[0], lay, loaded[1])
    if got is None:
        base, lay, legend_top = hex_base._base(hexmap, frame.window, frame.s, leg, frame=frame, top=top)
        img = base.copy()
        _draw(img, lay, frame.s, *what)
        got = (img, lay, legend_top)
        if path is not None:
            hex_base._store(folder, path, img, legend_top)
    with _lock:
        _cache[key] = got
        while len(_cache) > UNDERLAY_CACHE_SIZE:
            _cache.popitem(last=False)
    return got


def clear() -> None:
    with _lock:
        _cache.clear()


def _draw(img: Image.Image, lay: Layout, s: float, zone: tuple[Hex, ...], held: tuple[Hex, ...], road: tuple,
          gates: tuple, cracks: tuple) -> None:
    d = ImageDraw.Draw(img)
    # zone highlight
    if zone:
        mask = kept(_hex_mask, s, 84)
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

    # city levels held (the view's ``levels``): red hatching, light enough to read through
    if held:
        mask = kept(_hatch_mask, s)
        ox, oy = mask.width / 2, mask.height / 2
        for h in held:
            cx, cy = lay.center(h)
            img.paste(S.HELD_LEVEL, (round(cx - ox), round(cy - oy)), mask)

    # ringed hexes (the view's ``road``): a ring in the holder's colour (grey: nobody)
    for h, col, taken in road:
        cx, cy = lay.center(h)
        halo, ring = kept(_ring_mask, s, True), kept(_ring_mask, s, False)
        if taken:
            tint = kept(_hex_mask, s, 70)
            img.paste(col, (round(cx - tint.width / 2), round(cy - tint.height / 2)), tint)
        img.paste((255, 255, 255), (round(cx - halo.width / 2), round(cy - halo.height / 2)), halo)
        img.paste(col, (round(cx - ring.width / 2), round(cy - ring.height / 2)), ring)

    # gate control and cracks (under the counters: they show on the hexside's far side)
    for side, col in gates:
        a, b = lay.side_points(side.hex, side.direction)
        _draw_gate_leaves(d, a, b, s, col)
    for side in cracks:
        a, b = lay.side_points(side.hex, side.direction)
        _draw_crack(d, a, b, s)
