"""The whole map's legend (terrains, hexsides, markers and keys the map or the view uses) and compass.

What a game's markers and pieces are called, and how their keys are drawn, is the ruleset's declaration
(the view's ``display``; the vocabulary: engine/display.py): this module names no game and no piece."""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from render import counters as C
from render import style as S
from render.geometry import Layout
from render.hex_common import BASE_CACHE_SIZE, K, PAD, _as_dict, _as_list, _fingerprint, _lock
from render.hex_terrain import draw_hexside, draw_terrain, draw_tunnel
from render.hex_pieces import _draw_crack, _hatch_mask, _look, _ring_mask, shape_of
# Every terrain the renderer knows, in the legend's order; a map's legend shows
# only the terrains on that map (others, unknown here, after these by name).
LEGEND_TERRAIN = (("clear", "Clear"), ("slope", "Slope"), ("rough", "Rough"), ("grove", "Grove"),
                  ("forest", "Forest"), ("mountain", "Mountain"), ("riverbank", "Riverbank"), ("river", "River"),
                  ("city", "City"), ("watchtower", "Watchtower"), ("landing", "Landing"))
# the hexsides' keys; "crack" (a wall drawn cracked) is named by the marker the ruleset declares in that style
LEGEND_SIDES = (("wall", "Wall"), ("gate", "Gate"), ("tower", "Tower"), ("crack", ""),
                ("road", "Road"), ("tunnel", "Tunnel"))
LEG_ROW = 26
_STEPS = {"header": 22, "levels": 24 + 46, "markers": LEG_ROW + 8, "key": 92 + 10, "compass": 74}


class _MapFacts(NamedTuple):
    """What a map has that its legend shows."""
    terrain: tuple[tuple[str, str], ...]   # (terrain, name), in legend order
    levels: tuple[int, ...]                # city levels present
    sides: tuple[str, ...]                 # of LEGEND_SIDES' keys
    walled: bool                           # walls, gates or towers: every declared key shows


class PieceKey(NamedTuple):
    """A piece key of a ruleset's legend (engine/display.py): its label, how it is drawn, and the names
    (shapes, marks, ``levels``, ``road``) whose use in a view shows it off a walled map."""
    label: str
    draw: str
    shape: str = ""
    glow: bool = False
    arrows: bool = False
    when: tuple[str, ...] = ()
    band: str = ""


@dataclass(frozen=True)
class Legend:
    """The entries of one legend: a map's facts, and the ruleset's marker and piece keys shown
    (every one on a walled map; elsewhere only those the view uses). ``markers`` are (style, label)."""
    terrain: tuple[tuple[str, str], ...]
    levels: tuple[int, ...]
    sides: tuple[tuple[str, str], ...]
    markers: tuple[tuple[str, str], ...]
    pieces: tuple[PieceKey, ...]
    level_names: tuple[tuple[int, str], ...] = ()   # the ruleset's names of some city levels
    anatomy: tuple[str, ...] = ()                    # the ruleset's line under the counter's anatomy

    def sections(self, top: int) -> dict[str, int]:
        """The top y of each section present, from the legend's top ``top``;
        ``end`` is where the legend ends."""
        out = {}
        y = top + _STEPS["header"]
        for name, rows in (("terrain", _rows(self.terrain)), ("levels", 0), ("sides", _rows(self.sides)),
                           ("markers", 0), ("pieces", _rows(self.pieces))):
            if not getattr(self, name):
                continue
            out[name] = y
            y += _STEPS[name] if name in _STEPS else rows * LEG_ROW + 8
        for name in ("key", "compass"):
            out[name] = y
            y += _STEPS[name]
        out["end"] = y
        return out

    def height(self) -> int:
        return self.sections(0)["end"]

    def names(self) -> list[str]:
        """Every entry's label (tests, and a quick look at what a legend shows)."""
        out = [n for _, n in self.terrain]
        if self.levels:
            out.append(_levels_title(self.levels, self.level_names))
        return out + [n for group in (self.sides, self.markers) for _, n in group] + [p.label for p in self.pieces]


def _rows(entries) -> int:
    return (len(entries) + 1) // 2


def _levels_title(levels: tuple[int, ...], names: tuple[tuple[int, str], ...] = ()) -> str:
    title = f"City level {levels[0]}" if len(levels) == 1 else f"City levels {levels[0]}-{levels[-1]}"
    named = [f"{n} = {name}" for n, name in names if n in levels]
    return f"{title} ({', '.join(named)})" if named else title


_facts_cache: "OrderedDict[tuple, _MapFacts]" = OrderedDict()


