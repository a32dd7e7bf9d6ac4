"""The PostgreSQL backend (asyncpg, a connection pool): one shared store for
several bot processes (issue 16). The same tables, the same versioned
migrations and the same guarantees as ``bot/storage/sqlite.py``:

- every accepted order is one transaction: the log row, the game's counter,
  the snapshot at a new phase and the stored answer;
- ``actions.interaction_id`` is unique, so a redelivered interaction is a
  replay, never a second application;
- the log is append-only in the database itself: triggers refuse UPDATE,
  DELETE and TRUNCATE on ``actions``;
- **fencing**: ``append_action`` first moves the game's counter with
  ``UPDATE games SET seq = new WHERE id = game AND seq = new - 1``. The row
  lock that UPDATE takes serializes two writers of one game, and the second
  one's condition is re-checked against the committed row, so a stale process
  (one that still believes it owns the game after a redeploy) is refused with
  :class:`~bot.storage.base.StaleWriter` and writes nothing.

The schema version lives in the one-row table ``schema_version``;
``MIGRATIONS[i]`` takes version i to i+1 (the same steps as SQLite's, in
PostgreSQL's dialect), run under a transaction-scoped advisory lock so two
processes starting together migrate once. Discord ids are BIGINT, times
DOUBLE PRECISION, JSON documents TEXT (kept byte for byte as written)."""
from __future__ import annotations

import asyncio
import json
import re
from contextlib import asynccontextmanager

from bot.storage.contexts import ContextCache
from bot.storage.sql import SqlQueries, _Marks, _dumps, _dumps_state
from bot.storage.base import (Effect, OutboxPost, ShardFilter, StaleWriter, StorageError, shard_where)

MIGRATION_LOCK = 0x70616C616E  # pg_advisory_xact_lock key taken while migrating ("palan")

# issue 41: SQLite's RESULTS_SCHEMA (bot/storage/sqlite.py) in PostgreSQL's dialect
RESULTS_SCHEMA = """
    CREATE TABLE results (
        n BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL UNIQUE REFERENCES games(id),
        guild_id BIGINT,
        ruleset TEXT NOT NULL,
        scenario TEXT NOT NULL DEFAULT '',
        options TEXT NOT NULL,
        winners TEXT NOT NULL,
        grade TEXT,
        turns BIGINT,
        days DOUBLE PRECISION NOT NULL,
        holders TEXT NOT NULL,
        rated BIGINT NOT NULL DEFAULT 0,
        ended_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX results_guild ON results(guild_id, ruleset);
    CREATE TABLE result_players (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw', 'left')),
        rated BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat, user_id)
    );
    CREATE INDEX result_players_user ON result_players(user_id);
"""

