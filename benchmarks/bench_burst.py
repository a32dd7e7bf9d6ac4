"""A burst of orders past the loaded-games cache (issue 39), printed, not asserted.

``--games`` games of the tiny test ruleset (5,000 by default, ten times the 512 games the table keeps
loaded: ``Table.max_loaded``) are set up through the service, then every game gets one order (`roll`:
harmful if applied twice), all in flight at once: each waits after its commit until every other one
has been committed (tests/burst_helpers.py, shared with tests/bot/test_order_burst.py). Printed per
store (SQLite, and PostgreSQL on the server the tests start, tests/pg_server.py, if it can be had):
whether every order was applied once (each game's log holds exactly its one order) and answered once
(its answer, the one stored with the order), how many game loads the burst took (a game pushed out of
the cache and touched again is rebuilt from storage), the burst's wall and CPU time (from the first
order sent to the last answered), and the process's resident memory before the burst and at its peak.
Each store runs in a process of its own, so that its peak is its own.

Run: python -m benchmarks.bench_burst [--games 5000] [--store sqlite|postgresql|both]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bot.service import GameService
from bot.storage import open_store
from tests.burst_helpers import Burst, set_up

ROOT = Path(__file__).resolve().parent.parent


def resident_mb(field: str = "VmRSS") -> float:
    """The process's resident memory now (``VmRSS``) or at its peak so far (``VmHWM``), in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def burst(url: str, games: int) -> dict:
    store = await open_store(url)
    try:
        svc = GameService(store, renderer=None, seed_source=lambda: "burst")
        t = time.perf_counter()
        b = Burst(svc, await set_up(svc, range(1, games + 1)))
        setup_s = time.perf_counter() - t
        rss_before, cpu0 = resident_mb(), cpu()
        t = time.perf_counter()
        await b.run()
        wall, cpu_s = time.perf_counter() - t, cpu() - cpu0
        rss_peak = resident_mb("VmHWM")
        not_applied, not_answered, raised = await b.check()
        return {"games": games, "setup_s": setup_s, "wall_s": wall, "cpu_s": cpu_s,
                "applied_once": games - len(not_applied), "answered_once": games - len(not_answered),
                "errors": len(raised), "first_error": repr(raised[0][1]) if raised else "", "loads": b.loads,
                "loaded_after": len(svc.table.games), "max_loaded": svc.table.max_loaded,
                "rss_before_mb": rss_before, "rss_peak_mb": rss_peak}
    finally:
        await store.close()


def run_one(url: str, games: int) -> dict:
    """The burst on ``url`` in a fresh process (its memory figures its own)."""
    out = subprocess.run([sys.executable, "-m", "benchmarks.bench_burst", "--one", url, "--games", str(games)],
                         capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if out.returncode:
        raise SystemExit(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(name: str, r: dict) -> None:
    n = r["games"]
    print(f"{name:10} {n:,} games, an order in flight in each at once ({r['max_loaded']} games kept loaded):")
    print(f"{'':10}   applied once {r['applied_once']:,}/{n:,}, answered once {r['answered_once']:,}/{n:,},"
          f" errors {r['errors']}" + (f" (first: {r['first_error']})" if r["errors"] else ""))
    print(f"{'':10}   the burst: {r['wall_s']:.2f} s wall, {r['cpu_s']:.2f} s CPU ({n / r['wall_s']:,.0f} orders/s);"
          f" {r['loads']:,} game loads, {r['loaded_after']} games loaded after")
    print(f"{'':10}   resident {r['rss_before_mb']:.0f} MB before the burst, peak {r['rss_peak_mb']:.0f} MB;"
          f" setting the games up took {r['setup_s']:.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--store", choices=("sqlite", "postgresql", "both"), default="both")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # (internal: one store's burst, printed as JSON)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(asyncio.run(burst(args.one, args.games))))
        return
    with tempfile.TemporaryDirectory() as d:
        if args.store in ("sqlite", "both"):
            report("sqlite", run_one(f"sqlite:///{os.path.join(d, 'burst.db')}", args.games))
        if args.store in ("postgresql", "both"):
            from tests import pg_server

            try:
                server = pg_server.start()
            except pg_server.NoServer as e:
                print(f"postgresql (skipped: {e})")
                return
            try:
                report("postgresql", run_one(asyncio.run(server.new_database("bench_burst")), args.games))
            finally:
                server.stop()


if __name__ == "__main__":
    main()
