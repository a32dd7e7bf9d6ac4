"""The SQLite backend (aiosqlite, WAL): the default store, one file, one process.

Tables:
- ``games``: one row per game, keyed by the channel or thread it lives in;
  at most one open or active game per channel (a partial unique index).
- ``seats``: who holds each seat.
- ``actions``: the append-only log of accepted orders, each with the Discord
  interaction id that carried it (unique: a redelivered interaction is
  answered from ``responses``, never applied twice). Triggers forbid UPDATE
  and DELETE on it.
- ``snapshots``: the full state at the start of the game and at every phase.
- ``responses``: what was answered to each interaction id, for redelivery,
  written in the same transaction as the order it answers; ``delivered_at``
  is set once the transport has sent it, so an answer stored just before the
  process died is found at the next start and announced.

The schema version lives in ``PRAGMA user_version``; ``MIGRATIONS[i]`` takes
version i to i+1.
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from contextlib import asynccontextmanager

from bot.storage.contexts import ContextCache
from bot.storage.sql import SqlQueries, _dumps
from bot.storage.base import (Effect, OutboxPost, ShardFilter, StaleWriter, shard_where)

import aiosqlite

# issue 41: the result of every finished game, one row each (``n``: the order results were kept, which is the
# order ratings are computed in), and each seat's players with their outcome (win, loss, draw; `left`: a holder
# who left before the end, a loss) and whether it counts for the ratings. Games that ended before this version
# get theirs at the next start (``bot/results.py: Results.backfill``, replayed from their log).
RESULTS_SCHEMA = """
    CREATE TABLE results (
        n INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games(id),
        guild_id INTEGER,
        ruleset TEXT NOT NULL,
        scenario TEXT NOT NULL DEFAULT '',
        options TEXT NOT NULL,
        winners TEXT NOT NULL,
        grade TEXT,
        turns INTEGER,
        days REAL NOT NULL,
        holders TEXT NOT NULL,
        rated INTEGER NOT NULL DEFAULT 0,
        ended_at REAL NOT NULL
    );
    CREATE INDEX results_guild ON results(guild_id, ruleset);
    CREATE TABLE result_players (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('win', 'loss', 'draw', 'left')),
        rated INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seat, user_id)
    );
    CREATE INDEX result_players_user ON result_players(user_id);
