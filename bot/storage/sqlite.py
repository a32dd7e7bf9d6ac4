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
import os
import pathlib
import re
import sqlite3
import struct
import sys
import threading
from contextlib import asynccontextmanager

from bot.storage.contexts import ContextCache
from bot.storage.sql import SqlQueries, _dumps, _dumps_state
from bot.storage.base import (Effect, OutboxPost, ShardFilter, StaleWriter, StorageError, shard_where)

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

# issue 41 (between games: a rematch, saved set-ups, the daily digest), self-contained: a server's saved set-ups
# (case-insensitive unique names), a finished game's rematch proposal (one row a game; ``round`` counts the
# proposals, so a button of a declined one answers no later one) and each player's daily digest (its local time,
# when it falls due next, when one was last sent)
BETWEEN_GAMES = """
    CREATE TABLE templates (
        guild_id INTEGER NOT NULL,
        name_key TEXT NOT NULL,
        name TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '',
        creator_id INTEGER NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (guild_id, name_key)
    );
    CREATE TABLE rematches (
        game_id INTEGER PRIMARY KEY REFERENCES games(id),
        round INTEGER NOT NULL DEFAULT 1,
        channel_id INTEGER NOT NULL,
        guild_id INTEGER,
        swap INTEGER NOT NULL DEFAULT 0,
        seats TEXT NOT NULL,
        confirmed TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL CHECK (status IN ('open', 'declined', 'started')),
        by_user INTEGER NOT NULL,
        created_at REAL NOT NULL,
        new_game_id INTEGER
    );
    CREATE INDEX rematches_open ON rematches(status) WHERE status = 'open';
    CREATE TABLE digests (
        user_id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        due_at REAL NOT NULL,
        last_at REAL
    );
    CREATE INDEX digests_due ON digests(due_at);
"""
MIGRATIONS.append(BETWEEN_GAMES)  # one step of its own, the last (issue 41)
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

    OPEN_WAIT_MS = 5000  # how long an open waits for another process's lock before it refuses the file
    SEATS_JSON = "json_group_object(s.seat, s.user_id)"
    DEPARTED_JSON = "json_group_array(d.seat)"

    def __init__(self, db: aiosqlite.Connection, path: str):
        self.db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._in_thread: set[asyncio.Task] = set()  # ``_steps`` running in aiosqlite's thread, whole
        self.shard: ShardFilter | None = None  # this process's guilds, for the process-wide scans
        self._checkpointer: Checkpointer | None = None
        self._reader: sqlite3.Connection | None = None  # ``order_context`` on the event loop (WAL only)
        self._writer: sqlite3.Connection | None = None  # ``_steps`` on the event loop (WAL only)
        self.contexts = ContextCache()  # the channels' live games as the last orders read them (bot/storage/contexts.py)
        self._tie: str | None = None  # the statement that stamps a transaction that wrote (LOG_TIE), WAL only

    @classmethod
    async def open(cls, path: str, *, create: bool = True) -> "SqliteStore":
        """The store in ``path``, a new database there if no file is (unless ``create`` is false). What
        cannot be used is refused with :class:`StorageError` (one line: the file and what to do), and
        nothing is left open: an aiosqlite connection not closed keeps its thread, and so the process,
        alive (issue 39). Refused: a folder that does not exist, a folder where the file belongs, a
        file of 0 bytes, a file that is not a SQLite database or is damaged, a log (``-wal``) beside it
        that belongs to another database (``check_files``), a file another process holds locked (after
        ``busy_timeout``), a file or folder this process cannot write (a write transaction is begun and
        rolled back to find out)."""
        left_log = check_files(path, create=create)
        existed = os.path.exists(path) and os.path.getsize(path) > 0  # (a new file has nothing to check)
        db = store = None
        threads: list[threading.Thread] = []  # aiosqlite's thread for this connection (``_noting_thread``)
        try:  # (we issue BEGIN ourselves)
            db = await aiosqlite.connect(path, isolation_level=None, factory=_noting_thread(threads))
            db.row_factory = aiosqlite.Row
            # first: another process's lock is waited for (``OPEN_WAIT_MS``), then refused
            await db.execute(f"PRAGMA busy_timeout={int(cls.OPEN_WAIT_MS)}")
            wal = (await db.execute_fetchall("PRAGMA journal_mode=WAL"))[0][0] == "wal"
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute("BEGIN IMMEDIATE")  # is nobody else holding it, and can this process write it?
            try:  # (a write, taken back: SQLite opens a read-only file read-only and says so only at a write)
                version = (await db.execute_fetchall("PRAGMA user_version"))[0][0]
                await db.execute(f"PRAGMA user_version={int(version)}")
            finally:
                await db.rollback()  # (sqlite3's: only where a transaction is open)
            if existed or left_log:  # checked whole at every open (0.3 s for 140 MB): a page damaged inside is
                # refused now, in one line, not met by the first order to read it (issue 39)
                found = [r[0] for r in await db.execute_fetchall("PRAGMA quick_check(3)")]
                if found != ["ok"]:  # (SQLite's first finding, on one line: it may head it with "*** in database")
                    first = [ln for ln in "\n".join(found).splitlines() if ln.strip() and not ln.startswith("***")]
                    raise StorageError(f"{path} is damaged ({(first or ['damaged'])[0].strip()}): restore it from a backup")
            store = cls(db, path)
            await store.migrate()
            if wal:
                store._tie = TIE_STAMP
                async with store.transaction() as tx:  # (stamped itself where it adds the row: a database before it)
                    await tx.execute(LOG_TIE)
                    await tx.execute("INSERT INTO log_tie (stamp) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM log_tie)",
                                     (f"{TIE_MARK}{os.urandom(16).hex()}:{0:020d}",))
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
        except BaseException as e:
            if store is not None:
                store._close_side()
            if db is not None:
                await db.close()
            else:  # the connect failed: aiosqlite stops its thread, which then answers on this loop, and offers no
                # way to wait for it; the thread noted as it began the connect is waited for
                for thread in threads:
                    await asyncio.to_thread(thread.join, 10)
            if isinstance(e, sqlite3.Error):
                raise sqlite_error(path, e) from None
            raise

    def _close_side(self) -> None:
        """The event loop's reader and writer closed and the checkpoint thread stopped (it waits for
        its round, a fraction of a second)."""
        for con in (self._writer, self._reader):
            if con is not None:
                con.close()
        self._writer = self._reader = None
        if self._checkpointer is not None:
            self._checkpointer.stop()
            self._checkpointer = None

    async def close(self) -> None:
        async with self._lock:  # (no ``_steps`` is writing with the writer)
            await asyncio.to_thread(self._close_side)
            # the whole log copied into the file and the log emptied (issue 39): the file alone holds every
            # game, even where another connection keeps the log open (then SQLite cannot remove it). Not
            # waited for: a reader of another process holding an old snapshot leaves the rest to its close
            try:
                await self.db.execute("PRAGMA busy_timeout=0")
                await self.db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
            except (sqlite3.Error, ValueError):  # (closed already: ValueError; nothing to gain from failing a stop)
                pass
            await self.db.close()  # the last connection: SQLite checkpoints what is left and removes -wal and -shm

    # ------------------------------------------------------------ the discipline
    @asynccontextmanager
    async def transaction(self, *, keeps_contexts: bool = False):
        """``async with store.transaction() as tx: await tx.execute(...)``: one
        ``BEGIN IMMEDIATE`` ... ``COMMIT`` under the store lock, each statement one trip to aiosqlite's
        thread; any exception (a cancellation included, the ``BEGIN``'s too) rolls it back, and the
        rollback itself cannot be cancelled half-way (it is queued to the thread, which takes its
        statements in order, before any later statement). Unless ``keeps_contexts``, the remembered
        contexts are forgotten as it begins and ends (``ContextCache.written``: what it writes may change
        a game's context)."""
        async with self._lock:
            with self.contexts.writing(keeps_contexts):
                try:  # (the BEGIN too: a caller cancelled while it ran leaves no transaction open)
                    await self.db.execute("BEGIN IMMEDIATE")
                    changes = self.db.total_changes
                    yield Tx(self.db)
                    if self._tie is not None and self.db.total_changes != changes:
                        await self.db.execute(self._tie)  # (LOG_TIE)
                except BaseException:
                    await asyncio.shield(self.db.rollback())  # (sqlite3's: only where a transaction is open)
                    raise
                else:
                    try:
                        await asyncio.shield(self.db.commit())
                    except BaseException:
                        await asyncio.shield(self.db.rollback())
                        raise

    async def _one(self, sql: str, params: tuple = ()):
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple = ()) -> list:
        # one trip to aiosqlite's thread (execute, fetch and close there), not three
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, params))

    async def _steps(self, steps: list[tuple[str, tuple]], *, fenced: bool = False,
                     keeps_contexts: bool = False) -> tuple[int, int | None]:
        """The statements in one ``BEGIN IMMEDIATE`` ... ``COMMIT`` under the store lock. With ``fenced``, the
        first statement must change exactly one row, else nothing is written (:class:`StaleWriter`). Any
        error rolls the whole transaction back. Returns the last statement's (rowcount, lastrowid). Unless
        ``keeps_contexts`` (an order's own write, which ``append_action`` follows, and the answers'
        bookkeeping), the remembered contexts are forgotten as it begins and ends (``ContextCache.writing``).
        Where the event loop's writer finds the database busy, or there is none (not WAL), they go to
        aiosqlite's thread as a task of their own (``_steps_in_thread``), which the caller awaits shielded: a
        cancelled caller does not stop it half-way; it commits or rolls back whole, holding the lock until
        then, so no later statement of this process runs inside it."""
        if self._writer is not None:
            async with self._lock:
                with self.contexts.writing(keeps_contexts):
                    # on the event loop, from a connection of its own (issue 25): a handful of small statements
                    # in WAL mode with ``synchronous=NORMAL`` (no sync at a commit, no checkpoint: Checkpointer)
                    # take tens of microseconds, less than a trip to the thread and back, which under load
                    # hands the core away twice. Never waits: busy (another process writing, ``busy_timeout=0``)
                    # rolls back whatever began and goes the usual way, which waits its turn. The store's lock
                    # is held and nothing here yields, so no other statement of this process runs meanwhile.
                    try:
                        return _run_steps(self._writer, steps, fenced, self._tie)
                    except sqlite3.OperationalError as e:
                        if not _busy(e):
                            raise
        task = asyncio.ensure_future(self._steps_in_thread(steps, fenced, keeps_contexts))
        self._in_thread.add(task)  # (held until it ends: its caller may be cancelled meanwhile)
        task.add_done_callback(self._ended)
        return await asyncio.shield(task)

    def _ended(self, task: asyncio.Task) -> None:
        """A ``_steps_in_thread`` task forgotten as it ends, its error taken (a caller cancelled meanwhile no
        longer awaits it; the transaction was rolled back whole)."""
        self._in_thread.discard(task)
        if not task.cancelled():
            task.exception()

    async def _steps_in_thread(self, steps: list[tuple[str, tuple]], fenced: bool,
                               keeps_contexts: bool) -> tuple[int, int | None]:
        """``_steps`` in aiosqlite's thread, a statement a trip through its public API (a trip 20-30 µs: the
        measure in docs/architecture.md, Storage)."""
        async with self.transaction(keeps_contexts=keeps_contexts) as tx:
            for i, (sql, params) in enumerate(steps):
                cur = await tx.execute(sql, params)
                _fence(cur, i, fenced)
        return cur.rowcount, cur.lastrowid

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
            raise StorageError(f"{self.path}: database schema {version} is newer than this palantir ({SCHEMA_VERSION}): "
                               "run a newer palantir")
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
                             (gid, 0, _dumps_state(initial_state)))
        return gid

    async def take_seat(self, game_id: int, seat: str, user_id: int, now: float) -> bool:
        """False if someone already holds it."""
        n, _ = await self._write(
            "INSERT OR IGNORE INTO seats (game_id, seat, user_id, joined_at) VALUES (?,?,?,?)",
            (game_id, seat, user_id, now))
        return n == 1

    async def release_seats(self, game_id: int, user_id: int) -> list[str]:
        async with self.transaction() as tx:
            seats = [r[0] for r in await tx.fetchall("SELECT seat FROM seats WHERE game_id=? AND user_id=? ORDER BY seat",
                                                     (game_id, user_id))]
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


