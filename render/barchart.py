"""A small horizontal bar chart (issue 41: `/stats`' wins per side), drawn at Discord's preview width so that
it reads as it is shown (550 px, no scaling). Generic: the caller names the groups, the bars and their colours;
nothing here knows a game."""
from __future__ import annotations

from PIL import Image, ImageDraw

from render import png
from render.style import PANEL_BG, PANEL_INK, PANEL_MUTED, PANEL_RULE, RGB, fit_font, font, text_length

WIDTH = 550  # Discord's inline preview width: drawn 1:1
PAD = 14
TITLE_PX = 22
HEAD_PX = 17
LABEL_PX = 16
BAR_H = 22
GAP = 6
LABEL_W = 170  # the bars' names, left of the bars
MAX_BARS = 24  # past it the chart would be too tall to read at a glance: the rest are left out, and said so
# bar colours for bars given none, distinct at a glance
PALETTE: tuple[RGB, ...] = ((70, 110, 170), (176, 64, 56), (84, 140, 72), (196, 140, 40), (120, 84, 150),
                            (60, 150, 150), (150, 110, 70))

Bar = tuple[str, float, "RGB | None"]


def bar_chart(title: str, groups: list[tuple[str, list[Bar]]], unit: str = "") -> bytes:
    """A PNG: ``title``, then each group's heading and its bars (name, value, colour or None), each bar's value
    written at its end; the longest bar of the chart spans the width. At most ``MAX_BARS`` bars."""
    shown, left_out, count = [], 0, 0
    for head, bars in groups:
        keep = bars[:max(0, MAX_BARS - count)]
        left_out += len(bars) - len(keep)
        count += len(keep)
        if keep:
            shown.append((head, keep))
    top = max((v for _, bars in shown for _, v, _ in bars), default=0) or 1
    height = PAD + TITLE_PX + GAP * 2 + sum(HEAD_PX + GAP + len(b) * (BAR_H + GAP) + GAP for _, b in shown)
    height += (LABEL_PX + GAP) if left_out else 0
    height += PAD
    img = Image.new("RGB", (WIDTH, height), PANEL_BG)
    d = ImageDraw.Draw(img)
    f, text = fit_font(title, WIDTH - 2 * PAD, TITLE_PX)
    d.text((PAD, PAD), text, fill=PANEL_INK, font=f)
    y = PAD + TITLE_PX + GAP
    d.line((PAD, y, WIDTH - PAD, y), fill=PANEL_RULE, width=1)
    y += GAP
    bar_x = PAD + LABEL_W + 8
    value_room = text_length("0000" + unit, LABEL_PX) + 8
    span = WIDTH - PAD - bar_x - value_room
    colours: dict[str, RGB] = {}  # a bar's name keeps its colour across the groups
    for head, bars in shown:
        f, text = fit_font(head, WIDTH - 2 * PAD, HEAD_PX)
        d.text((PAD, y), text, fill=PANEL_MUTED, font=f)
        y += HEAD_PX + GAP
        for name, value, colour in bars:
            if colour is None:
                colour = colours.setdefault(name, PALETTE[len(colours) % len(PALETTE)])
            f, text = fit_font(name, LABEL_W, LABEL_PX, min_size=11)
            d.text((PAD, y + (BAR_H - LABEL_PX) // 2), text, fill=PANEL_INK, font=f)
            w = max(2, round(span * value / top)) if value else 0
            if w:
                d.rectangle((bar_x, y, bar_x + w, y + BAR_H - 1), fill=colour)
            shown_value = f"{value:g}{unit}"
            d.text((bar_x + w + 6, y + (BAR_H - LABEL_PX) // 2), shown_value, fill=PANEL_INK, font=font(LABEL_PX))
            y += BAR_H + GAP
        y += GAP
    if left_out:
        d.text((PAD, y), f"… and {left_out} more (see the text)", fill=PANEL_MUTED, font=font(LABEL_PX))
    return png.encode(img)