"""

MIGRATIONS: list[str] = [
    # 0 -> 1
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        ruleset TEXT NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        commitment TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'active', 'over', 'ended')),
        seq INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        started_at REAL,
        ended_at REAL
    );
    CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id)
        WHERE status IN ('open', 'active');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        joined_at REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        seat TEXT NOT NULL,
        user_id INTEGER,
        text TEXT NOT NULL,
        interaction_id TEXT UNIQUE,
        dice_before INTEGER NOT NULL,
        dice_after INTEGER NOT NULL,
        events TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'the action log is append-only'); END;
    CREATE TABLE snapshots (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE responses (
        interaction_id TEXT PRIMARY KEY,
        game_id INTEGER,
        response TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
    # 1 -> 2: bot-wide settings (e.g. the hash of the last synced slash commands)
    """
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 2 -> 3: play by post across time zones: undo rows in the log, deadlines (a clock per game,
    # timers with a fired flag), an outbox for what timers post, players' quiet hours and absence,
    # undo-by-consent requests
    """
    ALTER TABLE actions ADD COLUMN kind TEXT NOT NULL DEFAULT 'order';
    ALTER TABLE actions ADD COLUMN ref_seq INTEGER;
    ALTER TABLE games ADD COLUMN deadline_rules TEXT;
    CREATE TABLE clocks (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        phase_key TEXT NOT NULL,
        started_at REAL NOT NULL,
        extra REAL NOT NULL DEFAULT 0,
        paused_at REAL,
        deadline_at REAL
    );
    CREATE TABLE timers (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        phase_key TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('remind', 'deadline')),
        seat TEXT NOT NULL DEFAULT '',
        due_at REAL NOT NULL,
        fired_at REAL,
        UNIQUE (game_id, phase_key, kind, seat, due_at)
    );
    CREATE INDEX timers_pending ON timers(due_at) WHERE fired_at IS NULL;
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        game_id INTEGER,
        channel_id INTEGER,
        user_id INTEGER,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        sent_at REAL
    );
    CREATE INDEX outbox_pending ON outbox(id) WHERE sent_at IS NULL;
    CREATE TABLE prefs (
        user_id INTEGER PRIMARY KEY,
        quiet_from TEXT,
        quiet_to TEXT,
        tz TEXT,
        away_until REAL
    );
    CREATE TABLE undo_requests (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        target_seq INTEGER NOT NULL,
        at_seq INTEGER NOT NULL,
        needed TEXT NOT NULL,
        votes TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'open',
        created_at REAL NOT NULL
    );
    """,
    # 3 -> 4: an answer stored with its order but never delivered (the process died between the
    # commit and the reply) is found at start-up and announced; answers stored before this
    # version count as delivered
    """
    ALTER TABLE responses ADD COLUMN delivered_at REAL;
    UPDATE responses SET delivered_at = created_at;
    CREATE INDEX responses_undelivered ON responses(created_at) WHERE delivered_at IS NULL;
    """,
    # 4 -> 5: games load on demand; start-up reads no game state. A clock records the log position
    # it was derived at, so only a game whose phase changed after its clock (a crash in between)
    # is loaded at start-up to catch up
    """
    ALTER TABLE clocks ADD COLUMN synced_seq INTEGER NOT NULL DEFAULT 0;
    UPDATE clocks SET synced_seq = (SELECT seq FROM games WHERE games.id = clocks.game_id);
    CREATE INDEX games_active ON games(status) WHERE status = 'active';
    """,
    # 5 -> 6 (issue 25): private information that a DM could not carry: where it went instead
    # (a seat's private thread, held for the player's next command), and what is held
    """
    CREATE TABLE deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER,
        seat TEXT,
        user_id INTEGER NOT NULL,
        via TEXT NOT NULL,
        at REAL NOT NULL
    );
    CREATE INDEX deliveries_game ON deliveries(game_id);
    CREATE TABLE held_posts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL,
        game_id INTEGER,
        seat TEXT,
        text TEXT NOT NULL,
        created_at REAL NOT NULL,
        shown_at REAL
    );
    CREATE INDEX held_posts_waiting ON held_posts(user_id) WHERE shown_at IS NULL;
    """,
    # 6 -> 7 (issue 28): seats that stay filled. A player's record across servers (one row per user);
    # who held each seat from when to when; each seat's missed deadlines in a row, autopilot and check-in;
    # a takeover asked for (with its votes); the player's choice to have forced actions played
    """
    CREATE TABLE player_records (
        user_id INTEGER PRIMARY KEY,
        games_finished INTEGER NOT NULL DEFAULT 0,
        games_abandoned INTEGER NOT NULL DEFAULT 0,
        phases_on_time INTEGER NOT NULL DEFAULT 0,
        phases_missed INTEGER NOT NULL DEFAULT 0,
        seats_taken_over INTEGER NOT NULL DEFAULT 0,
        seats_lost INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE seat_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        from_at REAL NOT NULL,
        to_at REAL,
        how TEXT NOT NULL DEFAULT 'join'
    );
    CREATE INDEX seat_history_game ON seat_history(game_id);
    CREATE TABLE seat_states (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        missed_in_row INTEGER NOT NULL DEFAULT 0,
        autopilot INTEGER NOT NULL DEFAULT 0,
        checked_in INTEGER NOT NULL DEFAULT 0,
        takeover TEXT,
        missed_timer INTEGER,
        PRIMARY KEY (game_id, seat)
    );
    ALTER TABLE prefs ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;
    """,
    # 7 -> 8 (issue 41): the results of finished games (their ratings are derived: bot/results.py)
    RESULTS_SCHEMA,
]
SCHEMA_VERSION = len(MIGRATIONS)