# ------------------------------------------------------------ a file that cannot be used (issue 39)
# The tie between a database and its log (issue 39), of the store's own: SQLite's log says nothing of the file it
# belongs to. Each database holds one row, ``palantir-log-tie:<its id, drawn at its first open>:<a count>``, and
# every transaction that writes (``SqliteStore.transaction``, ``_run_steps``) counts it up by one, in SQL, so
# that several processes on one file count in turn. So every commit in the log carries the database's id and
# its count, and ``check_log`` reads them: a log holding another id is another database's, and a log whose
# counts do not follow the file's is of another time of this one (a backup put back). Not in ``db copy``'s
# tables: a copy is a database of its own, and draws its own id. (One small page more in each commit's log.)
TIE_MARK = "palantir-log-tie:"
LOG_TIE = "CREATE TABLE IF NOT EXISTS log_tie (stamp TEXT NOT NULL)"
_TIE_HEAD = len(TIE_MARK) + 32 + 1  # the mark, the id, ':'
TIE_STAMP = (f"UPDATE log_tie SET stamp = substr(stamp, 1, {_TIE_HEAD}) || "
             f"printf('%020d', CAST(substr(stamp, {_TIE_HEAD + 1}) AS INTEGER) + 1)")
_TIE_SERIAL = 2 * (_TIE_HEAD + 20) + 13  # SQLite's type for a text of the stamp's length (70 bytes)
# read only where it follows its record's header (its length, 3, and that type as a two-byte varint): no text of
# UTF-8 holds those bytes, so no player's words stored in a game can pass for a stamp
_TIE_RECORD = bytes([3, 0x80 | _TIE_SERIAL >> 7, _TIE_SERIAL & 0x7F])
_TIE_RE = re.compile(re.escape(_TIE_RECORD + TIE_MARK.encode()) + rb"([0-9a-f]{32}):([0-9]{20})")

SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)
SHM_VERSION = 3007000


def check_files(path: str, *, create: bool = True) -> bool:
    """What can be told of ``path`` before SQLite opens it, refused with :class:`StorageError`: a
    folder that does not exist, a folder where the file belongs, no file where one must be (``create``
    false), a file of 0 bytes (SQLite would take it for a new, empty database: a start with no games and
    no warning), a file cut short, a log beside it that is not its own (``check_log``). Returns
    whether a log (``-wal``) with something in it was left beside the file: the process before stopped
    without closing (a crash, a kill), and the open checks the database whole."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise StorageError(f"{path} is a folder, not a database file: name a file, e.g. "
                           f"{os.path.join(path, 'palantir.db')}", 2)
    if not os.path.exists(path):
        if not create:
            raise StorageError(f"there is no database at {path}: check the path", 2)
        if not os.path.isdir(folder):
            raise StorageError(f"the folder {folder} does not exist: create it, or name a file in a folder that does", 2)
        if _size(path + "-wal"):
            raise StorageError(f"{path}-wal lies there without its database {path}: put the database back, "
                               f"or move {path}-wal (and {path}-shm) away to start a new one")
        return False
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise StorageError(f"cannot read {path}: {e.strerror}: give this user access to it and its folder", 2) from None
    if size == 0:
        raise StorageError(f"{path} is an empty file (0 bytes), not a palantir database: restore it from a backup, "
                           "or delete it to start a new database there")
    if not head.startswith(SQLITE_MAGIC) or len(head) < 100:
        raise StorageError(f"{path} is not a SQLite database: name the right file, or restore it from a backup")
    page_size = _page_size(head)
    left_log = _size(path + "-wal") > 0
    if left_log:
        check_log(path, page_size)
    else:
        pages, counter, valid_for = struct.unpack(">I", head[28:32])[0], head[24:28], head[92:96]
        if counter == valid_for and size < pages * page_size:  # (the header's size is SQLite's own when these agree)
            raise StorageError(f"{path} is damaged (cut short: {size} of {pages * page_size} bytes): "
                               "restore it from a backup")
    return left_log


def check_log(path: str, page_size: int) -> None:
    """A log (``-wal``) left beside the database must be the database's own. SQLite applies any log it
    finds beside a file, whoever's it is: nothing in the database ties the two (the log's salts are drawn
    anew each time the log restarts, and the database records none of them), so a file replaced (a
    backup put back, another database copied over it) while the log of the one before lies beside it
    comes back a mixture of the two, with no error, and ``PRAGMA quick_check`` finds nothing wrong
    (measured: another database's settings over this one's games). What ties them is what the log
    already gave the file, page for page, as SQLite's checkpoint copies it:

    - the frames of this round of the log copied so far (``nBackfill`` in the ``-shm`` beside the log,
      and ``nBackfillAttempted`` for a checkpoint cut short): each such page is in the file as one of
      the log's frames of it;
    - the round before: a round begins only once the one before was copied whole, and it writes over
      that round's frames from the start, so the frames of the round before that still lie past this
      round's end (the same first salt less one, up to their last commit) are its latest, and each of
      those pages is in the file as its last frame there, unless this round has copied it since.

    A page otherwise is refused as another database's log. And the store's own tie (``LOG_TIE``): the stamps
    of this round's commits must carry the file's id, and counts that follow the file's. A log with none of
    these (a database from before the tie, its first round, nothing copied yet) is taken as the file's own.
    Reads only."""
    wal = path + "-wal"
    try:
        with open(wal, "rb") as f, open(path, "rb") as db:
            head = f.read(32)
            if len(head) < 32:
                return  # no whole header: SQLite ignores the log
            magic, _, wal_page, _, salt1, _ = struct.unpack(">6I", head[:24])
            if magic not in WAL_MAGIC:
                raise StorageError(f"{wal} is not a SQLite log: move it (and {path}-shm) away if {path} is the "
                                   "database you want")
            if wal_page != page_size and not (wal_page == 1 and page_size == 65536):
                raise _foreign(path, f"its pages are {wal_page} bytes, the database's {page_size}")
            current: dict[int, list[int]] = {}  # page -> its frames in this round (numbered from 1)
            before: dict[int, int] = {}  # page -> its last frame of the round before, up to that round's last commit
            seen: dict[int, int] = {}
            old_salts = None
            n, end, last_commit = 0, os.path.getsize(wal), 0
            while (frame := f.read(24)) and len(frame) == 24:
                n += 1
                no, commit = struct.unpack(">II", frame[:8])
                if frame[8:16] == head[16:24] and old_salts is None:
                    current.setdefault(no, []).append(n)
                    last_commit = n if commit else last_commit
                elif old_salts is None and struct.unpack(">I", frame[8:12])[0] == (salt1 - 1) % 2**32:
                    old_salts = frame[8:16]  # the round before
                if old_salts is not None:
                    if frame[8:16] != old_salts:
                        break  # older still: nothing more to tell
                    seen[no] = n
                    if commit:
                        before.update(seen)
                        seen.clear()
                if f.seek(page_size, 1) > end:
                    break

            def page(no: int) -> bytes:
                db.seek((no - 1) * page_size)
                return db.read(page_size)

            def frame_page(i: int) -> bytes:
                f.seek(32 + (i - 1) * (24 + page_size) + 24)
                return f.read(page_size)

            backfilled, attempted = _shm_backfill(path, head[16:24])
            for no, idx in current.items():  # this round's copied frames
                if backfilled and idx[0] <= backfilled and len(have := page(no)) == page_size:
                    if not any(frame_page(i) == have for i in idx if i <= attempted):
                        raise _foreign(path, f"page {no}, which the log had copied into the database, differs")
            for no, i in before.items():  # the round before, copied whole
                if len(have := page(no)) == page_size and frame_page(i) != have:
                    since = [j for j in current.get(no, ()) if backfilled is None or j <= attempted]  # copied since?
                    if not any(frame_page(j) == have for j in since):
                        raise _foreign(path, f"page {no}, which the log had copied into the database, differs")
            ids, counts = set(), []  # the stamps of this round's commits (LOG_TIE), read before the file's
            for i in range(1, last_commit + 1):
                for m in _TIE_RE.finditer(frame_page(i)):
                    ids.add(m[1].decode())
                    counts.append(int(m[2]))
            tie = _file_tie(path) if ids else None
            if tie is not None:
                if ids - {tie[0]}:
                    raise _foreign(path, "it was written by another database")
                # the counts, only where the log did not move meanwhile: a log in use by a process alive on this
                # file (a second shard starting) grows and is copied into the file as it is read; the file's count
                # grows only to what the log held (read first), and a new round begins only once all was copied
                f.seek(0)
                if f.read(32) == head and os.path.getsize(wal) == end and not min(counts) - 1 <= tie[1] <= max(counts):
                    raise _foreign(path, f"the database has {tie[1]} writes, its log follows write {min(counts) - 1}: "
                                         "a copy of it from another time")
    except OSError as e:
        raise StorageError(f"cannot read {wal} or {path}: {e.strerror}: give this user access to them and "
                           "their folder", 2) from None


def _file_tie(path: str) -> tuple[str, int] | None:
    """The database's id and count (LOG_TIE) as its file alone holds them (``immutable``: no log read, no file
    touched), or None: a database from before the tie, or one whose tie is still in its log only."""
    try:
        con = sqlite3.connect(pathlib.Path(os.path.abspath(path)).as_uri() + "?immutable=1", uri=True)
        try:
            row = con.execute("SELECT stamp FROM log_tie").fetchone()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    m = _TIE_RE.fullmatch(_TIE_RECORD + row[0].encode()) if row and isinstance(row[0], str) else None
    return (m[1].decode(), int(m[2])) if m else None


def _foreign(path: str, why: str) -> StorageError:
    return StorageError(f"{path}-wal is not the log of {path} ({why}): the database was replaced while another's "
                        f"log lay beside it. Put back the database it belongs to, or move {path}-wal and {path}-shm "
                        f"away if {path} is the database you want")


def _shm_backfill(path: str, salts: bytes) -> tuple[int | None, int]:
    """(``nBackfill``, ``nBackfillAttempted``) from the ``-shm`` beside a log whose header has ``salts``,
    or (None, 0) where there is none, or it is of another round of the log, or torn. (Its numbers are in
    the machine's own byte order: it is shared memory.)"""
    try:
        with open(path + "-shm", "rb") as f:
            shm = f.read(136)
    except OSError:
        return None, 0
    if len(shm) < 136 or shm[:48] != shm[48:96]:
        return None, 0
    order = "<" if sys.byteorder == "little" else ">"
    version, = struct.unpack(order + "I", shm[:4])
    if version != SHM_VERSION or shm[12] != 1 or shm[32:40] != salts:
        return None, 0
    mx_frame, = struct.unpack(order + "I", shm[16:20])
    backfilled, = struct.unpack(order + "I", shm[96:100])
    attempted, = struct.unpack(order + "I", shm[128:132])
    if backfilled > mx_frame:
        return None, 0
    return backfilled, max(backfilled, attempted)


def _page_size(head: bytes) -> int:
    size, = struct.unpack(">H", head[16:18])
    return 65536 if size == 1 else size


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def sqlite_error(path: str, e: sqlite3.Error) -> StorageError:
    """SQLite's refusal to open or write ``path`` as one line: the file and what to do."""
    code = (getattr(e, "sqlite_errorcode", None) or 0) & 0xFF
    if code == sqlite3.SQLITE_NOTADB:
        return StorageError(f"{path} is not a SQLite database: name the right file, or restore it from a backup")
    if code == sqlite3.SQLITE_CORRUPT:
        return StorageError(f"{path} is damaged ({e}): restore it from a backup")
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StorageError(f"{path} is locked by another process: stop the other palantir (or program) that has it "
                            "open, then start again")
    if code == sqlite3.SQLITE_READONLY:
        return StorageError(f"cannot write {path} (a read-only file or folder): give this user write access to it "
                            "and its folder", 2)
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_AUTH):
        return StorageError(f"cannot open {path} ({e}): this user must be able to read and write it and its folder", 2)
    if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
        return StorageError(f"cannot read or write {path} ({e}): check the disk")
    return StorageError(f"cannot use {path}: {e}")


