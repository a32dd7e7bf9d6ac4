"""Whole-game replays of the four scripted games (issue 12: the truth, not a capped random game),
printed, not asserted: ``python -m benchmarks.bench_replay``.

Each script in ``tests/scripts/`` is a real game typed order by order. Two figures a game:
- **replay of the log**: what export, verify, `/game replay`, undo and a rebuild after a restart pay.
  A new game from the seed, then every order *as the log keeps it* (its canonical text: a move with
  the whole path its check found) parsed, checked and applied in place (``Game.redo``, as
  ``bot/history.walk`` and the rebuild do). Target for Gondor's 1,155 orders: under 0.3 s.
- **typed**: the same game as the players typed it (a move names only its destination, so each is
  path-found), each order applied on a copy (``Game.play``, as a live order is): the engine's part
  of live play.
Also the busiest position's legal actions per ruleset: the count and the time to list them all."""
from __future__ import annotations

import statistics
import time
from pathlib import Path

from engine.core import Game
from engine.rulesets import get_ruleset

SCRIPTS = Path(__file__).resolve().parent.parent / "tests" / "scripts"
GAMES = [("gondor", "local-7", "gondor_game.txt"), ("celebrant", "local-7", "celebrant_game.txt"),
         ("risk-minas-tirith", "local-11", "risk_minas_tirith_game.txt"), ("sauron", "local-45", "sauron_game.txt")]


def orders(script: Path, first_seat: str) -> list[tuple[str, str]]:
    """(seat, order) pairs of a console script (``as <seat>``, ``/order …``, ``/done``)."""
    out, seat = [], first_seat
    for line in script.read_text().splitlines():
        line = line.strip()
        if line.startswith("as "):
            seat = line[3:].strip()
        elif line.startswith("/order "):
            out.append((seat, line[len("/order "):].strip()))
        elif line == "/done":
            out.append((seat, "done"))
    return out


def main() -> None:
    for name, seed, script in GAMES:
        rs = get_ruleset(name)
        log = orders(SCRIPTS / script, rs.seats[0])
        runs, typed, busiest, slowest = [], [], (0, 0.0, ""), (0, 0.0, "")
        for i in range(3):
            t = time.perf_counter()
            g = Game.new(rs, seed=seed)
            logged = [(seat, rs.format(g.play(seat, text)[0])) for seat, text in log]
            typed.append(time.perf_counter() - t)
        final = g.state
        for i in range(5):
            t = time.perf_counter()
            g = Game.new(rs, seed=seed)
            for seat, text in logged:
                g.redo(seat, text)
            runs.append(time.perf_counter() - t)
        assert g.state == final, "the log replays to another position"
        dt = statistics.median(runs)
        # the busiest position of the game for legal actions (every seat that acts, every position)
        g = Game.new(rs, seed=seed)
        worst = (0.0, "")  # autocomplete: the first 25 matching what is typed, at every position of the game
        for seat, text in log:
            words = text.split()
            for prefix in ("", words[0], " ".join(words[:2])[:len(words[0]) + 3], text[:-1]):
                t = time.perf_counter()
                g.legal_texts(seat, prefix, limit=25)
                took = time.perf_counter() - t
                if took > worst[0]:
                    worst = (took, f"{seat} typing `{prefix}` before `{text}`")
            for s in g.active_seats():
                t = time.perf_counter()
                n = sum(1 for _ in g.legal_actions(s))
                took = time.perf_counter() - t
                if n > busiest[0]:
                    busiest = (n, took, f"{s} before `{text}`")
                if took > slowest[1]:
                    slowest = (n, took, f"{s} before `{text}`")
            g.play(seat, text)
        over = g.result()
        print(f"{name}: replay of the log, {len(log)} orders: {dt * 1000:.0f} ms ({len(log) / dt:.0f} orders/s)"
              f"{'' if over else ' (not over?)'}; typed (path-finding, a copy per order): "
              f"{statistics.median(typed) * 1000:.0f} ms\n  most legal actions: {busiest[0]} in {busiest[1] * 1000:.0f} ms"
              f" ({busiest[2]}); slowest to list: {slowest[0]} in {slowest[1] * 1000:.0f} ms ({slowest[2]})\n"
              f"  slowest autocomplete (first 25 matching, no budget; target < 100 ms): {worst[0] * 1000:.1f} ms "
              f"({worst[1]})")


if __name__ == "__main__":
    main()
