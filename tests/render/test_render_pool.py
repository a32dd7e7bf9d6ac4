"""Map renders in a pool of worker processes sized by ``[render] workers`` (issue 16): the
picture is the one the bot's own process would draw, it is drawn in another process, at most
``workers`` of them, and the event loop keeps running while they draw."""
import asyncio
import os

import pytest

from bot.config import ConfigError, load_config
from bot.render_pool import RenderPool
from bot.service import Ctx, GameService, default_renderer
from bot.storage import Store
from tests.render_pool_helpers import pid_renderer

_n = iter(range(1, 10**9))


def ctx(user, channel=7):
    return Ctx(channel_id=channel, user_id=user, guild_id=1, interaction_id=f"r{next(_n)}")


@pytest.fixture
async def pool():
    p = RenderPool(2)
    yield p
    p.close()


async def started(store, renderer, pool):
    svc = GameService(store, renderer=renderer, seed_source=lambda: "pool", clock=lambda: 1000.0, render_pool=pool)
    await svc.lobby.new_game(ctx(1), "gondor")
    await svc.lobby.join(ctx(1), "sauron")
    await svc.lobby.join(ctx(2), "westernesse")
    assert (await svc.lobby.start(ctx(1))).ok
    return svc, (await store.live_game(7)).id


async def test_a_map_from_the_pool_is_the_same_picture_drawn_elsewhere(tmp_path, pool):
    store = await Store.open(str(tmp_path / "r.db"))
    try:
        svc, gid = await started(store, default_renderer, pool)
        pooled, _ = await svc.table.render_game(gid, None)
        svc.table.render_pool = None
        local, _ = await svc.table.render_game(gid, None)
        assert pooled[:8] == b"\x89PNG\r\n\x1a\n" and pooled == local
    finally:
        await store.close()


async def test_renders_run_in_at_most_workers_other_processes_and_the_loop_stays_free(tmp_path, pool):
    store = await Store.open(str(tmp_path / "p.db"))
    try:
        svc, gid = await started(store, pid_renderer, pool)
        await pool.pids()  # the workers are up (spawned on first use)
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        t = asyncio.create_task(ticker())
        outs = await asyncio.gather(*(svc.table.render_game(gid, None) for _ in range(6)))
        t.cancel()
        pids = {int(img.split(b"|")[0]) for img, _ in outs}
        assert os.getpid() not in pids and 1 <= len(pids) <= 2
        assert all(b"|HexMap|" in img for img, _ in outs)  # the board, built in the worker
        assert ticks >= 20  # six 0.2 s renders on two workers: the loop ticked all along
        # a renderer that cannot travel (a lambda) is drawn in a thread of this process instead
        svc.table.renderer = lambda view, board, around, **o: str(os.getpid()).encode()
        img, _ = await svc.table.render_game(gid, None)
        assert int(img) == os.getpid()
    finally:
        await store.close()


def test_render_workers_in_the_config(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[render]\nworkers = 3\n")
    assert load_config(str(f)).render.workers == 3
    f.write_text("[render]\nworkers = -1\n")
    with pytest.raises(ConfigError, match="workers"):
        load_config(str(f))
    with pytest.raises(ValueError):
        RenderPool(0)