def _map_facts(hexmap) -> _MapFacts:
    key = _fingerprint(hexmap)
    with _lock:
        hit = _facts_cache.get(key)
    if hit is not None:
        return hit
    infos = list(hexmap.hexes.values())
    present = {str(i.terrain) for i in infos if i.terrain}
    levels = tuple(sorted({i.level for i in infos if isinstance(i.level, int) and i.level > 0}))[:11]
    if levels:
        present.discard("city")          # the city-levels strip shows the city
    known = dict(LEGEND_TERRAIN)
    terrain = tuple((t, n) for t, n in LEGEND_TERRAIN if t in present) + \
        tuple((t, t.replace("_", " ").replace("-", " ").capitalize()) for t in sorted(present - known.keys()))
    kinds = set(hexmap.hexsides.values())
    has = {"wall": "wall" in kinds, "gate": "gate" in kinds, "tower": "tower" in kinds,
           "crack": "wall" in kinds or "tower" in kinds,
           "road": any(i.road for i in infos), "tunnel": any(i.tunnel for i in infos)}
    facts = _MapFacts(terrain, levels, tuple(t for t, _ in LEGEND_SIDES if has[t]),
                      bool(kinds & {"wall", "gate", "tower"}))
    with _lock:
        _facts_cache[key] = facts
        while len(_facts_cache) > BASE_CACHE_SIZE:
            _facts_cache.popitem(last=False)
    return facts


def _style_of(display: dict, kind: str) -> str:
    """The style a marker of type ``kind`` is drawn in: the ruleset's declaration's, else ``kind`` itself
    (a chit with its first letters)."""
    m = _as_dict(_as_dict(display.get("markers")).get(kind))
    style = m.get("style")
    return style if isinstance(style, str) else kind


def _declared(display: dict) -> tuple[tuple[tuple[str, str, bool], ...], tuple[PieceKey, ...]]:
    """A declaration's legend lines: its labelled markers (style, label, only when used), once each,
    and its piece keys."""
    marks: list[tuple[str, str, bool]] = []
    for m in _as_dict(display.get("markers")).values():
        m = _as_dict(m)
        e = (str(m.get("style") or ""), str(m.get("label") or ""), bool(m.get("when_used")))
        if e[0] and e[1] and e not in marks:
            marks.append(e)
    pieces = []
    for p in _as_list(display.get("legend")):
        p = _as_dict(p)
        if p.get("label") and p.get("draw"):
            pieces.append(PieceKey(str(p["label"]), str(p["draw"]), str(p.get("shape") or ""), bool(p.get("glow")),
                                   bool(p.get("arrows")), tuple(str(w) for w in _as_list(p.get("when"))),
                                   p["band"] if p.get("band") in ("lit", "plain") else ""))
    return tuple(marks), tuple(pieces)


def _view_keys(view: dict, display: dict | None = None) -> tuple[str, ...]:
    """The names a view uses (its markers' styles, its units' shapes and marks, held levels, ringed
    hexes): what a legend off a walled map still has to explain."""
    display = _as_dict(view.get("display")) if display is None else display
    shapes = _as_dict(display.get("shapes"))
    found = set()
    for m in _as_list(view.get("markers")):
        if isinstance(m, dict):
            found.add(_style_of(display, str(m.get("type") or "")))
    for u in _as_list(view.get("units")):
        if isinstance(u, dict):
            found.add(shape_of(u, shapes))
            found.update(k for k, v in _look(u).items() if v)
    if any(isinstance(lv, int) and not isinstance(lv, bool) and lv > 0 for lv in _as_list(view.get("levels"))):
        found.add("levels")
    if _as_dict(view.get("road")):
        found.add("road")
    return tuple(sorted(found))


@lru_cache(maxsize=32)
def _legend_of(facts: _MapFacts, keys: tuple[str, ...], marks: tuple[tuple[str, str, bool], ...] = (),
               pieces: tuple[PieceKey, ...] = (), level_names: tuple[tuple[int, str], ...] = (),
               anatomy: tuple[str, ...] = ()) -> Legend:
    every = facts.walled
    crack = next((label for style, label, _ in marks if style == "crack"), "")
    sides = tuple((t, crack if t == "crack" else n) for t, n in LEGEND_SIDES
                  if (t != "crack" and t in facts.sides) or (t == "crack" and crack and
                                                              ("crack" in facts.sides or "crack" in keys)))
    return Legend(facts.terrain, facts.levels, sides,
                  tuple((style, label) for style, label, when_used in marks
                        if style != "crack" and ((every and not when_used) or style in keys)),
                  tuple(p for p in pieces if every or set(p.when) & set(keys)), level_names, anatomy)