class SqliteStore(SqlQueries):
    """The SQLite store, shared by every game of the process.

    **One writer discipline** (the storage contract every backend keeps): every
    statement, read or write, and every transaction runs under the store's own
    lock, held from ``BEGIN`` to ``COMMIT``/``ROLLBACK``. Two games' transactions
    never interleave on the shared connection, a write issued outside a
    transaction never lands inside another game's transaction (where that
    game's ``ROLLBACK`` would drop it), and a read never sees another game's
    uncommitted rows. Callers never see the connection: ``transaction()`` gives
    a :class:`Tx` for several statements that must commit together.
    """

    SEATS_JSON = "json_group_object(s.seat, s.user_id)"
    DEPARTED_JSON = "json_group_array(d.seat)"

    def __init__(self, db: aiosqlite.Connection, path: str):
        self.db = db
        self.path = path
        self._lock = asyncio.Lock()
        self.shard: ShardFilter | None = None  # this process's guilds, for the process-wide scans
        self._checkpointer: Checkpointer | None = None
        self._reader: sqlite3.Connection | None = None  # ``order_context`` on the event loop (WAL only)
        self._writer: sqlite3.Connection | None = None  # ``_steps`` on the event loop (WAL only)
        self.contexts = ContextCache()  # the channels' live games as the last orders read them (bot/storage/contexts.py)

    @classmethod
    async def open(cls, path: str) -> "SqliteStore":
        db = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        db.row_factory = aiosqlite.Row
        wal = (await db.execute_fetchall("PRAGMA journal_mode=WAL"))[0][0] == "wal"
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        try:
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        if wal:
            # WAL checkpoints off the order path: no commit waits for one (Checkpointer)
            await db.execute(f"PRAGMA wal_autocheckpoint={Checkpointer.BACKSTOP_PAGES}")
            store._checkpointer = Checkpointer(path)
            store._reader = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            store._reader.row_factory = sqlite3.Row
            store._reader.execute("PRAGMA query_only=1")
            store._reader.execute("PRAGMA busy_timeout=0")  # never wait on the event loop: busy goes the usual way
            store._writer = w = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            w.execute("PRAGMA synchronous=NORMAL")
            w.execute("PRAGMA foreign_keys=ON")
            w.execute(f"PRAGMA wal_autocheckpoint={Checkpointer.BACKSTOP_PAGES}")
            w.execute("PRAGMA busy_timeout=0")  # as the reader: busy goes the usual way (``_steps``)
        return store

    async def close(self) -> None:
        async with self._lock:  # (no ``_steps`` is writing with it)
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.stop)
        async with self._lock:
            await self.db.close()  # the last connection: SQLite checkpoints what is left and removes the WAL

    # ------------------------------------------------------------ the discipline
    @asynccontextmanager
    async def transaction(self):
        """``async with store.transaction() as tx: await tx.execute(...)``: one
        ``BEGIN IMMEDIATE`` ... ``COMMIT`` under the store lock; any exception
        (a cancellation included) rolls it back, and the rollback itself cannot
        be cancelled half-way. What it writes may change a game's context: the
        remembered ones are forgotten (``ContextCache.written``), as it begins and ends."""
        async with self._lock:
            with self.contexts.writing():
                await self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield Tx(self.db)
                except BaseException:
                    await asyncio.shield(self._rollback())
                    raise
                else:
                    try:
                        await asyncio.shield(self.db.execute("COMMIT"))
                    except BaseException:
                        await asyncio.shield(self._rollback())
                        raise

    async def _rollback(self) -> None:
        try:
            await self.db.execute("ROLLBACK")
        except sqlite3.OperationalError:  # no transaction open any more (SQLite rolled it back itself)
            pass

    async def _one(self, sql: str, params: tuple = ()):
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple = ()) -> list:
        # one trip to aiosqlite's thread (execute, fetch and close there), not three
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, params))

    async def _steps(self, steps: list[tuple[str, tuple]], *, fenced: bool = False,
                     keeps_contexts: bool = False) -> tuple[int, int | None]:
        """The statements in one ``BEGIN IMMEDIATE`` ... ``COMMIT``, under the store lock, run
        together in aiosqlite's thread: one trip there, not one a statement. With ``fenced``, the
        first statement must change exactly one row, else nothing is written (:class:`StaleWriter`).
        Any error rolls the whole transaction back. A cancelled caller does not stop it half-way:
        it commits or rolls back whole, before any later statement (the thread takes its work in
        order). Returns the last statement's (rowcount, lastrowid). Unless ``keeps_contexts`` (an
        order's own write, which ``append_action`` follows, and the answers' bookkeeping), the remembered
        contexts are forgotten as it begins and ends (``ContextCache.writing``)."""
        def run(con: sqlite3.Connection) -> tuple[int, int | None]:
            con.execute("BEGIN IMMEDIATE")
            try:
                for i, (sql, params) in enumerate(steps):
                    cur = con.execute(sql, params)
                    if i == 0 and fenced and cur.rowcount != 1:
                        raise StaleWriter("the game moved on under us (sequence mismatch)")
                con.execute("COMMIT")
                return cur.rowcount, cur.lastrowid
            except BaseException:
                if con.in_transaction:  # (SQLite may have rolled it back itself)
                    con.execute("ROLLBACK")
                raise

        async with self._lock:
            with self.contexts.writing(keeps_contexts):
                if self._writer is not None:
                    # on the event loop, from a connection of its own (issue 25): a handful of small statements
                    # in WAL mode with ``synchronous=NORMAL`` (no sync at a commit, no checkpoint: Checkpointer)
                    # take tens of microseconds, less than a trip to the thread and back, which under load
                    # hands the core away twice. Never waits: busy (another process writing, ``busy_timeout=0``)
                    # rolls back whatever began and goes the usual way, which waits its turn. The store's lock
                    # is held and nothing here yields, so no other statement of this process runs meanwhile.
                    try:
                        return run(self._writer)
                    except sqlite3.OperationalError as e:
                        if not _busy(e):
                            raise
                # aiosqlite's own primitive (every execute and fetch it offers is one such call): the
                # function runs in the connection's thread with the sqlite3 connection
                return await asyncio.shield(self.db._execute(run, self.db._conn))

    async def _write(self, sql: str, params: tuple = (), *, keeps_contexts: bool = False) -> tuple[int, int | None]:
        """One statement in a transaction of its own; (rowcount, lastrowid)."""
        return await self._steps([(sql, params)], keeps_contexts=keeps_contexts)

    async def _context_row(self, sql: str, params: tuple):
        """``SqlQueries.order_context``'s one statement, read on the event loop itself from a read-only connection
        of its own, not in the connection's thread: under load a trip there and back (waking the thread, which
        then contends for the GIL, and the thread waking the loop) cost more than the read, several times over,
        on every order (issue 25, benchmarks/bench_ack.py). Bounded: it is one statement on primary keys and
        the live-game index, in WAL mode, where a reader waits for no writer (it reads the last commit) and
        is given no time to wait for anything else (``busy_timeout=0``: should SQLite answer busy, as in a
        WAL reset, the read goes the usual way). Measured (100 live games, 20,000 stored answers, a machine
        at load 7 on 2 cores): p50 23 µs, p99 96 µs (the thread's way: 54 and 135 µs); its rare tail, up to
        40 ms, is the process descheduled by the OS, as the thread's way has too (45 ms). It reads what is
        committed, as the locked read did: the store's transactions are never open across this call, which
        does not yield."""
        if self._reader is not None:
            try:
                # (fetchall: the statement runs to its end, so its read transaction ends with it; a
                # statement left open would hold that snapshot, and the next read would see an old game)
                return self._reader.execute(sql, params).fetchall()[0]
            except sqlite3.OperationalError:  # busy (or locked): the usual way, which waits its turn
                pass
        return await self._one(sql, params)

    async def schema_version(self) -> int:
        return (await self._one("PRAGMA user_version"))[0]

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this palantir ({SCHEMA_VERSION})")
        while version < SCHEMA_VERSION:
            async with self.transaction() as tx:
                await tx.script(MIGRATIONS[version])
                version += 1
                await tx.execute(f"PRAGMA user_version={version}")

    # ------------------------------------------------------------------ games
    async def create_game(self, *, channel_id: int, guild_id: int | None, ruleset: str, options: dict,
                          seed: str, commitment: str, creator_id: int, now: float,
                          initial_state: dict, deadline_rules: dict | None = None) -> int:
        async with self.transaction() as tx:
            cur = await tx.execute(
                "INSERT INTO games (guild_id, channel_id, ruleset, options, seed, commitment, creator_id,"
                " status, seq, created_at, deadline_rules) VALUES (?,?,?,?,?,?,?,'open',0,?,?)",
                (guild_id, channel_id, ruleset, _dumps(options), seed, commitment, creator_id, now,
                 _dumps(deadline_rules) if deadline_rules is not None else None))
            gid = cur.lastrowid
            await tx.execute("INSERT INTO snapshots (game_id, seq, state) VALUES (?,?,?)",
                             (gid, 0, _dumps(initial_state)))
        return gid

    async def take_seat(self, game_id: int, seat: str, user_id: int, now: float) -> bool:
        """False if someone already holds it."""
        n, _ = await self._write(
            "INSERT OR IGNORE INTO seats (game_id, seat, user_id, joined_at) VALUES (?,?,?,?)",
            (game_id, seat, user_id, now))
        return n == 1

    async def release_seats(self, game_id: int, user_id: int) -> list[str]:
        async with self.transaction() as tx:
            cur = await tx.execute("SELECT seat FROM seats WHERE game_id=? AND user_id=? ORDER BY seat",
                                   (game_id, user_id))
            seats = [r[0] for r in await cur.fetchall()]
            await tx.execute("DELETE FROM seats WHERE game_id=? AND user_id=?", (game_id, user_id))
        return seats

    # ------------------------------------------------------------------ log
    async def save_response(self, interaction_id: str, game_id: int | None, response: dict, now: float) -> None:
        await self._write(
            "INSERT OR IGNORE INTO responses (interaction_id, game_id, response, created_at) VALUES (?,?,?,?)",
            (interaction_id, game_id, _dumps(response), now), keeps_contexts=True)

    async def undelivered(self, limit: int = 500) -> list[dict]:
        """Answers stored but never delivered, oldest first, with the order they answer (if it
        was one: ``seq``, ``seat``, ``user_id``, ``text``, ``events``) and the game's channel."""
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

    async def settle_undelivered(self, interaction_ids: list[str], posts: list[OutboxPost],
                                 now: float) -> None:
        """One transaction: the announcements of undelivered answers go to the outbox and those
        answers count as delivered (so a second restart does not announce them again)."""
        async with self.transaction() as tx:
            for e in posts:
                await tx.execute(*self._effect_sql(e))
            for iid in interaction_ids:
                await tx.execute("UPDATE responses SET delivered_at=? WHERE interaction_id=?", (now, iid))

    # ------------------------------------------------------------ log, more
    async def snapshot_before(self, game_id: int, seq: int) -> tuple[int, dict]:
        """The last snapshot taken before action ``seq`` (the state after action S < seq)."""
        r = await self._one("SELECT seq, state FROM snapshots WHERE game_id=? AND seq<? ORDER BY seq DESC LIMIT 1",
                            (game_id, seq))
        return r[0], json.loads(r[1])

    async def stale_clock_game_ids(self) -> list[int]:
        """Active games whose phase may have changed after their clock was derived (a snapshot
        newer than the clock, or no clock): the only games start-up has to load."""
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN clocks c ON c.game_id = g.id WHERE g.status = 'active' AND"
            " (c.game_id IS NULL OR c.synced_seq < (SELECT MAX(s.seq) FROM snapshots s WHERE s.game_id = g.id))"
            " AND " + shard_where(self.shard, "g.guild_id") + " ORDER BY g.id")
        return [r[0] for r in rows]

    async def apply_effects(self, effects: list[Effect], *, first_must_change: bool = True) -> bool:
        """The effects in one transaction; False (and nothing done) when the first one changed no
        row (e.g. the timer had already fired)."""
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
        out = []
        for r in rows:
            d = dict(r)
            d["payload"] = json.loads(d["payload"])
            out.append(d)
        return out

    # ------------------------------------------------------------ undo requests
    async def create_undo_request(self, *, game_id: int, seat: str, user_id: int, target_seq: int, at_seq: int,
                                  needed: list[int], now: float) -> int:
        _, rid = await self._write(
            "INSERT INTO undo_requests (game_id, seat, user_id, target_seq, at_seq, needed, created_at)"
            " VALUES (?,?,?,?,?,?,?)", (game_id, seat, user_id, target_seq, at_seq, _dumps(sorted(needed)), now))
        return rid


