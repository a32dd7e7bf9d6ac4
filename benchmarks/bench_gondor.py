"""Gondor's complete scripted game (tests/scripts/gondor_game.txt, every
exclusive rule in play): ``python -m benchmarks.bench_gondor``.

Prints figures beside the foundation's (bench_service, bench_render,
bench_engine), asserts nothing:

* the whole game's replay from its orders (set-up to the victory decision);
* the public map drawn at every phase of that game (what the bot posts with
  each phase's notice): median, p95 and worst, and the PNG sizes;
* Sauron's legal actions at the busiest Siege Phase (breaches, fireballs,
  heads) and at the busiest Movement Phase.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from engine.core import Game
from render import clear_cache, render_view
from engine.rulesets import get_ruleset
from engine.spi import c03_sequence

SCRIPT = Path(__file__).resolve().parent.parent / "tests" / "scripts" / "gondor_game.txt"


def orders() -> list[tuple[str, str]]:
    out, seat = [], None
    for line in SCRIPT.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("/game"):
            continue
        if line.startswith("as "):
            seat = line[3:]
            continue
        out.append((seat, "done" if line == "/done" else line[len("/order "):]))
    return out


def main() -> None:
    log = orders()
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        g = Game.new(get_ruleset("gondor"), seed="local-7")
        for seat, text in log:
            g.play(seat, text)
        runs.append(time.perf_counter() - t)
    dt = statistics.median(runs)
    print(f"Gondor scripted game replay: {len(log)} orders in {dt * 1000:.0f} ms ({len(log) / dt:.0f} orders/s); "
          f"{g.result().summary[:90]}...")
    # the public map at each phase
    g = Game.new(get_ruleset("gondor"), seed="local-7")
    hm = g.ruleset.hexmap
    times, sizes, phase = [], [], None
    busiest = {"siege": (0, None), "move": (0, None)}
    clear_cache()
    for seat, text in log:
        g.play(seat, text)
        now = (g.state["turn"], g.state["step"])
        if now != phase and not g.result():
            phase = now
            t = time.perf_counter()
            png = render_view(g.view(None), hm)
            times.append((time.perf_counter() - t) * 1000)
            sizes.append(len(png))
            k = c03_sequence.kind(g.ruleset, g.state)
            if k in busiest and g.active_seats() and g.active_seats()[0] == "sauron":
                n = sum(1 for _ in g.legal_actions("sauron"))
                if n > busiest[k][0]:
                    busiest[k] = (n, Game(g.ruleset, g.state))
    times.sort()
    print(f"public map at every phase: {len(times)} phases, median {statistics.median(times):.1f} ms, "
          f"p95 {times[int(len(times) * 0.95)]:.1f} ms, worst {times[-1]:.1f} ms (first, cold: base map drawn)")
    print(f"PNG size: median {statistics.median(sizes) / 1024:.0f} KiB, largest {max(sizes) / 1024:.0f} KiB")
    for k, (n, h) in busiest.items():
        if h is None:
            continue
        t = time.perf_counter()
        list(h.legal_actions("sauron"))
        print(f"Sauron's legal actions, busiest {k} phase (turn {h.state['turn']}): {n} in "
              f"{(time.perf_counter() - t) * 1000:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