def legend_for(hexmap, view: dict | None = None) -> Legend:
    """The legend drawn for ``view`` on ``hexmap``: the map's facts, and the keys its ruleset declares
    (the view's ``display``; all of them on a walled map, elsewhere those the view uses). Cached."""
    facts = _map_facts(hexmap)
    display = _as_dict((view or {}).get("display"))
    marks, pieces = _declared(display)
    keys = () if facts.walled or not view else _view_keys(view, display)
    names = _as_dict(display.get("level_names"))
    level_names = tuple(sorted((int(k), str(v)) for k, v in names.items() if str(k).isdigit()))
    anatomy = tuple(str(t) for t in _as_list(display.get("anatomy")))[:1]
    return _legend_of(facts, keys, marks, pieces, level_names, anatomy)


def _legend_origin(lay: Layout, leg: Legend) -> int:
    return lay.height - leg.height() - PAD


def _legend_shapes(d: ImageDraw.ImageDraw, lay: Layout, leg: Legend) -> int:
    """Draws the legend's shapes (at K x scale) and returns its top y (1x)."""
    x0 = lay.map_w + PAD
    top = _legend_origin(lay, leg)
    at = leg.sections(top)
    d.line([(x0 * K, (top - 8) * K), ((lay.width - PAD) * K, (top - 8) * K)], fill=S.PANEL_RULE, width=K)
    r = 10
    colw = (lay.panel_w - 2 * PAD) // 2
    if "terrain" in at:
        y = at["terrain"]
        for i, (t, _) in enumerate(leg.terrain):
            cx = x0 + r + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + r
            draw_terrain(d, cx * K, cy * K, r * K, t, 0, 1)
    if "levels" in at:
        y = at["levels"] + 24
        for i, lvl in enumerate(leg.levels):
            cx = x0 + r + i * 26
            cy = y + r
            draw_terrain(d, cx * K, cy * K, r * K, "city", lvl)
    if "sides" in at:
        y = at["sides"]
        for i, (t, _) in enumerate(leg.sides):
            cx = x0 + 14 + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + 10
            a, b = ((cx - 13) * K, cy * K), ((cx + 13) * K, cy * K)
            if t in ("wall", "gate", "tower"):
                draw_hexside(d, a, b, t, 26 * K)
            elif t == "crack":
                draw_hexside(d, a, b, "wall", 26 * K)
            elif t == "road":
                d.line([a, b], fill=S.ROAD_EDGE, width=round(6 * K))
                d.line([a, b], fill=S.ROAD, width=round(3.5 * K))
            elif t == "tunnel":
                draw_tunnel(d, cx * K, (cy + 2) * K, 8 * K)
    if "pieces" in at:
        # the swatches under the hatching and the ringed hex
        y = at["pieces"]
        for i, p in enumerate(leg.pieces):
            cx = x0 + r + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + r
            if p.draw == "hatch":
                draw_terrain(d, cx * K, cy * K, r * K, "city", 2)
            elif p.draw == "ring":
                draw_terrain(d, cx * K, cy * K, r * K, "clear", 0)
    return top


