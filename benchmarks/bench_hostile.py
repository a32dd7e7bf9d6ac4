"""Hostile chart files and the searches they feed: ``python -m benchmarks.bench_hostile``.

Prints figures, asserts nothing. The timing claims tests/engine/test_hostile_charts.py used to assert
(issue 39: a wall-clock bound in a test fails on a loaded machine; the tests now fail only on a hang):

* every hostile file of the tests through the bot's path (``charts_text``, ``new_game``), refused or
  accepted: median and slowest, ms (the claim was under 1 s each);
* the text guard alone on 64 KB texts (the claim was under 0.5 s each);
* the movement search (Dijkstra) on steps of hostile cost, and on an endless grid (under 2 s and 5 s).
"""
from __future__ import annotations

import contextlib
import statistics
import time

from engine.hexgrid import Hex, cheapest_path, reachable
from engine.spi.chartguard import ChartError, check_text
from tests.engine.test_hostile_charts import BOX, CASES, GUARDED_TEXTS, load


def ms(f) -> float:
    t0 = time.perf_counter()
    f()
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    took = {name: ms(lambda d=data: load(d)) for name, data, _ in CASES}
    slow = max(took, key=took.get)
    print(f"{len(CASES)} hostile chart files through the bot's path: median {statistics.median(took.values()):.1f} ms, "
          f"slowest {took[slow]:.1f} ms ({slow})")

    def guard(text):
        with contextlib.suppress(ChartError):
            check_text(text)
    print("the text guard alone on 64 KB: " + ", ".join(f"{ms(lambda t=t: guard(t)):.1f}" for t in GUARDED_TEXTS) + " ms")
    for step in (-1.0, 0.0, float("nan"), 1e-9):
        cost = (lambda s: lambda a, b: s if b in BOX else None)(step)
        t = ms(lambda: (reachable(Hex(15, 15), cost, 6), cheapest_path(Hex(15, 15), Hex(1, 1), cost, None)))
        print(f"movement search, a step costing {step}: {t:.1f} ms")
    print(f"movement search on an endless grid: {ms(lambda: reachable(Hex(50, 50), lambda a, b: 1.0, float('inf'))):.1f} ms")


if __name__ == "__main__":
    main()
