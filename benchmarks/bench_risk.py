"""LOTR Risk: Minas Tirith legal actions for a big stack: ``python -m benchmarks.bench_risk``.

Prints figures, asserts nothing (tests/rulesets/risk/test_risk_rules.py asserts the bound):

* every legal action of Good in its Actions phase with one 40-battalion stack and
  2 leaders in Grond (9 bordering Territories): how many, and the time to list
  them all (what a random game's or the deadline's look at the list costs);
* the first 25 (what autocomplete needs).

Issue 12 (never stall): a stack once listed every sub-force of itself as a move.
"""
from __future__ import annotations

import itertools
import statistics
import time

from engine.core import Game
from engine.rulesets import get_ruleset

STACK = {"infantry": 18, "archer": 10, "cavalry": 9, "horse-archer": 3}
LEADERS = ["faramir", "gandalf"]


def big_stack() -> Game:
    g = Game.new(get_ruleset("risk-minas-tirith"), seed="bench-risk")
    for rec in g.state["areas"].values():
        rec.update(side=None, u={}, leaders=[])
    g.state["areas"]["grond"].update(side="good", u=dict(STACK), leaders=list(LEADERS))
    g.state["areas"]["fort-e"].update(side="evil", u={"infantry": 5}, leaders=["gothmog"])
    g.state.update(active="good", phase="actions", actions=6, die=6)
    return g


def ms(f, n=3) -> float:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        out.append((time.perf_counter() - t) * 1000)
    return statistics.median(out)


def main() -> None:
    g = big_stack()
    t = time.perf_counter()
    n_all = sum(1 for _ in g.legal_actions("good"))
    first = (time.perf_counter() - t) * 1000
    n_moves = sum(1 for a in g.legal_actions("good") if a.verb == "move")
    runs = 1 if first > 2000 else 3
    print(f"risk: a {sum(STACK.values())}-battalion stack with {len(LEADERS)} leaders in grond: "
          f"{n_all} legal actions ({n_moves} moves)")
    print(f"risk legal actions, all ({n_all}): {ms(lambda: list(g.legal_actions('good')), runs):.1f} ms")
    print(f"risk legal actions, first 25: {ms(lambda: list(itertools.islice(g.legal_actions('good'), 25))):.2f} ms")
    print(f"risk legal texts, prefix 'move 1cav' (autocomplete): "
          f"{ms(lambda: g.legal_texts('good', 'move 1cav', limit=25)):.2f} ms")


if __name__ == "__main__":
    main()
