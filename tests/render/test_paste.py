"""style.paste, Pillow's core paste without Image.paste's argument checks (issue 26: the map post's warm
render pastes some 140 sprites and texts): the same pixels as Image.paste, off the edges too, and a
read-only picture left to Image.paste."""
from __future__ import annotations

import random

from PIL import Image

from render import style as S


def _noise(mode: str, size: tuple[int, int], seed: int) -> Image.Image:
    rnd = random.Random(seed)
    return Image.frombytes(mode, size, bytes(rnd.randrange(256) for _ in range(size[0] * size[1] * len(mode))))


def test_paste_gives_the_pixels_image_paste_gives():
    base = _noise("RGB", (60, 40), 1)
    sprite = _noise("RGBA", (17, 13), 2)
    mask = _noise("L", (11, 7), 3)
    for xy in ((5, 6), (-4, -3), (50, 35), (0, 0)):
        for src, m in ((sprite, sprite), ((200, 30, 40), mask), (_noise("RGB", (11, 7), 4), mask)):
            want, got = base.copy(), base.copy()
            want.paste(src, xy, m)
            S.paste(got, src, xy, m)
            assert got.tobytes() == want.tobytes(), (xy, src)


def test_a_read_only_picture_is_left_to_image_paste():
    data = bytes(range(256)) * 16
    ro = Image.frombuffer("L", (64, 64), data, "raw", "L", 0, 1)
    assert ro.readonly
    mask = _noise("L", (8, 8), 5)
    want = ro.copy()
    want.paste(9, (3, 4), mask)
    S.paste(ro, 9, (3, 4), mask)  # an int colour, on a read-only image: Image.paste copies it first
    assert ro.tobytes() == want.tobytes() and data == bytes(range(256)) * 16
