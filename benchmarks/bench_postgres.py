"""PostgreSQL beside SQLite (issue 16), printed, not asserted:
- order round trip (parse, check, apply, one committed transaction), p50 and p99, no rendering;
- start-up to ready (open the store, run migrations, ``warm()``) with ``--stored`` games of which
  ``--live`` are live, in a fresh process.

The PostgreSQL server is the one the tests start on loopback (tests/pg_server.py: fsync off, so
these figures show the bot's own cost, not a disk's), or ``PALANTIR_TEST_PG_URL``. The stored
games for start-up are made in SQLite as bench_startup does (copies of one game's rows, so not
replayable: no verification) and moved with ``palantir db copy``'s table copy.

Run: python -m benchmarks.bench_postgres [--games 100] [--stored 20000] [--live 2000]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time

from benchmarks.bench_service import fill, pct
from benchmarks.bench_startup import READY, ROOT, copy_games, one_game
from bot.storage import open_store
from bot.storage.copy import copy_tables
from tests import pg_server


def startup(url: str) -> str:
    out = subprocess.run([sys.executable, "-c", READY, url], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if out.returncode:
        raise SystemExit(out.stderr)
    live, loaded, secs, rss = out.stdout.split()
    return f"{secs} s, peak resident {rss} MB ({live} live, {loaded} game states read)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--stored", type=int, default=20_000)
    ap.add_argument("--live", type=int, default=2_000)
    args = ap.parse_args()
    try:
        server = pg_server.start()
    except pg_server.NoServer as e:
        print(f"no PostgreSQL: {e}")
        return
    try:
        with tempfile.TemporaryDirectory() as d:
            urls = {"sqlite": f"sqlite:///{os.path.join(d, 'rt.db')}",
                    "postgresql": asyncio.run(server.new_database("bench_rt"))}
            for name, url in urls.items():
                stats: dict = {}
                times = asyncio.run(fill(url, args.games, stats))
                print(f"{name:10} order round trip ({len(times)} orders, {args.games} games): "
                      f"p50 {pct(times, 50) * 1000:.2f} ms, p99 {pct(times, 99) * 1000:.2f} ms,"
                      f" max {max(times) * 1000:.2f} ms")
                for kind, rows in sorted(stats.items(), reverse=True):
                    k_ms = [r[0] for r in rows]
                    print(f"{'':10}   {kind:10} {len(rows):6} orders: p50 {pct(k_ms, 50):.2f} ms,"
                          f" p99 {pct(k_ms, 99):.2f} ms; {sum(r[1] for r in rows) / len(rows):.1f} store calls each")
            path = os.path.join(d, "startup.db")
            asyncio.run(one_game(path))
            copy_games(path, args.stored, args.live)
            pg = asyncio.run(server.new_database("bench_start"))
            async def move():
                src, dst = await open_store(f"sqlite:///{path}"), await open_store(pg)
                try:
                    await copy_tables(src, dst, log=lambda *_: None)
                finally:
                    await src.close()
                    await dst.close()
            t = time.perf_counter()
            asyncio.run(move())
            moved = time.perf_counter() - t
            print(f"sqlite     start-up to ready, {args.stored:,} stored games: {startup(f'sqlite:///{path}')}")
            print(f"postgresql start-up to ready, {args.stored:,} stored games: {startup(pg)}"
                  f"   (copied there in {moved:.1f} s)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
