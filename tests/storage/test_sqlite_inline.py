"""SQLite's small writes on the event loop (issue 25, bot/storage/sqlite.py: ``_steps``): they run on a
connection of their own that never waits; when another connection holds the write lock they go the usual
way (aiosqlite's thread, which waits its turn) and nothing is lost or written twice; a fenced write that
finds the game moved on still writes nothing."""
import asyncio
import sqlite3
import threading

import pytest

from bot.storage import StaleWriter, open_store


async def new_game(store, channel=5):
    return await store.create_game(channel_id=channel, guild_id=1, ruleset="tiny", options={}, seed="s",
                                   commitment="c", creator_id=1, now=0.0, initial_state={"n": 0})


def action(gid, seq, iid):
    return dict(game_id=gid, seq=seq, seat="red", user_id=1, text=f"order {seq}", interaction_id=iid,
                dice_before=0, dice_after=0, events=[], now=float(seq), snapshot=None, response={"text": "ok"})


async def test_a_write_runs_on_the_loop_and_is_read_back(tmp_path):
    store = await open_store(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        assert store._writer is not None  # WAL: the loop's own writer
        gid = await new_game(store)
        calls = []
        await store.db.set_trace_callback(calls.append)  # every statement run in aiosqlite's thread
        await store.append_action(**action(gid, 1, "i1"))
        await store.take_seat(gid, "red", 7, 1.0)
        await store.db.set_trace_callback(None)
        assert calls == []  # neither write went to the thread
        assert [a.seq for a in await store.actions(gid)] == [1] and await store.seats(gid) == {"red": 7}
        with pytest.raises(StaleWriter):  # the fence holds inline too: nothing written
            await store.append_action(**action(gid, 1, "i2"))
        assert [a.seq for a in await store.actions(gid)] == [1] and await store.response_for("i2") is None
    finally:
        await store.close()


async def test_a_write_that_finds_the_database_locked_waits_its_turn_in_the_thread(tmp_path):
    path = tmp_path / "b.db"
    store = await open_store(f"sqlite:///{path}")
    try:
        gid = await new_game(store)
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # another process's writer holds the lock
        other.execute("INSERT INTO settings (key, value) VALUES ('x', '1')")
        release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
        release.start()
        loop_free = asyncio.create_task(asyncio.sleep(0.05))
        await store.append_action(**action(gid, 1, "i1"))  # busy inline: the thread's way, after the commit
        assert loop_free.done()  # the loop was not blocked while it waited
        release.join()
        other.close()
        assert [a.seq for a in await store.actions(gid)] == [1]
        assert await store.get_setting("x") == "1"
        await store.append_action(**action(gid, 2, "i2"))  # and inline again once free
        assert [a.seq for a in await store.actions(gid)] == [1, 2]
    finally:
        await store.close()
