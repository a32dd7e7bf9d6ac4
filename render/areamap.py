"""Pillow drawing of one seat's view of an *area* game (a board of named territories).

Territories are polygons with their names; each holds a badge per army type
with its count, leader pennants, the emblems its board data flags, the marks
its view flags; the lines the ruleset declares (rivers, walls, borders) and the
Gate (open or broken) are drawn over the shapes. A side panel shows the turn,
the Action dice, the hands (face up), the decks' sizes (never their order) and
the points.

The renderer names no game and no piece: the view's ``display`` (the ruleset's declaration,
``data/display.json``; the vocabulary: engine/display.py) gives the areas' fills, the lines and
texts over the board, the emblems, the army types' labels, letters, colours and order, the decks'
names and the key.

Input is only the view dict and the public board; output is deterministic
(bundled font, no metadata, fixed iteration order).
"""
from __future__ import annotations

import threading

from PIL import Image, ImageDraw

from render import png
from render import style as S

PANEL_W = 330
SCALE = 1.0
K = 2  # supersampling of the base
_lock = threading.Lock()
_base_cache: dict = {}

LEADER_COLORS = {"green": (46, 125, 50), "yellow": (230, 190, 30), "black": (20, 20, 20), "red": (190, 30, 30)}
GREY = (90, 90, 90)


def _rgb(c, default=GREY) -> tuple[int, int, int]:
    return tuple(int(x) for x in c[:3]) if isinstance(c, (list, tuple)) and len(c) >= 3 else default


class _Look:
    """A ruleset's declaration for an area board (the view's ``display``), read with defaults."""

    def __init__(self, display):
        d = display if isinstance(display, dict) else {}
        f = d.get("fills") or {}
        self.kinds = {k: _rgb(v) for k, v in (f.get("kinds") or {}).items()}
        self.zones = {k: _rgb(v) for k, v in (f.get("zones") or {}).items()}
        self.areas = {k: _rgb(v) for k, v in (f.get("areas") or {}).items()}
        self.lines = [x for x in d.get("lines") or [] if isinstance(x, dict)]
        self.texts = [x for x in d.get("texts") or [] if isinstance(x, dict)]
        self.emblems = dict(d.get("emblems") or {})
        self.marks = dict(d.get("area_marks") or {})
        self.tint = {k: _rgb(v) for k, v in (d.get("side_tint") or {}).items()}
        a = d.get("armies") or {}
        self.order = list(a.get("order") or [])
        self.label = dict(a.get("label") or {})
        self.letter = dict(a.get("letter") or {})
        self.colors = {s: {t: _rgb(c) for t, c in cs.items()} for s, cs in (a.get("colors") or {}).items()}
        self.decks = [tuple(x) for x in d.get("decks") or [] if isinstance(x, (list, tuple)) and len(x) == 3]
        self.key = [x for x in d.get("key") or [] if isinstance(x, dict)]
        self.key_text = str(d.get("key_text") or "")
        import json
        self.digest = json.dumps([f, self.lines, self.texts, self.emblems], sort_keys=True, default=str)

    def sort(self, items):
        return sorted(items, key=lambda tn: self.order.index(tn[0]) if tn[0] in self.order else 99)


def _board(view: dict, board=None):
    if board is not None and hasattr(board, "areas"):
        return board
    raise ValueError("an area view is drawn with its board (the ruleset's game_board().drawable)")


def _fill(area, look: _Look) -> tuple[int, int, int]:
    if area.kind in look.kinds:
        return look.kinds[area.kind]
    if area.id in look.areas:
        return look.areas[area.id]
    return look.zones.get(area.zone, (230, 224, 196))


