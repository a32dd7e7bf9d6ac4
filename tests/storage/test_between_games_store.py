"""Issue 41's storage, on both backends (SQLite, and a PostgreSQL the tests start): saved set-ups unique per
server whatever their case, a rematch proposal's rounds, a digest dealt with once, the migration from the
previous version keeping every game, and `palantir db copy` carrying the new tables."""
import asyncpg
import pytest

from bot.storage import OutboxPost, open_store
from bot.storage.copy import TABLES, copy_tables


@pytest.fixture
async def store(store_url):
    s = await open_store(store_url)
    yield s
    await s.close()


async def new_game(store, channel=5):
    return await store.create_game(channel_id=channel, guild_id=1, ruleset="tiny-pbp", options={"deadline": "24"},
                                   seed="s", commitment="c", creator_id=9, now=1.0, initial_state={"n": 0})


async def test_set_ups_are_unique_per_server_by_their_folded_name(store):
    """Issue 41: a second set-up of the same (folded) name in a server is not written; another server's is."""
    assert await store.save_template(1, "siege", "Siege", "gondor", "deadline=24", 7, 1.0)
    assert not await store.save_template(1, "siege", "SIEGE", "sauron", "", 8, 2.0)
    assert await store.save_template(2, "siege", "siege", "sauron", "", 8, 2.0)
    t = await store.template(1, "siege")
    assert (t["name"], t["ruleset"], t["options"], t["creator_id"]) == ("Siege", "gondor", "deadline=24", 7)
    assert [x["name"] for x in await store.templates(1)] == ["Siege"]
    assert await store.delete_template(1, "siege") and not await store.delete_template(1, "siege")
    assert await store.template(1, "siege") is None and await store.template(2, "siege") is not None


async def test_a_rematch_proposal_is_one_row_a_game_whose_round_counts_its_proposals(store):
    """Issue 41: a proposal proposed again after a decline is the next round (its buttons are its own)."""
    gid = await new_game(store)
    assert await store.propose_rematch(gid, channel_id=5, guild_id=1, swap=True, seats={"red": 2**62, "blue": 3},
                                       by_user=3, confirmed=[3], now=2.0) == 1
    rm = await store.rematch(gid)
    assert rm["seats"] == {"red": 2**62, "blue": 3} and rm["confirmed"] == [3] and rm["swap"] is True
    assert [r["game_id"] for r in await store.open_rematches()] == [gid]
    await store.set_rematch(gid, confirmed=[3], status="declined")
    assert await store.open_rematches() == []
    assert await store.propose_rematch(gid, channel_id=5, guild_id=1, swap=False, seats={"red": 3, "blue": 2**62},
                                       by_user=2**62, confirmed=[2**62], now=3.0) == 2
    rm = await store.rematch(gid)
    assert rm["status"] == "open" and rm["swap"] is False and rm["confirmed"] == [2**62]
    await store.set_rematch(gid, confirmed=[3, 2**62], status="started", new_game_id=77)
    assert (await store.rematch(gid))["new_game_id"] == 77


async def test_a_digest_that_fell_due_is_dealt_with_once(store):
    """Issue 41: the digest moves on to its next time with its post in one transaction; a second pass over the
    same due time writes nothing (sent once)."""
    await store.set_digest(4, "08:00", 100.0, 50.0)
    assert [d["user_id"] for d in await store.due_digests(99.0)] == []
    (d,) = await store.due_digests(100.0)
    assert d["last_at"] == 50.0
    post = OutboxPost(None, {"text": "digest"}, 101.0, user_id=4)
    assert await store.digest_done(4, 100.0, 200.0, post, 101.0)
    assert not await store.digest_done(4, 100.0, 300.0, post, 101.0)
    assert [o["payload"]["text"] for o in await store.pending_outbox() if o["user_id"] == 4] == ["digest"]
    d = await store.digest(4)
    assert (d["due_at"], d["last_at"]) == (200.0, 101.0)
    assert await store.digest_done(4, 200.0, 300.0, None, 201.0)  # nothing to say: moved on, not sent
    assert (await store.digest(4))["last_at"] == 101.0 and len(await store.pending_outbox()) == 1
    await store.set_digest(4, "09:00", 400.0, 350.0)  # a new time keeps when the last one went
    assert (await store.digest(4))["last_at"] == 101.0
    await store.set_digest(4, None, None, 360.0)
    assert await store.digest(4) is None