MIGRATIONS: list[str] = [
    # 0 -> 1
    """
    CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        guild_id BIGINT,
        channel_id BIGINT NOT NULL,
        ruleset TEXT NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        commitment TEXT NOT NULL,
        creator_id BIGINT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'active', 'over', 'ended')),
        seq BIGINT NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        started_at DOUBLE PRECISION,
        ended_at DOUBLE PRECISION
    );
    CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id)
        WHERE status IN ('open', 'active');
    CREATE TABLE seats (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        joined_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE actions (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq BIGINT NOT NULL,
        seat TEXT NOT NULL,
        user_id BIGINT,
        text TEXT NOT NULL,
        interaction_id TEXT UNIQUE,
        dice_before BIGINT NOT NULL,
        dice_after BIGINT NOT NULL,
        events TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE FUNCTION actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the action log is append-only'; END $$;
    CREATE TRIGGER actions_no_update BEFORE UPDATE OR DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION actions_append_only();
    CREATE TRIGGER actions_no_truncate BEFORE TRUNCATE ON actions
        FOR EACH STATEMENT EXECUTE FUNCTION actions_append_only();
    CREATE TABLE snapshots (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seq BIGINT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE responses (
        interaction_id TEXT PRIMARY KEY,
        game_id BIGINT,
        response TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL
    );
    """,
    # 1 -> 2: bot-wide settings
    """
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2 -> 3: undo rows, deadlines, the outbox, players' preferences, undo requests
    """
    ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'order';
    ALTER TABLE actions ADD COLUMN ref_seq BIGINT;
    ALTER TABLE games ADD COLUMN deadline_rules TEXT;
    CREATE TABLE clocks (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        phase_key TEXT NOT NULL,
        started_at DOUBLE PRECISION NOT NULL,
        extra DOUBLE PRECISION NOT NULL DEFAULT 0,
        paused_at DOUBLE PRECISION,
        deadline_at DOUBLE PRECISION
    );
    CREATE TABLE timers (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'deadline')),
        seat TEXT NOT NULL DEFAULT '',
        due_at DOUBLE PRECISION NOT NULL,
        fired_at DOUBLE PRECISION,
        UNIQUE (game_id, phase_key, kind, seat, due_at)
    );
    CREATE INDEX timers_pending ON timers(due_at) WHERE fired_at IS NULL;
    CREATE TABLE outbox (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT,
        channel_id BIGINT,
        user_id BIGINT,
        payload TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        sent_at DOUBLE PRECISION
    );
    CREATE INDEX outbox_pending ON outbox(id) WHERE sent_at IS NULL;
    CREATE TABLE prefs (
        user_id BIGINT PRIMARY KEY,
        quiet_from TEXT,
        quiet_to TEXT,
        tz TEXT,
        away_until DOUBLE PRECISION
    );
    CREATE TABLE undo_requests (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        target_seq BIGINT NOT NULL,
        at_seq BIGINT NOT NULL,
        needed TEXT NOT NULL,
        votes TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'open',
        created_at DOUBLE PRECISION NOT NULL
    );
    """,
    # 3 -> 4: answers stored but never delivered
    """
    ALTER TABLE responses ADD COLUMN delivered_at DOUBLE PRECISION;
    UPDATE responses SET delivered_at = created_at;
    CREATE INDEX responses_undelivered ON responses(created_at) WHERE delivered_at IS NULL;
    """,
    # 4 -> 5: a clock records the log position it was derived at
    """
    ALTER TABLE clocks ADD COLUMN synced_seq BIGINT NOT NULL DEFAULT 0;
    UPDATE clocks SET synced_seq = (SELECT seq FROM games WHERE games.id = clocks.game_id);
    CREATE INDEX games_active ON games(status) WHERE status = 'active';
    """,
    # 5 -> 6: private information a DM could not carry (where it went, what is held)
    """
    CREATE TABLE deliveries (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT,
        seat TEXT,
        user_id BIGINT NOT NULL,
        via TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX deliveries_game ON deliveries(game_id);
    CREATE TABLE held_posts (
        id BIGSERIAL PRIMARY KEY,
        user_id BIGINT NOT NULL,
        game_id BIGINT,
        seat TEXT,
        text TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        shown_at DOUBLE PRECISION
    );
    CREATE INDEX held_posts_waiting ON held_posts(user_id) WHERE shown_at IS NULL;
    """,
    # 6 -> 7 (issue 28): seats that stay filled. A player's record across servers (one row per user);
    # who held each seat from when to when; each seat's missed deadlines in a row, autopilot and check-in;
    # a takeover asked for (with its votes); the player's choice to have forced actions played
    """
    CREATE TABLE player_records (
        user_id BIGINT PRIMARY KEY,
        games_finished BIGINT NOT NULL DEFAULT 0,
        games_abandoned BIGINT NOT NULL DEFAULT 0,
        phases_on_time BIGINT NOT NULL DEFAULT 0,
        phases_missed BIGINT NOT NULL DEFAULT 0,
        seats_taken_over BIGINT NOT NULL DEFAULT 0,
        seats_lost BIGINT NOT NULL DEFAULT 0
    );
    CREATE TABLE seat_history (
        id BIGSERIAL PRIMARY KEY,
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id BIGINT NOT NULL,
        from_at DOUBLE PRECISION NOT NULL,
        to_at DOUBLE PRECISION,
        how TEXT NOT NULL DEFAULT 'join'
    );
    CREATE INDEX seat_history_game ON seat_history(game_id);
    CREATE TABLE seat_states (
        game_id BIGINT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        missed_in_row BIGINT NOT NULL DEFAULT 0,
        autopilot BIGINT NOT NULL DEFAULT 0,
        checked_in BIGINT NOT NULL DEFAULT 0,
        takeover TEXT,
        missed_timer BIGINT,
        PRIMARY KEY (game_id, seat)
    );
    ALTER TABLE prefs ADD COLUMN autoplay BIGINT NOT NULL DEFAULT 0;
    """,
    # 7 -> 8 (issue 41): the results of finished games (their ratings are derived: bot/results.py)
    RESULTS_SCHEMA,
]

# issue 41 (between games), self-contained: the same tables as SQLite's ``BETWEEN_GAMES``
BETWEEN_GAMES = """
    CREATE TABLE templates (
        guild_id BIGINT NOT NULL,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '',
        creator_id BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, name_key)
    );
    CREATE TABLE rematches (
        game_id BIGINT PRIMARY KEY REFERENCES games(id),
        round BIGINT NOT NULL DEFAULT 1,
        channel_id BIGINT NOT NULL,
        guild_id BIGINT,
        swap BIGINT NOT NULL DEFAULT 0,
        seats TEXT NOT NULL,
        confirmed TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL CHECK (status IN ('open', 'declined', 'started')),
        by_user BIGINT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        new_game_id BIGINT
    );
    CREATE INDEX rematches_open ON rematches(status) WHERE status = 'open';
    CREATE TABLE digests (
        user_id BIGINT PRIMARY KEY,
        at TEXT NOT NULL,
        due_at DOUBLE PRECISION NOT NULL,
        last_at DOUBLE PRECISION
    );
    CREATE INDEX digests_due ON digests(due_at);