def _lines(d: ImageDraw.ImageDraw, board, look: _Look, k: float, preview: bool) -> None:
    """The lines the ruleset declares over the board, in order: along the borders its board data lists
    (``between``), between two zones (``zones``), or round areas (``around``, ``around_kind``)."""
    def seg(e, w):
        d.line([(e[0][0] * k, e[0][1] * k), (e[1][0] * k, e[1][1] * k)], fill=_rgb(ln.get("color")), width=w)

    for ln in look.lines:
        w = ln.get("preview_width", ln.get("width", 2)) if preview else ln.get("width", 2)
        w = round(w * k) if preview else w * K
        if ln.get("between"):
            for x, y in board.data.get(ln["between"], []):
                e = _edges(board, x, y)
                if e:
                    seg(e, w)
        elif ln.get("zones"):
            inner, outer = ln["zones"][:2]
            for aid in board.ids:
                if board.areas[aid].zone != inner:
                    continue
                for b in board.ids:
                    if board.areas[b].zone == outer and b != aid:
                        e = _edges(board, aid, b)
                        if e:
                            seg(e, w)
        else:
            ids = [a for a in board.ids if board.areas[a].kind == ln.get("around_kind")] + list(ln.get("around") or [])
            for aid in ids:
                poly = board.areas[aid].poly
                for i in range(len(poly)):
                    seg((poly[i], poly[(i + 1) % len(poly)]), w)


def _emblems(d: ImageDraw.ImageDraw, a, look: _Look, pennant_at, thrower_at) -> None:
    """The emblems a board's area flags (``emblems``: the area's flag -> ``pennant`` right of its name
    or ``thrower`` left of it)."""
    for flag, style in look.emblems.items():
        if getattr(a, flag, False):
            if style == "pennant":
                _banner(d, *pennant_at)
            elif style == "thrower":
                _catapult(d, *thrower_at)


def _edges(board, a: str, b: str):
    """The shared edge of two cells, as a segment (or None)."""
    pa, pb = board.areas[a].poly, board.areas[b].poly
    for i in range(len(pa)):
        p, q = pa[i], pa[(i + 1) % len(pa)]
        for j in range(len(pb)):
            r, s = pb[j], pb[(j + 1) % len(pb)]
            if (abs(p[0] - s[0]) + abs(p[1] - s[1]) < 1.5 and abs(q[0] - r[0]) + abs(q[1] - r[1]) < 1.5) or \
               (abs(p[0] - r[0]) + abs(p[1] - r[1]) < 1.5 and abs(q[0] - s[0]) + abs(q[1] - s[1]) < 1.5):
                return p, q
    return None


def _build_base(board, look: _Look) -> Image.Image:
    W, H = board.width, board.height
    img = Image.new("RGB", (W * K, H * K), (240, 236, 224))
    d = ImageDraw.Draw(img)
    for aid in board.ids:
        a = board.areas[aid]
        d.polygon([(x * K, y * K) for x, y in a.poly], fill=_fill(a, look), outline=(150, 140, 120), width=K)
    _lines(d, board, look, K, False)
    img = img.resize((W, H), Image.LANCZOS)
    d = ImageDraw.Draw(img)
    for aid in board.ids:
        a = board.areas[aid]
        x, y = a.label
        ty = max(y - 34, 10)
        half = S.text_length(a.name, 13) / 2
        S.stamp(img, (x, ty), a.name, 13, (40, 34, 28), anchor="mm", stroke=2, stroke_fill=_fill(a, look))
        S.stamp(img, (x, ty + 13), aid, 10, (110, 100, 86), anchor="mm")
        _emblems(d, a, look, (x + half + 6, ty - 8), (x - half - 14, ty + 2))
    for t in look.texts:  # the board's own words, at x/y from the left/top (negative: from the right/bottom)
        x, y = t.get("x", 0), t.get("y", 0)
        S.stamp(img, (W + x if x < 0 else x, H + y if y < 0 else y), str(t.get("text", "")), int(t.get("size", 12)),
                _rgb(t.get("color")), anchor=str(t.get("anchor", "mm")))
    return img


