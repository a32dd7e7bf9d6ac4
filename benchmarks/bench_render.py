"""Render benchmark: ``python -m benchmarks.bench_render`` (from the repo root).

Prints figures, asserts nothing. Every time is CPU time (``time.process_time()``: the machine is shared,
and wall time there measured the neighbours as much as the renderer), each the median of ``-n`` rounds
that time a cold render, the floor and a cached render once each, interleaved (a neighbour's load then
weighs on the three alike, not on one of them):

* cold render (every in-memory cache cleared, as in a new process): with nothing on disk (a map's
  first render ever) and with its base layer, counter sprites and texts on disk (render/hex_base.py,
  counters.py and style.py's disk cache; the bot's usual first render after a restart), and the
  latter over the floor (target <= 1.5x), each run after ``clear_cache()``;
* cached render (base layer and sprites cached), median ms of N;
* a "floor": Pillow drawing the same counters as plain rectangles + text on a
  copy of the cached base, encoded with the same PNG settings (the full FASTOCTREE quantize and zlib
  level 6: render/png.py's ``encode_full``, the renderer's encoder before it mapped onto a sampled
  palette; the floor keeps it: Pillow's own quantize and writer); and the ratio
  cached / floor (target <= 1.3x);
* PNG sizes.
"""
from __future__ import annotations

import argparse
import statistics
import time

from PIL import ImageDraw

from render import clear_cache, render_view
from render import style as S
from render.hexmap import _base, _parse_hex, _side_color, frame_for
from render.png import encode_full
from tests.render_sample import gondor_map, sample_view


def floor_render(view: dict, hexmap, around: str | None = None, *, encoder=encode_full, **opts) -> bytes:
    fr = frame_for(view, hexmap, around=around, **opts)
    s = fr.s
    base, lay, _ = _base(hexmap, fr.window, s, frame=fr)
    img = base.copy()
    d = ImageDraw.Draw(img)
    size = round(s * 1.34)
    f = S.font(round(size * 0.27))
    sides = view.get("sides", {})
    for u in view["units"]:
        h = _parse_hex(u.get("hex"))
        if h is None or not lay.contains(h):
            continue
        cx, cy = lay.center(h)
        d.rectangle([cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2], fill=_side_color(sides, u.get("side")),
                    outline=(0, 0, 0))
        d.text((cx, cy - size * 0.3), str(u.get("id", "")), font=f, fill=(255, 255, 255), anchor="mm")
        d.text((cx, cy + size * 0.3), str(u.get("ratings", "")), font=f, fill=(255, 255, 255), anchor="mm")
    return encoder(img)  # the floor's encoder as before issue 26's palette (render/png.py): unchanged


clock = time.process_time  # CPU time of this process (see the docstring)


def timed(fn, n: int, before=None) -> tuple[float, bytes]:
    """Median CPU ms of ``n`` calls of ``fn`` (each after ``before()``, not timed), and the last result."""
    times = []
    out = b""
    for _ in range(n):
        if before is not None:
            before()
        t = clock()
        out = fn()
        times.append((clock() - t) * 1000)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=21, help="rounds (one cold, one floor, one cached render each) for the medians")
    ap.add_argument("--units", type=int, default=80, help="counters on the map")
    args = ap.parse_args()
    import os
    import tempfile

    import atexit
    import shutil

    os.environ["PALANTIR_RENDER_CACHE"] = tempfile.mkdtemp(prefix="palantir-bench-")  # empty: measured both ways
    atexit.register(shutil.rmtree, os.environ["PALANTIR_RENDER_CACHE"], ignore_errors=True)
    m = gondor_map()
    view = sample_view("westernesse", args.units)
    for label, opts in (("whole map", {}), ("around 1907", {"around": "1907"}),
                        ("phase map (focus: the default)", {"focus": True})):
        # nothing on disk (once: the first render fills the disk cache), then rounds of: the base, sprites and
        # texts on disk (cold), the floor, the cached render, each timed once a round (interleaved: the shared
        # machine's load weighs on all three alike)
        first, _ = timed(lambda: render_view(view, m, **opts), 1, clear_cache)
        cold, warm, flo = [], [], []
        for _ in range(args.n):
            cold.append(timed(lambda: render_view(view, m, **opts), 1, clear_cache)[0])
            floor_render(view, m, **opts)  # its base back in memory (the cold render loaded the one it needed)
            flo.append(timed(lambda: floor_render(view, m, **opts), 1)[0])
            warm.append(timed(lambda: render_view(view, m, **opts), 1)[0])
        png, fpng = render_view(view, m, **opts), floor_render(view, m, **opts)
        colds = [first, statistics.median(cold)]
        cached, floor = statistics.median(warm), statistics.median(flo)
        print(f"{label} ({args.units} counters):")
        print(f"  cold, base built   {colds[0]:8.1f} ms   ({colds[0] / floor:.2f} x the floor)")
        print(f"  cold, base on disk {colds[1]:8.1f} ms   ({colds[1] / floor:.2f} x the floor; target <= 1.5; "
              f"median of {args.n})")
        print(f"  cached render      {cached:8.1f} ms   (median of {args.n})")
        print(f"  floor              {floor:8.1f} ms   (rectangles + text on the cached base; Pillow's quantize and writer)")
        print(f"  ratio cached/floor {cached / floor:8.2f} x  (target <= 1.3)")
        print(f"  PNG size           {len(png) / 1024:8.1f} KiB (floor {len(fpng) / 1024:.1f} KiB)")
    replay_gif()


def replay_gif() -> None:
    """`/game replay`'s GIF for a busy stretch: Gondor's whole set-up, one frame per order (52), of
    which the replay keeps 24. Target: under 2 MB."""
    from engine.core import Game
    from engine.rulesets import get_ruleset
    from render.replay import render_frames
    from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

    g = Game.new(get_ruleset("gondor"), seed="bench")
    frames = []
    for seat, orders in (("sauron", SAURON_SETUP), ("westernesse", WESTERNESSE_SETUP)):
        for o in orders + ["done"]:
            g.play(seat, o)
            frames.append((o, g.view(None)))
    t = clock()
    gif = render_frames(frames, g.ruleset.game_board().drawable, lambda v, m, a, **kw: render_view(v, m, around=a))
    print(f"replay GIF, {len(frames)} orders -> 24 frames: {len(gif) / 1e6:.2f} MB in "
          f"{clock() - t:.1f} s CPU   (target < 2 MB)")


if __name__ == "__main__":
    main()
