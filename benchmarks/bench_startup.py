"""Start-up with many stored games (issue 12), printed, not asserted.

One real Gondor game is played through its set-up by the service, then copied in the SQLite file
(games, seats, snapshots, clocks) until the file holds ``--stored`` games of which ``--live`` are
live. A fresh process then opens the store, builds the service and runs ``warm()`` (what the bot
does before it connects), and prints the time to ready and its peak resident memory.
Targets: 100,000 stored and 10,000 live games: under 2 s and under 150 MB.

Run: python -m benchmarks.bench_startup [--stored 100000] [--live 10000]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.service import Ctx, GameService
from bot.storage import open_store
from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

ROOT = Path(__file__).resolve().parent.parent

READY = """
import asyncio, resource, sys, time
t0 = time.perf_counter()
from bot.storage import open_store
from bot.service import GameService
import bot.transports.discord_app  # the whole bot's code, as the process that connects imports it
async def main():
    store = await open_store(sys.argv[1])
    svc = GameService(store, renderer=None)
    live = await svc.table.warm()
    dt = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(live, len(svc.table.games), f"{dt:.2f}", f"{rss:.0f}")
    await store.close()
asyncio.run(main())
"""


async def one_game(path: str) -> None:
    store = await open_store(path)
    svc = GameService(store, renderer=None, clock=lambda: 1_750_000_000.0)
    n = 0

    def c(u):
        nonlocal n
        n += 1
        return Ctx(channel_id=1, user_id=u, guild_id=1, interaction_id=f"s{n}")

    await svc.lobby.new_game(c(1), "gondor", "deadline=48")
    await svc.lobby.join(c(1), "sauron")
    await svc.lobby.join(c(2), "westernesse")
    await svc.lobby.start(c(1))
    for u, o in [(1, o) for o in SAURON_SETUP + ["done"]] + [(2, o) for o in WESTERNESSE_SETUP + ["done"]]:
        assert (await svc.orders.order(c(u), o)).ok
    await store.close()


def copy_games(path: str, stored: int, live: int) -> None:
    con = sqlite3.connect(path)
    cols = [r[1] for r in con.execute("PRAGMA table_info(games)")]
    src = dict(zip(cols, con.execute("SELECT * FROM games WHERE id=1").fetchone()))
    snaps = con.execute("SELECT seq, state FROM snapshots WHERE game_id=1").fetchall()
    seats = con.execute("SELECT seat, user_id, joined_at FROM seats WHERE game_id=1").fetchall()
    ccols = [r[1] for r in con.execute("PRAGMA table_info(clocks)")]
    clock = dict(zip(ccols, con.execute("SELECT * FROM clocks WHERE game_id=1").fetchone()))
    with con:
        for gid in range(2, stored + 1):
            g = dict(src, id=gid, channel_id=gid, status="active" if gid <= live else "over")
            con.execute(f"INSERT INTO games ({','.join(g)}) VALUES ({','.join('?' * len(g))})", list(g.values()))
            con.executemany("INSERT INTO snapshots (game_id, seq, state) VALUES (?,?,?)",
                            [(gid, s, st) for s, st in snaps])
            con.executemany("INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?,?,?,?)",
                            [(gid, *r) for r in seats])
            if gid <= live:
                k = dict(clock, game_id=gid)
                con.execute(f"INSERT INTO clocks ({','.join(k)}) VALUES ({','.join('?' * len(k))})", list(k.values()))
    con.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--stored", type=int, default=100_000)
    ap.add_argument("--live", type=int, default=10_000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "startup.db")
        t = time.perf_counter()
        asyncio.run(one_game(path))
        copy_games(path, args.stored, args.live)
        fill = time.perf_counter() - t
        size = os.path.getsize(path) / 1e6
        out = subprocess.run([sys.executable, "-c", READY, path], capture_output=True, text=True, cwd=ROOT,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
        if out.returncode:
            print(out.stderr)
            raise SystemExit(1)
        live, loaded, secs, rss = out.stdout.split()
        print(f"start-up to ready, {args.stored:,} stored games ({live} live), {loaded} game states read: "
              f"{secs} s, peak resident {rss} MB   (targets < 2 s, < 150 MB); database {size:.0f} MB, "
              f"filled in {fill:.0f} s")


if __name__ == "__main__":
    main()
