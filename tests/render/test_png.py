"""The maps' PNG encoding (issue 26, render/png.py): a palette worked out on a sample of the picture, the
mapping checked against the picture, the full quantize when a colour the sample missed would be lost;
bytes that depend on the picture alone."""
from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine.maps import HexMap
from render import clear_cache, png, render_view
from render.hexmap import compose
from tests.render_sample import sample_view
from tests.scripted_helpers import MEASURED

ROOT = Path(__file__).resolve().parents[2]
MAP_PATH = ROOT / "engine" / "rulesets" / "gondor" / "data" / "map.json"


@pytest.fixture(scope="module")
def hexmap() -> HexMap:
    return HexMap.load(MAP_PATH)


@pytest.fixture(scope="module")
def phase_map(hexmap) -> Image.Image:
    """The map post's picture (the focus crop) of the sample view, RGB."""
    return compose(sample_view("westernesse"), hexmap, focus=True)[0]


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def channel_error(a: Image.Image, b: Image.Image) -> Image.Image:
    """Each pixel's largest channel difference between two RGB pictures (an L image)."""
    r, g, b_ = ImageChops.difference(a, b).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b_)


def off_counts(a: Image.Image, b: Image.Image) -> tuple[int, int]:
    """The pixels off by more than SHADE on some channel, and the largest channel error (measured anew)."""
    hist = channel_error(a, b).histogram()
    return sum(hist[png.SHADE + 1:]), max(i for i, n in enumerate(hist) if n)


