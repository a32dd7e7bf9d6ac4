"""The real bot in its own process, for the kill-and-restart test: reads a
JSON config (fake Discord address, token, guild, the store: a SQLite file or a
storage url, clock file) and
runs PalantirBot until killed. The clock is a file the test writes; an order named
in the die file kills the process right after its commit, before its answer."""
import asyncio
import json
import os
import signal
import sys
from pathlib import Path


def bot_config(c: dict):
    """The bot's config from a runner's JSON (the fake Discord, the guild, the store); also
    tests/load_runner.py's."""
    from bot.config import Config

    cfg = Config()
    cfg.discord.token = c["token"]
    cfg.discord.api_base = c["api_base"]
    cfg.discord.dev_guild_ids = [c["guild"]]
    cfg.discord.sync_global = False
    if "://" in c["db"]:
        cfg.storage.url = c["db"]
    else:
        cfg.storage.path = c["db"]
    return cfg


def client_options(c: dict) -> dict:
    """discord.py's options from a runner's JSON: ``guild_ready_timeout``, which a test against the
    fake Discord sets short (tests/fakediscord: GUILD_READY_TIMEOUT; discord.py's own 2 s otherwise)."""
    return {"guild_ready_timeout": c["guild_ready_timeout"]} if c.get("guild_ready_timeout") is not None else {}


def never_busy(bot) -> None:
    """No load shedding in this process (issue 39): on a starved test host a bot's loop may run seconds late,
    and an interaction sent again after a restart carries its first creation time (seconds old): neither may
    be answered "Busy" in a test that is not about it. The loop's lag, the channel's queue and its wait, and
    the expiry of a command never acknowledged (bot/table.py) then shed nothing."""
    import bot.table as table

    bot.backlog.busy_lag = float("inf")
    table.MAX_WAITING = 1 << 30
    table.MAX_WAIT_SECONDS = table.STALE_SECONDS = float("inf")


async def main(path: str) -> None:
    c = json.loads(Path(path).read_text())
    from bot.transports.discord_app import configure_endpoints, make_bot
    from bot.service import GameService
    from bot.storage import open_store

    cfg = bot_config(c)
    cfg.deadlines.poll_seconds = 0.05
    if c.get("shard_count"):  # one of several shard processes (issue 16)
        cfg.discord.shard_count = c["shard_count"]
        cfg.discord.shard_ids = list(c["shard_ids"])
    await configure_endpoints(cfg)
    store = await open_store(cfg.storage)
    store.shard = cfg.discord.shard_filter()
    clock_file = Path(c["clock"])
    svc = GameService(store, renderer=None, seed_source=lambda: "kill-seed",
                      clock=lambda: float(clock_file.read_text()), shard=store.shard)
    die_file = Path(c["die"]) if c.get("die") else None
    plain_order = svc.orders.order

    async def order(ctx, text, seat=None):
        """With the die file naming this order: commit it, then die before the reply (the
        crash between commit and answer that issue 18 is about)."""
        out = await plain_order(ctx, text, seat)
        if die_file is not None and die_file.exists() and die_file.read_text() == text and out.ok:
            die_file.unlink()
            os.kill(os.getpid(), signal.SIGKILL)
        return out

    svc.orders.order = order
    bot = make_bot(cfg, service=svc, **client_options(c))
    never_busy(bot)
    await bot.start(cfg.token)


if __name__ == "__main__":
    from bot.event_loop import run

    run(main(sys.argv[1]))  # the loop run_bot's process runs on (bot/cli.py)
