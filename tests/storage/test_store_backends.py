"""What each backend guarantees in the database itself (issue 16), run on SQLite and on a real
PostgreSQL started by the tests: the append-only log refused by the database, versioned
migrations run once, a newer schema refused, and two writers of one game (two processes, each
with its own store) fenced so that a stale order is refused, never applied twice."""
import asyncio

import pytest

from bot.storage import SCHEMA_VERSION, StaleWriter, open_store, parse_url
from bot.storage import postgres as pg_backend


async def new_game(store, channel=5):
    return await store.create_game(channel_id=channel, guild_id=1, ruleset="tiny", options={}, seed="s",
                                   commitment="c", creator_id=9, now=1.0, initial_state={"n": 0})


def action(gid, seq, iid=None, text=None):
    return dict(game_id=gid, seq=seq, seat="red", user_id=9, text=text or f"o{seq}",
                interaction_id=iid or f"i{gid}-{seq}", dice_before=0, dice_after=0, events=[], now=float(seq),
                snapshot=None, response={"text": f"ok {seq}", "ephemeral": False})


def test_urls_choose_the_backend():
    assert parse_url("sqlite:///palantir.db") == ("sqlite", "palantir.db")
    assert parse_url("sqlite:////var/lib/p.db") == ("sqlite", "/var/lib/p.db")
    assert parse_url("postgresql://bot@db/palantir") == ("postgresql", "postgresql://bot@db/palantir")
    with pytest.raises(ValueError):
        parse_url("mysql://x")
    assert pg_backend.SCHEMA_VERSION == SCHEMA_VERSION  # the same versions on both backends


async def test_the_log_is_append_only_in_the_database(store_url):
    store = await open_store(store_url)
    try:
        gid = await new_game(store)
        await store.append_action(**action(gid, 1))
        for sql in ("UPDATE actions SET text='forged'", "DELETE FROM actions"):
            with pytest.raises(Exception, match="append-only"):
                async with store.transaction() as tx:
                    await tx.execute(sql)
        if store_url.startswith("postgresql"):
            with pytest.raises(Exception, match="append-only"):
                async with store.transaction() as tx:
                    await tx.execute("TRUNCATE actions CASCADE")
        assert [a.text for a in await store.actions(gid)] == ["o1"]
    finally:
        await store.close()


async def test_migrations_are_versioned_run_once_and_a_newer_schema_is_refused(store_url):
    store = await open_store(store_url)
    assert await store.schema_version() == SCHEMA_VERSION
    gid = await new_game(store)
    await store.close()
    again = await open_store(store_url)  # reopening runs no migration twice and keeps the data
    try:
        assert await again.schema_version() == SCHEMA_VERSION
        assert (await again.game(gid)).seq == 0
        async with again.transaction() as tx:
            if store_url.startswith("postgresql"):
                await tx.execute("UPDATE schema_version SET version=?", (SCHEMA_VERSION + 1,))
            else:
                await tx.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    finally:
        await again.close()
    with pytest.raises(RuntimeError, match="newer"):
        await open_store(store_url)


async def test_a_redelivered_interaction_cannot_be_logged_twice(store_url):
    store = await open_store(store_url)
    try:
        gid = await new_game(store)
        await store.append_action(**action(gid, 1, iid="same"))
        with pytest.raises(Exception):
            await store.append_action(**action(gid, 2, iid="same"))
        assert (await store.game(gid)).seq == 1 and len(await store.actions(gid)) == 1
    finally:
        await store.close()


@pytest.mark.parametrize("rounds", [25])
async def test_two_processes_writing_one_game_one_wins_the_other_is_fenced(store_url, rounds):
    """Two stores on one database (two bot processes). Each round both read the game at the same
    counter and race to append their own order at the next one: exactly one is logged, the other
    is refused with StaleWriter and leaves nothing (no log row, no answer)."""
    a, b = await open_store(store_url), await open_store(store_url)
    try:
        gid = await new_game(a)
        for r in range(rounds):
            seq = (await a.game(gid)).seq
            assert (await b.game(gid)).seq == seq  # both believe they own it at the same point
            results = await asyncio.gather(
                a.append_action(**action(gid, seq + 1, iid=f"a{r}", text=f"a{r}")),
                b.append_action(**action(gid, seq + 1, iid=f"b{r}", text=f"b{r}")),
                return_exceptions=True)
            errors = [e for e in results if isinstance(e, BaseException)]
            assert len(errors) == 1 and isinstance(errors[0], StaleWriter), results
            loser = "b" if results[0] is None else "a"
            assert await a.response_for(f"{loser}{r}") is None
        rows = await b.actions(gid)
        assert [x.seq for x in rows] == list(range(1, rounds + 1))
        assert (await a.game(gid)).seq == rounds
        # a stale writer that read long ago is refused too
        with pytest.raises(StaleWriter):
            await b.append_action(**action(gid, 3, iid="late"))
    finally:
        await a.close()
        await b.close()


