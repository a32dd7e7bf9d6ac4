"""The autopilot's decisions in whole games (issue 42): ``python -m benchmarks.bench_autopilot [games]``.

For every ruleset, whole games with one seat on autopilot (each seat in turn) against a random legal
opponent that farms: it raises, whenever the rules let it, the contests an absent seat must answer
(Sauron's challenge to Mortal Combat, 22.0; War of the Ring's Event 075, AA.2). Prints, per ruleset:
the games and orders, the autopilot's decisions by verb, the challenges accepted and declined, the
demoralization the declines cost (22.3) and the expected net cost of the fights accepted, what declining
every challenge (the autopilot before issue 42) would have cost, the Mortal Combats fought and who died,
and the seizures of the Ring rolled and their outcomes; and the time a game takes. Asserts nothing:
tests/rulesets/sauron/test_sauron_22_3_autopilot.py and tests/rulesets/wotr/test_wotr_autopilot.py
assert the policies, tests/engine/test_autopilot_policies.py that such games end.
"""
from __future__ import annotations

import sys
import time
from collections import Counter

from engine.rulesets import get_ruleset
from tests.autopilot_helpers import farmed_game

RULESETS = ("gondor", "sauron", "sauron-expanded", "celebrant", "risk-minas-tirith", "wotr")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    print(f"issue 42: one seat on autopilot against a farming random opponent, {games} game(s) per seat")
    for name in RULESETS:
        rs = get_ruleset(name)
        seats = [s for s in rs.seats if s != "gm" and s not in rs.optional_seats]
        tally, verbs, orders = Counter(), Counter(), 0
        t = time.perf_counter()
        for seed in range(games):
            for seat in seats:
                orders += farmed_game(name, seed, seat, tally, verbs)[1]
        per_game = (time.perf_counter() - t) / (games * len(seats))
        print(f"{name}: {games * len(seats)} games, {orders} orders, {per_game:.2f} s a game")
        print("  autopilot's orders: " + ", ".join(f"{v} {n}" for v, n in verbs.most_common()))
        if tally["challenges"]:
            print(f"  challenges answered {tally['challenges']}: accepted {tally['accepted']} (expected net cost "
                  f"{tally['accept-expected']:+.1f} demoralization), declined {tally['declined']} "
                  f"(+{tally['decline-paid']} demoralization, 22.3); declining every one would have cost "
                  f"+{tally['always-decline']}")
            print(f"  Mortal Combats fought {tally['fights']}, leaders dead in them {tally['fight-deaths']}")
        else:
            none = "" if "challenge" in getattr(rs, "decisions", {}) else " (the game has no challenge to Mortal Combat)"
            print(f"  challenges answered 0{none}")
        if tally["seizures"]:
            print(f"  seizures of the Ring the autopilot rolled {tally['seizures']}: held {tally['held']}, "
                  f"seized {tally['seized']}")


if __name__ == "__main__":
    main()