"""
MIGRATIONS.append(BETWEEN_GAMES)  # one step of its own, the last (issue 41)
SCHEMA_VERSION = len(MIGRATIONS)

_QMARK = re.compile(r"\?")


def _pg(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (our statements hold no
    literal question marks)."""
    n = iter(range(1, 10_000))
    return _QMARK.sub(lambda m: f"${next(n)}", sql)


def _count(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except (ValueError, AttributeError):
        return 0


class _Result:
    def __init__(self, rowcount: int, rows: list | None = None):
        self.rowcount = rowcount
        self._rows = rows or []

    async def fetchall(self) -> list:
        return self._rows

    async def fetchone(self):
        return self._rows[0] if self._rows else None


class PgTx:
    """The statements of one open transaction on one pooled connection (``?`` placeholders, as
    SQLite's :class:`~bot.storage.sqlite.Tx`)."""

    def __init__(self, con):
        self._con = con

    async def execute(self, sql: str, params: tuple = ()) -> _Result:
        sql = _pg(sql)
        if sql.lstrip().upper().startswith("SELECT") or " RETURNING " in sql.upper():
            rows = await self._con.fetch(sql, *params)
            return _Result(len(rows), rows)
        return _Result(_count(await self._con.execute(sql, *params)))

    async def fetchall(self, sql: str, params: tuple = ()) -> list:
        return list(await self._con.fetch(_pg(sql), *params))

    async def executemany(self, sql: str, rows: list[tuple]) -> None:
        await self._con.executemany(_pg(sql), rows)

    async def script(self, script: str) -> None:
        await self._con.execute(script)


class PostgresStore(SqlQueries):
    """The PostgreSQL store: a pool of connections, one per transaction or read. Several
    processes may share it; each game's writes are fenced on its sequence number."""

    SEATS_JSON = "json_object_agg(s.seat, s.user_id)::text"
    DEPARTED_JSON = "json_agg(d.seat)::text"

    def __init__(self, pool, url: str):
        self.pool = pool
        self.url = url
        self.path = _redact(url)
        self.shard: ShardFilter | None = None  # this process's guilds, for the process-wide scans
        self.contexts = ContextCache()  # the channels' live games as the last orders read them (bot/storage/contexts.py)
        self._riders: _Marks | None = None  # answers marked delivered, for the next order's statement to carry

    POOL_SIZE = 10  # connections a bot process holds (``whole_pool``)
    CONNECT_TIMEOUT = 10.0  # seconds to connect before a server is called unreachable (asyncpg's default: 60)

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = POOL_SIZE,
                   whole_pool: bool = False) -> "PostgresStore":
        """With ``whole_pool`` (the bot's store, ``open_store``): every connection of the pool opened now and
        kept open, never closed for being idle. A burst of orders then never waits for a connection to be
        made: asyncpg opens one when all are busy (a new server process, its start-up, each statement
        prepared anew), and by default closes one idle for 5 minutes, so the first burst after a quiet
        spell paid for it. Measured (``benchmarks/bench_ack.py``, 300 orders/s, two busy processes): the
        stalls of 0.2-1.5 s at a burst's start went away (issue 25)."""
        try:
            import asyncpg
        except ImportError as e:  # pragma: no cover - asyncpg is a dependency
            raise RuntimeError("the PostgreSQL backend needs asyncpg (pip install asyncpg)") from e
        if whole_pool:
            min_size = max_size
        migrated: list[PostgresStore] = []  # (a connection made before the schema is there is warmed after it)

        async def init(con) -> None:  # each connection the pool makes, before its first use
            if migrated:
                await migrated[0]._warm(con)

        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_reset,
                                             max_inactive_connection_lifetime=0 if whole_pool else 300.0,
                                             init=init if whole_pool else None, timeout=cls.CONNECT_TIMEOUT)
        except Exception as e:  # noqa: BLE001 - one line for the operator (issue 39), or a real bug's traceback
            raise pg_error(url, e) from None
        store = cls(pool, url)
        try:
            await store.migrate()
            if whole_pool:
                migrated.append(store)
                await store._warm_pool()
        except BaseException as e:
            pool.terminate()  # (not ``close``: it would wait for a connection the failure left busy)
            if isinstance(e, Exception):
                raise pg_error(url, e) from None
            raise
        return store

    # the statement of a batch of answers marked delivered (``mark_delivered``): one text for any number
    MARK_ANSWERS = ("UPDATE responses SET delivered_at=$1 WHERE delivered_at IS NULL"
                    " AND interaction_id = ANY($2::text[])")

    async def _mark_answers(self, interaction_ids: list[str], now: float) -> None:
        await self._write(self.MARK_ANSWERS, (now, list(interaction_ids)), keeps_contexts=True)

    MARK_LINGER = 0.005  # seconds an answer's mark waits for an order's statement to carry it

    async def mark_delivered(self, interaction_id: str, now: float) -> None:
        """As ``SqlQueries.mark_delivered`` (returns once the mark is committed), but the marks reported since
        the last order's write ride with the next one, in its one statement (``append_action``): under load an
        order follows within a few milliseconds, and the marks cost no statement (no transaction, no trip) of
        their own. Those no order carries within ``MARK_LINGER`` are written by themselves, together."""
        batch = self._riders
        if batch is None:
            batch = self._riders = _Marks(now)
            asyncio.get_running_loop().call_later(self.MARK_LINGER, self._unridden, batch)
        batch.ids.append(interaction_id)
        batch.now = max(batch.now, now)
        await asyncio.shield(batch.done)

    def _unridden(self, batch: _Marks) -> None:
        if self._riders is batch:
            self._riders = None
            asyncio.ensure_future(self._mark_alone(batch))

    async def _mark_alone(self, batch: _Marks) -> None:
        """A batch of marks no order carried (or whose order's statement failed): its own statement."""
        if not batch.done.done():
            await self._settle_marks(batch)

    async def _warm(self, con) -> None:
        """The statements of an order prepared on a connection before an order needs them there. asyncpg
        prepares a statement on a connection at its first use there (one more round trip, and the server's
        planning): the first orders after a start paid it on each connection, on top of their first reads
        (issue 25: the whole tail of a loaded run of ``benchmarks/bench_ack.py`` came in its first 0.4 s).
        Each is run as an order runs it, on nothing (no game -1, no interaction): nothing is written."""
        await con.fetchrow(_pg(self.ORDER_CONTEXT.format(seats=self.SEATS_JSON, departed=self.DEPARTED_JSON)),
                           -1, None)
        await con.execute(self.MARK_ANSWERS, 0.0, [])
        for snapshot in (None, {}):
            for response in (None, {}):
                for interaction_id in (None, "-"):
                    for marks in (None, ([], 0.0)):
                        sql, args = self._append_statement(
                            game_id=-1, seq=0, seat="", user_id=None, text="", interaction_id=interaction_id,
                            dice_before=0, dice_after=0, events=[], now=0.0, snapshot=snapshot, response=response,
                            status=None, kind="order", ref_seq=None, marks=marks)
                        await con.fetchval(sql, *args)

    async def _warm_pool(self) -> None:
        """``_warm`` on every connection the pool holds now (those it makes later are warmed as it makes them)."""
        held = []
        try:
            for _ in range(self.pool.get_size()):
                held.append(await self.pool.acquire())
            await asyncio.gather(*(self._warm(con) for con in held))
        finally:
            for con in held:
                await self.pool.release(con)

    async def close(self) -> None:
        riders, self._riders = self._riders, None
        if riders is not None:  # marks still waiting for an order: written before the pool closes
            await self._mark_alone(riders)
        await self.pool.close()

    # ------------------------------------------------------------ the discipline
    @asynccontextmanager
    async def transaction(self, *, keeps_contexts: bool = False):
        """``async with store.transaction() as tx``: one transaction on one pooled connection;
        any exception (a cancellation included) rolls it back, and the rollback cannot be
        cancelled half-way. Unless ``keeps_contexts``, the remembered contexts are forgotten as it
        begins and ends (``ContextCache.written``: what it writes may change a game's context)."""
        with self.contexts.writing(keeps_contexts):
            async with self.pool.acquire() as con:
                tr = con.transaction()
                await tr.start()
                try:
                    yield PgTx(con)
                except BaseException:
                    try:
                        await asyncio.shield(tr.rollback())
                    except Exception:  # noqa: BLE001 - a broken connection: the pool drops it; the error stands
                        pass
                    raise
                else:
                    try:
                        await asyncio.shield(tr.commit())
                    except BaseException:
                        if not con.is_closed() and con.is_in_transaction():
                            try:
                                await asyncio.shield(con.execute("ROLLBACK"))
                            except Exception:  # noqa: BLE001 - the pool's reset rolls back or drops it
                                pass
                        raise

    async def _one(self, sql: str, params: tuple = ()):
        return await self.pool.fetchrow(_pg(sql), *params)

    async def _all(self, sql: str, params: tuple = ()) -> list:
        return list(await self.pool.fetch(_pg(sql), *params))

    async def _write(self, sql: str, params: tuple = (), *, keeps_contexts: bool = False) -> int:
        with self.contexts.writing(keeps_contexts):
            return _count(await self.pool.execute(_pg(sql), *params))

    async def _steps(self, steps: list[tuple[str, tuple]], *, fenced: bool = False,
                     keeps_contexts: bool = False) -> int:
        """The statements in one transaction; with ``fenced``, the first must change exactly one
        row, else nothing is written (:class:`StaleWriter`). Returns the last one's row count."""
        async with self.transaction(keeps_contexts=keeps_contexts) as tx:
            for i, (sql, params) in enumerate(steps):
                cur = await tx.execute(sql, params)
                if i == 0 and fenced and cur.rowcount != 1:
                    raise StaleWriter("the game moved on under us (sequence mismatch)")
        return cur.rowcount

    async def append_action(self, *, game_id: int, seq: int, seat: str, user_id: int | None, text: str,
                            interaction_id: str | None, dice_before: int, dice_after: int, events: list,
                            now: float, snapshot: dict | None, response: dict | None,
                            status: str | None = None, kind: str = "order", ref_seq: int | None = None,
                            also: list[Effect] = ()) -> None:
        """As ``SqlQueries.append_action`` (the same rows, the same fence), in one statement, so one
        round trip: the fence is a data-modifying CTE (``UPDATE games ... WHERE seq = n - 1
        RETURNING``) that every insert selects from, so when it moves no row nothing is written.
        One statement is one transaction in PostgreSQL. With ``also`` (the scheduler's effects)
        the shared statement-per-step transaction."""
        if also:
            return await super().append_action(
                game_id=game_id, seq=seq, seat=seat, user_id=user_id, text=text, interaction_id=interaction_id,
                dice_before=dice_before, dice_after=dice_after, events=events, now=now, snapshot=snapshot,
                response=response, status=status, kind=kind, ref_seq=ref_seq, also=also)
        riders, self._riders = self._riders, None  # the answers marked since the last order ride with this one
        try:
            sql, args = self._append_statement(game_id=game_id, seq=seq, seat=seat, user_id=user_id, text=text,
                                               interaction_id=interaction_id, dice_before=dice_before,
                                               dice_after=dice_after, events=events, now=now, snapshot=snapshot,
                                               response=response, status=status, kind=kind, ref_seq=ref_seq,
                                               marks=(riders.ids, riders.now) if riders is not None else None)
            moved = await self.pool.fetchval(sql, *args)
        except BaseException:
            if riders is not None:  # (rolled back, or unknown: marking again is harmless) by themselves
                asyncio.ensure_future(self._mark_alone(riders))
            raise
        if riders is not None:  # (a data-modifying CTE runs to its end whether the fence moved or not)
            riders.done.set_result(None)
        if moved != 1:
            raise StaleWriter("the game moved on under us (sequence mismatch)")
        self.contexts.advanced(game_id, seq, status)

    @staticmethod
    def _append_statement(*, game_id: int, seq: int, seat: str, user_id: int | None, text: str,
                          interaction_id: str | None, dice_before: int, dice_after: int, events: list, now: float,
                          snapshot: dict | None, response: dict | None, status: str | None, kind: str,
                          ref_seq: int | None, marks: tuple[list[str], float] | None = None) -> tuple[str, list]:
        """``append_action``'s one statement and its arguments (its text depends only on which of the
        snapshot, the answer, the interaction and the marks there are: ``_warm`` prepares each). ``marks``:
        answers marked delivered (their interactions, the time), carried by this statement."""
        args: list = [seq, game_id, status, now]

        def p(value, cast: str) -> str:
            args.append(value)
            return f"${len(args)}::{cast}"

        # (an interaction already answered is refused as a stale writer is: ``SqlQueries._fence``)
        answered = (f" AND NOT EXISTS (SELECT 1 FROM responses WHERE interaction_id={p(interaction_id, 'text')})"
                    if interaction_id is not None else "")
        parts = ["fence AS (UPDATE games SET seq=$1, status=COALESCE($3::text, status),"
                 " ended_at=CASE WHEN $3::text IS NULL THEN ended_at ELSE $4::float8 END"
                 f" WHERE id=$2 AND seq=$1 - 1{answered} RETURNING id)"]

        parts.append("a AS (INSERT INTO actions (game_id, seq, seat, user_id, text, interaction_id, dice_before,"
                     " dice_after, events, created_at, kind, ref_seq) SELECT id, $1, "
                     + ", ".join([p(seat, "text"), p(user_id, "bigint"), p(text, "text"), p(interaction_id, "text"),
                                  p(dice_before, "bigint"), p(dice_after, "bigint"), p(_dumps(events), "text"),
                                  "$4::float8", p(kind, "text"), p(ref_seq, "bigint")]) + " FROM fence)")
        if snapshot is not None:
            parts.append(f"s AS (INSERT INTO snapshots (game_id, seq, state) SELECT id, $1, {p(_dumps_state(snapshot), 'text')}"
                         " FROM fence)")
        if response is not None and interaction_id:
            parts.append("r AS (INSERT INTO responses (interaction_id, game_id, response, created_at) SELECT "
                         f"{p(interaction_id, 'text')}, id, {p(_dumps(response), 'text')}, $4::float8 FROM fence)")
        if marks is not None:
            parts.append(f"m AS (UPDATE responses SET delivered_at={p(marks[1], 'float8')} WHERE delivered_at IS NULL"
                         f" AND interaction_id = ANY({p(list(marks[0]), 'text[]')}))")
        return "WITH " + ", ".join(parts) + " SELECT count(*) FROM fence", args

    async def schema_version(self) -> int:
        exists = await self.pool.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            return 0
        return await self.pool.fetchval("SELECT version FROM schema_version")

    async def migrate(self) -> None:
        async with self.transaction() as tx:
            con = tx._con
            await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = await con.fetchval("SELECT version FROM schema_version")
            if version is None:
                version = 0
                await con.execute("INSERT INTO schema_version (version) VALUES (0)")
            if version > SCHEMA_VERSION:
                raise StorageError(f"{self.path}: database schema {version} is newer than this palantir ({SCHEMA_VERSION}): "
                               "run a newer palantir")
            while version < SCHEMA_VERSION:
                await con.execute(MIGRATIONS[version])
                version += 1
                await con.execute("UPDATE schema_version SET version=$1", version)

    # ------------------------------------------------------------------ games
    async def create_game(self, *, channel_id: int, guild_id: int | None, ruleset: str, options: dict,
                          seed: str, commitment: str, creator_id: int, now: float,
                          initial_state: dict, deadline_rules: dict | None = None) -> int:
        async with self.transaction() as tx:
            gid = await tx._con.fetchval(
                "INSERT INTO games (guild_id, channel_id, ruleset, options, seed, commitment, creator_id,"
                " status, seq, created_at, deadline_rules) VALUES ($1,$2,$3,$4,$5,$6,$7,'open',0,$8,$9)"
                " RETURNING id",
                guild_id, channel_id, ruleset, _dumps(options), seed, commitment, creator_id, now,
                _dumps(deadline_rules) if deadline_rules is not None else None)
            await tx.execute("INSERT INTO snapshots (game_id, seq, state) VALUES (?,?,?)",
                             (gid, 0, _dumps_state(initial_state)))
        return gid

    async def take_seat(self, game_id: int, seat: str, user_id: int, now: float) -> bool:
        n = await self._write("INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?,?,?,?)"
                              " ON CONFLICT DO NOTHING", (game_id, seat, user_id, now))
        return n == 1

    async def release_seats(self, game_id: int, user_id: int) -> list[str]:
        rows = await self._all("DELETE FROM seats WHERE game_id=? AND user_id=? RETURNING seat", (game_id, user_id))
        return sorted(r[0] for r in rows)

    # ------------------------------------------------------------------ log
    async def snapshot_before(self, game_id: int, seq: int) -> tuple[int, dict]:
        r = await self._one("SELECT seq, state FROM snapshots WHERE game_id=? AND seq<? ORDER BY seq DESC LIMIT 1",
                            (game_id, seq))
        return r[0], json.loads(r[1])

    async def save_response(self, interaction_id: str, game_id: int | None, response: dict, now: float) -> None:
        await self._write("INSERT INTO responses (interaction_id, game_id, response, created_at) VALUES (?,?,?,?)"
                          " ON CONFLICT DO NOTHING", (interaction_id, game_id, _dumps(response), now),
                          keeps_contexts=True)

    async def undelivered(self, limit: int = 500) -> list[dict]:
        rows = await self._all(
            "SELECT r.interaction_id, r.game_id, r.response, r.created_at, a.seq, a.seat, a.user_id, a.text,"
            " a.events, g.channel_id, g.ruleset FROM responses r"
            " LEFT JOIN actions a ON a.interaction_id = r.interaction_id"
            " LEFT JOIN games g ON g.id = r.game_id"
            " WHERE r.delivered_at IS NULL AND " + shard_where(self.shard, "g.guild_id") +
            " ORDER BY r.created_at LIMIT ?", (limit,))
        out = []
        for r in rows:
            d = dict(r)
            d["response"] = json.loads(d["response"])
            d["events"] = json.loads(d["events"]) if d["events"] else []
            out.append(d)
        return out

    async def settle_undelivered(self, interaction_ids: list[str], posts: list[OutboxPost], now: float) -> None:
        async with self.transaction() as tx:
            for e in posts:
                await tx.execute(*self._effect_sql(e))
            for iid in interaction_ids:
                await tx.execute("UPDATE responses SET delivered_at=? WHERE interaction_id=?", (now, iid))

    async def stale_clock_game_ids(self) -> list[int]:
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN clocks c ON c.game_id = g.id WHERE g.status = 'active' AND"
            " (c.game_id IS NULL OR c.synced_seq < (SELECT MAX(s.seq) FROM snapshots s WHERE s.game_id = g.id))"
            " AND " + shard_where(self.shard, "g.guild_id") + " ORDER BY g.id")
        return [r[0] for r in rows]

    async def apply_effects(self, effects: list[Effect], *, first_must_change: bool = True) -> bool:
        try:
            async with self.transaction() as tx:
                for i, e in enumerate(effects):
                    cur = await tx.execute(*self._effect_sql(e))
                    if i == 0 and first_must_change and cur.rowcount != 1:
                        raise _NothingToDo
        except _NothingToDo:
            return False
        return True

    async def pending_outbox(self, limit: int = 50) -> list[dict]:
        rows = await self._all("SELECT o.* FROM outbox o LEFT JOIN games g ON g.id = o.game_id WHERE o.sent_at IS NULL AND "
                               + shard_where(self.shard, "g.guild_id") + " ORDER BY o.id LIMIT ?", (limit,))
        return [dict(r) | {"payload": json.loads(r["payload"])} for r in rows]

    # ------------------------------------------------------------ undo requests
    async def create_undo_request(self, *, game_id: int, seat: str, user_id: int, target_seq: int, at_seq: int,
                                  needed: list[int], now: float) -> int:
        r = await self._one(
            "INSERT INTO undo_requests (game_id, seat, user_id, target_seq, at_seq, needed, created_at)"
            " VALUES (?,?,?,?,?,?,?) RETURNING id",
            (game_id, seat, user_id, target_seq, at_seq, _dumps(sorted(needed)), now))
        return r[0]