def unsampled(n: int) -> int:
    """A row (or column) that the palette's NEAREST sample never reads (it reads k * STEP + STEP // 2)."""
    step = png.SAMPLE_STEP
    return n - n % step + (step // 2 + 1) % step


def grey_palette() -> Image.Image:
    pal = Image.new("P", (1, 1))
    pal.putpalette([100, 100, 100] * 256)
    return pal


# --------------------------------------------------------------------------
def test_the_phase_map_is_mapped_onto_its_sample_palette_within_the_bound(phase_map):
    q, mapped = png.quantize(phase_map)
    assert mapped
    stray, worst = off_counts(phase_map, q.convert("RGB"))
    assert stray <= png.STRAY and worst <= png.WRONG
    # and the PNG holds exactly that picture
    assert decode(png.encode(phase_map)).tobytes() == q.convert("RGB").tobytes()


def test_a_1px_line_of_a_colour_the_sample_missed_falls_back_and_keeps_its_colour(phase_map):
    """A new colour drawn only as a 1-px line, on rows the sample never reads: the sample's palette has
    nothing near it (the mapping would lose it), so the picture takes the full quantize, which keeps it."""
    img = phase_map.copy()
    y = unsampled(600)
    new = (0, 200, 255)
    ImageDraw.Draw(img).line([(100, y), (700, y)], fill=new, width=1)
    mapped_only = img.quantize(palette=png.sample_palette(img), dither=Image.Dither.NONE).convert("RGB")
    lost = [c for c in (mapped_only.getpixel((x, y)) for x in range(100, 701)) if c != new]
    assert len(lost) == 601 and max(abs(a - b) for a, b in zip(lost[0], new)) > png.SHADE  # (what the guard sees)
    q, mapped = png.quantize(img)
    assert not mapped
    out = decode(png.encode(img))
    assert all(out.getpixel((x, y)) == new for x in range(100, 701))


def test_a_single_pixel_of_another_colour_falls_back(phase_map):
    img = phase_map.copy()
    x, y = unsampled(400), unsampled(700)
    img.putpixel((x, y), (0, 255, 0))
    assert not png.quantize(img)[1]
    assert decode(png.encode(img)).getpixel((x, y)) == (0, 255, 0)


@pytest.mark.parametrize("k,delta,expected", [
    (png.STRAY, png.SHADE + 1, True),        # a few stray pixels a shade off: kept
    (png.STRAY + 1, png.SHADE + 1, False),   # one more: not
    (200, png.SHADE, True),                  # any number of pixels SHADE off: kept
    (1, png.WRONG, True),
    (1, png.WRONG + 1, False),               # a single pixel of another colour: not
    (1, 255, False),
])
def test_the_guard_counts_pixels_off_by_more_than_a_shade(k, delta, expected):
    img = Image.new("RGB", (60, 60), (100, 100, 100))
    spots = [(x, y) for y in range(60) for x in range(60)][:k]
    for xy in spots:
        img.putpixel(xy, (100, 100, 100 + delta))
    q = img.quantize(palette=grey_palette(), dither=Image.Dither.NONE)
    stray, wrong = png.off_by(img, q)
    assert stray == (k if delta > png.SHADE else 0) and wrong is (delta > png.WRONG)
    assert png.fits(stray, wrong) is expected


def test_the_bytes_depend_on_the_picture_alone(hexmap, tmp_path, monkeypatch):
    """No palette is kept from one render to the next: the map post of a state is the same drawn warm
    after another state, cold from the disk cache, and in a process with an empty cache folder."""
    a = sample_view("westernesse")
    b = copy.deepcopy(a)
    b["units"] = b["units"][::2]
    b["units"][0]["hex"] = "2017"
    render_view(a, hexmap, focus=True)
    after_a = render_view(b, hexmap, focus=True)
    clear_cache()
    cold = render_view(b, hexmap, focus=True)
    monkeypatch.setenv("PALANTIR_RENDER_CACHE", str(tmp_path / "empty"))
    clear_cache()
    fresh = render_view(b, hexmap, focus=True)
    clear_cache()
    assert after_a == cold == fresh
    assert after_a != render_view(a, hexmap, focus=True)


def measure(img: Image.Image, data: bytes, mapped: bool | None = None) -> tuple[bool, int, int, bool]:
    """A picture and the PNG ``png.encode`` made of it: whether the sample's palette mapped it (``mapped``, as
    ``png.encode_mapped`` said, else worked out again), the pixels off by more than SHADE and the largest
    channel error (on the decoded PNG against the RGB picture: 0, 0 when not mapped), and whether the bytes
    are those of the full quantize (when not mapped)."""
    if mapped is None:
        mapped = png.quantize(img)[1]
    if mapped:
        return (True, *off_counts(img, decode(data)), True)
    return False, 0, 0, data == png.encode_full(img)


@pytest.mark.heavy
@pytest.mark.scripted_game  # its game drawn once per worker, shared (tests/scripted_helpers.py: drawn)
@pytest.mark.parametrize("ruleset", MEASURED)
def test_the_scripted_games_maps_stay_within_the_bound(ruleset):
    """Every map of a scripted game (tests/e2e/test_golden.py's script): mapped within the bound (at most
    STRAY pixels off by more than SHADE, none by more than WRONG, measured on the decoded PNG against the
    RGB picture), or the full quantize's bytes; and few fall back (else the saving is gone). Each picture
    is measured as the game encodes it (``measure``, in tests/scripted_helpers.py's ``drawn``)."""
    from tests.e2e.test_golden import SCRIPTED
    from tests.scripted_helpers import drawn

    _, seed, script = next(s for s in SCRIPTED if s[0] == ruleset)
    seen = drawn(ruleset, seed, script).pngs
    assert len(seen) > 100
    assert all(stray <= png.STRAY and worst <= png.WRONG for _, stray, worst, _ in seen)
    assert all(full for mapped, _, _, full in seen if not mapped)
    assert sum(1 for m, _, _, _ in seen if not m) <= len(seen) // 10


# --------------------------------------------------------------------------
# the PNG writer (render/png.py's save): Pillow's own (issue 43)
def palette_image(colors: int, width: int, height: int = 5) -> Image.Image:
    """A P image of ``colors`` colours (FASTOCTREE of a picture that has exactly that many)."""
    img = Image.new("RGB", (width, height))
    px = [((i * 37) % 256, (i * 91) % 256, (i * 13 + 50) % 256) for i in range(colors)]
    img.putdata([px[(x * 7 + y) % colors] for y in range(height) for x in range(width)])
    return img.quantize(colors, method=Image.Quantize.FASTOCTREE)


def read_back(data: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(data))
    im.load()
    return im


@pytest.mark.parametrize("colors", [1, 2, 3, 4, 5, 16, 17, 256])
@pytest.mark.parametrize("width", [1, 3, 7, 9, 33])
def test_the_writer_keeps_every_index_and_the_palette(colors, width):
    """Every bit depth Pillow chooses (1, 2, 4, 8: by the palette's size) and widths that leave a row's last byte
    part-filled: read back, the same indices, palette, mode and size (issue 43: Pillow's own writer)."""
    q = palette_image(colors, width)
    data = png.save(q)
    a = read_back(data)
    assert (a.mode, a.size, a.tobytes()) == (q.mode, q.size, q.tobytes())
    assert a.getpalette()[:colors * 3] == q.getpalette()[:colors * 3]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and png.save(q) == data  # deterministic


def test_every_chunk_s_length_and_crc_are_right(phase_map):
    """Each chunk of a map's PNG read by its length, its CRC recomputed over type and data (zlib.crc32); the
    chunks in order IHDR, PLTE, IDAT (one or more), IEND: no metadata; and a flipped CRC byte is refused by
    Pillow (which checks the CRCs of the chunks before the data), so the reading is not vacuous."""
    import struct
    import zlib

    data = png.save(png.quantize(phase_map)[0])
    pos, kinds = 8, []
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert crc == zlib.crc32(kind + body), kind
        kinds.append(kind)
        pos += 12 + n
    assert pos == len(data) and kinds[:2] == [b"IHDR", b"PLTE"] and kinds[-1] == b"IEND"
    assert set(kinds[2:-1]) == {b"IDAT"}  # (Pillow writes the data in chunks of 64 KiB)
    i = data.index(b"PLTE") + 4 + 768  # the PLTE chunk's CRC (256 colours)
    broken = data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1:]
    with pytest.raises(OSError):  # (PIL.UnidentifiedImageError: "broken PNG file")
        read_back(broken)
