"""Standard Rules engine benchmark: ``python -m benchmarks.bench_engine``.

Prints figures, asserts nothing:

* legal-action generation for a full board: every legal action of the
  phasing side in a movement phase with both armies on the map (all units'
  reachable hexes), and the first 25 (what autocomplete needs), and one
  unit's actions (autocomplete once a unit id is typed);
* a whole game's replay from its log (set-up to the end of turn 16, random
  legal play), orders per second;
* the exact odds of one melee (enumeration), microseconds.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

sys.path.insert(0, "tests")

from engine.core import Game, iter_limit  # noqa: E402
from tests.fuzz.test_fuzz_gondor import play_out  # noqa: E402
from engine.rulesets import get_ruleset


def play_game(seed: int) -> tuple[Game, list[tuple[str, str]]]:
    """A whole game of random legal play (the fuzzer's player), and its log."""
    g = Game.new(get_ruleset("gondor"), seed=f"bench-{seed}")
    return g, play_out(g, random.Random(seed), junk=False)


def ms(f, n=5) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


def main() -> None:
    g, log = play_game(1)
    # a full board: replay to the first Westernesse movement phase after turn 10
    # (Aragorn's host on the map too)
    rs = g.ruleset
    h = Game.new(get_ruleset("gondor"), seed="bench-1")
    for seat, text in log:
        h.play(seat, text)
        if h.state["turn"] >= 10 and h.state["step"] == "F":
            break
    on_map = sum(1 for r in h.state["units"].values() if r["status"] == "map")
    seat = "westernesse"
    n_all = len(list(h.legal_actions(seat)))
    print(f"board: turn {h.state['turn']} step {h.state['step']}, {on_map} counters on the map")
    print(f"legal actions, all ({n_all}): {ms(lambda: list(h.legal_actions(seat))):.1f} ms")
    print(f"legal actions, first 25: {ms(lambda: iter_limit(h.legal_actions(seat), 25)):.2f} ms")
    unit = next(u for u, r in h.state["units"].items() if r["status"] == "map" and rs.units[u].side == seat
                and rs.units[u].is_combat)
    print(f"legal actions of one unit ({unit}): {ms(lambda: list(rs.legal_actions_for(h.state, seat, unit))):.2f} ms")
    t = time.perf_counter()
    r = Game.new(get_ruleset("gondor"), seed="bench-1")
    for seat_, text in log:
        r.play(seat_, text)
    dt = time.perf_counter() - t
    print(f"whole-game replay from the log: {len(log)} orders in {dt * 1000:.0f} ms "
          f"({len(log) / dt:.0f} orders/s), ended: {r.result().summary}")
    from spi_helpers import position
    p = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    us = []
    for _ in range(200):
        t = time.perf_counter()
        rs.odds(p.state, "westernesse", "melee GS1 at 1517")
        us.append((time.perf_counter() - t) * 1e6)
    print(f"exact odds of one melee: {statistics.median(us):.0f} us")

if __name__ == "__main__":
    main()
