"""The SQLite store's thread (issue 43), printed, not asserted: what a trip to the connection's thread costs, and
a transaction of several statements in one trip or in one trip a statement.

On a store's WAL database, on the bot's event loop (bot/event_loop.py), each way ``--n`` times one after the
other, then ``--n`` at once from ``--callers`` tasks (the thread takes them one at a time):
- ``SqliteThread`` (bot/storage/sqlite.py, the standard library's ``sqlite3`` on one thread taking its trips from
  a queue): a read (one statement, fetched) and an order's write (``BEGIN IMMEDIATE``, an action, a response, the
  game's counter, ``COMMIT``) in one trip each;
- the same connection driven by ``loop.run_in_executor`` on a one-thread ``ThreadPoolExecutor`` (the other way
  the standard library offers): the read;
- aiosqlite, where it is installed (it is no dependency since issue 43): the read (``execute_fetchall``); the
  write through its public API (one trip a statement: six), and in one trip through its private
  ``Connection._execute`` (what the store did until issue 43, which held aiosqlite below 0.23).

Run: python -m benchmarks.bench_sqlite_thread [--n 3000] [--callers 50]
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import importlib.util
import os
import sqlite3
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from bot.event_loop import run as run_loop
from bot.storage import open_store
from bot.storage.sqlite import SqliteThread, _fetchall

READ = "SELECT * FROM games WHERE id=?"
WRITE = [
    ("INSERT INTO actions (game_id, seq, seat, user_id, text, interaction_id, dice_before, dice_after, events,"
     " created_at) VALUES (?,?,?,?,?,?,?,?,?,?)", lambda i: (1, i, "red", 1, "roll", f"i{i}", 0, 1, "[]", 0.0)),
    ("INSERT INTO responses (interaction_id, game_id, response, created_at) VALUES (?,?,?,?)",
     lambda i: (f"i{i}", 1, '{"text": "ok"}', 0.0)),
    ("UPDATE games SET seq=? WHERE id=?", lambda i: (i, 1)),
]


def write_steps(i: int) -> list[tuple[str, tuple]]:
    return [(sql, params(i)) for sql, params in WRITE]


def one_trip(con, steps) -> None:  # (as SqliteStore._steps's ``run``)
    con.execute("BEGIN IMMEDIATE")
    for sql, params in steps:
        con.execute(sql, params)
    con.execute("COMMIT")


async def timed(n: int, callers: int, op) -> tuple[float, float, float]:
    """(p50 µs, p99 µs) of ``n`` calls one after the other, and the calls a second ``callers`` at once keep up."""
    ts = []
    for i in range(n):
        t = time.perf_counter()
        await op()
        ts.append((time.perf_counter() - t) * 1e6)
    ts.sort()
    queue = iter(range(n))

    async def caller():
        for _ in queue:
            await op()

    t = time.perf_counter()
    await asyncio.gather(*(caller() for _ in range(callers)))
    return statistics.median(ts), ts[int(0.99 * (len(ts) - 1))], n / (time.perf_counter() - t)


async def bench(path: str, n: int, callers: int) -> list[tuple[str, tuple]]:
    store = await open_store(path)
    await store.create_game(channel_id=1, guild_id=1, ruleset="tiny", options={}, seed="s", commitment="c",
                            creator_id=1, now=0.0, initial_state={"n": 0})
    await store.close()
    seq = iter(range(1, 10 ** 9))
    out = []
    db = SqliteThread()
    await db.connect(path)
    await db.execute("PRAGMA synchronous=NORMAL")
    out.append(("SqliteThread: a read, one trip", await timed(n, callers, lambda: db.fetchall(READ, (1,)))))
    out.append(("SqliteThread: an order's write, one trip",
                await timed(n, callers, lambda: db.run(one_trip, write_steps(next(seq))))))
    await db.close()
    pool, loop = ThreadPoolExecutor(max_workers=1), asyncio.get_running_loop()
    con = await loop.run_in_executor(pool, functools.partial(sqlite3.connect, path, isolation_level=None,
                                                             check_same_thread=False))
    out.append(("run_in_executor: a read, one trip",
                await timed(n, callers, lambda: loop.run_in_executor(pool, _fetchall, con, READ, (1,)))))
    await loop.run_in_executor(pool, con.close)
    pool.shutdown()
    if importlib.util.find_spec("aiosqlite") is not None:
        import aiosqlite
        adb = await aiosqlite.connect(path, isolation_level=None)
        await adb.execute("PRAGMA synchronous=NORMAL")
        lock = asyncio.Lock()  # (the store's lock: one transaction at a time on the shared connection)

        async def public():
            async with lock:
                await adb.execute("BEGIN IMMEDIATE")
                for sql, params in write_steps(next(seq)):
                    await adb.execute(sql, params)
                await adb.execute("COMMIT")

        out.append(("aiosqlite: a read, one trip", await timed(n, callers, lambda: adb.execute_fetchall(READ, (1,)))))
        out.append(("aiosqlite public API: the write, 6 trips", await timed(n, callers, public)))
        out.append(("aiosqlite private _execute: the write, 1 trip",
                    await timed(n, callers, lambda: adb._execute(one_trip, adb._conn, write_steps(next(seq))))))
        await adb.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--callers", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        rows = run_loop(bench(os.path.join(d, "bench.db"), args.n, args.callers))
    print(f"a trip to the SQLite store's thread ({args.n} calls one after the other; then {args.n} from "
          f"{args.callers} callers at once), load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    for name, (p50, p99, rate) in rows:
        print(f"  {name:47} p50 {p50:6.0f} µs   p99 {p99:6.0f} µs   {rate:7,.0f} a second at once")


if __name__ == "__main__":
    main()