def test_storage_url_in_the_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    from bot.config import ConfigError, load_config
    from bot.storage import storage_url

    f = tmp_path / "c.toml"
    f.write_text('[storage]\nurl = "postgresql://bot@db.internal/palantir"\n')
    assert storage_url(load_config(str(f)).storage) == "postgresql://bot@db.internal/palantir"
    f.write_text('[storage]\npath = "games.db"\n')
    assert storage_url(load_config(str(f)).storage) == "sqlite:///games.db"
    assert storage_url(load_config(None).storage) == "sqlite:///palantir.db"  # no config.toml here
    f.write_text('[storage]\nurl = "mongodb://x"\n')
    with pytest.raises(ConfigError, match="url"):
        load_config(str(f))


async def test_open_store_takes_a_config_section(tmp_path, store_url):
    from bot.config import StorageConfig

    store = await open_store(StorageConfig(url=store_url))
    try:
        assert type(store).__name__ == ("PostgresStore" if store_url.startswith("postgresql") else "SqliteStore")
    finally:
        await store.close()
    store = await open_store(StorageConfig(path=str(tmp_path / "p.db")))
    assert type(store).__name__ == "SqliteStore" and store.path == str(tmp_path / "p.db")
    await store.close()


def test_no_postgresql_means_a_clear_reason_to_skip(monkeypatch):
    from tests import pg_server

    monkeypatch.delenv("PALANTIR_TEST_PG_URL", raising=False)
    monkeypatch.setattr(pg_server, "_bindir", lambda: None)
    with pytest.raises(pg_server.NoServer, match="apt-get install postgresql"):
        pg_server.start()


def test_the_postgresql_url_is_shown_without_its_password():
    assert pg_backend._redact("postgresql://bot:s3cret@db:5432/p") == "postgresql://bot:***@db:5432/p"
    assert pg_backend._redact("postgresql://bot@db/p") == "postgresql://bot@db/p"


async def test_a_players_record_survives_a_restart(store_url):
    """Issue 28: the record is in the database, on both backends: a new process reads it back."""
    store = await open_store(store_url)
    await store.add_record(7, phases_on_time=2, phases_missed=1, seats_lost=1)
    gid = await new_game(store)
    await store.seat_changed(gid, "red", 7, 1.0)
    await store.close()
    again = await open_store(store_url)
    try:
        r = await again.record(7)
        assert (r.phases_on_time, r.phases_missed, r.seats_lost) == (2, 1, 1)
        assert [h["user_id"] for h in await again.seat_history(gid)] == [7]
    finally:
        await again.close()


async def test_a_version_6_sqlite_file_migrates_to_7_keeping_its_players(tmp_path):
    """Storage v7 (issue 28) on a database written by v6: its preferences keep, autoplay is off, and the
    new tables start empty."""
    import sqlite3

    from bot.storage.sqlite import MIGRATIONS

    path = tmp_path / "v6.db"
    con = sqlite3.connect(path)
    for m in MIGRATIONS[:6]:
        con.executescript(m)
    con.execute("PRAGMA user_version=6")
    con.execute("INSERT INTO prefs (user_id, quiet_from, quiet_to, tz) VALUES (5, '22:00', '07:00', 'UTC')")
    con.commit()
    con.close()
    store = await open_store(f"sqlite:///{path}")
    try:
        assert await store.schema_version() == SCHEMA_VERSION >= 7  # (and on to the newest)
        p = await store.prefs(5)
        assert p.quiet_from == "22:00" and p.autoplay is False
        assert (await store.record(5)).ontime_percent is None
    finally:
        await store.close()


async def test_the_bots_postgresql_store_opens_its_whole_pool_at_once_and_keeps_it(pg_url):
    """Issue 25: a burst of orders must not wait for connections to be made (a server process each, every
    statement prepared anew), nor the first burst after a quiet spell for those closed as idle."""
    from bot.storage.postgres import PostgresStore

    store = await open_store(pg_url)
    try:
        pool = store.pool
        assert pool.get_size() == PostgresStore.POOL_SIZE == pool.get_max_size()
        assert pool.get_idle_size() == pool.get_size()  # all of them made and waiting, none for later
        assert pool._max_inactive_connection_lifetime == 0  # (asyncpg's: 0 never closes an idle connection)
    finally:
        await store.close()
    lazy = await PostgresStore.open(pg_url)  # a tool's or a test's store: one connection, more as needed
    try:
        assert lazy.pool.get_size() == 1
    finally:
        await lazy.close()