def _banner(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.line([(x, y), (x, y + 22)], fill=(60, 50, 40), width=2)
    d.polygon([(x, y), (x + 14, y + 3), (x, y + 9)], fill=(250, 250, 250), outline=(30, 30, 30))


def _catapult(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rectangle([x - 8, y + 6, x + 8, y + 10], fill=(110, 80, 50))
    d.line([(x - 6, y + 6), (x + 8, y - 8)], fill=(110, 80, 50), width=3)
    d.ellipse([x + 6, y - 11, x + 11, y - 6], fill=(80, 80, 80))


def _base(board, look: _Look) -> Image.Image:
    key = (id(board), board.data.get("id"), look.digest)
    with _lock:
        img = _base_cache.get(key)
        if img is None:
            img = _build_base(board, look)
            _base_cache.clear()
            _base_cache[key] = img
        return img


def clear_cache() -> None:
    with _lock:
        _base_cache.clear()


def _badge(img, d, x, y, text, fill, ink) -> float:
    w = S.text_length(text, 12) + 8
    d.rounded_rectangle([x, y, x + w, y + 17], radius=4, fill=fill, outline=(250, 250, 240))
    S.stamp(img, (x + w / 2, y + 9), text, 12, ink, anchor="mm")
    return w


def _draw_area(img, d, board, aid: str, info: dict, sides: dict, look: _Look) -> None:
    a = board.areas[aid]
    side = info.get("side")
    units = info.get("units") or {}
    x, y = a.label
    if side:
        tint = look.tint.get(side, (110, 110, 110))
        d.ellipse([x - 5, y - 14, x + 5, y - 4], fill=tint)
    items = look.sort([(t, n) for t, n in units.items() if n])
    texts = [(f"{n} {look.label.get(t, t[:3])}", look.colors.get(side, {}).get(t, GREY)) for t, n in items]
    rows = [texts[:3], texts[3:]]
    yy = y - 2
    for row in rows:
        if not row:
            continue
        tw = sum(S.text_length(t, 12) + 10 for t, _ in row) - 2
        xx = x - tw / 2
        for t, c in row:
            xx += _badge(img, d, xx, yy, t, c, S.ink_on(c)) + 2
        yy += 20
    leaders = info.get("leaders") or []
    if leaders:
        names = []
        for ld in leaders:
            names.append(ld)
        lw = sum(S.text_length(ld.get("name", ld.get("id", "?")), 11) + 18 for ld in names)
        xx = x - lw / 2
        for ld in names:
            col = LEADER_COLORS.get(ld.get("color"), (90, 90, 90))
            d.polygon([(xx, yy + 2), (xx + 10, yy + 8), (xx, yy + 14)], fill=col, outline=(250, 250, 240))
            label = ld.get("name", ld.get("id", "?"))
            S.stamp(img, (xx + 12, yy + 8), label, 11, (20, 18, 16), anchor="lm", stroke=2,
                    stroke_fill=(250, 248, 240))
            xx += S.text_length(label, 11) + 18
    for mark, m in look.marks.items():  # a mark the view flags on the area: a block with its label
        if info.get(mark):
            d.rectangle([x + 40, y - 12, x + 52, y + 14], fill=(90, 60, 40), outline=(20, 20, 20))
            S.stamp(img, (x + 46, y + 22), str(m.get("label", mark)), 9, (60, 40, 30), anchor="mm")
    if info.get("fired"):
        S.stamp(img, (x, yy + 24 if leaders else yy + 6), f"{info['fired']} fired", 9, (120, 60, 20), anchor="mm")


def _gate(img, d, board, broken: bool) -> None:
    x1, y1 = board.areas["city"].label
    g = board.data.get("gate", {})
    wall = board.areas[g.get("wall", "wall-gate")]
    gx, gy = wall.label
    gx += 28
    col = (170, 40, 30) if broken else (70, 50, 30)
    d.rectangle([gx - 9, gy - 16, gx + 9, gy + 16], fill=(40, 36, 30) if not broken else (230, 200, 160),
                outline=col, width=3)
    if broken:
        d.line([(gx - 9, gy - 16), (gx + 9, gy + 16)], fill=col, width=3)
        d.line([(gx + 9, gy - 16), (gx - 9, gy + 16)], fill=col, width=3)
    S.stamp(img, (gx, gy + 26), "GATE" + (" BROKEN" if broken else ""), 10, col, anchor="mm", stroke=2,
            stroke_fill=(240, 236, 224))


def _panel(img, d, view: dict, x0: int, h: int, look: _Look) -> None:
    d.rectangle([x0, 0, x0 + PANEL_W, h], fill=(248, 244, 232))
    d.line([(x0, 0), (x0, h)], fill=S.PANEL_RULE, width=2)
    x = x0 + 14
    y = 14
    S.stamp(img, (x, y), str(view.get("title", "")), 17, (30, 26, 22))
    y += 26
    for line in _wrap(str(view.get("phase_title", "")), 13, PANEL_W - 28):
        S.stamp(img, (x, y), line, 13, (50, 44, 38))
        y += 17
    dice = view.get("action_dice") or []
    S.stamp(img, (x, y + 4), "Action dice left: " + (" ".join(str(v) for v in dice) or "none")
            + (f"   taken: {view['die']}" if view.get("die") else ""), 12, (50, 44, 38))
    y += 26
    pts = view.get("points") or {}
    decks = view.get("decks") or {}
    seats = _seats(view)
    S.stamp(img, (x, y), "Points: " + "  ".join(f"{t} {pts.get(s, 0)}" for s, t in seats), 13, (30, 26, 22))
    y += 18
    S.stamp(img, (x, y), "Decks: " + ", ".join(f"{decks.get(k, 0)} {name}" for k, name, _ in look.decks), 12,
            (50, 44, 38))
    y += 18
    if view.get("gate_broken"):
        S.stamp(img, (x, y), "The Gate is broken.", 12, (170, 40, 30))
        y += 18
    hands = view.get("hands") or {}
    for side, title in seats:
        hd = hands.get(side) or {}
        y += 8
        col = look.tint.get(side, (80, 80, 80))
        S.stamp(img, (x, y), f"{title} hand (face up)", 13, col)
        y += 18
        for deck, _, prefix in look.decks[:1]:  # the first deck's cards by id (* : the seat's own shield)
            rc = hd.get(deck) or []
            text = ", ".join(f"{c['id']}{'*' if c.get('shield') == side else ''}" for c in rc) or "no cards"
            for line in _wrap(text, 11, PANEL_W - 28):
                S.stamp(img, (x, y), line, 11, (50, 44, 38))
                y += 14
        for deck, _, prefix in look.decks[1:]:  # the others' by name, with the armies on them
            for c in hd.get(deck) or []:
                on = c.get("on_card") or {}
                extra = (" [" + ", ".join(f"{n} {look.label.get(t, t)}" for t, n in on.items()) + "]") if on else ""
                for line in _wrap(f"{prefix}: {c.get('name', c.get('id'))}{extra}", 11, PANEL_W - 28):
                    S.stamp(img, (x, y), line, 11, (70, 50, 30))
                    y += 14
        lost = (view.get("lost") or {}).get(side) or {}
        lt = ", ".join(f"{n} {look.label.get(t, t)}" for t, n in lost.items() if t != "leaders" and n)
        ll = ", ".join(lost.get("leaders") or [])
        S.stamp(img, (x, y), "Lost: " + (", ".join(v for v in (lt, ll) if v) or "none"), 11, (120, 60, 40))
        y += 16
    y += 10
    S.stamp(img, (x, y), "Key", 13, (30, 26, 22))
    y += 18
    seats = list(look.colors)
    for entry in look.key:
        lab = str(entry.get("label", ""))
        if "army" in entry:  # a swatch per seat that has that army type
            for i, side in enumerate(seats[:2]):
                c = look.colors[side].get(entry["army"])
                if c:
                    d.rectangle([x + 16 * i, y, x + 12 + 16 * i, y + 12], fill=c, outline=(200, 200, 190))
            S.stamp(img, (x + 36, y + 6), lab, 11, (50, 44, 38), anchor="lm")
            y += 16
        elif entry.get("emblem") == "pennant":
            _banner(d, x + 4, y)
            S.stamp(img, (x + 36, y + 10), lab, 11, (50, 44, 38), anchor="lm")
            y += 26
        elif entry.get("emblem") == "thrower":
            _catapult(d, x + 6, y + 6)
            S.stamp(img, (x + 36, y + 6), lab, 11, (50, 44, 38), anchor="lm")
            y += 20
    S.stamp(img, (x, y), "* = card with your own shield", 11, (50, 44, 38))
    over = view.get("over")
    if over:
        y += 22
        for line in _wrap(str(over.get("summary", "")), 12, PANEL_W - 28):
            S.stamp(img, (x, y), line, 12, (150, 30, 30))
            y += 16


def _seats(view: dict) -> list[tuple[str, str]]:
    """The view's seats and their titles, in its order."""
    sides = view.get("sides") if isinstance(view.get("sides"), dict) else {}
    return [(s, str((v or {}).get("title") or s.title()) if isinstance(v, dict) else s.title()) for s, v in sides.items()]


def _wrap(text: str, size: int, width: float) -> list[str]:
    out, cur = [], ""
    for w in text.split():
        t = (cur + " " + w).strip()
        if S.text_length(t, size) <= width or not cur:
            cur = t
        else:
            out.append(cur)
            cur = w
    if cur:
        out.append(cur)
    return out


def compose(view: dict, board=None, *, around: str | None = None, focus: bool = True) -> Image.Image:
    return compose_info(view, board, around=around, focus=focus)[0]


def compose_info(view: dict, board=None, *, around: str | None = None,
                 focus: bool = True) -> tuple[Image.Image, int]:
    """The picture, with the header band over it (as on a hex map: the turn, the phase, who acts,
    legible once shown 550 px wide), and the header's font size (px). With ``focus`` (a phase's map,
    the default) the preview layout (:func:`compose_preview`); else (``whole``, ``around``) the board
    at full size with its side panel."""
    if focus and not around:
        img, px, _ = compose_preview(view, board)
        return img, px
    from render.hexmap import _header, _header_height, _header_lines, header_px

    img = _board_picture(view, board, around=around)
    px = header_px(img.width)
    lines = _header_lines(view, None)
    top = _header_height(px, len(lines))
    out = Image.new("RGB", (img.width, img.height + top), S.HEADER_BG)
    out.paste(img, (0, top))
    _header(out, out.width, view, lines, px)
    return out, px


# --------------------------------------------------------------------------
# The preview layout: the board PREVIEW_W_BOARD px wide, no side panel (its facts are header lines),
# names and army counts large enough to read once the image is shown 550 px wide
# --------------------------------------------------------------------------
PREVIEW_W_BOARD = 1000
NAME_PX = 19           # an area's name (capital height about 7.4 px at 550 px wide)
CHIP_PX = 22           # an army count ("3C": three cavalry), about 8.6 px
LEADER_PX = 18


def _wrap_name(name: str, px: int, width: float) -> list[str]:
    """An area's name in lines no wider than ``width`` (a word longer than that stands alone)."""
    return [ln for w in [name] for ln in _wrap(w, px, width)][:3]


def _room(a, f: float) -> float:
    """How wide a name may be in area ``a``: its width along the label's row (at scale ``f``)."""
    lx, ly = a.label
    xs = []
    pts = list(a.poly)
    for i in range(len(pts)):
        (x1, y1), (x2, y2) = pts[i], pts[(i + 1) % len(pts)]
        if (y1 - ly) * (y2 - ly) <= 0 and y1 != y2:
            xs.append(x1 + (ly - y1) * (x2 - x1) / (y2 - y1))
    if len(xs) >= 2:
        left = max([v for v in xs if v <= lx] or [min(xs)])
        right = min([v for v in xs if v >= lx] or [max(xs)])
        w = right - left
    else:
        w = max(p[0] for p in pts) - min(p[0] for p in pts)
    return max(60.0, (w - 10) * f)


def _build_preview_base(board, f: float, look: _Look) -> Image.Image:
    W, H = round(board.width * f), round(board.height * f)
    k = K * f
    img = Image.new("RGB", (W * K, H * K), (240, 236, 224))
    d = ImageDraw.Draw(img)
    for aid in board.ids:
        a = board.areas[aid]
        d.polygon([(x * k, y * k) for x, y in a.poly], fill=_fill(a, look), outline=(150, 140, 120), width=K)
    _lines(d, board, look, k, True)
    return img.resize((W, H), Image.LANCZOS)


def _preview_base(board, f: float, look: _Look) -> Image.Image:
    key = ("preview", id(board), board.data.get("id"), f, look.digest)
    with _lock:
        img = _base_cache.get(key)
    if img is None:
        img = _build_preview_base(board, f, look)
        with _lock:
            _base_cache[key] = img
    return img


def compose_preview(view: dict, board=None) -> tuple[Image.Image, int, list]:
    """The phase map made for the preview: (image, header px, glyphs), ``glyphs`` being
    (kind, text, box) of each area name and army count drawn, in image px."""
    from render.hexmap import Frame, _header, _header_height, _header_lines, header_px

    board = _board(view, board)
    look = _Look(view.get("display"))
    f = PREVIEW_W_BOARD / board.width
    base = _preview_base(board, f, look)
    img = base.copy()
    d = ImageDraw.Draw(img)
    glyphs: list = []
    areas = view.get("areas") or {}
    for aid in board.ids:
        a = board.areas[aid]
        x, y = a.label[0] * f, a.label[1] * f
        info = areas.get(aid) or {}
        # the name, wrapped to two lines, on a halo of the area's colour
        name_lines = _wrap_name(a.name, NAME_PX, _room(a, f))
        widest = max(S.text_length(t, NAME_PX) for t in name_lines)
        x = min(max(x, widest / 2 + 4), img.width - widest / 2 - 4)
        ny = y - (len(name_lines) - 1) * NAME_PX * 0.55 - NAME_PX * 0.6
        for i, line in enumerate(name_lines):
            ly = ny + i * NAME_PX * 1.1
            S.stamp(img, (x, ly), line, NAME_PX, (34, 28, 22), anchor="mm", stroke=2, stroke_fill=_fill(a, look))
            tw = S.text_length(line, NAME_PX)
            glyphs.append(("name", line, (x - tw / 2 - 1, ly - NAME_PX * 0.45, x + tw / 2 + 1, ly + NAME_PX * 0.45)))
        hw = max(S.text_length(t, NAME_PX) for t in name_lines) / 2
        _emblems(d, a, look, (x + hw + 4, ny - NAME_PX * 0.5), (x - hw - 14, ny))
        yy = ny + len(name_lines) * NAME_PX * 1.1 - NAME_PX * 0.2
        side = info.get("side")
        units = info.get("units") or {}
        items = look.sort([(t, n) for t, n in units.items() if n])
        chips = [(f"{n}{look.letter.get(t, t[:1].upper())}", look.colors.get(side, {}).get(t, GREY)) for t, n in items]
        if chips:
            widths = [S.text_length(t, CHIP_PX) + 8 for t, _ in chips]
            xx = x - (sum(widths) + 3 * (len(chips) - 1)) / 2
            for (t, c), w in zip(chips, widths):
                d.rounded_rectangle([xx, yy, xx + w, yy + CHIP_PX * 1.15], radius=4, fill=c, outline=(250, 250, 240),
                                    width=2)
                S.stamp(img, (xx + w / 2, yy + CHIP_PX * 0.6), t, CHIP_PX, S.ink_on(c), anchor="mm")
                glyphs.append(("count", t, (xx + 3, yy + 2, xx + w - 3, yy + CHIP_PX * 1.15 - 2)))
                xx += w + 3
            yy += CHIP_PX * 1.3
        leaders = info.get("leaders") or []
        if leaders:
            labels = [str(ld.get("name", ld.get("id", "?"))) for ld in leaders]
            lw = sum(S.text_length(t, LEADER_PX) + LEADER_PX for t in labels)
            xx = x - lw / 2
            for ld, label in zip(leaders, labels):
                col = LEADER_COLORS.get(ld.get("color"), (90, 90, 90))
                d.polygon([(xx, yy + 2), (xx + LEADER_PX * 0.6, yy + LEADER_PX * 0.5), (xx, yy + LEADER_PX - 2)],
                          fill=col, outline=(250, 250, 240))
                S.stamp(img, (xx + LEADER_PX * 0.75, yy + LEADER_PX * 0.5), label, LEADER_PX, (20, 18, 16), anchor="lm",
                        stroke=2, stroke_fill=(250, 248, 240))
                xx += S.text_length(label, LEADER_PX) + LEADER_PX
        if any(info.get(mark) for mark in look.marks):
            d.rectangle([x + hw + 6, y - 6, x + hw + 18, y + 20], fill=(90, 60, 40), outline=(20, 20, 20))
    # the Gate
    g = board.data.get("gate", {})
    wall = board.areas.get(g.get("wall", "wall-gate"))
    if wall is not None:
        gx, gy = wall.label[0] * f + 30, wall.label[1] * f + 34
        broken = bool(view.get("gate_broken"))
        col = (170, 40, 30) if broken else (70, 50, 30)
        d.rectangle([gx - 7, gy - 13, gx + 7, gy + 13], fill=(40, 36, 30) if not broken else (230, 200, 160),
                    outline=col, width=3)
        if broken:
            d.line([(gx - 7, gy - 13), (gx + 7, gy + 13)], fill=col, width=3)
    probe = Frame((0, 0, 0, 0), 0, None, False, "focus")
    px = header_px(img.width)
    lines = _header_lines(view, probe, img.width)
    extra = []
    dice = view.get("action_dice")
    if isinstance(dice, list) and not view.get("over"):
        extra.append("Action dice left: " + (" ".join(str(v) for v in dice) or "none")
                     + (f" · taken: {view['die']}" if view.get("die") else ""))
    if look.key_text:
        extra.append(look.key_text)
    lines += [("note", t) for t in extra]
    top = _header_height(px, len(lines))
    out = Image.new("RGB", (img.width, img.height + top), S.HEADER_BG)
    out.paste(img, (0, top))
    glyphs = [(k, t, (b[0], b[1] + top, b[2], b[3] + top)) for k, t, b in glyphs]
    glyphs += _header(out, out.width, view, lines, px)
    return out, px, glyphs


def _board_picture(view: dict, board=None, *, around: str | None = None) -> Image.Image:
    board = _board(view, board)
    look = _Look(view.get("display"))
    base = _base(board, look)
    W, H = board.width, board.height
    img = Image.new("RGB", (W + PANEL_W, H), (248, 244, 232))
    img.paste(base, (0, 0))
    d = ImageDraw.Draw(img)
    areas = view.get("areas") or {}
    if around:
        if around not in board.areas:
            raise ValueError(f"no area `{around}` on this board")
    for aid in board.ids:
        _draw_area(img, d, board, aid, areas.get(aid) or {}, view.get("sides") or {}, look)
    _gate(img, d, board, bool(view.get("gate_broken")))
    _panel(img, d, view, W, H, look)
    if around:
        x, y = board.areas[around].label
        d.ellipse([x - 70, y - 55, x + 70, y + 55], outline=(200, 40, 40), width=3)
        r = 260
        box = (max(0, int(x - r)), max(0, int(y - r * 0.75)), min(W, int(x + r)), min(H, int(y + r * 0.75)))
        crop = img.crop(box)
        img = crop.resize((crop.width * 2, crop.height * 2), Image.LANCZOS)
    return img


def render_view(view: dict, board=None, *, around: str | None = None, focus: bool = True) -> bytes:
    img = compose(view, board, around=around, focus=focus)
    return png.encode(img)  # (render/png.py)


__all__ = ["render_view", "compose", "clear_cache"]
