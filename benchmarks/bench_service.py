"""Service figures (printed, not asserted):
- order round trip (parse, check, apply, commit to SQLite), p50 and p99, no rendering; target p99 < 5 ms.
  Each order goes the whole service path a transport's ``/order`` takes (``svc.orders.order``: the
  channel's lock, the idempotency check, the game's row and seats, the engine in its worker, the
  one transaction). The orders that begin a phase (``done`` here) are the worst case (a snapshot,
  the phase's notice and the clock's new deadline besides), so they are shown on their own too,
  with the store calls each kind of order makes (and, on SQLite, the trips to its thread)
- the same for a whole real game: the scripted Gondor game (1,155 orders: moves path-found as typed,
  fire, melee, the siege, retreats) through the service in one channel, p50, p99 and the slowest order
- rebuild of a game from its snapshot plus log
- start-up time and resident memory with 1,000 stored games (loaded on demand; see bench_startup for 100,000)

Run: python -m benchmarks.bench_service [--games 1000]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.service import Ctx, GameService
from bot.storage import open_store
from tests.gondor_helpers import SAURON_SETUP, WESTERNESSE_SETUP

ROOT = Path(__file__).resolve().parent.parent


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class Counting:
    """The store as the service sees it, counting the calls made to it (and, on SQLite, the
    trips into aiosqlite's thread that they cost)."""

    def __init__(self, store):
        self._store, self.calls, self.hops = store, 0, 0
        db = getattr(store, "db", None)
        if db is not None:  # SQLite: each of aiosqlite's calls the store makes is one trip to its thread
            for name in ("execute", "execute_fetchall", "executemany", "commit", "rollback"):
                setattr(db, name, self._counted(getattr(db, name)))

    def _counted(self, inner):
        async def counted(*a, **k):
            self.hops += 1
            return await inner(*a, **k)
        return counted

    def __getattr__(self, name):
        attr = getattr(self._store, name)
        if not callable(attr) or name.startswith("_") or not asyncio.iscoroutinefunction(attr):
            return attr

        async def call(*a, **k):
            self.calls += 1
            return await attr(*a, **k)

        return call


async def fill(path: str, games: int, stats: dict | None = None) -> list[float]:
    """Plays the set-ups of ``games`` Gondor games; the time of each order. With ``stats``:
    ``stats[kind]`` lists (ms, store calls, SQLite thread trips) per order, ``kind`` being
    "new phase" or "same phase"."""
    store = await open_store(path)
    counting = Counting(store)
    svc = GameService(counting, renderer=None)
    times = []
    n = 0
    for ch in range(1, games + 1):
        def c(u):
            nonlocal n
            n += 1
            return Ctx(channel_id=ch, user_id=u, guild_id=1, interaction_id=f"b{n}")
        await svc.lobby.new_game(c(1), "gondor")
        await svc.lobby.join(c(1), "sauron")
        await svc.lobby.join(c(2), "westernesse")
        await svc.lobby.start(c(1))
        orders = [(1, o) for o in SAURON_SETUP + ["done"]] + [(2, o) for o in WESTERNESSE_SETUP + ["done"]]
        for u, o in orders:
            calls, hops = counting.calls, counting.hops
            t = time.perf_counter()
            out = await svc.orders.order(c(u), o)
            dt = time.perf_counter() - t
            times.append(dt)
            assert out.ok, out.reply.text
            if stats is not None:
                kind = "new phase" if out.map_after else "same phase"
                stats.setdefault(kind, []).append((dt * 1000, counting.calls - calls, counting.hops - hops))
    await store.close()
    return times


async def whole_game(path: str) -> list[tuple[float, str]]:
    """The scripted Gondor game (tests/scripts/gondor_game.txt), order by order through the service,
    as its players typed it: (ms, order) for each."""
    from benchmarks.bench_replay import SCRIPTS, orders

    store = await open_store(path)
    svc = GameService(store, renderer=None, seed_source=lambda: "local-7")
    users = {"sauron": 1, "westernesse": 2}
    n = 0

    def c(u):
        nonlocal n
        n += 1
        return Ctx(channel_id=1, user_id=u, guild_id=1, interaction_id=f"w{n}")
    await svc.lobby.new_game(c(1), "gondor")
    await svc.lobby.join(c(1), "sauron")
    await svc.lobby.join(c(2), "westernesse")
    await svc.lobby.start(c(1))
    out = []
    for seat, text in orders(SCRIPTS / "gondor_game.txt", "sauron"):
        t = time.perf_counter()
        res = await svc.orders.order(c(users[seat]), text)
        out.append(((time.perf_counter() - t) * 1000, text))
        assert res.ok, (text, res.reply.text)
    await store.close()
    return out


async def rebuild_time(path: str) -> tuple[float, int]:
    store = await open_store(path)
    svc = GameService(store, renderer=None)
    row = await store.game(1)
    t = time.perf_counter()
    for _ in range(20):
        await svc.table.rebuild(row)
    dt = (time.perf_counter() - t) / 20
    t = time.perf_counter()
    for _ in range(20):
        await svc.table.replay_from_start(row)
    full = (time.perf_counter() - t) / 20
    n = len(await store.actions(1))
    await store.close()
    return dt, full, n


STARTUP = """
import asyncio, resource, sys, time
t0 = time.perf_counter()
from bot.storage import open_store
from bot.service import GameService
async def main():
    store = await open_store(sys.argv[1])
    svc = GameService(store, renderer=None)
    n = await svc.table.warm()
    dt = time.perf_counter() - t0
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(n, f"{dt:.2f}", f"{rss:.0f}")
    await store.close()
asyncio.run(main())
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bench.db")
        t = time.perf_counter()
        stats: dict = {}
        times = asyncio.run(fill(path, args.games, stats))
        fill_s = time.perf_counter() - t
        ms = [x * 1000 for x in times]
        print(f"order round trip (parse, check, apply, commit; no render), {len(ms)} orders over {args.games} games:")
        print(f"  p50 {statistics.median(ms):.2f} ms   p99 {pct(ms, 99):.2f} ms   max {max(ms):.2f} ms"
              f"   (target p99 < 5 ms)")
        for kind, rows in sorted(stats.items(), reverse=True):
            k_ms = [r[0] for r in rows]
            print(f"  {kind:10} {len(rows):6} orders: p50 {statistics.median(k_ms):.2f} ms   p99 {pct(k_ms, 99):.2f} ms"
                  f"   max {max(k_ms):.2f} ms;  per order {statistics.mean(r[1] for r in rows):.1f} store calls,"
                  f" {statistics.mean(r[2] for r in rows):.1f} trips to SQLite's thread")
        game = asyncio.run(whole_game(os.path.join(d, "whole.db")))
        g_ms = [x for x, _ in game]
        worst = max(game)
        print(f"  a whole real game (the scripted Gondor game, {len(game)} orders typed as played: moves path-found,"
              f" fire, melee, siege): p50 {statistics.median(g_ms):.2f} ms   p99 {pct(g_ms, 99):.2f} ms"
              f"   max {worst[0]:.2f} ms (`{worst[1]}`)")
        rb, full, n = asyncio.run(rebuild_time(path))
        print(f"load one game from its last snapshot + the log after it: {rb * 1000:.2f} ms;"
              f" replay of its whole log ({n} orders) from the first snapshot: {full * 1000:.2f} ms")
        size = os.path.getsize(path) / 1e6
        out = subprocess.run([sys.executable, "-c", STARTUP, path], capture_output=True, text=True,
                             cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        if out.returncode:
            print(out.stderr)
            raise SystemExit(1)
        games, secs, rss = out.stdout.split()
        print(f"start-up with {games} live games (none read until touched): {secs} s, resident {rss} MB"
              f"; database {size:.1f} MB; filling took {fill_s:.1f} s")


if __name__ == "__main__":
    main()
