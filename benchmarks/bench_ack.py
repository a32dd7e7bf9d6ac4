"""Acknowledgement time under a steady offered load (issue 25), printed, not asserted.

The real bot in its own process (tests/load_runner.py: no map drawing) over the fake Discord, 100
tabletop games of Gondor, and Sauron's `roll 2d6 for <tag>` orders offered at a steady rate
(300/s for 10 s by default, spread over the games in turn), on SQLite and on PostgreSQL, each
with the machine quiet and with two processes spinning to load the CPUs. For each run: the
acknowledgement time counted from the interaction's creation (Discord's 3 s count from it), p50,
p99 and max; the time from creation to the answer where its player reads it, p50 and p99; what
became of the orders (tests/load_helpers.py: ``classify``): answered in time, expired but
answered late in the channel, refused as busy, expired and not applied, and any problem (an
order applied and answered nowhere, applied twice, ...); and the bot's CPU time per order,
which does not depend on what else the machine runs; and how long the bot's event loop (its main thread)
ran on a core and waited, runnable, for one (Linux: /proc/<pid>/schedstat): on a loaded machine a loop that
waits as long as it runs is short of CPU, and its orders queue.

The fake Discord runs in this process (on uvloop where it is installed, as the bot: 13 % less of the shared
cores for the instrument than asyncio's loop, 0.85 -> 0.74 ms an order). It starts an interaction's 3 s when its gateway frame is
sent, so its own backlog (printed: "the fake's gateway lag") is not counted against the bot; its
delay in taking the bot's REST calls is, as Discord's API latency would be (so this process collects
no garbage while the bot is measured: its full passes paused the instrument, not the bot). "Loaded": the two spinning processes have each run half a second before
the first order is offered (a machine already busy, not two interpreters starting with the burst). "Quiet" is this
benchmark's own load: other processes on the machine count (the figures vary with them). The
PostgreSQL server is the one the tests start on loopback (tests/pg_server.py: fsync off), on the
same cores, or ``PALANTIR_TEST_PG_URL``.

Run: python -m benchmarks.bench_ack [--games 100] [--rate 300] [--seconds 10] [--stores sqlite,postgresql]
     (postgresql:N: N shard processes on one database) [--loads quiet,busy] [--repeat N] (each store and load N
     times in turn, and a summary of their p99: the host's speed varies from one minute to the next)
     [--timeline FILE] (each order's offer time and acknowledgement, to see a tail's shape)
     [--fake-equal] (the fake Discord not ahead of the others for a core: the figures as this benchmark gave them
     before it was)
     [--defer-after S] (what if the bot acknowledged a command not answered within S seconds, instead of
     its DEFER_AFTER)
"""
from __future__ import annotations

import argparse
import sys
import asyncio
import collections
import contextlib
import gc
import os
import tempfile
import time
from pathlib import Path

from bot.event_loop import run as run_loop
from tests import pg_server
from tests.fakediscord import FakeDiscord
from tests.load_helpers import (BotProcess, Sent, answer_seconds, busy_cpus, classify, make_world, pct, send,
                                set_up, sqlite_reader, wait_answered)


NOTES: list[str] = []
P99S: dict[tuple[str, bool], list[tuple[float, float]]] = collections.defaultdict(list)  # (p99, reference ms)


def pg_reader(url: str):
    import asyncpg
    import json

    async def read() -> tuple[dict, dict]:
        con = await asyncpg.connect(url)
        try:
            actions = await con.fetch("SELECT interaction_id FROM actions WHERE interaction_id IS NOT NULL")
            answers = await con.fetch("SELECT interaction_id, response FROM responses")
        finally:
            await con.close()
        return (collections.Counter(r["interaction_id"] for r in actions),
                {r["interaction_id"]: json.loads(r["response"]) for r in answers})
    return read


async def offer(server: FakeDiscord, tables, rate: float, seconds: float) -> list[Sent]:
    """Orders sent at ``rate`` per second for ``seconds``, to the games in turn; all awaited."""
    n = int(rate * seconds)
    sent = [Sent(tables[j % len(tables)], f"roll 2d6 for b{tables[j % len(tables)].k}-{j // len(tables)}")
            for j in range(n)]
    tasks = []
    t0 = time.monotonic()
    for j, s in enumerate(sent):
        wait = t0 + j / rate - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        tasks.append(asyncio.create_task(send(server, s)))
    await asyncio.gather(*tasks)
    return sent


