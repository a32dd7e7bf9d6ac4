"""bot/transports/discord_app.py: freeze_start_heap (issue 25). A bot that runs alone in its process moves what
is alive once it is ready out of the garbage collector's sight, so a full collection (a pause of every game's
orders) no longer scans the games, the rulesets' data and Discord's caches; it goes on answering orders."""
from __future__ import annotations

import gc

from tests.e2e.test_e2e_discord import World


async def test_a_bot_alone_in_its_process_freezes_its_start_heap_once_ready(tmp_path):
    before = gc.get_freeze_count()  # (a worker of the suite sets aside what it collected: tests/conftest.py)
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        async with World() as w:
            await w.start_bot(tmp_path / "freeze.db", freeze_heap=True)
            await w.server.wait_for(lambda: gc.get_freeze_count() > 0, timeout=20)
            service = w.service
            assert not any(o is service or o is service.table.__dict__ for o in gc.get_objects())  # out of its sight
            await w.cmd(w.alice, "game", "new", ruleset="gondor")
            r = await w.cmd(w.alice, "roll", dice="2d6")
            assert "2d6" in r.content
            w.server.assert_clean()
    finally:
        gc.unfreeze()  # (this test process runs other bots)
        if before:
            gc.freeze()  # (the worker's, as it was)


async def test_a_bot_among_others_in_a_test_process_freezes_nothing(tmp_path):
    before = gc.get_freeze_count()  # (what the test process had set aside, if anything: tests/conftest.py)
    async with World() as w:
        await w.start_bot(tmp_path / "nofreeze.db")
        await w.cmd(w.alice, "game", "new", ruleset="gondor")
        assert gc.get_freeze_count() <= before  # (nothing more set aside; frozen objects freed since leave it)