class Checkpointer:
    """Copies the write-ahead log into the database file from a connection and a thread of its
    own, so that no order's commit waits for it. With SQLite's default, the commit that takes the
    log past 1,000 pages runs the checkpoint itself (copying the pages and, with
    ``synchronous=NORMAL``, syncing both files): a few milliseconds once every hundred or so orders,
    which were nearly all of the order round trip's 99th percentile (issue 12).

    Here the store's own connection checkpoints only as a backstop (a log past
    ``BACKSTOP_PAGES``, should this thread ever fall behind), and this thread runs a ``PASSIVE``
    checkpoint every ``INTERVAL`` seconds: it never blocks a writer or a reader and never waits
    for one. Durability is unchanged: a commit is in the log (WAL, ``synchronous=NORMAL``: safe
    against a crash of the process, as before) whether or not it has been checkpointed yet, and
    the log is read back at the next open."""

    INTERVAL = 0.25
    BACKSTOP_PAGES = 20_000  # 80 MB of log at 4 KiB pages

    def __init__(self, path: str):
        self._con = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"sqlite-checkpoint {path}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.INTERVAL):
                try:
                    self._con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:  # e.g. the file is being closed; the next round (or the backstop) catches up
                    pass
        finally:
            self._con.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _busy(e: sqlite3.OperationalError) -> bool:
    """SQLite's busy or locked (another connection holds the lock), as opposed to a real error."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(e) or "busy" in str(e)


class _NothingToDo(Exception):
    """Raised inside a transaction to roll it back quietly."""


class Tx:
    """The statements of one open transaction (only inside ``Store.transaction()``)."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def execute(self, sql: str, params: tuple = ()):
        return await self._db.execute(sql, params)

    async def fetchall(self, sql: str, params: tuple = ()) -> list:
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def executemany(self, sql: str, rows: list[tuple]) -> None:
        await self._db.executemany(sql, rows)

    async def script(self, script: str) -> None:
        # executescript would COMMIT first; run statement by statement inside our transaction
        buf = ""
        for line in script.splitlines():
            buf += line + "\n"
            if buf.strip() and sqlite3.complete_statement(buf):
                await self._db.execute(buf)
                buf = ""
