"""The SQLite store's trips to aiosqlite's thread (issue 43), printed, not asserted: what a read and an order's
write cost through aiosqlite's public API, the design the store ships, against one trip a transaction.

On a store's WAL database, on the bot's event loop (bot/event_loop.py), each way ``--n`` times one after the
other, then ``--n`` at once from ``--callers`` tasks (the thread takes them one at a time). The order's write is
``BEGIN IMMEDIATE``, an action, a response, the game's counter, ``COMMIT``:
- the store's read (``SqliteStore._all``: ``execute_fetchall``, one trip);
- the store's write in aiosqlite's thread (``SqliteStore._steps_in_thread``, where ``_steps`` goes when the
  database is busy or not in WAL mode: a task of its own, awaited shielded, a statement a trip: five);
- the same statements through aiosqlite's public API alone (no task, no shield): what the task costs;
- the same statements in one trip (``run_in_executor`` on a one-thread pool): the one-trip design aiosqlite's
  public API does not offer (the store's own ``SqliteThread`` of issue 43's first round measured 45-49 µs
  there, at load 16, against aiosqlite's private one-trip ``Connection._execute`` 47 µs; neither is kept);
- the same statements on the event loop's own connection (``_run_steps``): where an order's write runs in WAL
  mode, no trip at all.

Run: python -m benchmarks.bench_sqlite_thread [--n 3000] [--callers 50]
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import os
import sqlite3
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from bot.event_loop import run as run_loop
from bot.storage import open_store
from bot.storage.sqlite import _run_steps

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
    seq = iter(range(1, 10 ** 9))
    db, out = store.db, []
    out.append(("the store's read (execute_fetchall), 1 trip", await timed(n, callers, lambda: store._all(READ, (1,)))))
    out.append(("the store's write in the thread, 5 trips",
                await timed(n, callers, lambda: store._steps_in_thread(write_steps(next(seq)), False, True))))

    async def public():
        async with store._lock:  # (the store's lock: one transaction at a time on the shared connection)
            await db.execute("BEGIN IMMEDIATE")
            for sql, params in write_steps(next(seq)):
                await db.execute(sql, params)
            await db.commit()

    out.append(("aiosqlite's public API alone, 5 trips", await timed(n, callers, public)))
    writer = store._writer
    out.append(("on the event loop's connection, no trip",
                await timed(n, callers, lambda: _loop_write(store, writer, write_steps(next(seq))))))
    await store.close()

    pool, loop = ThreadPoolExecutor(max_workers=1), asyncio.get_running_loop()
    con = await loop.run_in_executor(pool, functools.partial(sqlite3.connect, path, isolation_level=None,
                                                             check_same_thread=False))
    await loop.run_in_executor(pool, con.execute, "PRAGMA synchronous=NORMAL")
    out.append(("one trip (run_in_executor, not kept)",
                await timed(n, callers, lambda: loop.run_in_executor(pool, _run_steps, con, write_steps(next(seq)),
                                                                     False))))
    await loop.run_in_executor(pool, con.close)
    pool.shutdown()
    return out


async def _loop_write(store, writer, steps) -> None:
    async with store._lock:
        _run_steps(writer, steps, False)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--callers", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        rows = run_loop(bench(os.path.join(d, "bench.db"), args.n, args.callers))
    print(f"the SQLite store's read and an order's write ({args.n} calls one after the other; then {args.n} from "
          f"{args.callers} callers at once), load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    for name, (p50, p99, rate) in rows:
        print(f"  {name:45} p50 {p50:6.0f} µs   p99 {p99:6.0f} µs   {rate:7,.0f} a second at once")


if __name__ == "__main__":
    main()