def _busy(e: sqlite3.OperationalError) -> bool:
    """SQLite's busy or locked (another connection holds the lock), as opposed to a real error."""
    code = getattr(e, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(e) or "busy" in str(e)


class _NothingToDo(Exception):
    """Raised inside a transaction to roll it back quietly."""


class Tx:
    """The statements of one open transaction (only inside ``Store.transaction()``), each one trip to
    aiosqlite's thread."""

    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def execute(self, sql: str, params: tuple = ()) -> aiosqlite.Cursor:
        """The statement run; its ``rowcount`` and ``lastrowid`` (rows: ``fetchall``)."""
        return await self._db.execute(sql, params)

    async def fetchall(self, sql: str, params: tuple = ()) -> list:
        return list(await self._db.execute_fetchall(sql, params))

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


def _run_steps(con: sqlite3.Connection, steps: list[tuple[str, tuple]], fenced: bool,
               tie: str | None) -> tuple[int, int | None]:
    """``SqliteStore._steps`` on ``con``, a ``sqlite3`` connection of the event loop's: begun, run, stamped with
    ``tie`` if it wrote (LOG_TIE) and committed, or rolled back whole."""
    con.execute("BEGIN IMMEDIATE")
    try:
        changes = con.total_changes
        for i, (sql, params) in enumerate(steps):
            cur = con.execute(sql, params)
            _fence(cur, i, fenced)
        if tie is not None and con.total_changes != changes:
            con.execute(tie)
        con.execute("COMMIT")
        return cur.rowcount, cur.lastrowid
    except BaseException:
        con.rollback()  # (only where a transaction is open: SQLite may have rolled it back itself)
        raise


def _fence(cur, i: int, fenced: bool) -> None:
    """A fenced transaction's first statement (``i`` 0) must change exactly one row: else nothing is written."""
    if i == 0 and fenced and cur.rowcount != 1:
        raise StaleWriter("the game moved on under us (sequence mismatch)")


def _noting_thread(threads: list) -> type[sqlite3.Connection]:
    """``sqlite3``'s connection class, noting in ``threads`` the thread that opens it, before the open can fail
    (``sqlite3.connect``'s ``factory``, which ``aiosqlite.connect`` passes on; the thread is aiosqlite's own).
    Where the connect fails, aiosqlite stops its thread but offers no way to wait for it: ``Connection.close``
    does nothing then, and the thread is a private attribute (``._thread``, which the store waited on until
    issue 43). A thread still running there answers a loop that may have closed, and keeps the process alive
    (issue 39): the store waits for the one noted here."""
    class Connection(sqlite3.Connection):
        def __init__(self, *args, **kwargs):
            threads.append(threading.current_thread())
            super().__init__(*args, **kwargs)
    return Connection
