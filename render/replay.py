"""Animated replays: one frame per view (each already redacted for whoever
asked), scaled down, a caption band on top, encoded as a looping GIF.

The views come from the service, which takes them through
``Ruleset.view(state, seat)``; nothing here sees a game state, so a frame can
show no more than the view it was given."""
from __future__ import annotations

import io
from typing import Callable, Sequence

from PIL import Image, ImageDraw

MAX_FRAMES = 24
WIDTH = 720
BAND = 28
FRAME_MS = 1200
LAST_MS = 3000


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
                  limit: int = MAX_FRAMES) -> bytes:
    """GIF bytes of ``frames`` (caption, view); ``renderer(view, hexmap, around)`` gives PNG bytes."""
    chosen = pick(frames, limit)
    if not chosen:
        raise ValueError("a replay needs at least one frame")
    font = _font(15)
    images = []
    for caption, view in chosen:
        src = Image.open(io.BytesIO(renderer(view, hexmap, None))).convert("RGB")
        h = round(src.height * width / src.width)
        small = src.resize((width, h), Image.LANCZOS)
        frame = Image.new("RGB", (width, h + BAND), (24, 24, 28))
        frame.paste(small, (0, BAND))
        ImageDraw.Draw(frame).text((8, 6), caption[:90], fill=(235, 235, 225), font=font)
        images.append(frame.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE))
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_MS]
    buf = io.BytesIO()
    images[0].save(buf, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return buf.getvalue()
