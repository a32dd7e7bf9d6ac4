"""`/stats` and `/ratings` with many finished games in one server (issue 41), printed, not asserted.

``--games`` finished games (default 10,000) of two rulesets (Gondor and War of the Ring, five seats) among
``--players`` players are written straight into a SQLite store (a game row and its result, most of them rated),
then the service answers `/stats` (the aggregate statements, the players' table and the chart, drawn in a
thread) and `/ratings` for each ruleset: the first `/ratings` computes the ratings from every stored result (and
keeps them as a cache), the next ones carry the cache forward (nothing new: one read). Target: under 100 ms each.

Run: python -m benchmarks.bench_stats [--games 10000] [--players 60] [--runs 20]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from bot.service import Ctx, GameService
from bot.storage import GameResult, open_store

GUILD = 7
RULESETS = {"gondor": ("sauron", "westernesse"), "wotr": ("fellowship", "dark-power", "saruman", "gondor", "rohan")}


async def fill(store, games: int, players: int) -> None:
    rnd = random.Random(41)
    async with store.transaction() as tx:
        for i in range(1, games + 1):
            rs = "gondor" if i % 3 else "wotr"
            await tx.execute("INSERT INTO games (id, guild_id, channel_id, ruleset, options, seed, commitment, creator_id,"
                             " status, seq, created_at, started_at, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                             (i, GUILD, 10_000 + i, rs, '{"rated":"on"}', "s", "c", 1, "over", 0, i, i, i + 86400.0))
    for i in range(1, games + 1):
        rs = "gondor" if i % 3 else "wotr"
        seats = RULESETS[rs]
        users = rnd.sample(range(1000, 1000 + players), len(seats))
        winners = [rnd.choice(seats)] if rs == "gondor" else rnd.sample(seats, 2)
        await store.save_result(GameResult(
            game_id=i, guild_id=GUILD, ruleset=rs, scenario="", options={"rated": "on"}, winners=winners, grade=None,
            turns=rnd.randint(3, 16), days=rnd.uniform(2, 30), holders={s: [[u, i, None, "join"]] for s, u in zip(seats, users)},
            rated=i % 10 != 0, ended_at=i + 86400.0,
            players=[(s, u, "win" if s in winners else "loss", i % 10 != 0) for s, u in zip(seats, users)]))


async def timed(fn, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        got = await fn()
        out.append((time.perf_counter() - t) * 1000)
        assert got.ok, got.reply.text
    return out


def line(name: str, ms: list[float]) -> str:
    return f"{name:<34} median {statistics.median(ms):7.1f} ms   max {max(ms):7.1f} ms   ({len(ms)} runs)"


async def main(games: int, players: int, runs: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        store = await open_store(str(Path(d) / "stats.db"))
        try:
            t = time.perf_counter()
            await fill(store, games, players)
            print(f"{games} finished games, {players} players, one server: written in {time.perf_counter() - t:.1f} s")
            svc = GameService(store, renderer=None)
            ctx = Ctx(channel_id=1, user_id=1000, guild_id=GUILD)
            for rs in RULESETS:
                cold = await timed(lambda: svc.results.ratings(ctx, rs), 1)
                print(line(f"/ratings ruleset:{rs} (first: computed)", cold))
            for rs in RULESETS:
                print(line(f"/ratings ruleset:{rs}", await timed(lambda: svc.results.ratings(ctx, rs), runs)))
            print(line("/ratings (every ruleset)", await timed(lambda: svc.results.ratings(ctx), runs)))
            print(line("/stats (with the chart)", await timed(lambda: svc.results.stats(ctx), runs)))
            print(line("/stats ruleset:wotr", await timed(lambda: svc.results.stats(ctx, "wotr"), runs)))
            print(line("/stats player:", await timed(lambda: svc.results.stats(ctx, None, 1001), runs)))
            print(line("/me record (ratings)", await timed(lambda: svc.results.record(ctx), runs)))
        finally:
            await store.close()


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--players", type=int, default=60)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    asyncio.run(main(a.games, a.players, a.runs))
