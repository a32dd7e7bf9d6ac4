"""The store's one-writer discipline (issue 18): many games write at the same
instant on the one shared connection, and what is left in the database is
exactly what was committed.

Each task plays one game: it appends actions (some of which fail inside their
transaction and must leave nothing), saves stored answers and takes seats,
all interleaved at every ``await`` with the other games' tasks. One more task
keeps a transaction open and rolls it back while the others write outside any
transaction: before the discipline those writes became part of the doomed
transaction and vanished with its ROLLBACK.

Both backends (issue 16): SQLite, and a real PostgreSQL (a pooled connection per transaction)."""
import asyncio
import random

import pytest

from bot.storage import OutboxPost, StaleWriter, Store, open_store

GAMES = 12
STEPS = 40


async def new_game(store: Store, channel: int) -> int:
    return await store.create_game(channel_id=channel, guild_id=1, ruleset="tiny", options={}, seed="s",
                                   commitment="c", creator_id=1, now=0.0, initial_state={"n": 0})


async def play(store: Store, gid: int, rng: random.Random, model: dict) -> None:
    seq = 0
    for step in range(STEPS):
        roll = rng.random()
        await asyncio.sleep(0)
        if roll < 0.55:
            fail = rng.random() < 0.3
            iid = f"{gid}-{step}"
            # a transaction that fails after its rows and effects were written: the fence refuses
            # a stale sequence number, so the log row, the snapshot, the answer and the outbox post
            # must all roll back
            also = [OutboxPost(gid, {"text": f"post {step}"}, float(step), channel_id=gid)]
            try:
                await store.append_action(game_id=gid, seq=seq + (2 if fail else 1), seat="a", user_id=1, text=f"o{step}",
                                          interaction_id=iid, dice_before=0, dice_after=0, events=[],
                                          now=float(step), snapshot={"n": seq + 1} if rng.random() < 0.3 else None,
                                          response={"text": f"ok {step}"}, also=also)
            except StaleWriter as e:
                assert fail and "sequence mismatch" in str(e)
            else:
                assert not fail
                seq += 1
                model["actions"][gid].append(f"o{step}")
                model["responses"].add(iid)
                model["outbox"][gid] += 1
        elif roll < 0.8:
            iid = f"r{gid}-{step}"
            await store.save_response(iid, gid, {"text": "x"}, float(step))
            model["responses"].add(iid)
        else:
            seat = f"s{step}"
            assert await store.take_seat(gid, seat, 100 + step, float(step))
            model["seats"][gid].add(seat)


async def doomed(store: Store, stop: asyncio.Event) -> int:
    """Transactions that stay open over several awaits and then roll back."""
    n = 0
    while not stop.is_set():
        with pytest.raises(RuntimeError):
            async with store.transaction() as tx:
                await tx.execute("INSERT INTO settings (key, value) VALUES (?, ?)", (f"doomed{n}", "x"))
                for _ in range(5):
                    await asyncio.sleep(0)
                raise RuntimeError("roll back")
        n += 1
    return n


@pytest.mark.parametrize("seed", range(4))
async def test_concurrent_games_leave_exactly_the_committed_rows(store_url, seed):
    store = await open_store(store_url)
    try:
        rng = random.Random(seed)
        gids = [await new_game(store, 1000 + i) for i in range(GAMES)]
        model = {"actions": {g: [] for g in gids}, "responses": set(), "seats": {g: set() for g in gids},
                 "outbox": {g: 0 for g in gids}}
        stop = asyncio.Event()
        rollbacks = asyncio.create_task(doomed(store, stop))
        await asyncio.gather(*(play(store, g, random.Random(rng.random()), model) for g in gids))
        stop.set()
        assert await rollbacks > 0
    finally:
        await store.close()

    store = await open_store(store_url)  # what a fresh connection reads: only what was committed
    try:
        async with store.transaction() as tx:
            for g in gids:
                rows = await tx.fetchall("SELECT seq, text FROM actions WHERE game_id=? ORDER BY seq", (g,))
                assert [r[0] for r in rows] == list(range(1, len(rows) + 1)), "the log has a gap"
                assert [r[1] for r in rows] == model["actions"][g]
                assert (await tx.fetchall("SELECT seq FROM games WHERE id=?", (g,)))[0][0] == len(rows)
                seats = {r[0] for r in await tx.fetchall("SELECT seat FROM seats WHERE game_id=?", (g,))}
                assert seats == model["seats"][g]
                n = (await tx.fetchall("SELECT COUNT(*) FROM outbox WHERE game_id=?", (g,)))[0][0]
                assert n == model["outbox"][g]
            responses = {r[0] for r in await tx.fetchall("SELECT interaction_id FROM responses")}
            assert responses == model["responses"]
            doomed_rows = await tx.fetchall("SELECT COUNT(*) FROM settings WHERE key LIKE 'doomed%'")
            assert doomed_rows[0][0] == 0
    finally:
        await store.close()


async def test_a_cancelled_transaction_rolls_back_and_frees_the_store(store_url):
    store = await open_store(store_url)
    try:
        gid = await new_game(store, 1)
        entered = asyncio.Event()

        async def hang():
            async with store.transaction() as tx:
                await tx.execute("INSERT INTO settings (key, value) VALUES ('half', 'x')")
                entered.set()
                await asyncio.sleep(30)

        t = asyncio.create_task(hang())
        await entered.wait()
        t.cancel()
        with pytest.raises(asyncio.CancelledError):
            await t
        # the store is usable at once, and the half-done transaction left nothing
        await asyncio.wait_for(store.save_response("after", gid, {"text": "y"}, 1.0), 5)
        assert await store.get_setting("half") is None
        assert await store.response_for("after") == {"text": "y"}
    finally:
        await store.close()
