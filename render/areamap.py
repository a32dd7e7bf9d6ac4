"""Pillow drawing of one seat's view of an *area* game (LOTR Risk: Minas Tirith).

Territories are polygons with their names; each holds a badge per battalion
type with its count, leader pennants, the Banner of Gondor, catapults, siege
towers; the walls, the Gate (open or broken), the Rammas Echor and the Anduin
are drawn over the shapes. A side panel shows the turn, the Action dice, the
hands (face up, as the seed says), the decks' sizes (never their order) and
the points.

Input is only the view dict and the public board; output is deterministic
(bundled font, no metadata, fixed iteration order).
"""
from __future__ import annotations

import io
import threading

from PIL import Image, ImageDraw

from render import style as S

PANEL_W = 330
SCALE = 1.0
K = 2  # supersampling of the base
_lock = threading.Lock()
_base_cache: dict = {}

ZONE_FILL = {
    "city": (214, 210, 201), "wall": (168, 162, 152), "inner": (222, 228, 190), "rammas": (206, 200, 160),
    "outer": (230, 224, 196), "east": (206, 196, 186),
}
SIDE_TINT = {"good": (64, 140, 70), "evil": (150, 40, 36)}
TYPE_LABEL = {"infantry": "Inf", "archer": "Arc", "cavalry": "Cav", "horse-archer": "HA", "troll": "Trl",
              "mumak": "Mmk"}
TYPE_COLORS = {
    "good": {"infantry": (46, 125, 50), "archer": (214, 178, 30), "cavalry": (46, 125, 50),
             "horse-archer": (214, 178, 30)},
    "evil": {"infantry": (28, 28, 28), "archer": (170, 30, 30), "cavalry": (28, 28, 28), "troll": (28, 28, 28),
             "mumak": (170, 30, 30)},
}
LEADER_COLORS = {"green": (46, 125, 50), "yellow": (230, 190, 30), "black": (20, 20, 20), "red": (190, 30, 30)}
RIVER = (96, 146, 200)
WALL = (92, 86, 78)
RAMMAS = (120, 96, 60)


def _board(view: dict, board=None):
    if board is not None and hasattr(board, "areas"):
        return board
    raise ValueError("an area view is drawn with its board (the ruleset's game_board().drawable)")


def _fill(area) -> tuple[int, int, int]:
    if area.kind == "wall":
        return ZONE_FILL["wall"]
    if area.kind == "city":
        return ZONE_FILL["city"]
    if area.zone == "outer" and area.label[0] > 1120:
        return ZONE_FILL["east"]
    return ZONE_FILL[area.zone]


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


def _build_base(board) -> Image.Image:
    W, H = board.width, board.height
    img = Image.new("RGB", (W * K, H * K), (240, 236, 224))
    d = ImageDraw.Draw(img)
    for aid in board.ids:
        a = board.areas[aid]
        d.polygon([(x * K, y * K) for x, y in a.poly], fill=_fill(a), outline=(150, 140, 120), width=K)
    data = board.data
    for x, y in data.get("river_between", []):
        e = _edges(board, x, y)
        if e:
            d.line([(e[0][0] * K, e[0][1] * K), (e[1][0] * K, e[1][1] * K)], fill=RIVER, width=14 * K)
    for x, y in data.get("rammas_between", []):
        e = _edges(board, x, y)
        if e:
            d.line([(e[0][0] * K, e[0][1] * K), (e[1][0] * K, e[1][1] * K)], fill=RAMMAS, width=4 * K)
    # the Rammas ring's outer edges and inner edges
    for aid in board.ids:
        a = board.areas[aid]
        if a.zone != "rammas":
            continue
        for b in board.ids:
            if board.areas[b].zone in ("outer", "inner") and b != aid:
                e = _edges(board, aid, b)
                if e and board.areas[b].zone == "outer":
                    d.line([(e[0][0] * K, e[0][1] * K), (e[1][0] * K, e[1][1] * K)], fill=RAMMAS, width=5 * K)
    # walls of the City: around every wall section and the City
    for aid in board.walls + ["city"]:
        poly = board.areas[aid].poly
        for i in range(len(poly)):
            p, q = poly[i], poly[(i + 1) % len(poly)]
            d.line([(p[0] * K, p[1] * K), (q[0] * K, q[1] * K)], fill=WALL, width=5 * K)
    img = img.resize((W, H), Image.LANCZOS)
    d = ImageDraw.Draw(img)
    for aid in board.ids:
        a = board.areas[aid]
        x, y = a.label
        ty = max(y - 34, 10)
        half = S.text_length(a.name, 13) / 2
        S.stamp(img, (x, ty), a.name, 13, (40, 34, 28), anchor="mm", stroke=2, stroke_fill=_fill(a))
        S.stamp(img, (x, ty + 13), aid, 10, (110, 100, 86), anchor="mm")
        if a.banner:
            _banner(d, x + half + 6, ty - 8)
        if a.catapult:
            _catapult(d, x - half - 14, ty + 2)
    S.stamp(img, (W - 150, 22), "ANDUIN", 14, RIVER, anchor="mm")
    S.stamp(img, (30, H - 60), "Mindolluin", 12, (90, 80, 70), anchor="lm")
    S.stamp(img, (W - 60, H - 20), "East: Evil's end", 11, (120, 40, 36), anchor="mm")
    S.stamp(img, (90, 330), "West: Good's end", 11, (40, 90, 40), anchor="mm")
    return img


