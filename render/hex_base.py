"""The base layer of a hex map (terrain, roads, hexsides, hex numbers, edge names, the legend), drawn
supersampled once per map, window and legend and kept in a small in-memory cache, and on disk (issue 26:
a process's first map otherwise pays for the build): one raw RGB file a base (with its size and CRC), named by a digest of the map's data,
the window, the legend and the renderer's own source, in :func:`cache_dir`. A file is written under a
unique name and renamed into place (two processes writing the same base at once leave one whole file);
a file that does not load, or loads to the wrong size, is built again and rewritten."""
from __future__ import annotations

import hashlib
import json
import marshal
from collections import OrderedDict
from pathlib import Path

from PIL import Image, ImageDraw

from render import style as S
from render.geometry import Layout, hex_corners
from render.hex_common import BASE_CACHE_SIZE, Frame, K, _fingerprint, _layout, _lerp, _lock
from render.hex_terrain import _hex_number_px, _seed, _text_rotated, draw_hexside, draw_terrain, draw_tunnel
from render.hex_legend import Legend, _legend_shapes, _legend_text, legend_for
from render.disk_cache import (CACHE_ENV, DISK_CACHE_BYTES, _digests, _renderer_version, cache_dir,  # noqa: F401
                               frame, set_cache_dir, store_file, trim, unframe, written)
_base_cache: "OrderedDict[tuple, tuple[Image.Image, Layout, int]]" = OrderedDict()



def _map_digest(hexmap) -> str:
    """A digest of what a base layer draws of ``hexmap``: every hex, hexside, edge, its title and notes
    (computed once a map in a process, until clear_cache; issue 26: written as each hex's and hexside's
    fields marshalled (version 0: the same bytes in any process), not repr'd, it costs a quarter)."""
    fp = _fingerprint(hexmap)
    got = _digests.get(fp)
    if got is None:
        parts = [repr((hexmap.id, hexmap.title, tuple(hexmap.columns), tuple(hexmap.rows))).encode()]
        items = sorted(hexmap.hexes.items())
        try:
            parts.append(marshal.dumps([(*h, *vars(i).values()) for h, i in items], 0))
            parts.append(marshal.dumps(sorted((*side.hex, side.direction, kind)
                                              for side, kind in hexmap.hexsides.items()), 0))
        except (TypeError, ValueError, AttributeError):  # fields marshal cannot write: their repr
            parts[1:] = [repr([(tuple(h), tuple((getattr(i, "__dict__", None) or {"": repr(i)}).values()))
                               for h, i in items]).encode()]
            parts += [repr((str(side), kind)).encode() for side, kind in sorted(hexmap.hexsides.items())]
        parts += [repr(sorted(hexmap.edges.items())).encode(),
                  json.dumps(getattr(hexmap, "meta", None) or {}, sort_keys=True, default=str).encode()]
        got = _digests[fp] = hashlib.sha256(b"\n".join(parts)).hexdigest()
    return got


def _disk_name(hexmap, frame: Frame, leg, top: int) -> str:
    key = repr((_renderer_version(), _map_digest(hexmap), frame.window, frame.s, frame.panel, leg, top))
    return hashlib.sha256(key.encode()).hexdigest()[:40] + ".base"


MAGIC = b"palantir-base 1\n"


def _load(path: Path, lay: Layout) -> tuple[Image.Image, int] | None:
    """The stored base at ``path`` (raw RGB: decoding a PNG cost most of what the cache saves), or None
    if it is missing, of another size, cut short or corrupt (its CRC)."""
    got = unframe(path, MAGIC, "<IIiI")
    if got is None:
        return None
    (w, h, legend_top), body = got
    if (w, h) != (lay.width, lay.height) or len(body) != w * h * 3:
        return None
    return Image.frombytes("RGB", (w, h), body), legend_top  # from the buffer: no copy of the bytes


