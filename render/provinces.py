"""A province map (a game on a board of provinces): each province a box on its board's overview,
with its name and the pieces the view shows in it (armies by seat with their SP, characters by name, a
face-down character as `?`). Drawn from the view alone: a seat's picture shows what it may see; the
side panel's facts are the view's own lines (``panel``), the renderer knows no game's offices or items."""
from __future__ import annotations

from PIL import Image, ImageDraw

from render import png
from render import style as S

PANEL_W = 320


class _Laid:
    """A board from a view's own ``layout`` (a game on its group's own map)."""

    def __init__(self, layout):
        from types import SimpleNamespace
        self.width, self.height = layout["width"], layout["height"]
        self.areas = {p[0]: SimpleNamespace(id=p[0], name=p[1], poly=((p[2], p[3]), (p[4], p[3]), (p[4], p[5]),
                                                                         (p[2], p[5]))) for p in layout["provinces"]}
        self.ids = list(self.areas)


# --------------------------------------------------------------------------
# The preview layout (a phase's map): the boxes PREVIEW_W_BOARD px wide, no side panel, the header band
# of the hex maps (the view's notes under it); armies as strength chips in their seat's colour, characters
# (those the view shows) as counters with a short name
# --------------------------------------------------------------------------
PREVIEW_W_BOARD = 1000
NAME_PX = 19
CHIP_PX = 20
COUNTER_PX = 18


TALL = 1.45           # the boxes drawn this much taller than the board's proportions (room for counters)


def _short(name: str) -> str:
    """A character's counter text: a numbered piece by its initial and number ("Rider 3" -> "R3"), a
    name of several words by their initials ("Lord of Keys" -> "LoK"), else its first four letters."""
    words = name.split()
    if len(words) >= 2 and words[-1].isdigit():
        return words[0][:1].upper() + words[-1]
    if len(words) >= 2:
        return "".join(w[:1] for w in words)
    return name[:4]


def _shorts(names: list[str]) -> dict[str, str]:
    """Each name's counter text, lengthened where two would read the same ("Tom Bell", "Tim Bell")."""
    out = {n: _short(n) for n in names}
    for n in names:
        k = len(out[n])
        while any(m != n and out[m] == out[n] for m in names) and k < len(n):
            k += 1
            for m in names:
                if m != n and out[m] == out[n]:
                    out[m] = m.replace(" ", "")[:k]
            out[n] = n.replace(" ", "")[:k]
    return out


def compose_preview(view: dict, board) -> tuple[Image.Image, int, list]:
    """The phase map made for the preview: (image, header px, glyphs), each glyph (kind, text, box)."""
    from render.hexmap import Frame, _as_dict, _header, _header_height, _header_lines, _side_color, header_px

    if view.get("layout"):
        board = _Laid(view["layout"])
    xs = [p[0] for pid in board.ids for p in board.areas[pid].poly]
    left, right = min(xs) - 8, max(xs) + 8
    f = PREVIEW_W_BOARD / (right - left)
    fy = f * TALL
    H = round(board.height * fy)
    names = sorted({str(ld.get("name", "?")) for info in (view.get("areas") or {}).values() if isinstance(info, dict)
                    for ld in info.get("leaders") or []})
    short = _shorts(names)
    img = Image.new("RGB", (PREVIEW_W_BOARD, H), (244, 240, 228))
    d = ImageDraw.Draw(img)
    sides = _as_dict(view.get("sides"))
    areas = view.get("areas") or {}
    glyphs: list = []
    from render.areamap import _wrap

    for pid in board.ids:
        a = board.areas[pid]
        (x0, y0), (x1, y1) = a.poly[0], a.poly[2]
        x0, y0, x1, y1 = (x0 - left) * f, y0 * fy, (x1 - left) * f, y1 * fy
        d.rectangle([x0, y0, x1, y1], fill=(232, 228, 204), outline=(150, 140, 120), width=1)
        y = y0 + 4
        for line in _wrap(a.name, NAME_PX, x1 - x0 - 8)[:2]:
            S.stamp(img, (x0 + 5, y), line, NAME_PX, (34, 28, 22))
            tw = S.text_length(line, NAME_PX)
            glyphs.append(("name", line, (x0 + 4, y + 1, x0 + 6 + tw, y + NAME_PX * 0.95)))
            y += NAME_PX * 1.05
        info = areas.get(pid) or {}
        xx, yy = x0 + 5, y + 3
        for seat, sp in sorted((info.get("units") or {}).items()):
            col = _side_color(sides, seat)
            t = f"{sp}"
            w = S.text_length(t, CHIP_PX) + 10
            if xx + w > x1 - 3:
                xx, yy = x0 + 5, yy + CHIP_PX * 1.3
            d.rounded_rectangle([xx, yy, xx + w, yy + CHIP_PX * 1.15], radius=CHIP_PX // 2, fill=col,
                                outline=(250, 250, 240), width=2)
            S.stamp(img, (xx + w / 2, yy + CHIP_PX * 0.6), t, CHIP_PX, S.ink_on(col), anchor="mm")
            glyphs.append(("count", t, (xx + 3, yy + 2, xx + w - 3, yy + CHIP_PX * 1.15 - 2)))
            xx += w + 4
        leaders = info.get("leaders") or []
        for i, ld in enumerate(leaders):
            t = short.get(str(ld.get("name", "?")), "?")
            col = _side_color(sides, ld.get("seat"))
            w = S.text_length(t, COUNTER_PX) + 8
            if xx + w > x1 - 3:
                xx, yy = x0 + 5, yy + CHIP_PX * 1.3
            more = len(leaders) - i
            if yy + COUNTER_PX * 2.5 > y1 and more > 1:  # no room for the rest: how many, not a silent cut
                S.stamp(img, (xx + 2, yy + COUNTER_PX * 0.62), f"+{more}", COUNTER_PX, (120, 30, 30), anchor="lm")
                break
            d.rectangle([xx, yy, xx + w, yy + COUNTER_PX * 1.2], fill=col, outline=(20, 20, 20), width=1)
            S.stamp(img, (xx + w / 2, yy + COUNTER_PX * 0.62), t, COUNTER_PX, S.ink_on(col), anchor="mm")
            glyphs.append(("counter", t, (xx + 2, yy + 2, xx + w - 2, yy + COUNTER_PX * 1.2 - 2)))
            xx += w + 4
    probe = Frame((0, 0, 0, 0), 0, None, False, "focus")
    px = header_px(img.width)
    lines = _header_lines(view, probe, img.width)
    top = _header_height(px, len(lines))
    out = Image.new("RGB", (img.width, img.height + top), S.HEADER_BG)
    out.paste(img, (0, top))
    glyphs = [(k, t, (b[0], b[1] + top, b[2], b[3] + top)) for k, t, b in glyphs]
    glyphs += _header(out, out.width, view, lines, px)
    return out, px, glyphs