async def test_finished_games_and_their_players(store):
    """Issue 41: the channel's last finished game; a player's games ended since a time."""
    a, b = await new_game(store, 5), await new_game(store, 6)
    await store.take_seat(a, "red", 3, 1.0)
    await store.take_seat(b, "blue", 3, 1.0)
    assert await store.finished_game(5) is None
    await store.set_status(a, "over", 10.0)
    await store.set_status(b, "ended", 20.0)
    assert (await store.finished_game(5)).id == a
    assert [g.id for g in await store.finished_games_of(3, 5.0)] == [a, b]
    assert [g.id for g in await store.finished_games_of(3, 10.0)] == [b]
    assert await store.finished_games_of(4, 0.0) == []


async def test_the_previous_storage_version_migrates_keeping_every_game(store_url):
    """Issue 41: a database at the version before this change (7) migrates, its games kept, the new tables
    empty."""
    if store_url.startswith("sqlite"):
        import sqlite3

        from bot.storage.sqlite import BETWEEN_GAMES, MIGRATIONS

        con = sqlite3.connect(store_url[len("sqlite:///"):])
        for m in MIGRATIONS[:MIGRATIONS.index(BETWEEN_GAMES)]:
            con.executescript(m)
        con.execute(f"PRAGMA user_version={MIGRATIONS.index(BETWEEN_GAMES)}")
        con.execute("INSERT INTO games (id, channel_id, ruleset, options, seed, commitment, creator_id, status, seq,"
                    " created_at) VALUES (3, 5, 'gondor', '{}', 's', 'c', 9, 'over', 4, 1.0)")
        con.commit()
        con.close()
    else:
        from bot.storage.postgres import BETWEEN_GAMES, MIGRATIONS

        con = await asyncpg.connect(store_url)
        try:
            for m in MIGRATIONS[:MIGRATIONS.index(BETWEEN_GAMES)]:
                await con.execute(m)
            await con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            await con.execute("INSERT INTO schema_version (version) VALUES ($1)", MIGRATIONS.index(BETWEEN_GAMES))
            await con.execute("INSERT INTO games (id, channel_id, ruleset, options, seed, commitment, creator_id, status,"
                              " seq, created_at) VALUES (3, 5, 'gondor', '{}', 's', 'c', 9, 'over', 4, 1.0)")
        finally:
            await con.close()
    store = await open_store(store_url)
    try:
        assert await store.schema_version() >= MIGRATIONS.index(BETWEEN_GAMES) + 1
        assert (await store.game(3)).seq == 4 and (await store.finished_game(5)).id == 3
        assert await store.templates(1) == [] and await store.rematch(3) is None and await store.due_digests(1e12) == []
    finally:
        await store.close()


async def test_db_copy_carries_the_set_ups_rematches_and_digests(tmp_path, store_url):
    """Issue 41: `palantir db copy` copies the new tables, every row and value."""
    src = await open_store(f"sqlite:///{tmp_path / 'src.db'}")
    dst = await open_store(store_url)
    try:
        gid = await new_game(src)
        await src.save_template(1, "siege", "Siege", "gondor", "deadline=24", 7, 1.0)
        await src.propose_rematch(gid, channel_id=5, guild_id=1, swap=True, seats={"red": 2, "blue": 3}, by_user=3,
                                  confirmed=[3], now=2.0)
        await src.set_digest(4, "08:00", 100.0, 50.0)
        counts = await copy_tables(src, dst, log=lambda *_: None)
        assert {t for t, _ in TABLES} >= {"templates", "rematches", "digests"}
        assert counts["templates"] == counts["rematches"] == counts["digests"] == 1
        assert await dst.template(1, "siege") == await src.template(1, "siege")
        assert await dst.rematch(gid) == await src.rematch(gid)
        assert await dst.digest(4) == await src.digest(4)
    finally:
        await src.close()
        await dst.close()
