"""Reading a map as a phone shows it: scaled to ``PREVIEW_W`` px wide, and glyph heights measured from
the scaled image's pixels (not from font sizes)."""
from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageChops

PREVIEW_W = 550


def scaled(img: Image.Image, width: int = PREVIEW_W) -> tuple[Image.Image, float]:
    """``img`` resized (Lanczos, as a browser roughly does) to ``width`` px wide, and the factor."""
    k = width / img.width
    rgb = img if img.mode == "RGB" else img.convert("RGB")  # (resize makes a new image: no copy needed first)
    return rgb.resize((width, max(1, round(img.height * k))), Image.Resampling.LANCZOS), k


def _scaled_box(box, k: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The pixels of the scaled picture (``size``) that cover ``box`` (coordinates of the unscaled one)."""
    x0, y0, x1, y1 = box
    return (max(0, math.floor(x0 * k)), max(0, math.floor(y0 * k)), min(size[0], math.ceil(x1 * k)),
            min(size[1], math.ceil(y1 * k)))


def _ink_rows(crop: Image.Image, threshold: int) -> int:
    """The longest run of pixel rows of the grey ``crop`` holding ink: a pixel whose grey level is at least
    ``threshold`` away from the crop's most common grey (its background)."""
    hist = crop.histogram()
    bg = hist.index(max(hist))  # the first most common grey
    # ink where |grey - bg| >= threshold, i.e. |grey - bg| - (threshold - 1) > 0 (subtract clips at 0): two
    # operations in C, no table built in Python per crop (the survey of tests/render/test_preview_maps.py
    # measures some 100,000 crops)
    ink = ImageChops.subtract(ImageChops.difference(crop, Image.new("L", crop.size, bg)),
                              Image.new("L", crop.size, threshold - 1))
    best = run = 0
    for row in ink.getprojection()[1]:  # per row: any ink in it
        run = run + 1 if row else 0
        best = max(best, run)
    return best


def ink_height(img: Image.Image, box, k: float, threshold: int = 70) -> int:
    """The visible height (px) of the text drawn in ``box`` (coordinates of the unscaled image) on the
    scaled ``img``: the longest run of pixel rows holding ink, ink being a pixel whose grey level is at
    least ``threshold`` away from the box's most common grey (its background)."""
    b = _scaled_box(box, k, img.size)
    if b[2] <= b[0] or b[3] <= b[1]:
        return 0
    return _ink_rows(img.crop(b).convert("L"), threshold)


def ink_heights(img: Image.Image, boxes, width: int = PREVIEW_W, threshold: int = 70) -> list[int]:
    """:func:`ink_height` of each of ``boxes`` on ``img`` as :func:`scaled` scales it, the whole picture not
    scaled: each box's pixels of the scaled picture are made alone (Pillow's resize of a ``box`` of the
    source takes the same filter taps, from the pixels around the box as well, as the whole resize does for
    those pixels: the same values, tests/render/test_preview_maps.py checks it on a busy map). A phase map's
    ids and hex numbers cover about half of it: the survey of a scripted game's maps took twice as long
    scaling each whole map first."""
    k = width / img.width
    size = (width, max(1, round(img.height * k)))
    sx, sy = img.width / size[0], img.height / size[1]  # (as the whole resize's own scale)
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    out = []
    for box in boxes:
        b = _scaled_box(box, k, size)
        if b[2] <= b[0] or b[3] <= b[1]:
            out.append(0)
            continue
        part = rgb.resize((b[2] - b[0], b[3] - b[1]), Image.Resampling.LANCZOS,
                          box=(b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy))
        out.append(_ink_rows(part.convert("L"), threshold))
    return out


def tesseract() -> str | None:
    """The tesseract binary, or None (the OCR tests skip, saying why)."""
    import shutil

    return shutil.which("tesseract")


def _otsu(grey: Image.Image) -> int:
    """The grey level that best splits ``grey``'s histogram in two (Otsu's method)."""
    h = grey.histogram()
    total, mean_all = sum(h), sum(i * n for i, n in enumerate(h))
    wb = sb = 0
    best, level = -1.0, 128
    for t in range(256):
        wb += h[t]
        if wb == 0:
            continue
        wf = total - wb
        if wf == 0:
            break
        sb += t * h[t]
        between = wb * wf * (sb / wb - (mean_all - sb) / wf) ** 2
        if between > best:
            best, level = between, t
    return level


def ocr(img: Image.Image, box, k: float, *, upscale: int = 6, psm: int = 7, chars: str = "") -> str:
    """What tesseract reads in ``box`` (coordinates of the unscaled image) of the scaled ``img``:
    the crop is enlarged ``upscale`` times (tesseract wants tall glyphs; no detail is added), its grey
    levels split in two by Otsu's threshold, and the lesser part taken for the ink (light text on a
    dark face, or dark on a light one)."""
    return ocr_many(img, [box], k, upscale=upscale, psm=psm, chars=chars)[0]


def ocr_many(img: Image.Image, boxes, k: float, *, upscale: int = 6, psm: int = 7, chars: str = "") -> list[str]:
    """What tesseract reads in each of ``boxes`` (as :func:`ocr` reads one), each crop a page of its own, in
    one tesseract process (its start and its model's load are most of a read: 24 ids of a map took 3.0 s
    read one by one, 0.8 s so, and were read the same); the adaptive classifier does not learn from one page
    for the next (``classify_enable_learning=0``), so that a page reads as it would alone."""
    import subprocess
    import tempfile

    pages = []
    for x0, y0, x1, y1 in boxes:
        crop = img.crop((max(0, math.floor(x0 * k) - 1), max(0, math.floor(y0 * k)),
                         min(img.width, math.ceil(x1 * k) + 1), min(img.height, math.ceil(y1 * k)))).convert("RGB")
        big = crop.resize((crop.width * upscale, crop.height * upscale), Image.Resampling.LANCZOS)
        grey = big.convert("L")
        level = _otsu(grey)
        hist = grey.histogram()
        dark = sum(hist[: level + 1])
        # the text is the lesser of the two classes (light on a dark face or dark on a light one); tesseract
        # is given it black on white
        if dark <= grey.width * grey.height - dark:
            ink = grey.point(lambda v: 0 if v <= level else 255)
        else:
            ink = grey.point(lambda v: 0 if v > level else 255)
        page = Image.new("L", (ink.width + 60, ink.height + 60), 255)
        page.paste(ink, (30, 30))
        pages.append(page)
    with tempfile.TemporaryDirectory(prefix="palantir-ocr-") as d:
        names = []
        for i, page in enumerate(pages):
            names.append(f"{d}/{i}.png")
            page.save(names[-1])
        Path(d, "pages.txt").write_text("\n".join(names) + "\n")
        extra = ["-c", f"tessedit_char_whitelist={chars}"] if chars else []
        out = subprocess.run([tesseract(), f"{d}/pages.txt", "stdout", "--psm", str(psm), "-c",
                              "classify_enable_learning=0", *extra], capture_output=True, text=True, timeout=120)
    read = out.stdout.split("\f")  # (a form feed after each page)
    assert out.returncode == 0 and len(read) >= len(pages), out.stderr[-500:]
    return [" ".join(r.split()) for r in read[:len(pages)]]