async def settled(procs, cpu: float = 0.5, timeout: float = 5.0) -> None:
    """Until each spinning process has run ``cpu`` seconds: "loaded" is a machine already busy, not two
    interpreters starting as the first orders arrive (their start-up was most of the first second's tail)."""
    tick = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + timeout
    while procs and time.monotonic() < end:
        ran = []
        for p in procs:
            try:
                fields = Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
                ran.append((int(fields[11]) + int(fields[12])) / tick)
            except (OSError, IndexError, ValueError):  # not Linux: a fixed settling time
                ran.append(0.0)
        if min(ran) >= cpu:
            return
        await asyncio.sleep(0.05)


def reference_ms() -> float:
    """A fixed piece of pure-Python work, timed (best of 5, in this process, before the run's offer): how fast
    the machine runs just then. On a shared host it varies by half or more from one minute to the next, and the
    bot's figures with it; a run's tail is to be read with it."""
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        sum(i * i for i in range(200_000))
        best = min(best, time.perf_counter() - t)
    return best * 1000


@contextlib.contextmanager
def ahead(wanted: bool = True):
    """This process (the fake Discord) ahead of the others for a core while the bot is measured, where the
    system allows it (and it is ``wanted``: not with --fake-equal): Discord is not on the bot's machine, and
    its stand-in's own wait for a core would be counted against the bot (the bot, the database and the
    spinning processes keep equal shares). Yields whether it is."""
    if not wanted:
        yield False
        return
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -10)
    except OSError:
        yield False
        return
    try:
        yield True
    finally:
        os.setpriority(os.PRIO_PROCESS, 0, 0)


