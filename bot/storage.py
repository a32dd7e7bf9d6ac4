"""SQLite storage (aiosqlite, WAL).

Tables:
- ``games``: one row per game, keyed by the channel or thread it lives in;
  at most one open or active game per channel (a partial unique index).
- ``seats``: who holds each seat.
- ``actions``: the append-only log of accepted orders, each with the Discord
  interaction id that carried it (unique: a redelivered interaction is
  answered from ``responses``, never applied twice). Triggers forbid UPDATE
  and DELETE on it.
- ``snapshots``: the full state at the start of the game and at every phase.
- ``responses``: what was answered to each interaction id, for redelivery.

The schema version lives in ``PRAGMA user_version``; ``MIGRATIONS[i]`` takes
version i to i+1.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

import aiosqlite

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
]
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    ruleset: str
    options: dict
    seed: str
    commitment: str
    creator_id: int
    status: str
    seq: int
    created_at: float
    started_at: float | None
    ended_at: float | None
    deadline_rules: str | None = None  # JSON of bot.deadlines.DeadlineRules, fixed at /game new

    @classmethod
    def from_row(cls, r: aiosqlite.Row) -> "GameRow":
        d = dict(r)
        d["options"] = json.loads(d["options"])
        return cls(**d)


@dataclass
class ActionRow:
    game_id: int
    seq: int
    seat: str
    user_id: int | None
    text: str
    interaction_id: str | None
    dice_before: int
    dice_after: int
    events: list
    created_at: float
    kind: str = "order"  # 'order', or 'undo' (taking back the action #ref_seq)
    ref_seq: int | None = None


@dataclass
class Timer:
    id: int
    game_id: int
    phase_key: str
    kind: str
    seat: str
    due_at: float
    fired_at: float | None


@dataclass
class Clock:
    game_id: int
    phase_key: str
    started_at: float
    extra: float = 0.0
    paused_at: float | None = None
    deadline_at: float | None = None


@dataclass
class Prefs:
    user_id: int
    quiet_from: str | None = None
    quiet_to: str | None = None
    tz: str | None = None
    away_until: float | None = None


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


class Store:
    def __init__(self, db: aiosqlite.Connection, path: str):
        self.db = db
        self.path = path

    @classmethod
    async def open(cls, path: str) -> "Store":
        db = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db, path)
        try:
            await store.migrate()
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            return (await cur.fetchone())[0]

    async def migrate(self) -> None:
        version = await self.schema_version()
        if version > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {version} is newer than this palantir ({SCHEMA_VERSION})")
        while version < SCHEMA_VERSION:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                await self._script(MIGRATIONS[version])
                version += 1
                await self.db.execute(f"PRAGMA user_version={version}")
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def _script(self, script: str) -> None:
        # executescript would COMMIT first; run statement by statement inside our transaction
        buf = ""
        for line in script.splitlines():
            buf += line + "\n"
            if buf.strip() and sqlite3.complete_statement(buf):
                await self.db.execute(buf)
                buf = ""

    # ------------------------------------------------------------------ games
    async def create_game(self, *, channel_id: int, guild_id: int | None, ruleset: str, options: dict,
                          seed: str, commitment: str, creator_id: int, now: float,
                          initial_state: dict, deadline_rules: dict | None = None) -> int:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.db.execute(
                "INSERT INTO games (guild_id, channel_id, ruleset, options, seed, commitment, creator_id,"
                " status, seq, created_at, deadline_rules) VALUES (?,?,?,?,?,?,?,'open',0,?,?)",
                (guild_id, channel_id, ruleset, _dumps(options), seed, commitment, creator_id, now,
                 _dumps(deadline_rules) if deadline_rules is not None else None))
            gid = cur.lastrowid
            await self.db.execute("INSERT INTO snapshots (game_id, seq, state) VALUES (?,?,?)",
                                  (gid, 0, _dumps(initial_state)))
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return gid

    async def live_game(self, channel_id: int) -> GameRow | None:
        async with self.db.execute(
                "SELECT * FROM games WHERE channel_id=? AND status IN ('open','active')", (channel_id,)) as cur:
            r = await cur.fetchone()
        return GameRow.from_row(r) if r else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        async with self.db.execute(
                "SELECT * FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1", (channel_id,)) as cur:
            r = await cur.fetchone()
        return GameRow.from_row(r) if r else None

    async def game(self, game_id: int) -> GameRow | None:
        async with self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        return GameRow.from_row(r) if r else None

    async def live_game_ids(self) -> list[int]:
        async with self.db.execute("SELECT id FROM games WHERE status IN ('open','active')") as cur:
            return [r[0] for r in await cur.fetchall()]

    async def set_status(self, game_id: int, status: str, now: float) -> None:
        col = {"active": "started_at", "over": "ended_at", "ended": "ended_at"}.get(status)
        if col:
            await self.db.execute(f"UPDATE games SET status=?, {col}=? WHERE id=?", (status, now, game_id))
        else:
            await self.db.execute("UPDATE games SET status=? WHERE id=?", (status, game_id))

    # ------------------------------------------------------------------ seats
    async def seats(self, game_id: int) -> dict[str, int]:
        async with self.db.execute("SELECT seat, user_id FROM seats WHERE game_id=? ORDER BY seat",
                                   (game_id,)) as cur:
            return {r[0]: r[1] for r in await cur.fetchall()}

    async def take_seat(self, game_id: int, seat: str, user_id: int, now: float) -> bool:
        """False if someone already holds it."""
        cur = await self.db.execute(
            "INSERT OR IGNORE INTO seats (game_id, seat, user_id, joined_at) VALUES (?,?,?,?)",
            (game_id, seat, user_id, now))
        return cur.rowcount == 1

    async def release_seats(self, game_id: int, user_id: int) -> list[str]:
        seats = [s for s, u in (await self.seats(game_id)).items() if u == user_id]
        await self.db.execute("DELETE FROM seats WHERE game_id=? AND user_id=?", (game_id, user_id))
        return seats

    # ------------------------------------------------------------------ log
    async def append_action(self, *, game_id: int, seq: int, seat: str, user_id: int | None, text: str,
                            interaction_id: str | None, dice_before: int, dice_after: int, events: list,
                            now: float, snapshot: dict | None, response: dict | None,
                            status: str | None = None, kind: str = "order", ref_seq: int | None = None,
                            also: list[tuple[str, tuple]] = ()) -> None:
        """One transaction: the log row, the game's counter, the snapshot at a
        new phase, the answer kept for a redelivered interaction, and ``also``
        (statements that must happen with it: a timer marked fired, an outbox
        row)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, text, interaction_id, dice_before,"
                " dice_after, events, created_at, kind, ref_seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (game_id, seq, seat, user_id, text, interaction_id, dice_before, dice_after,
                 _dumps(events), now, kind, ref_seq))
            for sql, params in also:
                await self.db.execute(sql, params)
            cur = await self.db.execute("UPDATE games SET seq=? WHERE id=? AND seq=?", (seq, game_id, seq - 1))
            if cur.rowcount != 1:
                raise RuntimeError("the game moved on under us (sequence mismatch)")
            if snapshot is not None:
                await self.db.execute("INSERT INTO snapshots (game_id, seq, state) VALUES (?,?,?)",
                                      (game_id, seq, _dumps(snapshot)))
            if response is not None and interaction_id:
                await self.db.execute(
                    "INSERT INTO responses (interaction_id, game_id, response, created_at) VALUES (?,?,?,?)",
                    (interaction_id, game_id, _dumps(response), now))
            if status:
                await self.db.execute("UPDATE games SET status=?, ended_at=? WHERE id=?", (status, now, game_id))
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]:
        async with self.db.execute("SELECT * FROM actions WHERE game_id=? AND seq>? ORDER BY seq",
                                   (game_id, after_seq)) as cur:
            rows = await cur.fetchall()
        out = []
        for r in rows:
            d = dict(r)
            d["events"] = json.loads(d["events"])
            out.append(ActionRow(**d))
        return out

    async def last_snapshot(self, game_id: int) -> tuple[int, dict]:
        async with self.db.execute(
                "SELECT seq, state FROM snapshots WHERE game_id=? ORDER BY seq DESC LIMIT 1", (game_id,)) as cur:
            r = await cur.fetchone()
        return r[0], json.loads(r[1])

    async def first_snapshot(self, game_id: int) -> dict:
        async with self.db.execute(
                "SELECT state FROM snapshots WHERE game_id=? ORDER BY seq LIMIT 1", (game_id,)) as cur:
            r = await cur.fetchone()
        return json.loads(r[0])

    async def response_for(self, interaction_id: str) -> dict | None:
        async with self.db.execute("SELECT response FROM responses WHERE interaction_id=?",
                                   (interaction_id,)) as cur:
            r = await cur.fetchone()
        return json.loads(r[0]) if r else None

    async def save_response(self, interaction_id: str, game_id: int | None, response: dict, now: float) -> None:
        await self.db.execute(
            "INSERT OR IGNORE INTO responses (interaction_id, game_id, response, created_at) VALUES (?,?,?,?)",
            (interaction_id, game_id, _dumps(response), now))

    async def get_setting(self, key: str) -> str | None:
        async with self.db.execute("SELECT value FROM settings WHERE key=?", (key,)) as cur:
            r = await cur.fetchone()
        return r[0] if r else None

    async def set_setting(self, key: str, value: str) -> None:
        await self.db.execute("INSERT INTO settings (key, value) VALUES (?, ?)"
                              " ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))

    # ------------------------------------------------------------ log, more
    async def snapshot_before(self, game_id: int, seq: int) -> tuple[int, dict]:
        """The last snapshot taken before action ``seq`` (the state after action S < seq)."""
        async with self.db.execute(
                "SELECT seq, state FROM snapshots WHERE game_id=? AND seq<? ORDER BY seq DESC LIMIT 1",
                (game_id, seq)) as cur:
            r = await cur.fetchone()
        return r[0], json.loads(r[1])

    async def last_action_time(self, game_id: int) -> float | None:
        async with self.db.execute("SELECT created_at FROM actions WHERE game_id=? ORDER BY seq DESC LIMIT 1",
                                   (game_id,)) as cur:
            r = await cur.fetchone()
        return r[0] if r else None

    async def set_seat_holder(self, game_id: int, seat: str, user_id: int) -> None:
        await self.db.execute("UPDATE seats SET user_id=? WHERE game_id=? AND seat=?", (user_id, game_id, seat))

    async def active_games_of(self, user_id: int) -> list[int]:
        async with self.db.execute(
                "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
                " WHERE s.user_id=? AND g.status='active'", (user_id,)) as cur:
            return [r[0] for r in await cur.fetchall()]

    # ------------------------------------------------------------ deadlines
    async def clock(self, game_id: int) -> Clock | None:
        async with self.db.execute("SELECT * FROM clocks WHERE game_id=?", (game_id,)) as cur:
            r = await cur.fetchone()
        return Clock(**dict(r)) if r else None

    async def set_clock(self, clock: Clock, timers: list[tuple[str, str, float]] | None) -> None:
        """One transaction: the game's clock; with ``timers``, every unfired timer of the game is
        replaced by these (kind, seat, due); a timer already fired at the same moment is not
        scheduled again."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.execute(
                "INSERT INTO clocks (game_id, phase_key, started_at, extra, paused_at, deadline_at)"
                " VALUES (?,?,?,?,?,?) ON CONFLICT(game_id) DO UPDATE SET phase_key=excluded.phase_key,"
                " started_at=excluded.started_at, extra=excluded.extra, paused_at=excluded.paused_at,"
                " deadline_at=excluded.deadline_at",
                (clock.game_id, clock.phase_key, clock.started_at, clock.extra, clock.paused_at,
                 clock.deadline_at))
            if timers is not None:
                await self.db.execute("DELETE FROM timers WHERE game_id=? AND fired_at IS NULL", (clock.game_id,))
                for kind, seat, due in timers:
                    await self.db.execute(
                        "INSERT OR IGNORE INTO timers (game_id, phase_key, kind, seat, due_at) VALUES (?,?,?,?,?)",
                        (clock.game_id, clock.phase_key, kind, seat, due))
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise

    async def timers(self, game_id: int, pending_only: bool = False) -> list[Timer]:
        sql = "SELECT * FROM timers WHERE game_id=?" + (" AND fired_at IS NULL" if pending_only else "")
        async with self.db.execute(sql + " ORDER BY due_at, id", (game_id,)) as cur:
            return [Timer(**dict(r)) for r in await cur.fetchall()]

    async def timer(self, timer_id: int) -> Timer | None:
        async with self.db.execute("SELECT * FROM timers WHERE id=?", (timer_id,)) as cur:
            r = await cur.fetchone()
        return Timer(**dict(r)) if r else None

    async def due_timers(self, now: float) -> list[Timer]:
        async with self.db.execute("SELECT * FROM timers WHERE fired_at IS NULL AND due_at<=? ORDER BY due_at, id",
                                   (now,)) as cur:
            return [Timer(**dict(r)) for r in await cur.fetchall()]

    @staticmethod
    def fire_sql(timer_id: int, now: float) -> tuple[str, tuple]:
        return "UPDATE timers SET fired_at=? WHERE id=? AND fired_at IS NULL", (now, timer_id)

    @staticmethod
    def pause_sql(game_id: int, now: float) -> tuple[str, tuple]:
        return "UPDATE clocks SET paused_at=? WHERE game_id=?", (now, game_id)

    @staticmethod
    def outbox_sql(game_id: int | None, payload: dict, now: float, *, channel_id: int | None = None,
                   user_id: int | None = None) -> tuple[str, tuple]:
        return ("INSERT INTO outbox (game_id, channel_id, user_id, payload, created_at) VALUES (?,?,?,?,?)",
                (game_id, channel_id, user_id, _dumps(payload), now))

    async def run_in_transaction(self, statements: list[tuple[str, tuple]], *, first_must_change: bool = True) -> bool:
        """Run the statements in one transaction; False (and nothing done) when the first one
        changed no row (e.g. the timer had already fired)."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            for i, (sql, params) in enumerate(statements):
                cur = await self.db.execute(sql, params)
                if i == 0 and first_must_change and cur.rowcount != 1:
                    await self.db.execute("ROLLBACK")
                    return False
            await self.db.execute("COMMIT")
        except BaseException:
            await self.db.execute("ROLLBACK")
            raise
        return True

    async def pending_outbox(self, limit: int = 50) -> list[dict]:
        async with self.db.execute("SELECT * FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT ?", (limit,)) as cur:
            rows = await cur.fetchall()
        out = []
        for r in rows:
            d = dict(r)
            d["payload"] = json.loads(d["payload"])
            out.append(d)
        return out

    async def mark_sent(self, outbox_id: int, now: float) -> None:
        await self.db.execute("UPDATE outbox SET sent_at=? WHERE id=?", (now, outbox_id))

    async def outbox(self, game_id: int) -> list[dict]:
        async with self.db.execute("SELECT * FROM outbox WHERE game_id=? ORDER BY id", (game_id,)) as cur:
            return [dict(r) | {"payload": json.loads(r["payload"])} for r in await cur.fetchall()]

    # ------------------------------------------------------------ players
    async def prefs(self, user_id: int) -> Prefs:
        async with self.db.execute("SELECT * FROM prefs WHERE user_id=?", (user_id,)) as cur:
            r = await cur.fetchone()
        return Prefs(**dict(r)) if r else Prefs(user_id)

    async def set_prefs(self, p: Prefs) -> None:
        await self.db.execute(
            "INSERT INTO prefs (user_id, quiet_from, quiet_to, tz, away_until) VALUES (?,?,?,?,?)"
            " ON CONFLICT(user_id) DO UPDATE SET quiet_from=excluded.quiet_from, quiet_to=excluded.quiet_to,"
            " tz=excluded.tz, away_until=excluded.away_until",
            (p.user_id, p.quiet_from, p.quiet_to, p.tz, p.away_until))

    # ------------------------------------------------------------ undo requests
    async def create_undo_request(self, *, game_id: int, seat: str, user_id: int, target_seq: int, at_seq: int,
                                  needed: list[int], now: float) -> int:
        cur = await self.db.execute(
            "INSERT INTO undo_requests (game_id, seat, user_id, target_seq, at_seq, needed, created_at)"
            " VALUES (?,?,?,?,?,?,?)", (game_id, seat, user_id, target_seq, at_seq, _dumps(sorted(needed)), now))
        return cur.lastrowid

    async def undo_request(self, req_id: int) -> dict | None:
        async with self.db.execute("SELECT * FROM undo_requests WHERE id=?", (req_id,)) as cur:
            r = await cur.fetchone()
        if not r:
            return None
        d = dict(r)
        d["needed"] = json.loads(d["needed"])
        d["votes"] = {int(k): v for k, v in json.loads(d["votes"]).items()}
        return d

    async def update_undo_request(self, req_id: int, *, votes: dict | None = None, status: str | None = None) -> None:
        if votes is not None:
            await self.db.execute("UPDATE undo_requests SET votes=? WHERE id=?",
                                  (_dumps({str(k): v for k, v in votes.items()}), req_id))
        if status is not None:
            await self.db.execute("UPDATE undo_requests SET status=? WHERE id=?", (status, req_id))
