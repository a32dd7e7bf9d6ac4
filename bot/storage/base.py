"""The storage interface: row types, the effects a transaction carries, and the
``Store`` protocol every backend implements (``bot/storage/sqlite.py``, the default;
``bot/storage/postgres.py``, shared by several processes).

**The contract every backend keeps** (issue 18): one writer at a time. Every
statement and every transaction is serialized store-wide (SQLite: one lock over
one connection; PostgreSQL: a pooled connection per transaction), so one game's
write never lands inside, or is rolled back with, another game's transaction.
``append_action`` fences a stale writer: it commits only if the game's counter
is still the one the writer read, checked in the same transaction before anything
is written (:class:`StaleWriter` otherwise). Nothing outside ``bot/storage/`` writes SQL:
the service describes what must commit together as *effects*
(:class:`FireTimer`, :class:`PauseClock`, :class:`OutboxPost`), and the backend
turns them into its own statements."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Protocol


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
    # seat -> holder, as read together with the row by ``Store.order_context`` (None when the row was
    # read alone). Current only while nothing has changed a seat since: a command that takes, gives
    # up or hands over a seat reads ``Store.seats`` afterwards, never these
    seats: dict[str, int] | None = field(default=None, compare=False, repr=False)
    # the seats whose holder left the running game (issue 28: ``Table.departed``), read with ``seats``, and
    # current under the same terms
    departed: frozenset[str] | None = field(default=None, compare=False, repr=False)
    # where the game's status board is ("channel:message", "" if it has none), read with ``seats`` under the
    # same terms (its setting is written by a command that is no order: ``ContextCache.written``)
    board: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_row(cls, r) -> "GameRow":
        d = dict(r)
        d["options"] = json.loads(d["options"]) if isinstance(d["options"], str) else d["options"]
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
    synced_seq: int = 0  # the game's log position this clock was derived at


@dataclass
class Prefs:
    user_id: int
    quiet_from: str | None = None
    quiet_to: str | None = None
    tz: str | None = None
    away_until: float | None = None
    autoplay: bool = False  # issue 28 (`/me autoplay`): the bot plays the player's forced actions

    def __post_init__(self):
        self.autoplay = bool(self.autoplay)


@dataclass
class PlayerRecord:
    """A player's record across every server (issue 28): nothing else about them is kept."""
    user_id: int
    games_finished: int = 0
    games_abandoned: int = 0
    phases_on_time: int = 0
    phases_missed: int = 0  # a deadline passed with their orders incomplete
    seats_taken_over: int = 0  # seats they took over from someone else
    seats_lost: int = 0  # their seats someone else took over

    FIELDS = ("games_finished", "games_abandoned", "phases_on_time", "phases_missed", "seats_taken_over",
              "seats_lost")

    @property
    def phases(self) -> int:
        return self.phases_on_time + self.phases_missed

    @property
    def ontime_percent(self) -> float | None:
        """Phases on time out of phases counted, in percent; None for a player with none yet."""
        return None if not self.phases else 100.0 * self.phases_on_time / self.phases


@dataclass
class SeatState:
    """A seat's standing in a game (issue 28): deadlines missed in a row, on autopilot, checked in,
    and a takeover asked for (``{"user": id, "votes": {user id: true|false}}``) or None."""
    game_id: int
    seat: str
    missed_in_row: int = 0
    autopilot: bool = False
    checked_in: bool = False
    takeover: dict | None = None
    missed_timer: int | None = None  # the deadline whose miss was counted last (counted once, even after a crash)

    def __post_init__(self):
        self.autopilot, self.checked_in = bool(self.autopilot), bool(self.checked_in)
        if isinstance(self.takeover, str):
            self.takeover = json.loads(self.takeover)
            if self.takeover and "votes" in self.takeover:
                self.takeover["votes"] = {int(k): v for k, v in self.takeover["votes"].items()}