async def run(store: str, url_or_path: str, read, loaded: bool, args, shards: int = 1) -> str:
    server = FakeDiscord()
    await server.start()
    bots: list[BotProcess] = []
    try:
        with tempfile.TemporaryDirectory() as d:
            guilds, tables = make_world(server, args.games, shards)
            bots = [BotProcess(Path(d), server, gid, url_or_path, defer_after=args.defer_after,
                               shard=(i, shards) if shards > 1 else None) for i, gid in enumerate(guilds)]
            for bot in bots:
                await bot.start()
            await set_up(server, tables)
            ref = reference_ms()
            cpu0, fake0 = sum(b.cpu_seconds() for b in bots), time.process_time()
            sched0 = [b.main_thread_sched() for b in bots]
            print(f"offering to the bot (pid {' '.join(str(b.proc.pid) for b in bots)})", file=sys.stderr,
                  flush=True)  # e.g. for py-spy
            # no garbage collection in this process while the bot is measured: a full pass here (up to 85 ms, its
            # heap grown by the offer's own records) delayed taking the bot's answers, the measuring instrument
            # pausing, not the bot. The bot's collector is its own affair (bot/transports/discord_app.py)
            gc.collect()
            gc.freeze()
            gc.disable()
            with busy_cpus(2 if loaded else 0) as spinners:
                await settled(spinners)
                with ahead(not args.fake_equal) as first:
                    sent = await offer(server, tables, args.rate, args.seconds)
                    applied, answers = await wait_answered(server, sent, read, 15.0)
            cpu, fake_cpu = sum(b.cpu_seconds() for b in bots) - cpu0, time.process_time() - fake0
            ran = sum(b.main_thread_sched()[0] - s0[0] for b, s0 in zip(bots, sched0))
            waited = sum(b.main_thread_sched()[1] - s0[1] for b, s0 in zip(bots, sched0))
            c = classify(server, sent, applied, answers)
            waits = [w for x in c.in_time + c.late_in_channel if (w := answer_seconds(server, x, answers)) is not None]
            tracebacks = sum(len(b.errors()) for b in bots)
            kinds = c.kinds()
    finally:
        gc.enable()
        gc.unfreeze()  # (the next run's instrument starts afresh)
        for bot in bots:
            await bot.stop()
        await server.stop()
    ages = [s.result.acknowledged_age * 1000 for s in sent if s.result is not None
            and s.result.acknowledged_age is not None]
    P99S[store, loaded].append((pct(ages, 99), ref))
    if args.timeline:  # when in the offer each slow acknowledgement came: a stall, or a queue that grows
        t0 = min(s.sent_at for s in sent)
        with open(args.timeline, "a") as f:
            for s in sent:
                age = s.result.acknowledged_age if s.result is not None else None
                f.write(f"{store},{'busy' if loaded else 'quiet'},{s.sent_at - t0:.4f},"
                        f"{'' if age is None else f'{age * 1000:.1f}'}\n")
    lags = [s.gateway_lag() * 1000 for s in sent if s.gateway_lag() is not None]
    who = "the bot's" if shards == 1 else f"the {shards} shard processes'"
    note = (f"  {store} {'loaded' if loaded else 'quiet'}: {who} CPU {cpu * 1000 / len(sent):.2f} ms an order "
            f"(the fake Discord's, in this process: {fake_cpu * 1000 / len(sent):.2f} ms); "
            f"the fake's gateway lag p99 {pct(lags, 99):.0f} ms; {who} event loop{'s' if shards > 1 else ''} ran "
            f"{ran:.1f} s on a core and waited {waited:.1f} s for one")
    note += (f"; the reference work took {ref:.1f} ms (the machine's speed before the offer); the fake Discord "
             + ("ahead for a core" if first else "not ahead for a core: its own waits are counted"))
    note += "".join(f"\n  {n} x {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    NOTES.append(note)
    return (f"| {store:12} | {'2 busy' if loaded else 'quiet':6} | {len(sent):5} | {pct(ages, 50):7.0f} | "
            f"{pct(ages, 99):7.0f} | {max(ages, default=float('nan')):7.0f} | {len(c.in_time):7} | "
            f"{len(c.late_in_channel):7} | {len(c.busy):5} | {len(c.expired_unapplied):7} | "
            f"{len(c.problems):8} | {tracebacks:5} | {pct(waits, 50):6.2f} | {pct(waits, 99):6.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--rate", type=float, default=300.0)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--stores", default="sqlite,postgresql",
                    help="sqlite, postgresql (one process), postgresql:N (N shard processes on one database)")
    ap.add_argument("--loads", default="quiet,busy", help="quiet, busy (two processes spinning), or both")
    ap.add_argument("--timeline", default=None, metavar="FILE",
                    help="append each order's offer time (s) and acknowledgement (ms) to FILE, as CSV lines")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run every store and load this many times, in turn (the host's speed varies from minute to "
                         "minute: a summary of each one's p99 follows)")
    ap.add_argument("--fake-equal", action="store_true",
                    help="the fake Discord not ahead for a core: its own waits for one are counted against the bot")
    ap.add_argument("--defer-after", type=float, default=None,
                    help="what if: the bot acknowledges a command not answered in this many seconds (its DEFER_AFTER)")
    args = ap.parse_args()
    print(f"{args.games} games, `roll` orders offered at {args.rate:.0f}/s for {args.seconds:.0f} s; "
          "acknowledgement from the interaction's creation, ms"
          + (f"; what if DEFER_AFTER = {args.defer_after} s" if args.defer_after is not None else ""))
    print("| store        | CPUs   | sent  |     p50 |     p99 |     max | in time | late ch | busy  | expired "
          "| problems | trace | ans50 s | ans99 s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|", flush=True)
    server, no_server = None, None
    try:
        for store, loaded in [(st, x == "busy") for _ in range(args.repeat) for st in args.stores.split(",")
                              for x in args.loads.split(",")]:
            kind, _, n = store.partition(":")
            with tempfile.TemporaryDirectory() as d:
                if kind == "sqlite":
                    path = Path(d) / "ack.db"
                    line = run_loop(run(store, str(path), sqlite_reader(path), loaded, args))
                elif no_server is not None:
                    line = f"| {store:12} | no server: {no_server} |"
                else:
                    if server is None:
                        try:
                            server = pg_server.start()
                        except pg_server.NoServer as e:
                            no_server = e
                            print(f"| {store:12} | no server: {e} |")
                            continue
                    url = asyncio.run(server.new_database("bench_ack"))
                    line = run_loop(run(store, url, pg_reader(url), loaded, args, shards=int(n or 1)))
            print(line, flush=True)
    finally:
        if server is not None:
            server.stop()
    print("\n".join(NOTES))
    if args.repeat > 1:
        for (store, loaded), runs in P99S.items():
            p99s = sorted(p for p, _ in runs)
            print(f"  {store} {'loaded' if loaded else 'quiet'}: p99 over {len(runs)} runs (ms): "
                  + ", ".join(f"{p:.0f}" for p, _ in runs) + f"; median {p99s[len(p99s) // 2]:.0f}, worst {p99s[-1]:.0f}"
                  + f"; {sum(p < 50 for p in p99s)} of {len(p99s)} under 50; reference work "
                  + ", ".join(f"{r:.1f}" for _, r in runs) + " ms")
    print("in time: acknowledged within 3 s of creation and answered; late ch: expired, applied, answered in "
          "the channel; busy: refused privately, not applied; expired: not applied; problems: anything else "
          "(an order applied and answered nowhere, ...); trace: tracebacks in the bot's log; ans50/ans99: seconds "
          "from creation to the answer of an applied order, where its player reads it (in time or late)")


if __name__ == "__main__":
    main()
