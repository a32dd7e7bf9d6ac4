"""Animated replays: one frame per view (each already redacted for whoever
asked), scaled down, a caption band on top, encoded as a looping GIF.

The views come from the service, which takes them through
``Ruleset.view(state, seat)``; nothing here sees a game state, so a frame can
show no more than the view it was given."""
from __future__ import annotations

import io
from typing import Callable, Sequence

from PIL import Image, ImageChops, ImageDraw

MAX_FRAMES = 24
WIDTH = 720
BAND = 28
FRAME_MS = 1200
LAST_MS = 3000
CLEAR = 255  # the transparent palette index (the frames use 128 colours: indices 0-127)


def pick(frames: Sequence, limit: int = MAX_FRAMES) -> list:
    """At most ``limit`` frames, evenly spread, always keeping the first and the last."""
    frames = list(frames)
    if len(frames) <= limit:
        return frames
    step = (len(frames) - 1) / (limit - 1)
    return [frames[round(i * step)] for i in range(limit)]


def _font(size: int):
    from render.style import font  # the bundled font: the same GIF on every machine
    return font(size)


def render_frames(frames: Sequence[tuple[str, dict]], hexmap, renderer: Callable, *, width: int = WIDTH,
                  limit: int = MAX_FRAMES, delta: bool = True) -> bytes:
    """GIF bytes of ``frames`` (caption, view); ``renderer(view, hexmap, around)`` gives PNG bytes."""
    chosen = pick(frames, limit)
    if not chosen:
        raise ValueError("a replay needs at least one frame")
    font = _font(15)
    smalls = []
    for caption, view in chosen:
        src = Image.open(io.BytesIO(renderer(view, hexmap, None))).convert("RGB")
        smalls.append((caption, src.resize((width, round(src.height * width / src.width)), Image.LANCZOS)))
    # frames may differ in height (a header with a set-up zone's line, a result's): every frame as tall as
    # the tallest, the map at the top
    h = max(s.height for _, s in smalls)
    rgb = []
    for caption, small in smalls:
        frame = Image.new("RGB", (width, h + BAND), (24, 24, 28))
        frame.paste(small, (0, BAND))
        ImageDraw.Draw(frame).text((8, 6), caption[:90], fill=(235, 235, 225), font=font)
        rgb.append(frame)
    # one palette for every frame (taken from the first and the last, side by side): a pixel that did
    # not change keeps its index, so the GIF encoder stores only the part of each frame that changed
    sample = Image.new("RGB", (width * 2, rgb[0].height))
    sample.paste(rgb[0], (0, 0))
    sample.paste(rgb[-1], (width, 0))
    palette = sample.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    quantized = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in rgb]
    # after the first frame, a pixel equal to the one before is the transparent index: the frame
    # before shows through (disposal 1 keeps it), and long transparent runs compress to almost nothing
    images = [quantized[0]] if delta else quantized
    for prev, cur in zip(quantized, quantized[1:]) if delta else ():
        changed = ImageChops.difference(_indices(cur), _indices(prev)).point(lambda v: 255 if v else 0)
        frame = Image.new("P", cur.size, CLEAR)
        frame.putpalette(cur.getpalette())
        frame.paste(cur, (0, 0), changed)
        images.append(frame)
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1, transparency=CLEAR)
    return buf.getvalue()


def _indices(im: Image.Image) -> Image.Image:
    """A palette image's indices as a greyscale image (to compare two frames index by index)."""
    return Image.frombytes("L", im.size, im.tobytes())
