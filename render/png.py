"""A drawn map as PNG bytes (issue 26): the RGB picture reduced to 256 colours and saved with no metadata.

The reduction used to be Pillow's FASTOCTREE quantize of the whole picture (:func:`encode_full`): 10 ms of
the map post's 33 ms cached render (bench_render's phase map; the PNG's zlib took 16). :func:`encode` works
its palette out on a sample of the picture instead (FASTOCTREE of every ``SAMPLE_STEP``-th pixel of every
``SAMPLE_STEP``-th row: a ninth of the pixels), maps every pixel onto it (nearest colour, no dithering), and
checks the mapping against the RGB picture, every pixel, on every channel: 8 ms in all, half of it the check.

* at most ``STRAY`` (48) pixels may be off by more than ``SHADE`` (32): isolated antialiased edge pixels,
  blends of two colours met nowhere else (the full quantize leaves more: 18 to 539 pixels off by more than
  32 on bench_render's maps, up to 83 on a map of the scripted games);
* no pixel may be off by more than ``WRONG`` (64): that is another colour, not a shade of it (the full
  quantize leaves none so far off on those maps: at most 57).

A colour the sample missed (a 1-px line, a thin ring, a small chit of a colour drawn nowhere else in the
picture) has no entry near it: a line of more than ``STRAY`` pixels off by more than ``SHADE``, or any pixel
off by more than ``WRONG``, makes the picture fall back to the full quantize, which gives such a colour its
own entry (a 1-px line keeps its exact colour). Within those bounds a pixel is drawn in a shade of its
colour at most ``SHADE`` off per channel, as the full quantize does with colours that share a cell.

The bytes are a function of the picture alone: no palette is kept from one render to the next, so a
render gives the same bytes cold in a new process as warm, whatever the process drew before (a palette
kept per map window from its first render would make the bytes depend on which state was drawn first:
the golden games' hashes would change with the order tests share a cache folder in, and a bot's maps
after a restart whose cache was trimmed; working the palette out every time costs 1.5 ms).
On the scripted games' 600 maps (tests/e2e/test_golden.py) none falls back: a hex game's maps have
1,241 to 1,937 pixels off by more than 24 in all where the full quantize left 7,304 to 33,974, their worst
pixel 58 off (54 before); the area map's (few colours) worst is 26 off (15 before); the PNGs are
2 % larger. bench_render's twelve sample maps are all mapped too.
"""
from __future__ import annotations

import io

from PIL import Image, ImageChops

PNG_COLORS = 256
SAMPLE_STEP = 3   # the palette is worked out on every 3rd pixel of every 3rd row (NEAREST)
SHADE = 32        # a pixel off by more than this on a channel is not the colour drawn ...
STRAY = 48        # ... and more than this many such pixels make the sample's palette fail
WRONG = 64        # a single pixel off by more than this makes it fail
DEFLATE_LEVEL = 6  # the PNG's compression level (Pillow's writer, zlib)

_OCTREE = Image.Quantize.FASTOCTREE
_NONE = Image.Dither.NONE
_OVER = ([0] * (SHADE + 1) + [128] * (WRONG - SHADE) + [255] * (255 - WRONG)) * 3


def quantize_full(img: Image.Image) -> Image.Image:
    """The picture reduced by the full FASTOCTREE quantize (the fallback; and the encoder before issue 26)."""
    return img.quantize(PNG_COLORS, method=_OCTREE, dither=_NONE)


def sample_palette(img: Image.Image) -> Image.Image:
    """A P image whose palette is the FASTOCTREE reduction of every ``SAMPLE_STEP``-th pixel of ``img``."""
    w, h = max(1, img.width // SAMPLE_STEP), max(1, img.height // SAMPLE_STEP)
    box = (0, 0, min(img.width, w * SAMPLE_STEP), min(img.height, h * SAMPLE_STEP))  # (the pixels read: k * STEP
    sample = img.resize((w, h), Image.Resampling.NEAREST, box=box)                 # + STEP // 2, each way)
    return sample.quantize(PNG_COLORS, method=_OCTREE, dither=_NONE)


def off_by(img: Image.Image, q: Image.Image) -> tuple[int, bool]:
    """How far the P image ``q`` is from the RGB picture ``img``: the number of pixels off by more than
    ``SHADE`` on some channel, and whether any is off by more than ``WRONG``."""
    d = ImageChops.difference(img, q.convert("RGB"))
    over = d.point(_OVER)  # 128 on a channel off by more than SHADE, 255 by more than WRONG, else 0 (a table:
    box = over.getbbox()   # ImageChops.subtract with an offset computes in floats, three times slower)
    if box is None:
        return 0, False
    over = over.crop(box)  # (every pixel off by more than SHADE is in the box)
    marked = over.convert("L")  # (nonzero where a channel is: 128 in blue alone gives 15)
    stray = (box[2] - box[0]) * (box[3] - box[1]) - marked.histogram()[0]
    return stray, any(hi == 255 for _, hi in over.getextrema())


def fits(stray: int, wrong: bool) -> bool:
    """Whether a mapping with ``stray`` pixels off by more than ``SHADE`` (``wrong``: one by more than ``WRONG``)
    is kept."""
    return stray <= STRAY and not wrong


def quantize(img: Image.Image) -> tuple[Image.Image, bool]:
    """The picture in at most 256 colours: mapped onto its sample's palette when that :func:`fits`
    (True), else by the full quantize (False)."""
    if img.mode != "RGB":
        img = img.convert("RGB")
    q = img.quantize(palette=sample_palette(img), dither=_NONE)
    if fits(*off_by(img, q)):
        return q, True
    return quantize_full(img), False


def save(q: Image.Image) -> bytes:
    """PNG bytes of an image by Pillow's own writer (zlib level 6, no metadata): deterministic. (Until issue 43
    the renderer wrote a palette image's PNG itself, deflated by libdeflate: 15 ms instead of 36 for the whole
    map, a saving no player feels; docs/architecture.md, "Hand-written parts, and why".)"""
    buf = io.BytesIO()
    q.save(buf, format="PNG", compress_level=DEFLATE_LEVEL)
    return buf.getvalue()


def encode(img: Image.Image) -> bytes:
    """PNG bytes of the RGB picture ``img`` (see the module's docstring), deterministic."""
    return encode_mapped(img)[0]


def encode_mapped(img: Image.Image) -> tuple[bytes, bool]:
    """:func:`encode`'s bytes, and whether the sample's palette mapped the picture (:func:`quantize`)."""
    q, mapped = quantize(img)
    return save(q), mapped


def encode_full(img: Image.Image) -> bytes:
    """PNG bytes by the full quantize (the encoder before issue 26: bench_render's floor keeps it)."""
    return save(quantize_full(img))
