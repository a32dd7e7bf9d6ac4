"""What the SQL backends share (``sqlite.py``, ``postgres.py``): every read and write that is the same
statement on both, written once with ``?`` placeholders (the PostgreSQL backend rewrites them to
``$n``). A backend gives the primitives these use: ``transaction()``, ``_one``, ``_all``, ``_write``
and ``_steps`` (statements that commit together, the first one a fence if asked: SQLite runs them in
one trip to its thread), and ``SEATS_JSON``; what differs between the two (migrations, the game's
creation, the outbox's claim, ``snapshot_before``...) stays in the backend.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.storage.base import (ActionRow, Clock, Effect, FireTimer, GameResult, GameRow, OutboxPost, PauseClock,
                              PlayerRecord, Prefs, SeatState, StaleWriter, Timer, shard_where)


class _Marks:
    """Answers reported delivered, marked together by one statement (``SqlQueries.mark_delivered``)."""

    def __init__(self, now: float):
        self.ids: list[str] = []
        self.now = now
        self.done = asyncio.get_running_loop().create_future()


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _dumps_state(state: Any) -> str:
    """A game's state as stored (a snapshot, the first one): its keys in the order the game made them, not
    sorted. Where the rules go through a part of the state in its order (the units in a hex, the leaders caught
    in a result, each drawing a die), a game rebuilt from storage must hold it in the order the game played it:
    sorted, a rebuilt game could draw the same dice for other units (a Sauron rematch's export replayed its log
    from a sorted first state and found a leader wounded whom the game had not; issue 39)."""
    return json.dumps(state, separators=(",", ":"))


class SqlQueries:
    # a game's seats as one JSON object text ({"seat": user id}), from ``seats s`` (SQL differs)
    SEATS_JSON: str

    # the seats of game {game} whose holder left it (issue 28): a tenure in the seat's history, none open
    DEPARTED = ("SELECT h.seat FROM seat_history h WHERE h.game_id = {game}"
                " GROUP BY h.seat HAVING SUM(CASE WHEN h.to_at IS NULL THEN 1 ELSE 0 END) = 0")

    # what ``order_context`` reads, in one statement (its parameters: the channel, the interaction id)
    ORDER_CONTEXT = ("SELECT r.response AS ctx_response, (SELECT {seats} FROM seats s WHERE s.game_id = g.id)"
                     " AS ctx_seats, (SELECT {departed} FROM (" + DEPARTED.format(game="g.id") + ") d)"
                     " AS ctx_departed, (SELECT st.value FROM settings st WHERE st.key = 'board:' || g.id)"
                     " AS ctx_board, g.* FROM (SELECT 1 AS one) AS one"
                     " LEFT JOIN games g ON g.channel_id=? AND g.status IN ('open','active')"
                     " LEFT JOIN responses r ON r.interaction_id=?")

    async def order_context(self, channel_id: int, interaction_id: str | None
                            ) -> tuple[dict | None, GameRow | None]:
        """What every command that may change a game reads first, in one statement: the answer
        already stored for ``interaction_id`` (a redelivered interaction: None if there is none),
        and the channel's live game (None if there is none) with its seats (``GameRow.seats``), the seats
        whose holder left it (``GameRow.departed``, issue 28: what ``seat_history`` says) and where its
        status board is (``GameRow.board``: what ``Table.board_at`` would read next, by itself)."""
        generation = self.contexts.generation
        got = self._order_context_of(await self._context_row(self.ORDER_CONTEXT.format(
            seats=self.SEATS_JSON, departed=self.DEPARTED_JSON), (channel_id, interaction_id)))
        self.contexts.put(channel_id, got[1], generation)
        return got

    async def _context_row(self, sql: str, params: tuple):
        """How ``order_context`` reads its one statement (a store may read it its own way)."""
        return await self._one(sql, params)

    def remembered_context(self, channel_id: int) -> GameRow | None:
        """The channel's live game with its seats as the last order read it, if nothing of this store
        may have changed it since (bot/storage/contexts.py); None: read it (``order_context``)."""
        return self.contexts.get(channel_id)

    @staticmethod
    def _order_context_of(r) -> tuple[dict | None, GameRow | None]:
        d = dict(r)
        stored, seats, departed = d.pop("ctx_response"), d.pop("ctx_seats"), d.pop("ctx_departed")
        board = d.pop("ctx_board")
        row = None
        if d["id"] is not None:
            row = GameRow.from_row(d)
            row.seats = {k: int(v) for k, v in json.loads(seats).items()} if seats else {}
            row.departed = frozenset(json.loads(departed)) if departed else frozenset()
            row.board = board or ""
        return (json.loads(stored) if stored is not None else None), row

    async def live_game(self, channel_id: int) -> GameRow | None:
        r = await self._one("SELECT * FROM games WHERE channel_id=? AND status IN ('open','active')", (channel_id,))
        return GameRow.from_row(r) if r else None

    async def latest_game(self, channel_id: int) -> GameRow | None:
        r = await self._one("SELECT * FROM games WHERE channel_id=? ORDER BY id DESC LIMIT 1", (channel_id,))
        return GameRow.from_row(r) if r else None

    async def game(self, game_id: int) -> GameRow | None:
        r = await self._one("SELECT * FROM games WHERE id=?", (game_id,))
        return GameRow.from_row(r) if r else None

    async def live_game_ids(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT id FROM games WHERE status IN ('open','active') AND "
                                                   + shard_where(self.shard, "guild_id") + " ORDER BY id")]

    async def set_status(self, game_id: int, status: str, now: float) -> None:
        col = {"active": "started_at", "over": "ended_at", "ended": "ended_at"}.get(status)
        if col:
            await self._write(f"UPDATE games SET status=?, {col}=? WHERE id=?", (status, now, game_id))
        else:
            await self._write("UPDATE games SET status=? WHERE id=?", (status, game_id))

    # ------------------------------------------------------------------ seats
    async def seats(self, game_id: int) -> dict[str, int]:
        rows = await self._all("SELECT seat, user_id FROM seats WHERE game_id=? ORDER BY seat", (game_id,))
        return {r[0]: r[1] for r in rows}

    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]:
        rows = await self._all("SELECT * FROM actions WHERE game_id=? AND seq>? ORDER BY seq", (game_id, after_seq))
        out = []
        for r in rows:
            d = dict(r)
            d["events"] = json.loads(d["events"])
            out.append(ActionRow(**d))
        return out

    async def last_snapshot(self, game_id: int) -> tuple[int, dict]:
        r = await self._one("SELECT seq, state FROM snapshots WHERE game_id=? ORDER BY seq DESC LIMIT 1", (game_id,))
        return r[0], json.loads(r[1])

    async def first_snapshot(self, game_id: int) -> dict:
        r = await self._one("SELECT state FROM snapshots WHERE game_id=? ORDER BY seq LIMIT 1", (game_id,))
        return json.loads(r[0])

    async def mark_delivered(self, interaction_id: str, now: float) -> None:
        """The answer to this interaction reached its reader (the transport says so); returns once
        that is committed. A group commit: the answers reported while one batch is being written
        are marked together by the next, in one statement (one trip to the database for all of
        them, not one each: under load, nearly every order reports one)."""
        batch = getattr(self, "_marks", None)
        if batch is None:
            batch = self._marks = _Marks(now)
            asyncio.ensure_future(self._write_marks(batch))
        batch.ids.append(interaction_id)
        batch.now = max(batch.now, now)
        await asyncio.shield(batch.done)

    async def _write_marks(self, batch: "_Marks") -> None:
        if getattr(self, "_marks_lock", None) is None:
            self._marks_lock = asyncio.Lock()
        async with self._marks_lock:  # one batch written at a time; the next gathers meanwhile
            if self._marks is batch:
                self._marks = None  # what is reported from now on goes to the next batch
            await self._settle_marks(batch)

    async def _settle_marks(self, batch: "_Marks") -> None:
        """A batch of marks written by itself, and its waiters told how that went."""
        try:
            await self._mark_answers(batch.ids, batch.now)
        except BaseException as e:
            batch.done.set_exception(e)
            batch.done.exception()  # (retrieved here: each waiter gets it)
            if not isinstance(e, Exception):
                raise
        else:
            batch.done.set_result(None)

    async def _mark_answers(self, interaction_ids: list[str], now: float) -> None:
        """The statement(s) of a batch of ``mark_delivered``: ``IN (?, ...)`` in chunks of 500 (PostgreSQL's
        store has one statement for any number)."""
        for i in range(0, len(interaction_ids), 500):
            chunk = interaction_ids[i:i + 500]
            await self._write("UPDATE responses SET delivered_at=? WHERE delivered_at IS NULL AND"
                              " interaction_id IN (" + ",".join("?" * len(chunk)) + ")", (now, *chunk),
                              keeps_contexts=True)

    async def response_for(self, interaction_id: str) -> dict | None:
        r = await self._one("SELECT response FROM responses WHERE interaction_id=?", (interaction_id,))
        return json.loads(r[0]) if r else None

    async def get_setting(self, key: str) -> str | None:
        r = await self._one("SELECT value FROM settings WHERE key=?", (key,))
        return r[0] if r else None

    async def set_setting(self, key: str, value: str) -> None:
        await self._write("INSERT INTO settings (key, value) VALUES (?, ?)"
                          " ON CONFLICT(key) DO UPDATE SET value=excluded.value", (key, value))

    async def last_action_time(self, game_id: int) -> float | None:
        r = await self._one("SELECT created_at FROM actions WHERE game_id=? ORDER BY seq DESC LIMIT 1", (game_id,))
        return r[0] if r else None

    async def set_seat_holder(self, game_id: int, seat: str, user_id: int) -> None:
        await self._write("UPDATE seats SET user_id=? WHERE game_id=? AND seat=?", (user_id, game_id, seat))

    async def active_games_of(self, user_id: int) -> list[int]:
        rows = await self._all("SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
                               " WHERE s.user_id=? AND g.status='active' AND " + shard_where(self.shard, "g.guild_id")
                               + " ORDER BY g.id", (user_id,))
        return [r[0] for r in rows]

    # ------------------------------------------------------------ deadlines
    async def clock(self, game_id: int) -> Clock | None:
        r = await self._one("SELECT * FROM clocks WHERE game_id=?", (game_id,))
        return Clock(**dict(r)) if r else None

    async def count_live_games(self) -> int:
        return (await self._one("SELECT COUNT(*) FROM games WHERE status IN ('open', 'active') AND "
                                + shard_where(self.shard, "guild_id")))[0]

    async def timers(self, game_id: int, pending_only: bool = False) -> list[Timer]:
        sql = "SELECT * FROM timers WHERE game_id=?" + (" AND fired_at IS NULL" if pending_only else "")
        return [Timer(**dict(r)) for r in await self._all(sql + " ORDER BY due_at, id", (game_id,))]

    async def timer(self, timer_id: int) -> Timer | None:
        r = await self._one("SELECT * FROM timers WHERE id=?", (timer_id,))
        return Timer(**dict(r)) if r else None

    async def due_timers(self, now: float) -> list[Timer]:
        rows = await self._all("SELECT t.* FROM timers t JOIN games g ON g.id = t.game_id WHERE t.fired_at IS NULL"
                               " AND t.due_at<=? AND " + shard_where(self.shard, "g.guild_id") + " ORDER BY t.due_at, t.id", (now,))
        return [Timer(**dict(r)) for r in rows]

    @staticmethod
    def _effect_sql(e: Effect) -> tuple[str, tuple]:
        if isinstance(e, FireTimer):
            return "UPDATE timers SET fired_at=? WHERE id=? AND fired_at IS NULL", (e.now, e.timer_id)
        if isinstance(e, PauseClock):
            return "UPDATE clocks SET paused_at=? WHERE game_id=?", (e.now, e.game_id)
        if isinstance(e, OutboxPost):
            return ("INSERT INTO outbox (game_id, channel_id, user_id, payload, created_at) VALUES (?,?,?,?,?)",
                    (e.game_id, e.channel_id, e.user_id, _dumps(e.payload), e.now))
        raise TypeError(f"not a storage effect: {e!r}")

    async def mark_sent(self, outbox_id: int, now: float) -> None:
        await self._write("UPDATE outbox SET sent_at=? WHERE id=?", (now, outbox_id))

    async def outbox(self, game_id: int) -> list[dict]:
        rows = await self._all("SELECT * FROM outbox WHERE game_id=? ORDER BY id", (game_id,))
        return [dict(r) | {"payload": json.loads(r["payload"])} for r in rows]

    # ------------------------------------------------------------ private delivery (issue 25)
    async def record_delivery(self, game_id: int | None, seat: str | None, user_id: int, via: str, now: float) -> None:
        await self._write("INSERT INTO deliveries (game_id, seat, user_id, via, at) VALUES (?,?,?,?,?)",
                          (game_id, seat, user_id, via, now))

    async def delivery_counts(self, game_id: int) -> list[tuple[str | None, int, str, int]]:
        """(seat, user, via, how many) of the private messages of a game that a DM did not carry."""
        rows = await self._all("SELECT seat, user_id, via, COUNT(*) FROM deliveries WHERE game_id=?"
                               " GROUP BY seat, user_id, via ORDER BY seat, user_id, via", (game_id,))
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def hold_post(self, user_id: int, game_id: int | None, seat: str | None, text: str, now: float) -> None:
        """Keep a private message for the player's next command (shown to them alone)."""
        await self._write("INSERT INTO held_posts (user_id, game_id, seat, text, created_at) VALUES (?,?,?,?,?)",
                          (user_id, game_id, seat, text, now))

    async def held_posts(self, user_id: int) -> list[dict]:
        rows = await self._all("SELECT id, game_id, seat, text, created_at FROM held_posts"
                               " WHERE user_id=? AND shown_at IS NULL ORDER BY id", (user_id,))
        return [dict(r) for r in rows]

    async def mark_held_shown(self, ids: list[int], now: float) -> None:
        if ids:
            await self._write("UPDATE held_posts SET shown_at=? WHERE id IN (" + ",".join("?" * len(ids)) + ")",
                              (now, *ids))

    async def users_with_held_posts(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT DISTINCT user_id FROM held_posts WHERE shown_at IS NULL"
                                              " ORDER BY user_id")]

    # ------------------------------------------------------------ players
    async def prefs(self, user_id: int) -> Prefs:
        r = await self._one("SELECT * FROM prefs WHERE user_id=?", (user_id,))
        return Prefs(**dict(r)) if r else Prefs(user_id)

    async def set_prefs(self, p: Prefs) -> None:
        await self._write(
            "INSERT INTO prefs (user_id, quiet_from, quiet_to, tz, away_until, autoplay) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT(user_id) DO UPDATE SET quiet_from=excluded.quiet_from, quiet_to=excluded.quiet_to,"
            " tz=excluded.tz, away_until=excluded.away_until, autoplay=excluded.autoplay",
            (p.user_id, p.quiet_from, p.quiet_to, p.tz, p.away_until, int(bool(p.autoplay))))

    # ------------------------------------------------------------ seats that stay filled (issue 28)
    async def record(self, user_id: int) -> PlayerRecord:
        r = await self._one("SELECT * FROM player_records WHERE user_id=?", (user_id,))
        return PlayerRecord(**{k: int(v) for k, v in dict(r).items()}) if r else PlayerRecord(user_id)

    async def add_record(self, user_id: int, **deltas: int) -> None:
        """Add to a player's counts (one statement: two processes adding at once both count)."""
        bad = set(deltas) - set(PlayerRecord.FIELDS)
        if bad:
            raise ValueError(f"not a record field: {sorted(bad)}")
        if not deltas:
            return
        cols = sorted(deltas)
        await self._write(
            "INSERT INTO player_records (user_id, " + ", ".join(cols) + ") VALUES (?" + ",?" * len(cols) + ")"
            " ON CONFLICT(user_id) DO UPDATE SET " + ", ".join(f"{c}=player_records.{c}+excluded.{c}" for c in cols),
            (user_id, *(int(deltas[c]) for c in cols)))

    async def part_finished(self, game_id: int, seat: str, user_id: int, now: float) -> None:
        """A holder finished their part of a phase by their own order (issue 28), one transaction: on time
        if the phase had a deadline and it had not passed (a record measures reliability against deadlines:
        a phase without one, in a game without deadlines or while its clock is paused, counts neither way),
        and the seat is theirs again (no deadline missed in a row, off autopilot, no takeover asked for)."""
        await self._steps([
            ("INSERT INTO player_records (user_id, phases_on_time) SELECT ?, 1 WHERE EXISTS"
             " (SELECT 1 FROM clocks WHERE game_id=? AND deadline_at IS NOT NULL AND deadline_at >= ?)"
             " ON CONFLICT(user_id) DO UPDATE SET phases_on_time=player_records.phases_on_time+1",
             (user_id, game_id, now)),
            ("UPDATE seat_states SET missed_in_row=0, autopilot=0, takeover=NULL WHERE game_id=? AND seat=?"
             " AND (missed_in_row<>0 OR autopilot<>0 OR takeover IS NOT NULL)", (game_id, seat))])

    async def seat_states(self, game_id: int) -> dict[str, SeatState]:
        rows = await self._all("SELECT * FROM seat_states WHERE game_id=? ORDER BY seat", (game_id,))
        return {r["seat"]: SeatState(**dict(r)) for r in rows}

    async def set_seat_state(self, st: SeatState) -> None:
        await self._write(
            "INSERT INTO seat_states (game_id, seat, missed_in_row, autopilot, checked_in, takeover, missed_timer)"
            " VALUES (?,?,?,?,?,?,?) ON CONFLICT(game_id, seat) DO UPDATE SET missed_in_row=excluded.missed_in_row,"
            " autopilot=excluded.autopilot, checked_in=excluded.checked_in, takeover=excluded.takeover,"
            " missed_timer=excluded.missed_timer",
            (st.game_id, st.seat, int(st.missed_in_row), int(st.autopilot), int(st.checked_in),
             _dumps({**st.takeover, "votes": {str(k): v for k, v in st.takeover.get("votes", {}).items()}})
             if st.takeover else None, st.missed_timer))

    async def count_missed(self, game_id: int, seat: str, user_id: int, timer_id: int, autopilot_after: int) -> bool:
        """A deadline (timer ``timer_id``) passed with the seat still to act (issue 28), one transaction:
        the seat's misses in a row (on autopilot from ``autopilot_after`` of them, if set) and its holder's
        missed phase. Counted once per deadline: False (nothing written) if this one was counted already."""
        try:
            await self._steps([
                ("INSERT INTO seat_states (game_id, seat, missed_in_row, autopilot, checked_in, missed_timer)"
                 " VALUES (?,?,1,?,0,?) ON CONFLICT(game_id, seat) DO UPDATE SET"
                 " missed_in_row=seat_states.missed_in_row+1, missed_timer=excluded.missed_timer,"
                 " autopilot=CASE WHEN ?>0 AND seat_states.missed_in_row+1>=? THEN 1 ELSE seat_states.autopilot END"
                 " WHERE seat_states.missed_timer IS NULL OR seat_states.missed_timer<>excluded.missed_timer",
                 (game_id, seat, int(0 < autopilot_after <= 1), timer_id, autopilot_after, autopilot_after)),
                ("INSERT INTO player_records (user_id, phases_missed) VALUES (?,1) ON CONFLICT(user_id)"
                 " DO UPDATE SET phases_missed=player_records.phases_missed+1", (user_id,))], fenced=True)
        except StaleWriter:
            return False
        return True

    async def departed(self, game_id: int) -> set[str]:
        """The seats whose holder left the running game (``DEPARTED``; also read with ``order_context``)."""
        return {r[0] for r in await self._all(self.DEPARTED.format(game="?"), (game_id,))}

    async def seat_history(self, game_id: int) -> list[dict]:
        """Who held each seat from when to when (``to_at`` None: holds it now), in order."""
        rows = await self._all("SELECT seat, user_id, from_at, to_at, how FROM seat_history WHERE game_id=?"
                               " ORDER BY id", (game_id,))
        return [dict(r) for r in rows]

    async def seat_changed(self, game_id: int, seat: str, user_id: int | None, now: float, how: str = "join") -> None:
        """One transaction: the seat's current holding ends now; ``user_id`` (if any) holds it from now."""
        steps = [("UPDATE seat_history SET to_at=? WHERE game_id=? AND seat=? AND to_at IS NULL", (now, game_id, seat))]
        if user_id is not None:
            steps.append(("INSERT INTO seat_history (game_id, seat, user_id, from_at, how) VALUES (?,?,?,?,?)",
                          (game_id, seat, user_id, now, how)))
        await self._steps(steps)

    async def _games_with_seats(self, where: str, params: tuple) -> list[GameRow]:
        rows = await self._all(
            "SELECT (SELECT " + self.SEATS_JSON + " FROM seats s WHERE s.game_id = g.id) AS ctx_seats, g.*"
            " FROM games g WHERE g.status IN ('open','active') AND " + where + " ORDER BY g.id", params)
        out = []
        for r in rows:
            d = dict(r)
            seats = d.pop("ctx_seats")
            row = GameRow.from_row(d)
            row.seats = {k: int(v) for k, v in json.loads(seats).items()} if seats else {}
            out.append(row)
        return out

    async def games_of(self, user_id: int) -> list[GameRow]:
        """Every live game, in any server, where ``user_id`` holds a seat (with its seats)."""
        return await self._games_with_seats("g.id IN (SELECT game_id FROM seats WHERE user_id=?)", (user_id,))

    async def open_games(self, guild_id: int) -> list[GameRow]:
        """Every live game of a server (with its seats): the caller sees which have a seat to fill."""
        return await self._games_with_seats("g.guild_id=?", (guild_id,))

    async def undo_request(self, req_id: int) -> dict | None:
        r = await self._one("SELECT * FROM undo_requests WHERE id=?", (req_id,))
        if not r:
            return None
        d = dict(r)
        d["needed"] = json.loads(d["needed"])
        d["votes"] = {int(k): v for k, v in json.loads(d["votes"]).items()}
        return d

    async def update_undo_request(self, req_id: int, *, votes: dict | None = None, status: str | None = None) -> None:
        async with self.transaction() as tx:
            if votes is not None:
                await tx.execute("UPDATE undo_requests SET votes=? WHERE id=?",
                                 (_dumps({str(k): v for k, v in votes.items()}), req_id))
            if status is not None:
                await tx.execute("UPDATE undo_requests SET status=? WHERE id=?", (status, req_id))

    async def append_action(self, *, game_id: int, seq: int, seat: str, user_id: int | None, text: str,
                            interaction_id: str | None, dice_before: int, dice_after: int, events: list,
                            now: float, snapshot: dict | None, response: dict | None,
                            status: str | None = None, kind: str = "order", ref_seq: int | None = None,
                            also: list[Effect] = ()) -> None:
        """One transaction: the log row, the game's counter, the snapshot at a
        new phase, the answer kept for a redelivered interaction, and ``also``
        (effects that must happen with it: a timer marked fired, an outbox
        row). The counter is a fencing check: a writer whose view of the game
        is stale (``seq - 1`` is no longer the game's counter) is refused, and so is the
        write of an interaction already answered (a redelivery, when the order started from
        a remembered context, bot/storage/contexts.py)."""
        steps = [self._fence(game_id, seq, interaction_id),
                 ("INSERT INTO actions (game_id, seq, seat, user_id, text, interaction_id, dice_before,"
                  " dice_after, events, created_at, kind, ref_seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                  (game_id, seq, seat, user_id, text, interaction_id, dice_before, dice_after,
                   _dumps(events), now, kind, ref_seq))]
        steps += [self._effect_sql(e) for e in also]
        if snapshot is not None:
            steps.append(("INSERT INTO snapshots (game_id, seq, state) VALUES (?,?,?)",
                          (game_id, seq, _dumps_state(snapshot))))
        if response is not None and interaction_id:
            steps.append(("INSERT INTO responses (interaction_id, game_id, response, created_at) VALUES (?,?,?,?)",
                          (interaction_id, game_id, _dumps(response), now)))
        if status:
            steps.append(("UPDATE games SET status=?, ended_at=? WHERE id=?", (status, now, game_id)))
        await self._steps(steps, fenced=True, keeps_contexts=True)
        self.contexts.advanced(game_id, seq, status)

    @staticmethod
    def _fence(game_id: int, seq: int, interaction_id: str | None) -> tuple[str, tuple]:
        if interaction_id is None:
            return "UPDATE games SET seq=? WHERE id=? AND seq=?", (seq, game_id, seq - 1)
        return ("UPDATE games SET seq=? WHERE id=? AND seq=? AND NOT EXISTS"
                " (SELECT 1 FROM responses WHERE interaction_id=?)", (seq, game_id, seq - 1, interaction_id))

    async def set_clock(self, clock: Clock, timers: list[tuple[str, str, float]] | None) -> None:
        """One transaction: the game's clock; with ``timers``, every unfired timer of the game is
        replaced by these (kind, seat, due); a timer already fired at the same moment is not
        scheduled again."""
        steps = [("INSERT INTO clocks (game_id, phase_key, started_at, extra, paused_at, deadline_at, synced_seq)"
                  " VALUES (?,?,?,?,?,?,?) ON CONFLICT(game_id) DO UPDATE SET phase_key=excluded.phase_key,"
                  " started_at=excluded.started_at, extra=excluded.extra, paused_at=excluded.paused_at,"
                  " deadline_at=excluded.deadline_at, synced_seq=excluded.synced_seq",
                  (clock.game_id, clock.phase_key, clock.started_at, clock.extra, clock.paused_at,
                   clock.deadline_at, clock.synced_seq))]
        if timers is not None:
            steps.append(("DELETE FROM timers WHERE game_id=? AND fired_at IS NULL", (clock.game_id,)))
            steps += [("INSERT INTO timers (game_id, phase_key, kind, seat, due_at) VALUES (?,?,?,?,?)"
                       " ON CONFLICT DO NOTHING", (clock.game_id, clock.phase_key, kind, seat, due))
                      for kind, seat, due in timers]
        await self._steps(steps)

    # ------------------------------------------------------------ between games (issue 41)
    async def finished_game(self, channel_id: int) -> GameRow | None:
        """The channel's most recent game that is over (with a result, or ended by `/game end`)."""
        r = await self._one("SELECT * FROM games WHERE channel_id=? AND status IN ('over','ended')"
                            " ORDER BY id DESC LIMIT 1", (channel_id,))
        return GameRow.from_row(r) if r else None

    async def finished_games_of(self, user_id: int, since: float) -> list[GameRow]:
        """The games that ended after ``since`` in which ``user_id`` held a seat at the end, oldest first."""
        rows = await self._all("SELECT g.* FROM games g WHERE g.status IN ('over','ended') AND g.ended_at>?"
                               " AND g.id IN (SELECT game_id FROM seats WHERE user_id=?) ORDER BY g.ended_at, g.id",
                               (since, user_id))
        return [GameRow.from_row(r) for r in rows]

    async def open_undo_requests(self, game_id: int) -> list[dict]:
        """A game's undo requests still waiting for their votes."""
        rows = await self._all("SELECT id FROM undo_requests WHERE game_id=? AND status='open' ORDER BY id", (game_id,))
        return [await self.undo_request(r[0]) for r in rows]

    # a server's saved set-ups
    async def save_template(self, guild_id: int, name_key: str, name: str, ruleset: str, options: str,
                            creator_id: int, now: float) -> bool:
        """False (nothing written) if the server has a set-up of that name (``name_key``: its folded form)."""
        n = await self._write("INSERT INTO templates (guild_id, name_key, name, ruleset, options, creator_id, created_at)"
                              " VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                              (guild_id, name_key, name, ruleset, options, creator_id, now))
        return (n[0] if isinstance(n, tuple) else n) == 1

    async def template(self, guild_id: int, name_key: str) -> dict | None:
        r = await self._one("SELECT * FROM templates WHERE guild_id=? AND name_key=?", (guild_id, name_key))
        return dict(r) if r else None

    async def templates(self, guild_id: int) -> list[dict]:
        return [dict(r) for r in await self._all("SELECT * FROM templates WHERE guild_id=? ORDER BY name_key",
                                                 (guild_id,))]

    async def delete_template(self, guild_id: int, name_key: str) -> bool:
        n = await self._write("DELETE FROM templates WHERE guild_id=? AND name_key=?", (guild_id, name_key))
        return (n[0] if isinstance(n, tuple) else n) == 1

    # a finished game's rematch proposal (one row a game; ``round`` counts its proposals)
    @staticmethod
    def _rematch_of(r) -> dict:
        d = dict(r)
        d["seats"] = {k: int(v) for k, v in json.loads(d["seats"]).items()}
        d["confirmed"] = [int(u) for u in json.loads(d["confirmed"])]
        d["swap"] = bool(d["swap"])
        return d

    async def rematch(self, game_id: int) -> dict | None:
        r = await self._one("SELECT * FROM rematches WHERE game_id=?", (game_id,))
        return self._rematch_of(r) if r else None

    async def propose_rematch(self, game_id: int, *, channel_id: int, guild_id: int | None, swap: bool,
                              seats: dict[str, int], by_user: int, confirmed: list[int], now: float) -> int:
        """A new proposal (``confirmed``: its proposer, if a player) replacing a declined one; returns its round."""
        await self._write(
            "INSERT INTO rematches (game_id, round, channel_id, guild_id, swap, seats, confirmed, status, by_user,"
            " created_at) VALUES (?,1,?,?,?,?,?,'open',?,?) ON CONFLICT(game_id) DO UPDATE SET"
            " round=rematches.round+1, channel_id=excluded.channel_id, guild_id=excluded.guild_id,"
            " swap=excluded.swap, seats=excluded.seats, confirmed=excluded.confirmed, status='open',"
            " by_user=excluded.by_user, created_at=excluded.created_at, new_game_id=NULL",
            (game_id, channel_id, guild_id, int(bool(swap)), _dumps(seats), _dumps(sorted(set(confirmed))), by_user, now))
        return (await self.rematch(game_id))["round"]

    async def set_rematch(self, game_id: int, *, confirmed: list[int], status: str,
                          new_game_id: int | None = None) -> None:
        await self._write("UPDATE rematches SET confirmed=?, status=?, new_game_id=? WHERE game_id=?",
                          (_dumps(sorted(set(confirmed))), status, new_game_id, game_id))

    async def open_rematches(self) -> list[dict]:
        """Every proposal still waiting for its players (few: each lives until its players answer)."""
        return [self._rematch_of(r) for r in await self._all("SELECT * FROM rematches WHERE status='open'"
                                                             " ORDER BY game_id")]

    # a player's daily digest
    async def digest(self, user_id: int) -> dict | None:
        r = await self._one("SELECT * FROM digests WHERE user_id=?", (user_id,))
        return dict(r) if r else None

    async def set_digest(self, user_id: int, at: str | None, due_at: float | None, now: float) -> None:
        """``at`` (local hh:mm) and its first ``due_at``; None: no digest. Results count from ``now`` on."""
        if at is None:
            await self._write("DELETE FROM digests WHERE user_id=?", (user_id,))
            return
        await self._write("INSERT INTO digests (user_id, at, due_at, last_at) VALUES (?,?,?,?) ON CONFLICT(user_id)"
                          " DO UPDATE SET at=excluded.at, due_at=excluded.due_at,"
                          " last_at=COALESCE(digests.last_at, excluded.last_at)", (user_id, at, due_at, now))

    async def due_digests(self, now: float) -> list[dict]:
        return [dict(r) for r in await self._all("SELECT * FROM digests WHERE due_at<=? ORDER BY due_at, user_id",
                                                 (now,))]

    async def digest_done(self, user_id: int, due_at: float, next_due: float, post: OutboxPost | None,
                          now: float) -> bool:
        """One transaction: the digest that fell due at ``due_at`` moves on to ``next_due``, and ``post`` (if there
        was something to say; then the results count from ``now``) goes to the outbox. False (nothing written) if
        that digest was dealt with already (another process, a second pass): it is sent once."""
        steps = [("UPDATE digests SET due_at=?, last_at=" + ("?" if post is not None else "last_at")
                  + " WHERE user_id=? AND due_at=?",
                  (next_due, now, user_id, due_at) if post is not None else (next_due, user_id, due_at))]
        if post is not None:
            steps.append(self._effect_sql(post))
        try:
            await self._steps(steps, fenced=True)
        except StaleWriter:
            return False
        return True
    # ------------------------------------------------------------ results (issue 41)
    @staticmethod
    def _guild_is(col: str, guild_id: int | None) -> tuple[str, tuple]:
        return (f"{col} IS NULL", ()) if guild_id is None else (f"{col}=?", (guild_id,))

    async def save_result(self, res: GameResult) -> None:
        """One transaction: a finished game's result and its players. A game's result is kept once: a second
        save (the backfill meeting a result kept meanwhile) changes nothing."""
        steps = [("INSERT INTO results (game_id, guild_id, ruleset, scenario, options, winners, grade, turns, days,"
                  " holders, rated, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id) DO NOTHING",
                  (res.game_id, res.guild_id, res.ruleset, res.scenario, _dumps(res.options), _dumps(res.winners),
                   res.grade, res.turns, float(res.days), _dumps(res.holders), int(res.rated), float(res.ended_at)))]
        steps += [("INSERT INTO result_players (game_id, seat, user_id, outcome, rated) VALUES (?,?,?,?,?)"
                   " ON CONFLICT (game_id, seat, user_id) DO NOTHING", (res.game_id, seat, uid, outcome, int(rated)))
                  for seat, uid, outcome, rated in res.players]
        await self._steps(steps, keeps_contexts=True)  # (no live game's context changes)

    async def result(self, game_id: int) -> GameResult | None:
        r = await self._one("SELECT * FROM results WHERE game_id=?", (game_id,))
        if r is None:
            return None
        d = dict(r)
        players = await self._all("SELECT seat, user_id, outcome, rated FROM result_players WHERE game_id=?"
                                  " ORDER BY seat, user_id", (game_id,))
        return GameResult(game_id=d["game_id"], guild_id=d["guild_id"], ruleset=d["ruleset"], scenario=d["scenario"],
                          options=json.loads(d["options"]), winners=json.loads(d["winners"]), grade=d["grade"],
                          turns=d["turns"], days=d["days"], holders=json.loads(d["holders"]), rated=bool(d["rated"]),
                          ended_at=d["ended_at"], players=[(p[0], p[1], p[2], bool(p[3])) for p in players], n=d["n"])

    async def games_without_result(self, limit: int = 500) -> list[int]:
        """Games over (a result: not ended by `/game end`) whose result is not kept yet, oldest end first: those
        that ended before schema 8, or whose result a crash kept from being written."""
        rows = await self._all("SELECT g.id FROM games g LEFT JOIN results r ON r.game_id = g.id"
                               " WHERE g.status = 'over' AND r.game_id IS NULL AND " + shard_where(self.shard, "g.guild_id")
                               + " ORDER BY g.ended_at, g.id LIMIT ?", (limit,))
        return [r[0] for r in rows]

    async def result_counts(self, guild_id: int | None, ruleset: str | None = None) -> list[tuple]:
        """A server's finished games by (ruleset, scenario, winners): ``(ruleset, scenario, winners JSON, games,
        sum of turns, games with turns, sum of days)``, one aggregate statement."""
        where, params = self._guild_is("guild_id", guild_id)
        if ruleset:
            where, params = where + " AND ruleset=?", params + (ruleset,)
        rows = await self._all("SELECT ruleset, scenario, winners, COUNT(*), SUM(turns), COUNT(turns), SUM(days)"
                               " FROM results WHERE " + where + " GROUP BY ruleset, scenario, winners"
                               " ORDER BY ruleset, scenario, winners", params)
        return [tuple(r) for r in rows]

    async def player_result_counts(self, guild_id: int | None, user_id: int,
                                   ruleset: str | None = None) -> list[tuple[str, str, str, int]]:
        """A player's results in a server: ``(ruleset, seat, outcome, games)``."""
        where, params = self._guild_is("r.guild_id", guild_id)
        if ruleset:
            where, params = where + " AND r.ruleset=?", params + (ruleset,)
        rows = await self._all("SELECT r.ruleset, p.seat, p.outcome, COUNT(*) FROM result_players p"
                               " JOIN results r ON r.game_id = p.game_id WHERE p.user_id=? AND " + where +
                               " GROUP BY r.ruleset, p.seat, p.outcome ORDER BY r.ruleset, p.seat, p.outcome",
                               (user_id, *params))
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    async def player_totals(self, guild_id: int | None, ruleset: str | None = None) -> list[tuple[int, int, int]]:
        """Every player of a server's finished games: ``(user, games, wins)``, most wins first."""
        where, params = self._guild_is("r.guild_id", guild_id)
        if ruleset:
            where, params = where + " AND r.ruleset=?", params + (ruleset,)
        rows = await self._all("SELECT p.user_id, COUNT(DISTINCT p.game_id),"
                               " SUM(CASE WHEN p.outcome = 'win' THEN 1 ELSE 0 END) FROM result_players p"
                               " JOIN results r ON r.game_id = p.game_id WHERE " + where +
                               " GROUP BY p.user_id ORDER BY 3 DESC, 2 DESC, p.user_id", params)
        return [(r[0], r[1], r[2]) for r in rows]

    async def rated_results(self, guild_id: int | None, ruleset: str,
                            after_n: int = 0) -> list[tuple[int, list[tuple[str, int, str]]]]:
        """A server's rated games of one ruleset after ``after_n``, in the order their results were kept:
        ``(n, [(seat, user, outcome), ...])``, the players who count for the ratings."""
        where, params = self._guild_is("r.guild_id", guild_id)
        rows = await self._all("SELECT r.n, p.seat, p.user_id, p.outcome FROM results r JOIN result_players p"
                               " ON p.game_id = r.game_id AND p.rated = 1 WHERE r.rated = 1 AND r.ruleset=? AND r.n>?"
                               " AND " + where + " ORDER BY r.n, p.seat, p.user_id", (ruleset, after_n, *params))
        out: list[tuple[int, list[tuple[str, int, str]]]] = []
        for n, seat, uid, outcome in rows:
            if not out or out[-1][0] != n:
                out.append((n, []))
            out[-1][1].append((seat, uid, outcome))
        return out

    async def rated_rulesets(self, guild_id: int | None) -> list[str]:
        where, params = self._guild_is("guild_id", guild_id)
        return [r[0] for r in await self._all("SELECT DISTINCT ruleset FROM results WHERE rated = 1 AND " + where
                                              + " ORDER BY ruleset", params)]