async def _reset(con) -> None:
    """A connection back to the pool: only an open transaction needs undoing. The store takes
    no session-level locks, listens to nothing, sets nothing and keeps no cursors, so asyncpg's
    default reset (a round trip on every release: unlock all, close all, unlisten, reset all) is
    not needed."""
    if con.is_in_transaction():
        await con.execute("ROLLBACK")


class _NothingToDo(Exception):
    """Raised inside a transaction to roll it back quietly."""


def _redact(url: str) -> str:
    """The URL without its password (for logs and messages)."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def pg_error(url: str, e: Exception) -> Exception:
    """A PostgreSQL server that cannot be reached or refuses, as one line (:class:`StorageError`); any
    other exception (a bug) as it is. The password never shows."""
    import asyncpg

    at = _redact(url)
    if isinstance(e, StorageError):
        return e
    if isinstance(e, (OSError, asyncio.TimeoutError, asyncpg.exceptions.CannotConnectNowError,
                      asyncpg.exceptions.ConnectionDoesNotExistError)):
        reason = (getattr(e, "strerror", None) or str(e) or type(e).__name__).splitlines()[0][:200]
        return StorageError(f"cannot reach PostgreSQL at {at} ({reason}): check [storage] url, and that the server "
                            "runs and accepts connections from here")
    if isinstance(e, asyncpg.exceptions.InvalidCatalogNameError):
        return StorageError(f"PostgreSQL at {at}: the database does not exist: create it (createdb), or fix the url")
    if isinstance(e, (asyncpg.exceptions.InvalidAuthorizationSpecificationError,
                      asyncpg.exceptions.InvalidPasswordError)):
        return StorageError(f"PostgreSQL at {at} refused the login ({str(e).splitlines()[0][:200]}): check the user "
                            "and password in [storage] url, and the server's pg_hba.conf")
    if isinstance(e, asyncpg.exceptions.PostgresError):
        return StorageError(f"PostgreSQL at {at} refused: {str(e).splitlines()[0][:200]}")
    if isinstance(e, (ValueError, asyncpg.exceptions.ClientConfigurationError)):
        return StorageError(f"cannot use the url {at}: {str(e).splitlines()[0][:200]}", 2)
    return e
