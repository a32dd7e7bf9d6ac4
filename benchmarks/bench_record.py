"""The HTML game record (issue 40) of each scripted game, printed, not asserted:
``python -m benchmarks.bench_record``.

Each game is played from its script through the engine (``Game.play``, as bench_replay's "typed"), then its
record is made as ``palantir record`` makes it from a finished game's export: the log replayed
(bot/history.walk) and every step's picture for the full view and each seat's (render/record.py), the page
written with Jinja2. Printed: the time to make the record (the play itself not counted), its size, and the
pictures, chunks and sprites it holds. Target for the 16-turn Gondor game on a 2-core machine: under 5 s and
under 10 MiB (Discord's upload limit)."""
from __future__ import annotations

import time

from benchmarks.bench_replay import SCRIPTS, orders
from bot.archive import build_record
from engine.core import Game
from engine.rulesets import get_ruleset

GAMES = [("gondor", "local-7", "gondor_game.txt", {}), ("celebrant", "local-7", "celebrant_game.txt", {}),
         ("risk-minas-tirith", "local-11", "risk_minas_tirith_game.txt", {}),
         ("sauron", "local-45", "sauron_game.txt", {}), ("wotr", "local-7", "wotr_game.txt", {"turns": "4"})]


def record(name: str, seed: str, script: str, options: dict) -> tuple[float, int, int]:
    rs = get_ruleset(name)
    import copy

    g = Game.new(rs, options, seed)
    first = copy.deepcopy(g.state)
    entries, log = [], []
    for seat, text in orders(SCRIPTS / script, rs.seats[0]):
        before = g.dice_drawn()
        try:
            applied, _ = g.play(seat, text)
        except Exception:  # (a line the script expects to be refused)
            continue
        canon = rs.format(applied)
        entries.append({"seq": len(entries) + 1, "seat": seat, "kind": "order", "text": canon, "ref_seq": None,
                        "dice_before": before, "dice_after": g.dice_drawn()})
        log.append({"seq": len(log) + 1, "seat": seat, "kind": "order", "order": canon, "rolls": [], "public": []})
    data = {"log": log, "orders": [e["text"] for e in entries], "status": "over", "seat_history": []}
    t = time.perf_counter()
    html = build_record(rs, first, entries, data, None, True)
    return time.perf_counter() - t, len(html), len(entries)


def main() -> None:
    print("HTML record of each scripted game (full view + every seat's), made from its log:")
    for name, seed, script, options in GAMES:
        took, size, n = record(name, seed, script, options)
        print(f"  {name:18s} {n:5d} orders  {took:6.2f} s  {size / 2**20:5.2f} MiB")


if __name__ == "__main__":
    main()
