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
                          initial_state: dict) -> int:
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            cur = await self.db.execute(
                "INSERT INTO games (guild_id, channel_id, ruleset, options, seed, commitment, creator_id,"
                " status, seq, created_at) VALUES (?,?,?,?,?,?,?,'open',0,?)",
                (guild_id, channel_id, ruleset, _dumps(options), seed, commitment, creator_id, now))
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
                            status: str | None = None) -> None:
        """One transaction: the log row, the game's counter, the snapshot at a
        new phase, and the answer kept for a redelivered interaction."""
        await self.db.execute("BEGIN IMMEDIATE")
        try:
            await self.db.execute(
                "INSERT INTO actions (game_id, seq, seat, user_id, text, interaction_id, dice_before,"
                " dice_after, events, created_at) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (game_id, seq, seat, user_id, text, interaction_id, dice_before, dice_after,
                 _dumps(events), now))
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

    async def count_games(self) -> int:
        async with self.db.execute("SELECT COUNT(*) FROM games") as cur:
            return (await cur.fetchone())[0]