@dataclass
class GameResult:
    """A finished game's result (issue 41), kept once it ends: the winning seats (none: a draw), the grade of
    victory where the rules grade it, turns played, days taken, every seat's holders over time
    (``holders``: seat -> ``[user, from, to, how]`` tenures), the ruleset (without its level of play), its
    scenario options (``scenario``: ``k=v`` the ruleset's own, sorted) and all options, whether it counts for
    the ratings, and each seat's players with their outcome (``players``: ``(seat, user, outcome, rated)``,
    outcome ``win``, ``loss``, ``draw`` or ``left``, a holder who left before the end). ``n``: the order results
    were kept in (the ratings' order)."""
    game_id: int
    guild_id: int | None
    ruleset: str
    scenario: str
    options: dict
    winners: list[str]
    grade: str | None
    turns: int | None
    days: float
    holders: dict[str, list]
    rated: bool
    ended_at: float
    players: list[tuple[str, int, str, bool]] = field(default_factory=list)
    n: int | None = None


# ----------------------------------------------------------------------------- effects
@dataclass(frozen=True)
class FireTimer:
    """Mark a timer fired (only if it had not fired: the first effect of a batch)."""
    timer_id: int
    now: float


@dataclass(frozen=True)
class PauseClock:
    """Pause a game's clock (a deadline with the `pause` policy)."""
    game_id: int
    now: float


@dataclass(frozen=True)
class OutboxPost:
    """A post for the scheduler to send: to a channel, or by DM to a user."""
    game_id: int | None
    payload: dict
    now: float
    channel_id: int | None = None
    user_id: int | None = None


Effect = FireTimer | PauseClock | OutboxPost


@dataclass(frozen=True)
class ShardFilter:
    """The guilds one process serves (issue 16): Discord's shard of a guild is
    ``(guild_id >> 22) % count``; a process runs the shards ``ids``. Direct messages (no guild)
    belong to shard 0, as on Discord's gateway. A store with a filter (``store.shard``) limits its
    process-wide scans (due timers, the outbox, undelivered answers, the games loaded at start-up)
    to these guilds; reads and writes of one game are not filtered."""
    ids: tuple[int, ...]
    count: int

    def __post_init__(self):
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {list(self.ids)} must be within 0..{self.count - 1}")

    @staticmethod
    def of(guild_id: int | None, count: int) -> int:
        return 0 if guild_id is None else (int(guild_id) >> 22) % count

    def owns(self, guild_id: int | None) -> bool:
        return self.of(guild_id, self.count) in self.ids

    def where(self, col: str) -> str:
        """A SQL condition (SQLite and PostgreSQL alike) on a guild id column."""
        ids = ", ".join(str(int(i)) for i in sorted(set(self.ids)))
        cond = f"((({col}) >> 22) % {int(self.count)}) IN ({ids})"
        return f"({cond} OR {col} IS NULL)" if 0 in self.ids else f"({cond} AND {col} IS NOT NULL)"


def shard_where(shard: "ShardFilter | None", col: str) -> str:
    return "1=1" if shard is None else shard.where(col)


class StaleWriter(RuntimeError):
    """``append_action`` refused: the game's counter is no longer ``seq - 1``. Another writer (a
    second process that believes it owns the game, or this one's stale copy) got there first; the
    order was not applied, and the caller must reload the game before trying again."""


class StorageError(RuntimeError):
    """The store cannot be opened: one line for the person who started the process, naming the file or
    the server and what to do (issue 39). ``status`` is the exit status the ``palantir`` command gives:
    2 when the path or url itself is wrong (no such folder, a folder where a file belongs, a place it
    cannot write, a source that does not exist: like a bad argument), 4 when the database there cannot
    be used (not a database, damaged, a log of another database beside it, locked by another process, a
    server that cannot be reached or refuses)."""

    def __init__(self, line: str, status: int = 4):
        super().__init__(line)
        self.status = status