def _store(folder: Path, path: Path, img: Image.Image, legend_top: int) -> None:
    body = img.tobytes()
    store_file(folder, path, frame(MAGIC, "<IIiI", (img.width, img.height, legend_top), body), then=trim)


def _built(hexmap, frame: Frame, leg, top: int) -> tuple[Image.Image, Layout, int]:
    """The base layer from the disk cache, or built (and stored there)."""
    folder = cache_dir()
    if folder is None:
        return _build_base(hexmap, frame, leg, top)
    path = folder / _disk_name(hexmap, frame, leg, top)
    lay = _layout(frame, leg, top)
    got = _load(path, lay)
    if got is not None:
        return got[0], lay, got[1]
    built = _build_base(hexmap, frame, leg, top)
    _store(folder, path, built[0], built[2])
    return built


def _build_base(hexmap, fr: Frame, leg: "Legend | None", top: int) -> tuple[Image.Image, Layout, int]:
    c0, c1, r0, r1 = fr.window
    s = fr.s
    lay = _layout(fr, leg, top)
    W, H = lay.width, lay.height
    big = Image.new("RGB", (W * K, H * K), S.BACKGROUND)
    d = ImageDraw.Draw(big)
    hexes = [h for h in sorted(hexmap.hexes) if lay.contains(h)]
    sk = s * K

    # terrain
    for h in hexes:
        info = hexmap.hexes[h]
        cx, cy = lay.center(h, K)
        draw_terrain(d, cx, cy, sk, info.terrain, info.level, _seed(h), outline=False)

    # roads: centre to centre between adjacent road hexes
    roads = {h for h in hexmap.hexes if hexmap.hexes[h].road}
    segs = []
    for h in sorted(roads):
        nbs = [nb for nb in h.neighbours() if nb in roads]
        for dname in ("n", "ne", "se", "s", "sw", "nw"):
            nb = h.neighbour(dname)
            if nb not in roads or nb < h:
                continue
            if not (lay.contains(h) or lay.contains(nb)):
                continue
            a, b = lay.center(h, K), lay.center(nb, K)
            if not lay.contains(h):
                a = _lerp(b, a, 0.5)
            if not lay.contains(nb):
                b = _lerp(a, b, 0.5)
            segs.append((a, b))
        # a road hex on the map edge with one road neighbour leads off the map
        if len(nbs) == 1 and lay.contains(h):
            away = h.neighbour({"n": "s", "s": "n", "ne": "sw", "sw": "ne", "se": "nw", "nw": "se"}[h.direction_to(nbs[0])])
            if away not in hexmap.hexes:
                a = lay.center(h, K)
                b = lay.center(away, K)
                segs.append((a, _lerp(a, b, 0.55)))
    for width, col in ((sk * 0.26, S.ROAD_EDGE), (sk * 0.15, S.ROAD)):
        for a, b in segs:
            d.line([a, b], fill=col, width=round(width))
            for x, y in (a, b):
                rr = width / 2
                d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=col)

    # hex outlines
    for h in hexes:
        cx, cy = lay.center(h, K)
        pts = hex_corners(cx, cy, sk)  # a closed line: a polygon's wide outline costs a mask of the whole image
        d.line(pts + pts[:1], fill=S.HEX_LINE, width=K)

    # hexsides: walls first, then towers and gates on top
    order = {"wall": 0, "tower": 1, "gate": 2}
    sides = sorted(hexmap.hexsides.items(), key=lambda kv: (order.get(kv[1], 3), kv[0]))
    for side, kind in sides:
        a_hex, b_hex = side.hexes()
        if not (lay.contains(a_hex) or lay.contains(b_hex)):
            continue
        a, b = lay.side_points(side.hex, side.direction, K)
        draw_hexside(d, a, b, kind, sk)

    # tunnels
    for h in hexes:
        if hexmap.hexes[h].tunnel:
            cx, cy = lay.center(h, K)
            draw_tunnel(d, cx + sk * 0.66, cy + sk * 0.05, sk * 0.17)

    # frame
    mx0, my0 = lay.margin * K * 0.5, (lay.top + lay.margin * 0.5) * K
    d.rectangle([mx0, my0, lay.map_w * K - mx0, (lay.map_h - lay.margin * 0.5) * K], outline=S.FRAME, width=K)
    # panel background
    legend_top = H
    if leg is not None:
        d.rectangle([lay.map_w * K, 0, W * K, H * K], fill=S.PANEL_BG)
        d.line([(lay.map_w * K, 0), (lay.map_w * K, H * K)], fill=S.PANEL_RULE, width=K * 2)
        legend_top = _legend_shapes(d, lay, leg)
    # the header band (its text is the view's: drawn per call)
    if top:
        d.rectangle([0, 0, W * K, top * K], fill=S.HEADER_BG)
    img = big.reduce(K)
    d = ImageDraw.Draw(img)

    # hex numbers and city levels
    fnum = S.font(_hex_number_px(s))
    flev = S.font(max(8, round(s * 0.4)))
    for h in hexes:
        cx, cy = lay.center(h)
        d.text((cx, cy - s * 0.84), str(h), font=fnum, fill=S.HEX_NUMBER, anchor="ma")
        lvl = hexmap.hexes[h].level
        if lvl:
            d.text((cx - s * 0.76, cy), str(lvl), font=flev, fill=S.mix(S.CITY_LEVELS.get(lvl, (128, 128, 128)), (0, 0, 0), 0.55), anchor="mm")

    # map edges, named by compass direction
    (cmin, cmax), (rmin, rmax) = hexmap.columns, hexmap.rows
    by_side = {v: k for k, v in hexmap.edges.items()}
    fs = round(lay.margin * 0.6)
    spaced = lambda t: " ".join(t.upper())  # noqa: E731
    if "top" in by_side and r0 == rmin:
        d.text((lay.map_w / 2, lay.top + lay.margin / 2), spaced(by_side["top"]), font=S.font(fs), fill=S.FRAME, anchor="mm")
    if "bottom" in by_side and r1 == rmax:
        d.text((lay.map_w / 2, lay.map_h - lay.margin / 2), spaced(by_side["bottom"]), font=S.font(fs), fill=S.FRAME, anchor="mm")
    if "left" in by_side and c0 == cmin:
        _text_rotated(img, (lay.margin / 2, (lay.top + lay.map_h) / 2), spaced(by_side["left"]), fs, S.FRAME, 90)
    if "right" in by_side and c1 == cmax:
        _text_rotated(img, (lay.map_w - lay.margin / 2, (lay.top + lay.map_h) / 2), spaced(by_side["right"]), fs, S.FRAME, -90)

    if leg is not None:
        _legend_text(img, lay, legend_top, hexmap, leg)
    return img, lay, legend_top


def _base(hexmap, window, s, leg: "Legend | None" = None, *, frame: Frame | None = None,
          top: int = 0) -> tuple[Image.Image, Layout, int]:
    """The cached base layer of ``frame`` (or of ``window`` at hex size ``s``, with a panel), with
    the legend ``leg`` (default: the map's own; none without a panel) and a header band ``top`` high."""
    if frame is None:
        frame = Frame(window, s, None, True, "whole")
    if not frame.panel:
        leg = None
    elif leg is None:
        leg = legend_for(hexmap)
    key = (_fingerprint(hexmap), frame.window, frame.s, frame.panel, leg, top)
    with _lock:
        hit = _base_cache.get(key)
        if hit is not None:
            _base_cache.move_to_end(key)
            return hit
    built = _built(hexmap, frame, leg, top)
    with _lock:
        _base_cache[key] = built
        while len(_base_cache) > BASE_CACHE_SIZE:
            _base_cache.popitem(last=False)
    return built
