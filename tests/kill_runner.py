"""The real bot in its own process, for the kill-and-restart test: reads a
JSON config (fake Discord address, token, guild, SQLite file, clock file) and
runs PalantirBot until killed. The clock is a file the test writes."""
import asyncio
import json
import sys
from pathlib import Path


async def main(path: str) -> None:
    c = json.loads(Path(path).read_text())
    from bot.config import Config
    from bot.discord_app import PalantirBot, configure_endpoints
    from bot.service import GameService
    from bot.storage import Store

    cfg = Config()
    cfg.discord.token = c["token"]
    cfg.discord.api_base = c["api_base"]
    cfg.discord.dev_guild_ids = [c["guild"]]
    cfg.discord.sync_global = False
    cfg.storage.path = c["db"]
    cfg.deadlines.poll_seconds = 0.05
    await configure_endpoints(cfg)
    store = await Store.open(cfg.storage.path)
    clock_file = Path(c["clock"])
    svc = GameService(store, renderer=None, seed_source=lambda: "kill-seed",
                      clock=lambda: float(clock_file.read_text()))
    bot = PalantirBot(cfg, service=svc)
    await bot.start(cfg.token)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