def render_view(view: dict, board, *, around: str | None = None, focus: bool = False) -> bytes:
    if focus and not around:
        img, _, _ = compose_preview(view, board)
        return png.encode(img)  # (render/png.py)
    return png.save(compose(view, board, around=around))  # (render/png.py; the whole board in full colour, as before)


def compose(view: dict, board, *, around: str | None = None) -> Image.Image:
    """The whole board's picture, in full colour (what :func:`render_view` writes as a PNG; a game's record
    takes it as it is, render/record.py)."""
    from render.hexmap import _side_color

    if view.get("layout"):
        board = _Laid(view["layout"])
    W, H = board.width, board.height
    img = Image.new("RGB", (W + PANEL_W, H), (244, 240, 228))
    d = ImageDraw.Draw(img)
    areas = view.get("areas") or {}
    S.stamp(img, (20, 12), "WEST", 14, (90, 80, 70))
    S.stamp(img, (20 + 4 * 230 + 30, 12), "EAST", 14, (90, 80, 70))
    for pid in board.ids:
        a = board.areas[pid]
        outline = (200, 40, 40) if around == pid else (150, 140, 120)
        d.rectangle([a.poly[0], a.poly[2]], fill=(232, 228, 204), outline=outline, width=3 if around == pid else 1)
        x, y = a.poly[0]
        S.stamp(img, (x + 6, y + 4), a.name, 13, (40, 34, 28))
        info = areas.get(pid) or {}
        yy = y + 24
        for seat, sp in sorted((info.get("units") or {}).items()):
            S.stamp(img, (x + 6, yy), f"{seat}: {sp} SP", 11, _side_color(view.get("sides") or {}, seat))
            yy += 14
        names = [ld["name"] for ld in info.get("leaders") or []]
        line = ""
        for n in names:
            if S.text_length(line + ", " + n, 11) > 210 and line:
                S.stamp(img, (x + 6, yy), line, 11, (60, 50, 40))
                yy += 14
                line = n
            else:
                line = f"{line}, {n}" if line else n
        if line and yy < y + 140:
            S.stamp(img, (x + 6, yy), line, 11, (60, 50, 40))
    x0 = W + 10
    y = 14
    for text, size in ((str(view.get("title", "")), 15), (str(view.get("phase_title", "")), 12)):
        S.stamp(img, (x0, y), text[:48], size, (30, 26, 22))
        y += 22
    for text in [str(t) for t in (view.get("panel") or [])] + \
            ["Control: " + ", ".join(f"{k}={v}" for k, v in (view.get("control") or {}).items())]:
        for i in range(0, len(text), 46):
            S.stamp(img, (x0, y), text[i:i + 46], 11, (50, 44, 38))
            y += 15
    if view.get("deadline"):
        S.stamp(img, (x0, y + 6), str(view["deadline"]), 11, (150, 30, 30))
    return img
