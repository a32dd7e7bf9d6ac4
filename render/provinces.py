"""A province map (War of the Ring, engine/rulesets/wotr): each province a box on its board's overview,
with its name and the pieces the view shows in it (armies by seat with their SP, characters by name, a
face-down character as `?`). Drawn from the view alone: a seat's picture shows what it may see."""
from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render import style as S

SEAT_COLORS = {"fellowship": (46, 125, 50), "dark-power": (30, 30, 30), "saruman": (120, 120, 130),
               "gondor": (40, 70, 150), "rohan": (170, 130, 20)}
PANEL_W = 320


class _Laid:
    """A board from a view's own ``layout`` (a game on its group's own map)."""

    def __init__(self, layout):
        from types import SimpleNamespace
        self.width, self.height = layout["width"], layout["height"]
        self.areas = {p[0]: SimpleNamespace(id=p[0], name=p[1], poly=((p[2], p[3]), (p[4], p[3]), (p[4], p[5]),
                                                                         (p[2], p[5]))) for p in layout["provinces"]}
        self.ids = list(self.areas)


def render_view(view: dict, board, *, around: str | None = None) -> bytes:
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
            S.stamp(img, (x + 6, yy), f"{seat}: {sp} SP", 11, SEAT_COLORS.get(seat, (80, 80, 80)))
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
    ring = view.get("ring") or {}
    for text in (f"Ringbearer: {ring.get('bearer')}" + (" (wearing)" if ring.get("wearing") else ""),
                 f"Ruler of Gondor: {view.get('ruler_of_gondor')}", f"King of Rohan: {view.get('king_of_rohan')}",
                 "Control: " + ", ".join(f"{k}={v}" for k, v in (view.get("control") or {}).items())):
        for i in range(0, len(text), 46):
            S.stamp(img, (x0, y), text[i:i + 46], 11, (50, 44, 38))
            y += 15
    if view.get("deadline"):
        S.stamp(img, (x0, y + 6), str(view["deadline"]), 11, (150, 30, 30))
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()
