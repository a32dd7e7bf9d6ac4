"""Write tests/scripts/celebrant_game.txt: a complete Field of Celebrant game
for `palantir local celebrant --seed 7 --script <it>`, played by a small
deterministic player on the engine (the same seed as the console's
`local-7`, so the same dice).

Run: .venv/bin/python -m tests.scripts.make_celebrant_game > tests/scripts/celebrant_game.txt

The player: the set-up of tests/rulesets/celebrant/test_celebrant_secrecy.py; every special
ability as soon as it may be used; the first Eotheod area when it must choose;
in a Movement Phase up to ten units, each to the reachable hex nearest an
enemy; every missile attack, then every melee it can make (against the
weakest target first); retreats to the first hex offered; advances never;
every rally it can try."""
from __future__ import annotations

import random
import sys

from engine.core import Game
from engine.hexgrid import Hex
from tests.rulesets.celebrant.test_celebrant_secrecy import setup_orders
from engine.rulesets import get_ruleset
from engine.spi import c07_1_fire
from engine.spi import hooks
from engine.spi import c03_sequence

SEED = "7"
MOVES_PER_PHASE = 10


def choose(g: Game, seat: str, moved: set[str], rnd: random.Random) -> str:
    rs, st = g.ruleset, g.state
    if st["pending"]:
        p = st["pending"][0]
        return f"retreat {p['unit']} {p['options'][0]}"
    kind = c03_sequence.kind(rs, st)
    if kind == "move":
        for a in hooks.legal_extra(rs, st, seat):
            return rs.format(a)
        enemies = [Hex.parse(r["hex"]) for u, r in st["units"].items()
                   if r["status"] == "map" and rs.units[u].side != seat and rs.units[u].is_combat]
        if len(moved) < MOVES_PER_PHASE and enemies:
            mine = sorted(u for u, d in rs.units.items() if d.side == seat and u not in moved
                          and st["units"][u]["status"] in ("map", "reinforcement") and not d.is_leader)
            best = None
            for uid in mine:
                here = st["units"][uid]["hex"]
                now = min(Hex.parse(here).distance(e) for e in enemies) if here else 99
                if now <= 1:
                    continue
                for a in rs.legal_actions_for(st, seat, uid):
                    if a.verb != "move":
                        continue
                    d = min(Hex.parse(a.args[-1]).distance(e) for e in enemies)
                    key = (d - now, d, rs.format(a))
                    if best is None or key < best[0]:
                        best = (key, rs.format(a), uid)
                if best and best[2] == uid and len(mine) > 12:
                    break
            if best:
                moved.add(best[2])
                return best[1]
        return "done"
    offered = [rs.format(a) for a in g.legal_actions(seat)]
    if kind == "combat":
        fires = [t for t in offered if t.startswith("fire ")]
        if fires:
            return fires[0]
        melees = [t for t in offered if t.startswith("melee ")]
        if melees:
            def weakness(t):
                hx = t.split()[-1]
                tgt = c07_1_fire._target_units(rs, st, seat, hx)
                r = rs.hooks.ratings(rs, st, tgt[0]) if tgt else None
                return (r.armor if r else 9, "WXYZ".index(r.morale) * -1 if r else 0, t)
            return min(melees, key=weakness)
        return "done"
    rest = [t for t in offered if t != "done" and not t.startswith("move ")]
    if rest:
        return rest[0]
    return "done"


def build() -> list[str]:
    g = Game.new(get_ruleset("celebrant"), seed=f"local-{SEED}")
    rnd = random.Random(7)
    lines = [
        "# A complete game of Field of Celebrant (seed 003, living version 1.33) through the console, run in CI",
        "# (tests/e2e/test_celebrant_console.py): `palantir local celebrant --seed 7 --script <this>`.",
        "# Written by tests/scripts/make_celebrant_game.py (a small deterministic player); it ends in a graded",
        "# result (20.x). On the way: Shadow sets up first (13.0), each side's secret Eotheod chit (14.3, by DM",
        "# and /secret), Gondor's disarray (13.21), the Balchoth arrival rolls (14.5), the chits revealed and the",
        "# Eotheod arriving (14.6), the special abilities (17.x) and the demoralization track (19.x).",
        "as westernesse",
        "!expect-error /order deploy GS1 2014",
        "as shadow",
        "!expect-error /order deploy OI1 2014",
        "!expect-error /done",
    ]
    seat_now = "shadow"

    def emit(seat: str, text: str) -> None:
        nonlocal seat_now
        if seat != seat_now:
            lines.append(f"as {seat}")
            seat_now = seat
        lines.append("/done" if text == "done" else f"/order {text}")

    for seat, text in setup_orders(g):
        g.play(seat, text)
        emit(seat, text)
    lines += ["/secret", "as westernesse", "/secret"]
    seat_now = "westernesse"
    moved: set[str] = set()
    phase = None
    n = 0
    while not g.result():
        seat = g.active_seats()[0]
        now = (g.state["turn"], g.state["step"])
        if now != phase:
            moved = set()
            phase = now
            if g.state["step"] == "A-shadow" and g.state["turn"] in (1, 6, 12):
                lines.append(f"# Game-Turn {g.state['turn']}")
        text = choose(g, seat, moved, rnd)
        g.play(seat, text)
        emit(seat, text)
        n += 1
        if n > 5000:
            raise SystemExit("the game did not end")
    lines.append(f"# The end: {g.result().summary}")
    return lines


if __name__ == "__main__":
    sys.stdout.write("\n".join(build()) + "\n")