def _legend_text(img: Image.Image, lay: Layout, top: int, hexmap, leg: Legend) -> None:
    d = ImageDraw.Draw(img)
    x0 = lay.map_w + PAD
    fl = S.font(13)
    fsm = S.font(11)
    at = leg.sections(top)
    d.text((x0, top), "LEGEND", font=S.font(14), fill=S.PANEL_MUTED)
    colw = (lay.panel_w - 2 * PAD) // 2
    if "terrain" in at:
        y = at["terrain"]
        for i, (_, name) in enumerate(leg.terrain):
            f, name = S.fit_font(name, colw - 30, 13, 10)
            d.text((x0 + 26 + (i % 2) * colw, y + (i // 2) * LEG_ROW + 10), name, font=f, fill=S.PANEL_INK, anchor="lm")
    if "levels" in at:
        y = at["levels"]
        d.text((x0, y), _levels_title(leg.levels, leg.level_names), font=fl, fill=S.PANEL_INK)
        y += 24
        for i, lvl in enumerate(leg.levels):
            ink = S.mix(S.CITY_LEVELS.get(lvl, S.TERRAIN["city"]), (0, 0, 0), 0.6)
            d.text((x0 + 10 + i * 26, y + 10), str(lvl), font=fsm, fill=ink, anchor="mm")
    if "sides" in at:
        y = at["sides"]
        for i, (t, name) in enumerate(leg.sides):
            cx = x0 + 14 + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + 10
            if t == "crack":
                _draw_crack(d, (cx - 13, cy), (cx + 13, cy), 26)
            d.text((cx + 22, cy), name, font=fl, fill=S.PANEL_INK, anchor="lm")
    if "markers" in at:
        # marker chits
        y = at["markers"]
        ms = 18
        for i, (t, name) in enumerate(leg.markers):
            spr = C.marker_sprite(ms, t)
            p = C.marker_pad(ms)
            x = x0 + i * 100
            img.paste(spr, (x - p, y - p + 2), spr)
            d.text((x + ms + 6, y + ms / 2 + 2), name, font=fl, fill=S.PANEL_INK, anchor="lm")
    if "pieces" in at:
        y = at["pieces"]
        grey = (96, 96, 96)
        for i, key in enumerate(leg.pieces):
            name = key.label
            x = x0 + (i % 2) * colw
            cy = y + (i // 2) * LEG_ROW + 10
            tx = x + 26
            if key.draw == "drop":
                for j, hollow in enumerate((False, True)):
                    spr = C.drop_sprite(20, hollow)
                    img.paste(spr, (x - 2 + j * 14, round(cy - 12)), spr)
                tx = x + 36
            elif key.draw == "counter":
                spr = C.counter_sprite(20, grey, key.shape, "", "", glow=key.glow, ready=key.arrows, band=key.band)
                p = C.sprite_pad(20)
                img.paste(spr, (x - p, round(cy - 10) - p), spr)
                tx = x + 30
                if key.arrows:
                    arr, ox, oy = C.ready_arrow_sprite(17, "ne")
                    img.paste(arr, (x + 10 + ox, round(cy) + oy), arr)
            elif key.draw == "hatch":
                m = _hatch_mask(10)
                img.paste(S.HELD_LEVEL, (x + 10 - m.width // 2, round(cy - m.height / 2)), m)
            elif key.draw == "ring":
                halo, ring = _ring_mask(10, True), _ring_mask(10, False)
                img.paste((255, 255, 255), (x + 10 - halo.width // 2, round(cy - halo.height / 2)), halo)
                img.paste(S.ROAD_FREE, (x + 10 - ring.width // 2, round(cy - ring.height / 2)), ring)
            f, name = S.fit_font(name, colw - (tx - x) - 4, 13, 10)
            d.text((tx, cy), name, font=f, fill=S.PANEL_INK, anchor="lm")
    # counter anatomy
    y = at["key"]
    size = 46
    spr = C.counter_sprite(size, (96, 96, 96), "infantry", "ID", "De-3-X")
    p = C.sprite_pad(size)
    img.paste(spr, (x0 - p + 2, y - p + 4), spr)
    tx = x0 + size + 14
    lines = ["unit id / type / ratings", "pale with stripe = reduced", "D badge = disrupted", "n badge = units in the hex"]
    for i, t in enumerate(lines):
        d.text((tx, y + 2 + i * 18), t, font=fsm, fill=S.PANEL_INK)
    for i, t in enumerate(leg.anatomy[:1]):  # the ruleset's own line (what its counters' texts mean)
        d.text((tx, y + 2 + (4 + i) * 18), t, font=fsm, fill=S.PANEL_INK)
    # compass rose: where each compass point is on the screen
    y = at["compass"]
    _compass(img, (x0 + 36, y + 36), 30, hexmap.edges)
    title = str(hexmap.title)
    ft, title = S.fit_font(title, lay.panel_w - 2 * PAD - 90, 13)
    d.text((x0 + 84, y + 20), title, font=ft, fill=S.PANEL_INK)
    if hexmap.meta.get("reconstructed"):
        d.text((x0 + 84, y + 40), "reconstructed map", font=fsm, fill=S.PANEL_MUTED)


def _compass(img: Image.Image, c, r: float, edges: dict) -> None:
    big = Image.new("RGBA", (round(r * 2.6) * K, round(r * 2.6) * K), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    o = big.width / 2
    rk = r * K
    screen = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}
    where = {k: screen[v] for k, v in edges.items() if v in screen} or \
        {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}
    d.ellipse([o - rk * 0.5, o - rk * 0.5, o + rk * 0.5, o + rk * 0.5], outline=S.PANEL_MUTED + (255,), width=K)
    for name, (dx, dy) in where.items():
        px, py = -dy, dx
        tip = (o + dx * rk * 0.8, o + dy * rk * 0.8)
        w = rk * 0.16
        col = (150, 30, 30, 255) if name == "north" else S.PANEL_INK + (255,)
        d.polygon([tip, (o + px * w, o + py * w), (o - px * w, o - py * w)], fill=col)
    small = big.reduce(K)
    img.paste(small, (round(c[0] - small.width / 2), round(c[1] - small.height / 2)), small)
    d = ImageDraw.Draw(img)
    f = S.font(11)
    for name, (dx, dy) in where.items():
        d.text((c[0] + dx * r * 1.05, c[1] + dy * r * 1.05), name[:1].upper(), font=f, fill=S.PANEL_INK, anchor="mm")