class Store(Protocol):
    """What the service asks of storage. Every method is one transaction (or one read)."""

    path: str
    shard: ShardFilter | None  # this process's guilds, for the process-wide scans (None: every guild)

    async def close(self) -> None: ...
    async def schema_version(self) -> int: ...
    # games and seats
    async def create_game(self, *, channel_id: int, guild_id: int | None, ruleset: str, options: dict, seed: str,
                          commitment: str, creator_id: int, now: float, initial_state: dict,
                          deadline_rules: dict | None = None) -> int: ...
    async def live_game(self, channel_id: int) -> GameRow | None: ...
    async def latest_game(self, channel_id: int) -> GameRow | None: ...
    async def game(self, game_id: int) -> GameRow | None: ...
    async def live_game_ids(self) -> list[int]: ...
    async def set_status(self, game_id: int, status: str, now: float) -> None: ...
    async def seats(self, game_id: int) -> dict[str, int]: ...
    async def take_seat(self, game_id: int, seat: str, user_id: int, now: float) -> bool: ...
    async def release_seats(self, game_id: int, user_id: int) -> list[str]: ...
    async def set_seat_holder(self, game_id: int, seat: str, user_id: int) -> None: ...
    async def active_games_of(self, user_id: int) -> list[int]: ...
    async def order_context(self, channel_id: int, interaction_id: str | None
                            ) -> tuple[dict | None, GameRow | None]: ...
    def remembered_context(self, channel_id: int) -> GameRow | None: ...  # bot/storage/contexts.py
    # the log
    async def append_action(self, *, game_id: int, seq: int, seat: str, user_id: int | None, text: str,
                            interaction_id: str | None, dice_before: int, dice_after: int, events: list,
                            now: float, snapshot: dict | None, response: dict | None, status: str | None = None,
                            kind: str = "order", ref_seq: int | None = None, also: list[Effect] = ()) -> None: ...
    async def actions(self, game_id: int, after_seq: int = 0) -> list[ActionRow]: ...
    async def last_snapshot(self, game_id: int) -> tuple[int, dict]: ...
    async def first_snapshot(self, game_id: int) -> dict: ...
    async def snapshot_before(self, game_id: int, seq: int) -> tuple[int, dict]: ...
    async def last_action_time(self, game_id: int) -> float | None: ...
    # answers to interactions
    async def response_for(self, interaction_id: str) -> dict | None: ...
    async def save_response(self, interaction_id: str, game_id: int | None, response: dict, now: float) -> None: ...
    async def mark_delivered(self, interaction_id: str, now: float) -> None: ...
    async def undelivered(self, limit: int = 500) -> list[dict]: ...
    async def settle_undelivered(self, interaction_ids: list[str], posts: list[OutboxPost], now: float) -> None: ...
    # settings, clocks, timers, the outbox
    async def get_setting(self, key: str) -> str | None: ...
    async def set_setting(self, key: str, value: str) -> None: ...
    async def clock(self, game_id: int) -> Clock | None: ...
    async def set_clock(self, clock: Clock, timers: list[tuple[str, str, float]] | None) -> None: ...
    async def stale_clock_game_ids(self) -> list[int]: ...
    async def count_live_games(self) -> int: ...
    async def timers(self, game_id: int, pending_only: bool = False) -> list[Timer]: ...
    async def timer(self, timer_id: int) -> Timer | None: ...
    async def due_timers(self, now: float) -> list[Timer]: ...
    async def apply_effects(self, effects: list[Effect], *, first_must_change: bool = True) -> bool: ...
    async def pending_outbox(self, limit: int = 50) -> list[dict]: ...
    async def mark_sent(self, outbox_id: int, now: float) -> None: ...
    async def outbox(self, game_id: int) -> list[dict]: ...
    # private messages a DM could not carry (issue 25)
    async def record_delivery(self, game_id: int | None, seat: str | None, user_id: int, via: str, now: float) -> None: ...
    async def delivery_counts(self, game_id: int) -> list[tuple[str | None, int, str, int]]: ...
    async def hold_post(self, user_id: int, game_id: int | None, seat: str | None, text: str, now: float) -> None: ...
    async def held_posts(self, user_id: int) -> list[dict]: ...
    async def mark_held_shown(self, ids: list[int], now: float) -> None: ...
    async def users_with_held_posts(self) -> list[int]: ...
    # players, undo requests
    async def prefs(self, user_id: int) -> Prefs: ...
    async def set_prefs(self, p: Prefs) -> None: ...
    async def create_undo_request(self, *, game_id: int, seat: str, user_id: int, target_seq: int, at_seq: int,
                                  needed: list[str], now: float) -> int: ...
    async def undo_request(self, req_id: int) -> dict | None: ...
    # seats that stay filled (issue 28)
    async def record(self, user_id: int) -> PlayerRecord: ...
    async def add_record(self, user_id: int, **deltas: int) -> None: ...
    async def part_finished(self, game_id: int, seat: str, user_id: int, now: float) -> None: ...
    async def count_missed(self, game_id: int, seat: str, user_id: int, timer_id: int, autopilot_after: int) -> bool: ...
    async def seat_states(self, game_id: int) -> dict[str, SeatState]: ...
    async def set_seat_state(self, st: SeatState) -> None: ...
    async def seat_history(self, game_id: int) -> list[dict]: ...
    async def departed(self, game_id: int) -> set[str]: ...
    async def seat_changed(self, game_id: int, seat: str, user_id: int | None, now: float, how: str = "join") -> None: ...
    async def games_of(self, user_id: int) -> list[GameRow]: ...
    async def open_games(self, guild_id: int) -> list[GameRow]: ...
    async def update_undo_request(self, req_id: int, *, votes: dict | None = None, status: str | None = None) -> None: ...
    # between games (issue 41): a rematch, saved set-ups, the daily digest
    async def finished_game(self, channel_id: int) -> GameRow | None: ...
    async def finished_games_of(self, user_id: int, since: float) -> list[GameRow]: ...
    async def open_undo_requests(self, game_id: int) -> list[dict]: ...
    async def save_template(self, guild_id: int, name_key: str, name: str, ruleset: str, options: str,
                            creator_id: int, now: float) -> bool: ...
    async def template(self, guild_id: int, name_key: str) -> dict | None: ...
    async def templates(self, guild_id: int) -> list[dict]: ...
    async def delete_template(self, guild_id: int, name_key: str) -> bool: ...
    async def rematch(self, game_id: int) -> dict | None: ...
    async def propose_rematch(self, game_id: int, *, channel_id: int, guild_id: int | None, swap: bool,
                              seats: dict[str, int], by_user: int, confirmed: list[int], now: float) -> int: ...
    async def set_rematch(self, game_id: int, *, confirmed: list[int], status: str,
                          new_game_id: int | None = None) -> None: ...
    async def open_rematches(self) -> list[dict]: ...
    async def digest(self, user_id: int) -> dict | None: ...
    async def set_digest(self, user_id: int, at: str | None, due_at: float | None, now: float) -> None: ...
    async def due_digests(self, now: float) -> list[dict]: ...
    async def digest_done(self, user_id: int, due_at: float, next_due: float, post: OutboxPost | None,
                          now: float) -> bool: ...
    # results of finished games (issue 41)
    async def save_result(self, res: GameResult) -> None: ...
    async def result(self, game_id: int) -> GameResult | None: ...
    async def games_without_result(self, limit: int = 500) -> list[int]: ...
    async def result_counts(self, guild_id: int | None, ruleset: str | None = None) -> list[tuple]: ...
    async def player_result_counts(self, guild_id: int | None, user_id: int,
                                   ruleset: str | None = None) -> list[tuple[str, str, str, int]]: ...
    async def player_totals(self, guild_id: int | None, ruleset: str | None = None) -> list[tuple[int, int, int]]: ...
    async def rated_results(self, guild_id: int | None, ruleset: str,
                            after_n: int = 0) -> list[tuple[int, list[tuple[str, int, str]]]]: ...
    async def rated_rulesets(self, guild_id: int | None) -> list[str]: ...