def _banner(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.line([(x, y), (x, y + 22)], fill=(60, 50, 40), width=2)
    d.polygon([(x, y), (x + 14, y + 3), (x, y + 9)], fill=(250, 250, 250), outline=(30, 30, 30))


def _catapult(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.rectangle([x - 8, y + 6, x + 8, y + 10], fill=(110, 80, 50))
    d.line([(x - 6, y + 6), (x + 8, y - 8)], fill=(110, 80, 50), width=3)
    d.ellipse([x + 6, y - 11, x + 11, y - 6], fill=(80, 80, 80))


def _base(board) -> Image.Image:
    key = (id(board), board.data.get("id"))
    with _lock:
        img = _base_cache.get(key)
        if img is None:
            img = _build_base(board)
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


def _draw_area(img, d, board, aid: str, info: dict, sides: dict) -> None:
    a = board.areas[aid]
    side = info.get("side")
    units = info.get("units") or {}
    x, y = a.label
    if side:
        tint = SIDE_TINT.get(side, (110, 110, 110))
        d.ellipse([x - 5, y - 14, x + 5, y - 4], fill=tint)
    items = [(t, n) for t, n in units.items() if n]
    order = ["infantry", "archer", "cavalry", "horse-archer", "troll", "mumak"]
    items.sort(key=lambda tn: order.index(tn[0]) if tn[0] in order else 99)
    texts = [(f"{n} {TYPE_LABEL.get(t, t[:3])}", TYPE_COLORS.get(side, {}).get(t, (90, 90, 90))) for t, n in items]
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
    if info.get("tower"):
        d.rectangle([x + 40, y - 12, x + 52, y + 14], fill=(90, 60, 40), outline=(20, 20, 20))
        S.stamp(img, (x + 46, y + 22), "tower", 9, (60, 40, 30), anchor="mm")
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


def _panel(img, d, view: dict, x0: int, h: int) -> None:
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
    S.stamp(img, (x, y), f"Points: Good {pts.get('good', 0)}  Evil {pts.get('evil', 0)}", 13, (30, 26, 22))
    y += 18
    S.stamp(img, (x, y), f"Decks: {decks.get('reinforcement', 0)} Reinforcement, {decks.get('minas_tirith', 0)} "
            "Minas Tirith", 12, (50, 44, 38))
    y += 18
    if view.get("gate_broken"):
        S.stamp(img, (x, y), "The Gate is broken.", 12, (170, 40, 30))
        y += 18
    hands = view.get("hands") or {}
    for side in ("good", "evil"):
        hd = hands.get(side) or {}
        y += 8
        col = SIDE_TINT.get(side, (80, 80, 80))
        S.stamp(img, (x, y), f"{side.title()} hand (face up)", 13, col)
        y += 18
        rc = hd.get("reinforcement") or []
        text = ", ".join(f"{c['id']}{'*' if c.get('shield') == side else ''}" for c in rc) or "no cards"
        for line in _wrap(text, 11, PANEL_W - 28):
            S.stamp(img, (x, y), line, 11, (50, 44, 38))
            y += 14
        for c in hd.get("minas_tirith") or []:
            on = c.get("on_card") or {}
            extra = (" [" + ", ".join(f"{n} {TYPE_LABEL.get(t, t)}" for t, n in on.items()) + "]") if on else ""
            for line in _wrap(f"MT: {c.get('name', c.get('id'))}{extra}", 11, PANEL_W - 28):
                S.stamp(img, (x, y), line, 11, (70, 50, 30))
                y += 14
        lost = (view.get("lost") or {}).get(side) or {}
        lt = ", ".join(f"{n} {TYPE_LABEL.get(t, t)}" for t, n in lost.items() if t != "leaders" and n)
        ll = ", ".join(lost.get("leaders") or [])
        S.stamp(img, (x, y), "Lost: " + (", ".join(v for v in (lt, ll) if v) or "none"), 11, (120, 60, 40))
        y += 16
    y += 10
    S.stamp(img, (x, y), "Key", 13, (30, 26, 22))
    y += 18
    for t, lab in (("infantry", "Inf infantry"), ("archer", "Arc archers / crossbows"), ("cavalry", "Cav cavalry"),
                   ("horse-archer", "HA horse archers"), ("troll", "Trl trolls, Mmk mumakil")):
        for side in ("good", "evil"):
            c = TYPE_COLORS[side].get(t)
            if c:
                d.rectangle([x + (0 if side == "good" else 16), y, x + 12 + (0 if side == "good" else 16), y + 12],
                            fill=c, outline=(200, 200, 190))
        S.stamp(img, (x + 36, y + 6), lab, 11, (50, 44, 38), anchor="lm")
        y += 16
    _banner(d, x + 4, y)
    S.stamp(img, (x + 36, y + 10), "Banner of Gondor (+1 Good defence)", 11, (50, 44, 38), anchor="lm")
    y += 26
    _catapult(d, x + 6, y + 6)
    S.stamp(img, (x + 36, y + 6), "catapult (range 3)", 11, (50, 44, 38), anchor="lm")
    y += 20
    S.stamp(img, (x, y), "* = card with your own shield", 11, (50, 44, 38))
    over = view.get("over")
    if over:
        y += 22
        for line in _wrap(str(over.get("summary", "")), 12, PANEL_W - 28):
            S.stamp(img, (x, y), line, 12, (150, 30, 30))
            y += 16


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
TYPE_LETTER = {"infantry": "I", "archer": "A", "cavalry": "C", "horse-archer": "H", "troll": "T", "mumak": "M"}
KEY_TEXT = "Armies: I infantry · A archers · C cavalry · H horse archers · T trolls · M mumakil"


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


def _build_preview_base(board, f: float) -> Image.Image:
    W, H = round(board.width * f), round(board.height * f)
    k = K * f
    img = Image.new("RGB", (W * K, H * K), (240, 236, 224))
    d = ImageDraw.Draw(img)
    for aid in board.ids:
        a = board.areas[aid]
        d.polygon([(x * k, y * k) for x, y in a.poly], fill=_fill(a), outline=(150, 140, 120), width=K)
    data = board.data
    for x, y in data.get("river_between", []):
        e = _edges(board, x, y)
        if e:
            d.line([(e[0][0] * k, e[0][1] * k), (e[1][0] * k, e[1][1] * k)], fill=RIVER, width=round(12 * k))
    for x, y in data.get("rammas_between", []):
        e = _edges(board, x, y)
        if e:
            d.line([(e[0][0] * k, e[0][1] * k), (e[1][0] * k, e[1][1] * k)], fill=RAMMAS, width=round(4 * k))
    for aid in board.ids:
        a = board.areas[aid]
        if a.zone != "rammas":
            continue
        for b in board.ids:
            if board.areas[b].zone == "outer" and b != aid:
                e = _edges(board, aid, b)
                if e:
                    d.line([(e[0][0] * k, e[0][1] * k), (e[1][0] * k, e[1][1] * k)], fill=RAMMAS,
                           width=round(5 * k))
    for aid in board.walls + ["city"]:
        poly = board.areas[aid].poly
        for i in range(len(poly)):
            p, q = poly[i], poly[(i + 1) % len(poly)]
            d.line([(p[0] * k, p[1] * k), (q[0] * k, q[1] * k)], fill=WALL, width=round(5 * k))
    return img.resize((W, H), Image.LANCZOS)


def _preview_base(board, f: float) -> Image.Image:
    key = ("preview", id(board), board.data.get("id"), f)
    with _lock:
        img = _base_cache.get(key)
    if img is None:
        img = _build_preview_base(board, f)
        with _lock:
            _base_cache[key] = img
    return img


def compose_preview(view: dict, board=None) -> tuple[Image.Image, int, list]:
    """The phase map made for the preview: (image, header px, glyphs), ``glyphs`` being
    (kind, text, box) of each area name and army count drawn, in image px."""
    from render.hexmap import Frame, _header, _header_height, _header_lines, header_px

    board = _board(view, board)
    f = PREVIEW_W_BOARD / board.width
    base = _preview_base(board, f)
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
            S.stamp(img, (x, ly), line, NAME_PX, (34, 28, 22), anchor="mm", stroke=2, stroke_fill=_fill(a))
            tw = S.text_length(line, NAME_PX)
            glyphs.append(("name", line, (x - tw / 2 - 1, ly - NAME_PX * 0.45, x + tw / 2 + 1, ly + NAME_PX * 0.45)))
        hw = max(S.text_length(t, NAME_PX) for t in name_lines) / 2
        if a.banner:
            _banner(d, x + hw + 4, ny - NAME_PX * 0.5)
        if a.catapult:
            _catapult(d, x - hw - 14, ny)
        yy = ny + len(name_lines) * NAME_PX * 1.1 - NAME_PX * 0.2
        side = info.get("side")
        units = info.get("units") or {}
        order = ["infantry", "archer", "cavalry", "horse-archer", "troll", "mumak"]
        items = sorted(((t, n) for t, n in units.items() if n), key=lambda tn: order.index(tn[0]) if tn[0] in order else 99)
        chips = [(f"{n}{TYPE_LETTER.get(t, t[:1].upper())}", TYPE_COLORS.get(side, {}).get(t, (90, 90, 90)))
                 for t, n in items]
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
        if info.get("tower"):
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
    extra.append(KEY_TEXT)
    lines += [("note", t) for t in extra]
    top = _header_height(px, len(lines))
    out = Image.new("RGB", (img.width, img.height + top), S.HEADER_BG)
    out.paste(img, (0, top))
    glyphs = [(k, t, (b[0], b[1] + top, b[2], b[3] + top)) for k, t, b in glyphs]
    glyphs += _header(out, out.width, view, lines, px)
    return out, px, glyphs


def _board_picture(view: dict, board=None, *, around: str | None = None) -> Image.Image:
    board = _board(view, board)
    base = _base(board)
    W, H = board.width, board.height
    img = Image.new("RGB", (W + PANEL_W, H), (248, 244, 232))
    img.paste(base, (0, 0))
    d = ImageDraw.Draw(img)
    areas = view.get("areas") or {}
    if around:
        if around not in board.areas:
            raise ValueError(f"no area `{around}` on this board")
    for aid in board.ids:
        _draw_area(img, d, board, aid, areas.get(aid) or {}, view.get("sides") or {})
    _gate(img, d, board, bool(view.get("gate_broken")))
    _panel(img, d, view, W, H)
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
    q = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    q.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


__all__ = ["render_view", "compose", "clear_cache"]
