"""Reading a map as a phone shows it: scaled to ``PREVIEW_W`` px wide, and glyph heights measured from
the scaled image's pixels (not from font sizes)."""
from __future__ import annotations

import math

from PIL import Image

PREVIEW_W = 550


def scaled(img: Image.Image, width: int = PREVIEW_W) -> tuple[Image.Image, float]:
    """``img`` resized (Lanczos, as a browser roughly does) to ``width`` px wide, and the factor."""
    k = width / img.width
    return img.convert("RGB").resize((width, max(1, round(img.height * k))), Image.Resampling.LANCZOS), k


def ink_height(img: Image.Image, box, k: float, threshold: int = 70) -> int:
    """The visible height (px) of the text drawn in ``box`` (coordinates of the unscaled image) on the
    scaled ``img``: the longest run of pixel rows holding ink, ink being a pixel whose grey level is at
    least ``threshold`` away from the box's most common grey (its background)."""
    x0, y0, x1, y1 = box
    b = (max(0, math.floor(x0 * k)), max(0, math.floor(y0 * k)), min(img.width, math.ceil(x1 * k)),
         min(img.height, math.ceil(y1 * k)))
    if b[2] <= b[0] or b[3] <= b[1]:
        return 0
    crop = img.crop(b).convert("L")
    w, h = crop.size
    px = crop.load()
    hist = crop.histogram()
    bg = max(range(256), key=lambda v: hist[v])
    best = run = 0
    for y in range(h):
        if any(abs(px[x, y] - bg) >= threshold for x in range(w)):
            run += 1
            best = max(best, run)
        else:
            run = 0
    return best