async def test_each_connection_of_the_bots_postgresql_pool_has_an_orders_statements_prepared(pg_url):
    """Issue 25: asyncpg prepares a statement on a connection the first time it runs there (a round trip more,
    and the server's planning), which the first orders after a start paid, each on its connection. The bot's
    pool prepares them as it opens (and on a connection it makes later): orders then prepare nothing."""
    store = await open_store(pg_url)
    listing = "SELECT statement FROM pg_prepared_statements"

    async def prepared() -> list[frozenset[str]]:
        cons = [await store.pool.acquire() for _ in range(store.pool.get_size())]
        try:
            found = [frozenset(r["statement"] for r in await c.fetch(listing)) - {listing} for c in cons]
            return sorted(found, key=sorted)
        finally:
            for c in cons:
                await store.pool.release(c)

    try:
        before = await prepared()
        assert len(before) == store.pool.get_size()
        for p in before:  # the order's context, its one write (each of its 12 shapes), the answers marked
            assert sum(s.startswith("WITH fence AS") for s in p) == 12
            assert any("AS ctx_board" in s for s in p) and any("= ANY($2::text[])" in s for s in p)
        gid = await store.create_game(channel_id=5, guild_id=1, ruleset="gondor", options={}, seed="s",
                                      commitment="c", creator_id=1, now=1.0, initial_state={"x": 1})
        await store.set_status(gid, "active", 2.0)
        before = await prepared()

        async def order(i: int) -> None:
            _, row = await store.order_context(5, f"i{i}")
            await store.append_action(game_id=gid, seq=row.seq + 1, seat="sauron", user_id=11, text="roll",
                                      interaction_id=f"i{i}", dice_before=0, dice_after=1, events=[], now=3.0,
                                      snapshot={"x": i} if i % 3 == 0 else None,
                                      response={"text": "ok", "ephemeral": False})
            await store.mark_delivered(f"i{i}", 4.0)

        for i in range(3 * store.pool.get_size()):  # (the pool hands its connections out in turn)
            await order(i)
        assert await asyncio.gather(*(store.mark_delivered(f"i{i}", 5.0) for i in range(7))) == [None] * 7
        assert await prepared() == before  # nothing prepared anew, on any connection
    finally:
        await store.close()


async def test_answers_marked_delivered_ride_with_the_next_orders_statement_on_postgresql(pg_url):
    """Issue 25: on PostgreSQL the marks reported since the last order's write are carried by the next one's
    statement (no statement of their own); those no order carries within MARK_LINGER go by themselves; an
    order whose statement fails leaves its marks to be written by themselves, not lost."""
    from bot.storage.postgres import PostgresStore

    store = await open_store(pg_url)
    alone = []
    real = store._mark_answers

    async def spy(ids, now):
        alone.append(list(ids))
        await real(ids, now)

    store._mark_answers = spy
    try:
        gid = await store.create_game(channel_id=5, guild_id=1, ruleset="gondor", options={}, seed="s",
                                      commitment="c", creator_id=1, now=1.0, initial_state={"x": 1})
        await store.set_status(gid, "active", 2.0)

        async def order(seq: int, iid: str, **kw) -> None:
            await store.append_action(game_id=gid, seq=seq, seat="sauron", user_id=11, text="roll", interaction_id=iid,
                                      dice_before=0, dice_after=1, events=[], now=3.0, snapshot=None,
                                      response={"text": "ok", "ephemeral": False}, **kw)

        async def delivered(iid: str):
            row = await store.pool.fetchrow("SELECT delivered_at FROM responses WHERE interaction_id=$1", iid)
            return row["delivered_at"]

        await order(1, "a")
        await order(2, "b")
        marks = [asyncio.ensure_future(store.mark_delivered(i, 4.0)) for i in ("a", "b")]
        await asyncio.sleep(0)
        await order(3, "c")  # carries the two marks
        await asyncio.gather(*marks)
        assert alone == [] and await delivered("a") == await delivered("b") == 4.0
        assert await delivered("c") is None
        await store.mark_delivered("c", 5.0)  # no order follows: by itself, after the linger
        assert alone == [["c"]] and await delivered("c") == 5.0
        mark = asyncio.ensure_future(store.mark_delivered("c", 6.0))  # (already marked: unchanged)
        await asyncio.sleep(0)
        with pytest.raises(StaleWriter):  # a stale order's statement still carries the marks
            await order(3, "d")
        await mark
        assert alone == [["c"]] and await delivered("c") == 5.0
        await order(4, "e")
        mark = asyncio.ensure_future(store.mark_delivered("e", 7.0))
        await asyncio.sleep(0)
        with pytest.raises(Exception):  # a statement that fails (a NUL in a text): rolled back
            await store.append_action(game_id=gid, seq=5, seat="sauron", user_id=11, text="roll\x00",
                                      interaction_id="f", dice_before=0, dice_after=1, events=[], now=3.0,
                                      snapshot=None, response=None)
        await mark  # written by itself instead
        assert alone == [["c"], ["e"]] and await delivered("e") == 7.0
        assert PostgresStore.MARK_LINGER < 0.05
    finally:
        await store.close()
