"""The SQLite store on aiosqlite's public API (issue 43, bot/storage/sqlite.py): an open whose connect fails
is refused in one line and leaves no thread running when it returns; a transaction whose caller is cancelled
while its ``BEGIN`` runs leaves none open; a transaction sent to aiosqlite's thread (the database busy)
commits whole though its caller is cancelled, before any later statement, and one the fence refuses there
writes nothing and reports no error nobody took."""
import asyncio
import gc
import shutil
import sqlite3
import threading

import pytest

from bot.storage import StorageError, open_store
from bot.storage import sqlite as sqlite_store

WAIT = 60  # seconds: generous, for a loaded machine


async def new_game(store):
    return await store.create_game(channel_id=5, guild_id=1, ruleset="tiny", options={}, seed="s", commitment="c",
                                   creator_id=1, now=0.0, initial_state={"n": 0})


async def traced(store, statement: str) -> threading.Event:
    """An event set when aiosqlite's thread begins ``statement`` (SQLite's trace: at the statement's start)."""
    began = threading.Event()
    await store.db.set_trace_callback(lambda sql: sql == statement and began.set())
    return began


async def until(event: threading.Event) -> None:
    for _ in range(WAIT * 100):
        if event.is_set():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the store's thread never began the statement")


def locked(path):
    """Another process's writer holding the database's write lock (until its COMMIT)."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO settings (key, value) VALUES ('other', '1')")
    return other


async def test_an_open_whose_connect_fails_is_refused_and_leaves_no_thread(tmp_path, monkeypatch):
    """Issue 43: SQLite refusing the connect itself (here the folder is removed after the checks, before SQLite
    opens the file) is one line, and aiosqlite's thread has ended when the open returns (not waited for here): a
    thread left would answer a loop that may have closed, and keep the process alive (issue 39). aiosqlite
    stops it but offers no public way to wait for it: the store notes it as the connect begins."""
    folder = tmp_path / "gone"
    folder.mkdir()
    path = folder / "a.db"
    check = sqlite_store.check_files

    def checked_then_removed(*args, **kwargs):
        found = check(*args, **kwargs)
        shutil.rmtree(folder)
        return found

    monkeypatch.setattr(sqlite_store, "check_files", checked_then_removed)
    threads = set(threading.enumerate())
    with pytest.raises(StorageError) as e:
        await open_store(str(path))
    assert "cannot open" in str(e.value) and "\n" not in str(e.value) and e.value.status == 2, str(e.value)
    left = {t for t in set(threading.enumerate()) - threads if not t.name.startswith("asyncio_")}  # (not the
    # loop's own workers, which live as long as the loop)
    assert not left, f"aiosqlite's thread still runs after the refused open: {left}"


async def test_a_transaction_cancelled_while_its_begin_runs_leaves_none_open(tmp_path):
    """Issue 43: a caller cancelled while its ``BEGIN IMMEDIATE`` waits in the thread (another writer holds
    the lock) leaves no transaction open on the shared connection: the next one begins, and commits."""
    path = tmp_path / "b.db"
    store = await open_store(str(path))
    try:
        began = await traced(store, "BEGIN IMMEDIATE")
        other = locked(path)

        async def write():
            async with store.transaction() as tx:
                await tx.execute("INSERT INTO settings (key, value) VALUES ('cancelled', '1')")

        t = asyncio.create_task(write())
        await until(began)
        t.cancel()
        other.execute("COMMIT")
        other.close()
        await asyncio.gather(t, return_exceptions=True)
        assert t.cancelled()
        # (a read in the thread, which takes its statements in order: the cancelled BEGIN has run by then)
        assert await store.get_setting("cancelled") is None
        assert not store.db.in_transaction
        await asyncio.wait_for(store.set_setting("after", "2"), WAIT)
        assert await store.get_setting("after") == "2"
        seen = sqlite3.connect(path)  # (committed: another connection sees it)
        assert seen.execute("SELECT value FROM settings WHERE key='after'").fetchall() == [("2",)]
        seen.close()
    finally:
        await store.close()


async def cancelled_in_the_thread(store, path, gid: int, seq: int) -> None:
    """An order at ``seq`` sent to aiosqlite's thread (another writer holds the database), its caller cancelled
    once its BEGIN is under way, then the other writer done: the order's task runs to its end meanwhile."""
    began = await traced(store, "BEGIN IMMEDIATE")
    other = locked(path)
    t = asyncio.create_task(store.append_action(
        game_id=gid, seq=seq, seat="red", user_id=1, text="roll", interaction_id=f"i{seq}", dice_before=0,
        dice_after=1, events=[], now=1.0, snapshot=None, response={"text": "ok"}))
    await until(began)
    t.cancel()
    other.execute("COMMIT")
    other.close()
    await asyncio.gather(t, return_exceptions=True)


async def test_an_order_sent_to_the_thread_commits_whole_though_its_caller_is_cancelled(tmp_path):
    """Issue 43: the database busy (another writer), an order's transaction goes to aiosqlite's thread as a
    task of its own; its caller cancelled there, it still commits whole (the action, its answer, the game's counter)
    before any later statement reads."""
    path = tmp_path / "c.db"
    store = await open_store(str(path))
    try:
        gid = await new_game(store)
        await cancelled_in_the_thread(store, path, gid, 1)
        assert [a.seq for a in await store.actions(gid)] == [1]
        assert await store.response_for("i1") == {"text": "ok"} and (await store.game(gid)).seq == 1
    finally:
        await store.close()


async def test_a_stale_order_in_the_thread_whose_caller_is_cancelled_writes_nothing_and_logs_nothing(tmp_path):
    """Issue 43: the database busy, a stale order (the game moved on: its fence changes no row) goes to
    aiosqlite's thread as a task of its own; its caller cancelled there, it still rolls back whole (nothing of
    it written), and its refusal, which nobody awaits any more, is not reported as an error never retrieved."""
    loop = asyncio.get_running_loop()
    reported = []
    loop.set_exception_handler(lambda _loop, context: reported.append(context))
    path = tmp_path / "d.db"
    store = await open_store(str(path))
    try:
        gid = await new_game(store)
        await cancelled_in_the_thread(store, path, gid, 5)
        # (a read waits for the store's lock, which the order's task holds until it has rolled back)
        assert await store.actions(gid) == [] and await store.response_for("i5") is None
        assert (await store.game(gid)).seq == 0
        gc.collect()  # (the cancelled caller's task went with the helper's frame: now nothing holds the order's)
        await asyncio.sleep(0)
        assert reported == []
    finally:
        loop.set_exception_handler(None)
        await store.close()
