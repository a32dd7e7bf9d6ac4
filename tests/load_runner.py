"""The real bot in its own process, for the overload test and the acknowledgement benchmark
(issue 25): reads a JSON config (the fake Discord's address and token, the guild, the store: a
SQLite file or a storage url; a shard process's ``shard_ids`` and ``shard_count``) and runs PalantirBot, with the real clock and no map drawing,
until it is stopped. Its own process, so that the bot, the fake Discord and the processes
loading the CPUs compete for the cores as a real bot on a busy machine does."""
import asyncio
import json
import os
import re
import signal
import sys
import time
from pathlib import Path


async def main(path: str) -> None:
    c = json.loads(Path(path).read_text())
    from bot.transports.discord_app import configure_endpoints, make_bot
    from bot.service import GameService
    from bot.storage import open_store
    from tests.kill_runner import bot_config, client_options

    cfg = bot_config(c)
    if c.get("shard_count"):  # one of several shard processes on one PostgreSQL (issue 16)
        cfg.discord.shard_count = c["shard_count"]
        cfg.discord.shard_ids = list(c["shard_ids"])
    await configure_endpoints(cfg)
    store = await open_store(cfg.storage)
    store.shard = cfg.discord.shard_filter()
    svc = GameService(store, renderer=None, seed_source=lambda: "load-seed", shard=store.shard)
    if c.get("defer_after") is not None:  # a what-if of benchmarks/bench_ack.py: acknowledge sooner
        import bot.transports.discord_app as app

        app.DEFER_AFTER = float(c["defer_after"])
    if c.get("block_orders"):  # (issue 39's test) `roll 2d6 for block-<s>` blocks the loop <s> seconds as it starts
        plain_order = svc.orders.order

        async def order(ctx, text, seat=None):
            if (m := re.search(r"block-([0-9.]+)", text)):
                time.sleep(float(m[1]))  # a slow call on the loop: nothing else of the bot runs meanwhile
            return await plain_order(ctx, text, seat)

        svc.orders.order = order
    bot = make_bot(cfg, service=svc, **client_options(c))
    # (issue 39) the loop's lag past which work is refused: none unless asked for (a starved test host's loop may
    # run seconds late, and the set-up of a test's games must not be refused), and how long a lag is remembered
    bot.backlog.busy_lag = float(c["busy_lag"]) if c.get("busy_lag") is not None else float("inf")
    if c.get("lag_window") is not None:
        bot.backlog.window = float(c["lag_window"])
    bot.freeze_heap = True  # as bot/transports/discord_app.py:run_bot runs it, alone in its process
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
    try:
        await bot.start(cfg.token)
    finally:
        await store.close()  # (the store is this runner's, not the bot's: left open, its threads kept the process alive)


if __name__ == "__main__":
    from bot.event_loop import run  # the loop run_bot's process runs on (bot/cli.py)

    # PALANTIR_LOAD_PROFILE=<file>: a cProfile of the bot's process, written when it is stopped; with
    # PALANTIR_LOAD_PROFILE_CPU=1 timed by the process's CPU clock, not the wall's (on a shared machine the
    # wall clock charges the time the process waited for a core to whatever call it waited in)
    out = os.environ.get("PALANTIR_LOAD_PROFILE")
    if out:
        import cProfile

        import time
        prof = cProfile.Profile(time.process_time) if os.environ.get("PALANTIR_LOAD_PROFILE_CPU") else cProfile.Profile()
        prof.enable()
        try:
            run(main(sys.argv[1]))
        finally:
            prof.disable()
            prof.dump_stats(out)
    else:
        run(main(sys.argv[1]))
