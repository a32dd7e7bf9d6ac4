"""The game service: everything a transport (Discord or the local console)
asks of a game, with one lock per channel, an order checked before anything
is written, one transaction per accepted order, and idempotency on the
interaction id that carried a command.

It returns ``Outcome`` objects; transports turn them into messages. Nothing
here imports discord.
"""
from __future__ import annotations

import asyncio
import functools
import json
import secrets
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from engine.core import Action, Game, OrderError, commitment, state_digest
from engine.rulesets import get_ruleset, ruleset_names
from bot import deadlines as dl
from bot.history import entry_of, is_blocking, walk
from bot.storage import Clock, FireTimer, GameRow, OutboxPost, PauseClock, Prefs
from bot.storage import StoreProtocol as Store

MAX_TEXT = 2000
MAX_ORDER_TEXT = 200
RECOVER_HOURS = 1.0  # an answer lost in a crash is announced at the next start if it is this recent
NEW_GAME_SECONDS = 10.0  # a new game's options and chart file are checked within this
REPEAT_MINUTES = 15.0  # and the same order from the same player is questioned once for this long


# --------------------------------------------------------------------------
# What a command produces
# --------------------------------------------------------------------------
@dataclass
class Post:
    text: str = ""
    image: bytes | None = None
    filename: str = "map.png"
    attachment: bytes | None = None  # any other file (e.g. the export)
    attachment_name: str = "file.bin"
    mentions: list[int] = field(default_factory=list)  # users this post may ping
    buttons: list[tuple[str, str]] = field(default_factory=list)  # (custom_id, label)
    # a DM whose very sending could tell something (hidden information that changed
    # mid-game): if it cannot be delivered, say so only to its own reader, never in public
    quiet: bool = False


@dataclass
class Outcome:
    reply: Post | None = None  # the answer to the caller
    ephemeral: bool = True  # whether that answer is private
    public: list[Post] = field(default_factory=list)  # further posts in the channel
    dms: dict[int, list[Post]] = field(default_factory=dict)  # user id -> private messages
    ok: bool = True
    replayed: bool = False  # answered from a redelivered interaction
    map_after: tuple[int, str | None] | None = None  # (game id, seat or None): post this map next
    # a phase's notice (what begins, who must act, the deadline): posted once, with map_after's image
    notice: Post | None = None
    elsewhere: dict[int, list[Post]] = field(default_factory=dict)  # channel (e.g. a new thread) -> posts

    @classmethod
    def error(cls, text: str) -> "Outcome":
        return cls(reply=Post(text=clip(text, 400)), ephemeral=True, ok=False)

    @classmethod
    def private(cls, text: str, **kw) -> "Outcome":
        return cls(reply=Post(text=text, **kw), ephemeral=True)

    @classmethod
    def public_reply(cls, text: str, **kw) -> "Outcome":
        return cls(reply=Post(text=text, **kw), ephemeral=False)


@dataclass
class Ctx:
    """Who is asking, where."""

    channel_id: int
    user_id: int
    guild_id: int | None = None
    interaction_id: str | None = None
    is_moderator: bool = False  # Manage Server in this guild
    user_name: str | None = None


class PlaceError(Exception):
    """The transport could not open the place (a thread) a new game was to live in; the
    message is shown to the caller privately."""


MAX_CHARTS_BYTES = 64 * 1024  # a chart file (attachment or console file) at most


def charts_text(data: bytes) -> str:
    """A chart file's bytes as text: at most 64 KB, UTF-8; ValueError (for the caller) otherwise."""
    if len(data) > MAX_CHARTS_BYTES:
        raise ValueError(f"the chart file is {len(data) // 1024} KB; at most {MAX_CHARTS_BYTES // 1024} KB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"the chart file is not UTF-8 text (byte {e.start})") from None
    if not text.strip():
        raise ValueError("the chart file is empty")
    return text


def fit_lines(lines: list[tuple[str, str]], limit: int = MAX_TEXT) -> str:
    """Join ``(kind, line)`` pairs into one message within ``limit`` characters, in order:
    ``keep`` lines (who must act and their pings, the deadline) always stay whole; ``trim``
    lines (the report) are cut from the end as needed; ``opt`` lines (a hint) go first."""
    lines = [(k, t) for k, t in lines if t]
    size = sum(len(t) + 1 for _, t in lines) - 1
    if size > limit:
        lines = [(k, t) for k, t in lines if k != "opt"]
    room = limit + 1 - sum(len(t) + 1 for k, t in lines if k == "keep")  # n lines, n - 1 line breaks
    out = []
    for k, t in lines:
        if k in ("keep", "opt"):
            out.append(t)
            continue
        if room <= 1:
            continue
        if len(t) + 1 <= room:
            out.append(t)
            room -= len(t) + 1
        else:
            out.append(clip(t, room - 1))
            room = 0
    return "\n".join(out)[:limit]


def public_text(rs, text: str) -> str:
    """An order as the public may read it (a ruleset may mask secret orders; ``rs`` None: a
    finished game, nothing is secret any more)."""
    return text if rs is None else rs.public_order_text(text)


def clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """Split on line breaks into chunks within Discord's message limit."""
    out, cur = [], ""
    for line in text.split("\n"):
        while len(line) > limit:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:limit])
            line = line[limit:]
        if len(cur) + len(line) + (1 if cur else 0) > limit:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur or not out:
        out.append(cur)
    return out


def parse_options(text: str | None) -> dict[str, str]:
    """``key=value`` pairs separated by spaces or commas."""
    if not text:
        return {}
    if len(text) > 500:
        raise ValueError("options are too long (500 characters at most)")
    out: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise ValueError(f"option `{clip(part, 30)}` is not key=value")
        k, _, v = part.partition("=")
        if not k or not v:
            raise ValueError(f"option `{clip(part, 30)}` is not key=value")
        out[k.strip().lower()] = v.strip()
    return out


Renderer = Callable[[dict, object, str | None], bytes]


def default_renderer(view: dict, hexmap, around: str | None = None) -> bytes:
    from render import render_view

    return render_view(view, hexmap, around=around)


def _locked(needs_game: bool = True):
    """A command that may change a game: under the channel's lock; a
    redelivered interaction is answered from storage, not run again; with
    ``needs_game`` the live game's row is passed in (or "no game here")."""

    def deco(fn):
        @functools.wraps(fn)
        async def wrapper(self: "GameService", ctx: Ctx, *args, **kw) -> Outcome:
            async with self.locks[ctx.channel_id]:
                if (r := await self._replayed(ctx)):
                    return r
                gid = None
                if needs_game:
                    row = await self._live(ctx)
                    if isinstance(row, Outcome):
                        return row
                    gid = row.id
                    out = await fn(self, ctx, row, *args, **kw)
                else:
                    out = await fn(self, ctx, *args, **kw)
                if out.ok and not out.replayed:
                    await self._remember(ctx, gid, out)
                return out

        return wrapper

    return deco


# --------------------------------------------------------------------------
# The service
# --------------------------------------------------------------------------
class GameService:
    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 renderer: Renderer | None = default_renderer, seed_source: Callable[[], str] | None = None,
                 roll_rng=None, deadline_defaults: dl.DeadlineRules | None = None):
        self.store = store
        # a game's deadlines when its options set none (the bot passes `[deadlines]` from its config)
        self.deadline_defaults = deadline_defaults or dl.DeadlineRules(0.0, "nag", (12.0, 2.0))
        self.on_timers_changed: Callable[[], None] | None = None  # the scheduler's wake-up
        self.clock = clock
        self.renderer = renderer
        self.seed_source = seed_source or (lambda: secrets.token_hex(32))
        self.roll_rng = roll_rng  # /roll dice: None means the system's unpredictable source
        self.games: dict[int, Game] = {}  # game id -> live game
        self.locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # channel id -> lock
        self.fixtures: dict[int, dict] = {}  # channel id -> fixture for the next new game (tests, tabletop)
        # (game id, user id) -> orders stored before a restart whose answer never reached the
        # player: [canonical text, log seq, until when a repeat is questioned]
        self.recovered: dict[tuple[int, int], list[tuple[str, int, float]]] = defaultdict(list)

    # ---------------------------------------------------------------- loading
    async def load(self, row: GameRow) -> Game:
        g = self.games.get(row.id)
        if g is None:
            g = await self.rebuild(row)
            self.games[row.id] = g
        return g

    async def rebuild(self, row: GameRow) -> Game:
        """The last snapshot plus the log after it."""
        seq, state = await self.store.last_snapshot(row.id)
        game = Game(get_ruleset(row.ruleset), state)
        for a in await self.store.actions(row.id, after_seq=seq):
            if a.kind != "order":  # an undo row always carries its own snapshot
                raise RuntimeError(f"game {row.id}: undo row #{a.seq} without a snapshot")
            if game.dice_drawn() != a.dice_before:
                raise RuntimeError(f"game {row.id}: dice counter mismatch before #{a.seq}")
            game.play(a.seat, a.text)
            if game.dice_drawn() != a.dice_after:
                raise RuntimeError(f"game {row.id}: dice counter mismatch after #{a.seq}")
        return game

    async def replay_from_start(self, row: GameRow) -> Game:
        """The first snapshot plus the whole log, undos honoured (for verification)."""
        game = Game(get_ruleset(row.ruleset), await self.store.first_snapshot(row.id))
        for _, game, _ in walk(row.ruleset, game.state, [entry_of(a) for a in await self.store.actions(row.id)]):
            pass
        return game

    async def warm(self) -> int:
        """Load every live game (start-up)."""
        n = 0
        for gid in await self.store.live_game_ids():
            row = await self.store.game(gid)
            game = await self.load(row)
            await self._sync_clock(row, game)  # a phase that changed just before a crash gets its clock
            n += 1
        return n

    async def announce_unanswered(self) -> int:
        """Start-up, before any command is taken: answers stored with their order but never
        delivered (the process died between the commit and the reply) are queued in the outbox,
        in the same transaction that marks them delivered: a public answer in the game's
        channel, a private one (a secret order's) by DM with only a neutral line in the channel.
        An answer older than ``RECOVER_HOURS`` is only marked. Each recovered order is
        remembered for ``REPEAT_MINUTES``: the same order from the same player is then questioned
        once instead of applied again (``order``). Returns how many were announced."""
        now = self.clock()
        items = await self.store.undelivered()
        ids, outbox, announced = [], [], 0
        for it in items:
            ids.append(it["interaction_id"])
            if it["game_id"] is None or it["channel_id"] is None or now - it["created_at"] > RECOVER_HOURS * 3600:
                continue
            resp, uid = it["response"], it["user_id"]
            ping = f"<@{uid}>, " if uid else ""
            what = f"your order `{clip(public_text(get_ruleset(it['ruleset']), it['text']), 200)}`" if it["seq"] is not None else "your command"
            new_phase = any(e.get("new_phase") for e in it["events"])
            tail = "\nA new phase began with it (the map below); `/game status` tells who acts." if new_phase else ""
            if resp.get("ephemeral"):
                if uid:
                    outbox.append(OutboxPost(it["game_id"], {"text": clip(
                        f"Recorded before a restart (I could not answer you then):\n{resp['text']}", MAX_TEXT)},
                        now, user_id=uid))
                line = f"{ping}a command of yours was recorded before a restart; its answer went to you privately.{tail}"
            else:
                line = f"{ping}{what} was recorded before a restart; I could not answer then. The answer was:\n{resp['text']}{tail}"
            payload = {"text": clip(line, MAX_TEXT), "mentions": [uid] if uid else []}
            if new_phase:
                payload["map"] = it["game_id"]  # the map as it stands now
            outbox.append(OutboxPost(it["game_id"], payload, now, channel_id=it["channel_id"]))
            if it["seq"] is not None and uid:
                self.recovered[(it["game_id"], uid)].append((it["text"], it["seq"], now + REPEAT_MINUTES * 60))
            announced += 1
        if ids:
            await self.store.settle_undelivered(ids, outbox, now)
            if self.on_timers_changed and outbox:
                self.on_timers_changed()  # the scheduler sends the outbox now
        return announced

    async def delivered(self, interaction_id: str) -> None:
        """The transport sent the answer to this interaction."""
        await self.store.mark_delivered(interaction_id, self.clock())

    def _repeat_after_restart(self, row: GameRow, ctx: Ctx, canon: str) -> Outcome | None:
        """An order equal to one recovered at start-up, from the same player, soon after the
        restart: asked about once, not applied (the player did not see the first answer and may
        be retrying it). Sent again, it is applied."""
        key = (row.id, ctx.user_id)
        pending = self.recovered.get(key)
        if not pending:
            return None
        now = self.clock()
        pending[:] = [p for p in pending if p[2] > now]
        for i, (text, seq, _) in enumerate(pending):
            if text == canon:
                del pending[i]
                return Outcome.error(
                    f"`{clip(canon, 200)}` was already applied (log #{seq}) just before a restart, so I did not apply "
                    "it again. If you mean to give the same order a second time, send it once more.")
        if not pending:
            del self.recovered[key]
        return None

    # --------------------------------------------------------------- helpers
    async def _replayed(self, ctx: Ctx) -> Outcome | None:
        if not ctx.interaction_id:
            return None
        r = await self.store.response_for(ctx.interaction_id)
        if r is None:
            return None
        return Outcome(reply=Post(text=r["text"]), ephemeral=r["ephemeral"], ok=r.get("ok", True), replayed=True)

    async def _remember(self, ctx: Ctx, game_id: int | None, out: Outcome) -> None:
        if ctx.interaction_id and out.reply:
            await self.store.save_response(ctx.interaction_id, game_id,
                                           {"text": out.reply.text, "ephemeral": out.ephemeral, "ok": out.ok},
                                           self.clock())

    async def _live(self, ctx: Ctx) -> GameRow | Outcome:
        row = await self.store.live_game(ctx.channel_id)
        if row is None:
            return Outcome.error("There is no game in this channel. Start one with `/game new`.")
        return row

    async def _current(self, ctx: Ctx) -> GameRow | Outcome:
        """The channel's game, live or finished (the latest one)."""
        row = await self.store.latest_game(ctx.channel_id)
        if row is None:
            return Outcome.error("There is no game in this channel. Start one with `/game new`.")
        return row

    def _can_admin(self, ctx: Ctx, row: GameRow) -> bool:
        return ctx.is_moderator or ctx.user_id == row.creator_id

    async def render_async(self, game: Game, seat: str | None, around: str | None = None) -> bytes | None:
        if self.renderer is None:
            return None
        view = game.view(seat)  # the view is taken now, under the lock; drawing may run in a thread
        return await asyncio.to_thread(self.renderer, view, game.ruleset.game_board().drawable, around)

    async def render_game(self, game_id: int, seat: str | None) -> tuple[bytes | None, str]:
        """The map of a game as it is now (for ``Outcome.map_after``)."""
        game = self.games.get(game_id)
        if game is None:
            row = await self.store.game(game_id)
            game = await self.load(row)
        head = self._phase_head(game.view(None)).strip("*")
        return await self.render_async(game, seat), f"Map: {head}. {self._map_hint(game)}"

    @staticmethod
    def seat_title(seat: str) -> str:
        return seat.replace("-", " ").title()

    @staticmethod
    def _phase_head(v: dict) -> str:
        """The bold status line: "Game-Turn N of M (day): <phase>" only for rulesets whose
        turns are numbered that way (numeric ``turns``); otherwise the phase title alone."""
        title = v.get("phase_title", "")
        turns, turn = v.get("turns"), v.get("turn")
        if isinstance(turns, int) and isinstance(turn, int):
            if turn == 0:
                return f"**Set-up: {title}**"
            light = f" ({'night' if v['night'] else 'day'})" if "night" in v else ""
            return f"**Game-Turn {turn} of {turns}{light}: {title}**"
        return f"**{title}**"

    def _to_act(self, v: dict, seats: dict[str, int], ping: bool) -> tuple[str, list[int]]:
        users, who = [], []
        for s in v.get("active", []):
            uid = seats.get(s)
            if uid is not None and ping:
                users.append(uid)
                who.append(f"{self.seat_title(s)} (<@{uid}>)")
            else:
                who.append(self.seat_title(s))
        return (f"To act: {', '.join(who)}." if who else ""), sorted(set(users))

    def _turn_line(self, game: Game, seats: dict[str, int], ping: bool) -> tuple[str, list[int]]:
        v = game.view(None)
        act, users = self._to_act(v, seats, ping)
        text = self._phase_head(v)
        if act:
            text += "\n" + act
        return text, users

    @staticmethod
    def _map_hint(game: Game) -> str:
        place = game.ruleset.game_board().kind
        return f"Open the map to read the counters; `/game map around:<{place}>` zooms in."

    async def _notice(self, game: Game, seats: dict[str, int], report: list[str], deadline: float | None,
                      *, before: list[str] = (), limit: int = MAX_TEXT) -> Post:
        """A phase's notice, one post with the map: what begins (a short report, trimmed if long),
        who must act (pinged, never trimmed), the deadline, a hint."""
        v = game.view(None)
        act, pings = self._to_act(v, seats, ping=True)
        lines = [("keep", t) for t in before] + [("keep", self._phase_head(v))]
        lines += [("trim", t) for t in report]
        tracks = v.get("tracks") or []
        if tracks:  # the demoralization (or score) tracks, on one line
            lines.append(("keep", clip("Tracks: " + " · ".join(
                f"{t['name']} {t['points']}/{t['level']}" + (" (demoralized)" if t.get("demoralized") else "")
                for t in tracks if isinstance(t, dict) and "points" in t), 300)))
        lines += [("keep", act)]
        if deadline:
            lines.append(("keep", f"Deadline: {dl.stamp(deadline)}."))
        lines.append(("opt", self._map_hint(game)))
        return Post(text=fit_lines(lines, limit), mentions=await self._awake(pings))

    def _changed_secrets(self, rs, seats: dict[str, int], before: dict, after: dict) -> dict[int, list[Post]]:
        """A seat's hidden information changed (an order, an undo): re-sent by DM,
        quietly (if it cannot be delivered, only its reader is told)."""
        out: dict[int, list[Post]] = defaultdict(list)
        for s, uid in seats.items():
            now = rs.secret_text(after, s)
            if now and now != rs.secret_text(before, s):
                out[uid].append(Post(text=f"**{self.seat_title(s)}** — your hidden information has changed:\n{now}",
                                     quiet=True))
        return dict(out)

    async def _secrets_dms(self, game: Game, seats: dict[str, int]) -> dict[int, list[Post]]:
        dms: dict[int, list[Post]] = defaultdict(list)
        for seat, uid in seats.items():
            text = game.ruleset.secret_text(game.state, seat)
            if text:
                dms[uid].append(Post(text=f"**{self.seat_title(seat)}** — hidden information, for you only:\n{text}"))
        return dict(dms)

    # -------------------------------------------------------------- commands
    @_locked(needs_game=False)
    async def new_game(self, ctx: Ctx, ruleset: str, options_text: str | None = None, *,
                       charts: str | None = None,
                       open_thread: Callable[[str], Awaitable[int]] | None = None) -> Outcome:
        """A new game here, or, with ``open_thread`` (the transport's way to open a public thread,
        given a default name; it returns the thread's channel id or raises ``PlaceError``), in a
        new thread of this channel. ``charts`` (a chart file's text) becomes the ruleset option
        ``charts``, which the ruleset checks like any other option."""
        if ruleset not in ruleset_names():
            return Outcome.error(f"Unknown ruleset `{clip(ruleset, 30)}`. Available: {', '.join(ruleset_names())}.")
        if open_thread is None and await self.store.live_game(ctx.channel_id):
            return Outcome.error("This channel already has a game. Finish it with `/game end`, or use another "
                                 "channel or thread (`/game new thread:yes` opens one).")
        try:
            options = parse_options(options_text)
            if charts is not None:
                if "charts" in options:
                    raise ValueError("give the charts once: as a file or in `options`, not both")
                options["charts"] = charts
            rs_options, rules = dl.split_options(options, self.deadline_defaults)
            rs = get_ruleset(ruleset)
            seed = self.seed_source()
            fixture = self.fixtures.pop(ctx.channel_id, None)
            # the options, and a group's chart file above all, are checked in a worker thread with
            # a time limit: whatever a group uploads, the other games keep being answered
            state = await asyncio.wait_for(asyncio.to_thread(rs.new_game, rs_options, seed, fixture),
                                           NEW_GAME_SECONDS)
        except (ValueError, OrderError) as e:
            return Outcome.error(f"Bad options: {e}")
        except asyncio.TimeoutError:
            return Outcome.error(f"No game was created: checking the options took over {NEW_GAME_SECONDS:g} s. "
                                 "Simplify the chart file.")
        channel_id = ctx.channel_id
        if open_thread is not None:
            try:
                channel_id = await open_thread(clip(f"{rs.title} ({ctx.user_name or 'new game'})", 100))
            except PlaceError as e:
                return Outcome.error(f"No game was created: {e}")
            if await self.store.live_game(channel_id):  # a thread that already holds a game
                return Outcome.error("That thread already has a game. Finish it with `/game end` there.")
        gid = await self.store.create_game(
            channel_id=channel_id, guild_id=ctx.guild_id, ruleset=ruleset, options=options, seed=seed,
            commitment=commitment(seed), creator_id=ctx.user_id, now=self.clock(), initial_state=state,
            deadline_rules={"hours": rules.hours, "policy": rules.policy, "reminders": list(rules.reminders)})
        self.games[gid] = Game(rs, state)
        seats = ", ".join(f"`{s}`" for s in rs.seats)
        extra = " with the group's own charts" if "charts" in options else ""
        if channel_id != ctx.channel_id:
            out = Outcome.public_reply(
                f"New game of **{rs.title}**{extra} in the thread <#{channel_id}>, by <@{ctx.user_id}>. "
                f"Seats: {seats}. Play there: `/game join`, then `/game start`.")
            out.elsewhere[channel_id] = [Post(text=(
                f"New game of **{rs.title}**{extra} in this thread, created by <@{ctx.user_id}>. Seats: {seats}. "
                "Take one with `/game join`, then `/game start`; every game command works here."))]
            return out
        return Outcome.public_reply(
            f"New game of **{rs.title}**{extra} in this channel. Seats: {seats}. "
            f"Take one with `/game join`, then `/game start`.")

    @_locked(needs_game=True)
    async def join(self, ctx: Ctx, row: GameRow, seat: str) -> Outcome:
        rs = get_ruleset(row.ruleset)
        seat = (seat or "").strip().lower()
        if seat not in rs.seats:
            return Outcome.error(f"`{clip(seat, 30)}` is not a seat here. Seats: {', '.join(rs.seats)}.")
        seats = await self.store.seats(row.id)
        if seat in seats:
            holder = seats[seat]
            if holder == ctx.user_id:
                return Outcome.error(f"You already hold `{seat}`.")
            return Outcome.error(f"`{seat}` is taken. Free seats: {', '.join(s for s in rs.seats if s not in seats) or 'none'}.")
        if row.status != "open":
            return Outcome.error("The game has started; a moderator can hand a seat over with `/game sub`.")
        await self.store.take_seat(row.id, seat, ctx.user_id, self.clock())
        free = [s for s in rs.seats if s not in seats and s != seat]
        tail = f" Still free: {', '.join(free)}." if free else " All seats are taken: `/game start` when ready."
        return Outcome.public_reply(f"<@{ctx.user_id}> takes **{self.seat_title(seat)}**.{tail}")

    @_locked(needs_game=True)
    async def leave(self, ctx: Ctx, row: GameRow) -> Outcome:
        if row.status != "open":
            return Outcome.error("The game has started; ask the creator or a moderator for a substitute (`/game sub`).")
        left = await self.store.release_seats(row.id, ctx.user_id)
        if not left:
            return Outcome.error("You hold no seat in this game.")
        return Outcome.public_reply(f"<@{ctx.user_id}> leaves {', '.join(self.seat_title(s) for s in left)}.")

    @_locked(needs_game=True)
    async def start(self, ctx: Ctx, row: GameRow) -> Outcome:
        if row.status != "open":
            return Outcome.error("This game has already started.")
        seats = await self.store.seats(row.id)
        if not (self._can_admin(ctx, row) or ctx.user_id in seats.values()):
            return Outcome.error("Only a player, the creator or a moderator can start the game.")
        rs = get_ruleset(row.ruleset)
        missing = [s for s in rs.seats if s not in seats]
        if missing:
            return Outcome.error(f"Seats still free: {', '.join(missing)}. Take them with `/game join`.")
        await self.store.set_status(row.id, "active", self.clock())
        game = await self.load(row)
        row = await self.store.game(row.id)
        text = (f"The game of **{rs.title}** begins.\n"
                f"Dice commitment (SHA-256 of the secret seed): `{row.commitment}`. "
                "Every die and hidden draw comes from that seed; it is published with `/game export` once the game is over.")
        deadline = await self._sync_clock(row, game)
        out = Outcome(reply=Post(text=text), ephemeral=False, map_after=(row.id, None),
                      notice=await self._notice(game, seats, [], deadline))
        out.dms = await self._secrets_dms(game, seats)
        return out

    def _seat_for(self, game: Game, seats: dict[str, int], user_id: int, requested: str | None) -> str | Outcome:
        mine = [s for s in game.ruleset.seats if seats.get(s) == user_id]
        if not mine:
            return Outcome.error("You hold no seat in this game, so you cannot give orders here.")
        if requested:
            requested = requested.strip().lower()
            if requested not in mine:
                return Outcome.error(f"You do not hold the `{clip(requested, 30)}` seat.")
            return requested
        active = game.active_seats()
        cands = [s for s in mine if s in active]
        return (cands or mine)[0]

    @_locked(needs_game=True)
    async def order(self, ctx: Ctx, row: GameRow, text: str, seat: str | None = None) -> Outcome:
        if row.status != "active":
            return Outcome.error("The game has not started yet: take the seats, then `/game start`.")
        if len(text) > MAX_ORDER_TEXT:
            return Outcome.error(f"That order is too long ({MAX_ORDER_TEXT} characters at most).")
        game = await self.load(row)
        seats = await self.store.seats(row.id)
        who = self._seat_for(game, seats, ctx.user_id, seat)
        if isinstance(who, Outcome):
            return who
        try:
            action, events, new_state = self._try(game, who, text)
        except OrderError as e:
            return Outcome.error(f"Refused ({e.kind}): {e}")
        if self.recovered and (asked := self._repeat_after_restart(row, ctx, game.ruleset.format(action))):
            return asked
        return await self._commit(ctx, row, game, seats, who, action, events, new_state)

    def _try(self, game: Game, seat: str, text: str):
        """Parse, check and apply on a copy; the live game is untouched."""
        trial = Game(game.ruleset, game.state)
        action, events = trial.play(seat, text)  # play() works on a clone of the state
        return action, events, trial.state

    async def _commit(self, ctx: Ctx, row: GameRow, game: Game, seats: dict[str, int], seat: str,
                      action: Action, events, new_state: dict, *, also=None, by: str | None = None,
                      merge: str | None = None) -> Outcome:
        """Write an accepted order (one transaction). ``also(text, outcome)`` gives further
        statements for the same transaction (the scheduler's fired flag and outbox);
        ``by`` names who acted when it was not the seat's holder (the deadline). An order that
        starts a phase gets ``notice`` (report, pings, deadline) to post with the map; with
        ``merge`` (a first line) the order's own lines go into that notice too (one post)."""
        rs = game.ruleset
        canon = rs.format(action)
        new_phase = any(e.new_phase for e in events)
        seq = row.seq + 1
        res = rs.result(new_state)
        lines = [f"**{self.seat_title(seat)}** `{public_text(rs, canon)}`" + (f" ({by})" if by else "")]
        report: list[str] = []
        for e in events:
            if e.public and e.new_phase and not res:
                report.append(e.public)  # what begins: in the phase's notice
            elif e.public:
                lines.append(e.public)
            for roll in e.rolls:
                lines.append(f"  🎲 {roll.get('label', '')}: {roll['value']}")
        old_game_state = game.state
        dice_before = game.dice_drawn()
        game.state = new_state
        if res:
            lines.append(f"**The game is over.** {res.summary}")
        text = clip("\n".join(lines), MAX_TEXT)
        out = Outcome(reply=Post(text=text), ephemeral=False)
        secret = public_text(rs, canon) != canon
        if secret:
            # a secret order (Gondor's oil, 16.74): the giver reads it privately (a public
            # answer would show the command as typed); the channel gets the masked line
            # as a plain post
            mine = clip("\n".join([f"**{self.seat_title(seat)}** `{canon}`"] + lines[1:]), MAX_TEXT)
            out = Outcome(reply=Post(text=mine), ephemeral=True, elsewhere={ctx.channel_id: [Post(text=text)]})

        async def notice(deadline: float | None) -> Post:
            if merge is not None:  # one post for everything: room left for the deadline added when sent
                return await self._notice(game, seats, lines + report, None, before=[merge], limit=MAX_TEXT - 120)
            return await self._notice(game, seats, report, deadline)

        if new_phase and not res:
            out.notice = await notice(None)
        dms: dict[int, list[Post]] = defaultdict(list)
        for e in events:
            for s, t in e.private.items():
                if s in seats:
                    dms[seats[s]].append(Post(text=f"**{self.seat_title(s)}** (private): {t}"))
        for uid, posts in self._changed_secrets(rs, seats, old_game_state, new_state).items():
            dms[uid].extend(posts)
        out.dms = dict(dms)
        if new_phase:
            out.map_after = (row.id, None)
        try:
            await self.store.append_action(
                game_id=row.id, seq=seq, seat=seat, user_id=ctx.user_id or None, text=canon,
                interaction_id=ctx.interaction_id, dice_before=dice_before,
                dice_after=game.dice_drawn(), events=[e.to_json() for e in events],
                now=self.clock(), snapshot=new_state if new_phase else None,
                response={"text": out.reply.text, "ephemeral": out.ephemeral, "ok": True},
                status="over" if res else None, also=also(text, out) if also else ())
        except BaseException:
            game.state = old_game_state  # nothing was written; nothing changes
            raise
        fresh = await self.store.game(row.id)
        deadline = await self._sync_clock(fresh, game)
        if out.notice and deadline and merge is None:
            out.notice = await notice(deadline)
        return out

    async def done(self, ctx: Ctx, seat: str | None = None) -> Outcome:
        return await self.order(ctx, "done", seat)

    async def autocomplete_order(self, ctx: Ctx, current: str, limit: int = 25) -> list[str]:
        row = await self.store.live_game(ctx.channel_id)
        if row is None or row.status != "active":
            return []
        game = await self.load(row)
        seats = await self.store.seats(row.id)
        who = self._seat_for(game, seats, ctx.user_id, None)
        if isinstance(who, Outcome):
            return []
        # Discord's choices hold 100 characters at most: longer ones are left out before the 25 are counted
        return [t for t in game.legal_texts(who, current or "", limit=limit + 25) if len(t) <= 100][:limit]

    async def autocomplete_seat(self, ctx: Ctx, current: str) -> list[str]:
        row = await self.store.live_game(ctx.channel_id)
        if row is None:
            return []
        rs = get_ruleset(row.ruleset)
        seats = await self.store.seats(row.id)
        cur = (current or "").lower()
        return [s for s in rs.seats if s not in seats and cur in s][:25]

    async def autocomplete_taken_seat(self, ctx: Ctx, current: str) -> list[str]:
        row = await self.store.live_game(ctx.channel_id)
        if row is None:
            return []
        seats = await self.store.seats(row.id)
        cur = (current or "").lower()
        return [s for s in get_ruleset(row.ruleset).seats if s in seats and cur in s][:25]

    async def status(self, ctx: Ctx) -> Outcome:
        row = await self._current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        rs = get_ruleset(row.ruleset)
        seats = await self.store.seats(row.id)
        seat_list = ", ".join(f"{self.seat_title(s)}: " + (f"<@{seats[s]}>" if s in seats else "free") for s in rs.seats)
        if row.status == "open":
            return Outcome.private(f"**{rs.title}**, waiting to start. Seats: {seat_list}.")
        game = await self.load(row)
        v = game.view(None)
        head, _ = self._turn_line(game, seats, ping=False)
        tracks = "\n".join(f"- {t.get('name', '?')}: {t.get('points', '?')} / {t.get('level', '?')}"
                           for t in v.get("tracks", []) if isinstance(t, dict))
        text = (f"**{rs.title}** ({row.status}). Seats: {seat_list}.\n{head}\n"
                f"{await self._deadline_line(row)}\n{tracks}\nOrders so far: {row.seq}.")
        for seat in (s for s in rs.seats if seats.get(s) == ctx.user_id):
            own = game.view(seat)
            left = [u["id"] for u in own["units"] if u["side"] == seat and u["hex"] is None]
            if left and own.get("turn") == 0:
                text += f"\n{self.seat_title(seat)}: still to deploy: {', '.join(left)}."
        if row.status in ("over", "ended"):
            res = game.result()
            text += f"\nResult: {res.summary if res else 'ended by the creator or a moderator'}"
        return Outcome.private(clip(text, MAX_TEXT))

    async def map(self, ctx: Ctx, around: str | None = None, mine: bool = False) -> Outcome:
        row = await self._current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        game = await self.load(row)
        seat = None
        if mine:
            seats = await self.store.seats(row.id)
            who = self._seat_for(game, seats, ctx.user_id, None)
            if isinstance(who, Outcome):
                return who
            seat = who
        if around:
            try:
                around = self.parse_around(game.ruleset, around)
            except (ValueError, OrderError) as e:
                return Outcome.error(str(e))
        try:
            img = await self.render_async(game, seat, around)
        except ValueError as e:  # the drawing refused the place after all
            return Outcome.error(str(e))
        label = f"{self.seat_title(seat)}'s own view (private)" if seat else "Public map"
        text = f"{label}" + (f", around {around}" if around else "") + "."
        return Outcome(reply=Post(text=text, image=img), ephemeral=bool(seat))

    @staticmethod
    def parse_around(rs, text: str) -> str:
        """The canonical place for ``/game map around:``: the ruleset's own ``parse_around(text)``
        if it has one; else an area id (or a unique prefix or name) for an area game
        (``board_kind == "area"``, ``board.areas``), a hex on the map for a hex game."""
        text = (text or "").strip()
        if len(text) > 40:
            raise ValueError("`around` is a hex or an area id (40 characters at most).")
        return rs.parse_around(text)

    async def autocomplete_around(self, ctx: Ctx, current: str) -> list[tuple[str, str]]:
        """(label, value) pairs for ``/game map around:``: an area game's areas; for a hex game,
        the hexes where the public map shows units."""
        row = await self.store.latest_game(ctx.channel_id)
        if row is None:
            return []
        rs = get_ruleset(row.ruleset)
        cur = (current or "").strip().lower()
        public = (await self.load(row)).view(None) if rs.board_kind == "hex" else {}  # hexes with units
        return [(clip(str(n), 100), str(v)[:100]) for n, v in rs.around_choices(cur, public)][:25]

    async def log(self, ctx: Ctx, last: int | None = None) -> Outcome:
        row = await self._current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        n = max(1, min(int(last or 20), 200))
        every = await self.store.actions(row.id)
        rows = every[-n:]
        rs = get_ruleset(row.ruleset)
        if row.status in ("over", "ended"):  # nothing is secret any more
            rs = None
        if not rows:
            return Outcome.private("No orders yet.")
        lines = []
        undone = {a.ref_seq: a.seq for a in every if a.kind == "undo"}
        for a in rows:
            if a.kind == "undo":
                lines.append(f"`#{a.seq}` {a.seat}: takes back #{a.ref_seq} ({public_text(rs, a.text)})")
                continue
            secs = sorted({e["section"] for e in a.events if e.get("section")})
            dice = [str(r["value"]) for e in a.events for r in e.get("rolls", [])]
            extra = (f" 🎲 {' '.join(dice)}" if dice else "") + (f" ({', '.join(secs)})" if secs else "")
            gone = f" (taken back by #{undone[a.seq]})" if a.seq in undone else ""
            lines.append(f"`#{a.seq}` {a.seat}: `{public_text(rs, a.text)}`{extra}{gone}")
        chunks = split_text("\n".join(lines), 1800)
        if len(chunks) > 1:  # one message: the newest entries, and say so
            shown = chunks[-1].count("\n") + 1
            return Outcome.private(f"(the last {shown} of {len(every)} entries; `/game export` has them all)\n"
                                   + chunks[-1])
        return Outcome.private(chunks[0])

    async def export_data(self, row: GameRow) -> dict:
        seats = await self.store.seats(row.id)
        rows = await self.store.actions(row.id)
        over = row.status in ("over", "ended")
        rs = get_ruleset(row.ruleset)

        def shown(t: str) -> str:  # secret orders stay masked until the game is over (16.74)
            return t if over else public_text(rs, t)
        log = [{"seq": a.seq, "seat": a.seat, "kind": a.kind, "order": shown(a.text), "ref_seq": a.ref_seq,
                "dice": [a.dice_before, a.dice_after],
                "rolls": [r["value"] for e in a.events for r in e.get("rolls", [])],
                "public": [e["public"] for e in a.events if e.get("public")]} for a in rows]
        data = {
            "palantir_export": 2,
            "ruleset": row.ruleset,
            "options": row.options,
            "status": row.status,
            "commitment": row.commitment,
            "seed": row.seed if over else None,
            "seats": seats,
            "orders": [shown(a.text) for a in rows if a.kind == "order"],
            "log": log,
        }
        if over:  # the state digests would let a guess at hidden facts be checked, so only now
            game = Game(get_ruleset(row.ruleset), await self.store.first_snapshot(row.id))
            data["initial_digest"] = state_digest(game.state)
            entries = [entry_of(a) for a in rows]

            def digests(start: dict) -> list[str]:  # the whole game again: off the event loop
                return [state_digest(g.state) for _, g, _ in walk(row.ruleset, start, entries)]
            ds = await asyncio.to_thread(digests, game.state)
            for d, item in zip(ds, log):
                item["digest"] = d
            data["final_digest"] = ds[-1] if ds else data["initial_digest"]
        return data

    async def export(self, ctx: Ctx) -> Outcome:
        row = await self._current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        data = await self.export_data(row)
        blob = json.dumps(data, indent=1).encode()
        note = "" if data["seed"] else " The dice seed is withheld until the game is over."
        return Outcome.private(f"Export of game {row.id} ({len(data['orders'])} orders).{note}",
                               attachment=blob, attachment_name=f"palantir-game-{row.id}.json")

    @_locked(needs_game=True)
    async def end(self, ctx: Ctx, row: GameRow) -> Outcome:
        if not self._can_admin(ctx, row):
            return Outcome.error("Only the game's creator or a member with Manage Server can end it.")
        await self.store.set_status(row.id, "ended", self.clock())
        self.games.pop(row.id, None)
        await self.store.set_clock(Clock(row.id, "ended", self.clock()), [])  # no timer outlives its game
        return Outcome.public_reply(
            f"The game has been ended by <@{ctx.user_id}>. Seed, for checking every die: `{row.seed}` "
            f"(its SHA-256 is the commitment `{row.commitment[:16]}…`).")

    async def secret(self, ctx: Ctx) -> Outcome:
        row = await self._live(ctx)
        if isinstance(row, Outcome):
            return row
        if row.status != "active":
            return Outcome.error("The game has not started yet.")
        game = await self.load(row)
        seats = await self.store.seats(row.id)
        mine = {s: u for s, u in seats.items() if u == ctx.user_id}
        if not mine:
            return Outcome.error("You hold no seat in this game.")
        dms = await self._secrets_dms(game, mine)
        if not dms:
            return Outcome.private("Your seat has no hidden information right now.")
        return Outcome(reply=Post(text="Your hidden information has been sent to you by direct message."),
                       ephemeral=True, dms=dms)

    async def help(self, ctx: Ctx, topic: str | None = None) -> Outcome:
        topic = (topic or "").strip().lower()
        if topic in ruleset_names():
            return Outcome.private(clip(get_ruleset(topic).help(), MAX_TEXT))
        row = await self.store.live_game(ctx.channel_id)
        general = (
            "**palantir** moderates wargames in this channel.\n"
            "`/game new ruleset:` creates a game; `/game join seat:`, then `/game start`.\n"
            "`/order text:` gives an order (autocomplete offers every legal one); `/done` ends your part of the phase.\n"
            "`/game map` shows the map (`mine:true` for your own view), `/game status`, `/game log`, `/secret`.\n"
            "`/roll dice:2d6+1` rolls dice for anyone. "
            f"Rulesets: {', '.join(ruleset_names())} (`/help topic:<ruleset>`)."
        )
        if row:
            general += "\n\n" + get_ruleset(row.ruleset).help()
        return Outcome.private(clip(general, MAX_TEXT))

    async def roll(self, ctx: Ctx, dice: str, reason: str | None = None, private: bool = False) -> Outcome:
        from bot.dice import DiceError, roll

        try:
            result = roll(dice, reason=reason, private=private, rng=self.roll_rng)
        except DiceError as e:
            return Outcome.error(f"Cannot roll that: {e}")
        who = ctx.user_name or f"<@{ctx.user_id}>"
        text = result.render(who)
        return Outcome(reply=Post(text=clip(text, MAX_TEXT)), ephemeral=bool(private))

    # ============================================================ deadlines
    def _rules(self, row: GameRow) -> dl.DeadlineRules:
        if not row.deadline_rules:
            return self.deadline_defaults
        d = json.loads(row.deadline_rules)
        return dl.DeadlineRules(float(d["hours"]), d["policy"], tuple(d["reminders"]))

    @staticmethod
    def _quiet(p: Prefs) -> dl.Quiet | None:
        if not (p.quiet_from and p.quiet_to and p.tz):
            return None
        return dl.Quiet(dl.parse_hhmm(p.quiet_from), dl.parse_hhmm(p.quiet_to), p.tz)

    async def _awake(self, users: list[int], now: float | None = None) -> list[int]:
        """Those of ``users`` who may be pinged now (not in their quiet hours)."""
        now = self.clock() if now is None else now
        out = []
        for u in users:
            if not dl.in_quiet(now, self._quiet(await self.store.prefs(u))):
                out.append(u)
        return out

    @staticmethod
    def _phase_key(game: Game) -> str:
        v = game.view(None)
        return json.dumps([v.get("turn"), v.get("phase"), v.get("phase_title")])

    async def outbox_post(self, payload: dict) -> Post:
        """An outbox row as a post: a phase's notice gets its map and its deadline as they are now."""
        post = Post(text=payload.get("text", ""), mentions=list(payload.get("mentions") or []))
        if payload.get("deadline"):
            clock = await self.store.clock(payload["deadline"])
            if clock and clock.deadline_at and clock.paused_at is None:
                post.text += f"\nDeadline: {dl.stamp(clock.deadline_at)}."
        if payload.get("map"):
            post.image, _ = await self.render_game(payload["map"], None)
        return post

    async def _deadline_line(self, row: GameRow) -> str:
        clock = await self.store.clock(row.id)
        if row.status != "active":
            return "Deadline: none (the game is not running)."
        if clock and clock.paused_at is not None:
            return "Deadline: paused (`/game resume` restarts the clock)."
        if not clock or clock.deadline_at is None:
            return "Deadline: none set."
        passed = " (passed)" if clock.deadline_at <= self.clock() else ""
        return f"Deadline: {dl.stamp(clock.deadline_at)}{passed}."

    async def _sync_clock(self, row: GameRow, game: Game, *, force: bool = False) -> float | None:
        """After anything that may change the phase: a new phase gets a fresh clock (starting when
        the order that began it was logged), and the timers follow. Returns the deadline."""
        now = self.clock()
        clock = await self.store.clock(row.id)
        if row.status != "active" or game.result() is not None:
            if clock is None or clock.phase_key != "ended":
                await self.store.set_clock(Clock(row.id, "ended", now), [])
            return None
        key = self._phase_key(game)
        if clock is None or clock.phase_key != key:
            started = (await self.store.last_action_time(row.id)) or row.started_at or now
            clock = Clock(row.id, key, started, 0.0, clock.paused_at if clock else None, None)
            force = True
        if not force:
            return clock.deadline_at
        return await self._reschedule(row, game, clock)

    async def _reschedule(self, row: GameRow, game: Game, clock: Clock) -> float | None:
        now = self.clock()
        rules = self._rules(row)
        active = game.active_seats()
        timers: list[tuple[str, str, float]] = []
        clock.deadline_at = None
        if rules.hours > 0 and clock.paused_at is None and active:
            seats = await self.store.seats(row.id)
            prefs = {u: await self.store.prefs(u) for u in {seats[s] for s in active if s in seats}}
            quiets = [q for q in (self._quiet(p) for p in prefs.values()) if q]
            aways = [p.away_until for p in prefs.values() if p.away_until]
            clock.deadline_at = dl.phase_deadline(clock.started_at, rules.hours, extra=clock.extra,
                                                  quiets=quiets, away_until=aways)
            timers.append(("deadline", "", clock.deadline_at))
            for s in active:
                q = self._quiet(prefs[seats[s]]) if s in seats else None
                for lead in rules.reminders:
                    t = dl.reminder_at(clock.deadline_at, lead, q, not_before=max(now, clock.started_at))
                    if t is not None:
                        timers.append(("remind", s, t))
        await self.store.set_clock(clock, timers)
        if self.on_timers_changed:
            self.on_timers_changed()
        return clock.deadline_at

    async def fire_due(self) -> int:
        """Fire every timer that is due (the scheduler calls this). Each timer is marked fired in
        the same transaction as what it causes (an outbox post, a passed seat, a pause), so after a
        crash nothing is lost and nothing happens twice. Returns how many fired."""
        n = 0
        for t in await self.store.due_timers(self.clock()):
            row = await self.store.game(t.game_id)
            async with self.locks[row.channel_id]:
                t = await self.store.timer(t.id)
                if t is None or t.fired_at is not None:
                    continue
                await self._fire(row, t)
                n += 1
        return n

    async def _fire(self, row: GameRow, t) -> None:
        now = self.clock()
        fire = FireTimer(t.id, now)
        clock = await self.store.clock(row.id)
        if row.status != "active" or clock is None or clock.phase_key != t.phase_key or clock.paused_at is not None:
            await self.store.apply_effects([fire])  # stale: the phase it was for is gone
            return
        game = await self.load(row)
        seats = await self.store.seats(row.id)
        active = game.active_seats()
        title = game.view(None).get("phase_title", "this phase")
        if t.kind == "remind":
            if t.seat not in active or t.seat not in seats:
                await self.store.apply_effects([fire])  # done already: no reminder (Diplicity #1219)
                return
            uid = seats[t.seat]
            ping = await self._awake([uid], now)
            text = (f"⏰ Reminder for **{self.seat_title(t.seat)}** (<@{uid}>): the deadline for {title} is "
                    f"{dl.stamp(clock.deadline_at)}. Give your orders, then `/done`.")
            await self.store.apply_effects(
                [fire, OutboxPost(row.id, {"text": text, "mentions": ping}, now, channel_id=row.channel_id)])
            return
        # the deadline
        if not active:
            await self.store.apply_effects([fire])
            return
        rules = self._rules(row)
        who = [s for s in active if s in seats]
        if rules.policy == "pass":
            # Every seat still to act in this phase is passed; where the rules refuse `done`
            # (a retreat to choose, an attack the rules require) the ruleset's deadline action
            # is applied first, then `done` again. Each step is its own logged order, keyed by
            # the log position, so a crash in between neither loses nor repeats one.
            for _ in range(200):
                row = await self.store.game(row.id)
                game = await self.load(row)
                if row.status != "active" or self._phase_key(game) != t.phase_key:
                    break
                todo = [s for s in game.active_seats() if s in seats]
                if not todo:
                    break
                applied, nag, ended = await self._pass_seat(row, game, seats, todo[0], t, title, fire)
                if ended:
                    return  # the fired flag went with the order that ended the passing
                if not applied:
                    await self.store.apply_effects([fire] + nag)  # the nag goes out once, with the fired flag
                    return
            await self.store.apply_effects([fire])
            return
        pings = await self._awake(sorted({seats[s] for s in who} | {row.creator_id}), now)
        names = ", ".join(f"{self.seat_title(s)} (<@{seats[s]}>)" for s in who)
        if rules.policy == "pause":
            text = (f"⌛ The deadline for {title} has passed; still to act: {names}. The game is paused. "
                    f"<@{row.creator_id}>: `/game resume` restarts the clock.")
            clock.paused_at = now
            await self.store.apply_effects([
                fire, PauseClock(row.id, now),
                OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id)])
            await self._reschedule(row, game, clock)
            return
        text = (f"⌛ The deadline for {title} has passed; still to act: {names}. "
                f"<@{row.creator_id}>: `/game extend hours:<n>` gives more time; `/game pause` stops the clock.")
        await self.store.apply_effects(
            [fire, OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id)])

    async def _pass_seat(self, row: GameRow, game: Game, seats: dict[str, int], seat: str, t,
                         title, fire) -> tuple[bool, list, bool]:
        """The ``pass`` policy for one seat: its part of the phase ends with no further
        orders (`done`). Where the rules refuse that, the ruleset's ``deadline_action``
        (if any) is applied instead. Returns (an order was applied, the statements of a
        nag to send, the passing is over). The order that ends the passing (the phase
        moves on, or nobody is left to pass) carries the timer's fired flag in its own
        transaction, before the new phase's timers replace the old ones."""
        iid = f"deadline-{t.id}-{row.seq}"
        if await self.store.response_for(iid):
            return False, [], False  # applied before a crash; the log already has it
        rs = game.ruleset
        by = "passed at the deadline"
        try:
            action, events, new_state = self._try(game, seat, "done")
        except OrderError as e:
            alt = rs.deadline_action(game.state, seat)
            if alt is None:  # the rules do not let this seat stop here: say so, and nag instead
                uid = seats[seat]
                text = (f"⌛ The deadline for {title} has passed, but {self.seat_title(seat)} (<@{uid}>) cannot be "
                        f"passed: {e}. <@{row.creator_id}>: `/game extend hours:<n>` or `/game sub`.")
                pings = await self._awake(sorted({uid, row.creator_id}))
                return False, [OutboxPost(row.id, {"text": text, "mentions": pings}, self.clock(),
                                                     channel_id=row.channel_id)], False
            action, events, new_state = self._try(game, seat, rs.format(alt))
            by = f"chosen by the bot at the deadline, because {e.message}"
        ctx = Ctx(channel_id=row.channel_id, user_id=0, guild_id=row.guild_id, interaction_id=iid)
        now = self.clock()
        after = Game(rs, new_state)
        ended = (rs.result(new_state) is not None or self._phase_key(after) != t.phase_key
                 or not [s for s in after.active_seats() if s in seats])

        head = f"⌛ The deadline for {title} has passed."

        def also(text: str, out: Outcome):
            # a phase that begins here: one post (the order, the report, the ping; the map and
            # the deadline are added when it is sent)
            body = out.notice.text if out.notice else f"{head}\n{text}"
            posts = [OutboxPost(row.id, {"text": body,
                                                    "mentions": out.notice.mentions if out.notice else [],
                                                    "map": row.id if out.map_after else None,
                                                    "deadline": row.id if out.map_after else None},
                                           now, channel_id=row.channel_id)]
            for uid, ps in out.dms.items():
                for p in ps:
                    posts.append(OutboxPost(row.id, {"text": p.text}, now, user_id=uid))
            return ([fire] if ended else []) + posts

        await self._commit(ctx, row, game, seats, seat, action, events, new_state, also=also, by=by, merge=head)
        return True, [], ended

    async def _admin_clock(self, ctx: Ctx, row: GameRow, what: str) -> tuple[Game, Clock] | Outcome:
        if not self._can_admin(ctx, row):
            return Outcome.error(f"Only the game's creator or a member with Manage Server can {what}.")
        if row.status != "active":
            return Outcome.error("The game is not running (start it with `/game start`).")
        game = await self.load(row)
        await self._sync_clock(row, game)
        return game, await self.store.clock(row.id)

    @_locked(needs_game=True)
    async def extend(self, ctx: Ctx, row: GameRow, hours: float) -> Outcome:
        try:
            hours = float(hours)
        except (TypeError, ValueError):
            return Outcome.error("`hours` must be a number.")
        if not 0 < hours <= dl.MAX_HOURS or hours != hours:
            return Outcome.error(f"`hours` must be more than 0 and at most {dl.MAX_HOURS}.")
        got = await self._admin_clock(ctx, row, "extend the deadline")
        if isinstance(got, Outcome):
            return got
        game, clock = got
        if self._rules(row).hours <= 0:
            return Outcome.error("This game has no deadlines (`/game new options:deadline=<hours>` sets them).")
        clock.extra += hours * 3600
        deadline = await self._reschedule(row, game, clock)
        when = dl.stamp(deadline) if deadline else "paused"
        return Outcome.public_reply(f"<@{ctx.user_id}> extends the deadline by {hours:g} h: now {when}.")

    @_locked(needs_game=True)
    async def pause(self, ctx: Ctx, row: GameRow) -> Outcome:
        got = await self._admin_clock(ctx, row, "pause the game")
        if isinstance(got, Outcome):
            return got
        game, clock = got
        if clock.paused_at is not None:
            return Outcome.error("The game is already paused; `/game resume` restarts the clock.")
        clock.paused_at = self.clock()
        await self._reschedule(row, game, clock)
        return Outcome.public_reply(f"<@{ctx.user_id}> pauses the game: no deadline runs and no reminder "
                                    "goes out until `/game resume`.")

    @_locked(needs_game=True)
    async def resume(self, ctx: Ctx, row: GameRow) -> Outcome:
        got = await self._admin_clock(ctx, row, "resume the game")
        if isinstance(got, Outcome):
            return got
        game, clock = got
        if clock.paused_at is None:
            return Outcome.error("The game is not paused.")
        clock.extra += max(0.0, self.clock() - clock.paused_at)  # the paused time is given back
        clock.paused_at = None
        deadline = await self._reschedule(row, game, clock)
        tail = f" Deadline: {dl.stamp(deadline)}." if deadline else ""
        return Outcome.public_reply(f"<@{ctx.user_id}> resumes the game.{tail}")

    async def _resync_user(self, user_id: int) -> None:
        for gid in await self.store.active_games_of(user_id):
            row = await self.store.game(gid)
            async with self.locks[row.channel_id]:
                row = await self.store.game(gid)
                game = await self.load(row)
                await self._sync_clock(row, game, force=True)

    async def set_quiet(self, ctx: Ctx, start: str, end: str, tz: str) -> Outcome:
        try:
            q = dl.Quiet(dl.parse_hhmm(start), dl.parse_hhmm(end), dl.parse_zone(tz))
        except ValueError as e:
            return Outcome.error(str(e))
        p = await self.store.prefs(ctx.user_id)
        p.quiet_from, p.quiet_to, p.tz = f"{q.start:%H:%M}", f"{q.end:%H:%M}", q.tz
        await self.store.set_prefs(p)
        await self._resync_user(ctx.user_id)
        if q.start == q.end:
            return Outcome.private(f"Quiet hours cleared (time zone {q.tz} kept for `/me away`).")
        return Outcome.private(f"Quiet hours set: {q.label()}. No pings then, and a deadline in your games "
                               "that would fall inside them moves to their end.")

    async def set_away(self, ctx: Ctx, until: str) -> Outcome:
        p = await self.store.prefs(ctx.user_id)
        text = (until or "").strip().lower()
        if text in ("none", "off", "back", "no"):
            p.away_until = None
            await self.store.set_prefs(p)
            await self._resync_user(ctx.user_id)
            return Outcome.private("Welcome back: you are no longer away.")
        try:
            t = dl.parse_date(until, p.tz)
        except ValueError as e:
            return Outcome.error(str(e))
        now = self.clock()
        if t <= now:
            return Outcome.error("That date is already over; give a day from today on, or `off`.")
        if t > now + 90 * 86400:
            return Outcome.error("At most 90 days ahead; ask for a substitute (`/game sub`) for longer.")
        p.away_until = t
        await self.store.set_prefs(p)
        await self._resync_user(ctx.user_id)
        return Outcome.private(f"Away until {dl.stamp(t)}: deadlines of phases where your seats must act "
                               "wait for your return. `/me away until:off` when you are back early.")

    # ============================================================ seats
    @_locked(needs_game=True)
    async def sub(self, ctx: Ctx, row: GameRow, seat: str, user_id: int, user_is_bot: bool = False) -> Outcome:
        if not self._can_admin(ctx, row):
            return Outcome.error("Only the game's creator or a member with Manage Server can hand a seat over.")
        rs = get_ruleset(row.ruleset)
        seat = (seat or "").strip().lower()
        if seat not in rs.seats:
            return Outcome.error(f"`{clip(seat, 30)}` is not a seat here. Seats: {', '.join(rs.seats)}.")
        if user_is_bot:
            return Outcome.error("A bot cannot hold a seat.")
        seats = await self.store.seats(row.id)
        if seat not in seats:
            return Outcome.error(f"Nobody holds `{seat}` yet; the player can take it with `/game join`.")
        old = seats[seat]
        if old == user_id:
            return Outcome.error(f"<@{user_id}> already holds `{seat}`.")
        await self.store.set_seat_holder(row.id, seat, user_id)
        out = Outcome.public_reply(f"<@{user_id}> now holds **{self.seat_title(seat)}** (was <@{old}>), "
                                   f"handed over by <@{ctx.user_id}>.", mentions=[user_id])
        if row.status == "active":
            game = await self.load(row)
            out.dms = await self._secrets_dms(game, {seat: user_id})
            await self._sync_clock(row, game, force=True)  # the new holder's quiet hours count now
        return out

    # ============================================================ undo
    @_locked(needs_game=True)
    async def undo(self, ctx: Ctx, row: GameRow) -> Outcome:
        if row.status != "active":
            return Outcome.error("The game is not running.")
        game = await self.load(row)
        seats = await self.store.seats(row.id)
        rows = await self.store.actions(row.id)
        undone = {a.ref_seq for a in rows if a.kind == "undo"}
        eff = [a for a in rows if a.kind == "order" and a.seq not in undone]
        if not eff:
            return Outcome.error("There is nothing to take back.")
        last = eff[-1]
        holder = seats.get(last.seat)
        mine = holder == ctx.user_id
        if not mine and not ctx.is_moderator:
            return Outcome.error(f"The last action was {self.seat_title(last.seat)}'s "
                                 f"(`{public_text(get_ruleset(row.ruleset), last.text)}`, #{last.seq}); "
                                 "only its holder can ask to take it back.")
        why = is_blocking(last.events) or ("dice were drawn" if last.dice_after > last.dice_before else None)
        others = sorted({u for u in seats.values() if u != ctx.user_id})
        if why is None or not others or (ctx.is_moderator and not mine) or (ctx.is_moderator and why):
            note = "" if why is None else (f" ({why}; decided by a moderator)" if ctx.is_moderator and others
                                           else f" ({why})")
            return await self._apply_undo(ctx, row, game, seats, rows, last, note)
        req = await self.store.create_undo_request(game_id=row.id, seat=last.seat, user_id=ctx.user_id,
                                                   target_seq=last.seq, at_seq=row.seq, needed=others,
                                                   now=self.clock())
        who = " ".join(f"<@{u}>" for u in others)
        text = (f"<@{ctx.user_id}> asks to take back {self.seat_title(last.seat)}'s "
                f"`{public_text(get_ruleset(row.ruleset), last.text)}` (#{last.seq}), "
                f"but {why}. {who}: agree? Every other player must agree (or a moderator decides). "
                "Dice already drawn stay drawn.")
        return Outcome(reply=Post(text=text, mentions=others,
                                  buttons=[(f"undo:{req}:{row.seq}:y", "Agree"), (f"undo:{req}:{row.seq}:n", "Refuse")]),
                       ephemeral=False)

    async def _apply_undo(self, ctx: Ctx, row: GameRow, game: Game, seats: dict[str, int], rows, target,
                          note: str) -> Outcome:
        undone = {a.ref_seq for a in rows if a.kind == "undo"}
        snap_seq, state = await self.store.snapshot_before(row.id, target.seq)
        g = Game(game.ruleset, state)
        for a in rows:
            if a.kind == "order" and snap_seq < a.seq < target.seq and a.seq not in undone:
                g.play(a.seat, a.text)
        burned = game.dice_drawn()
        g.state["dice"]["counter"] = burned  # dice already drawn stay burned: no fishing for a better roll
        seq = row.seq + 1
        text = (f"<@{ctx.user_id}> takes back {self.seat_title(target.seat)}'s "
                f"`{public_text(get_ruleset(row.ruleset), target.text)}` (#{target.seq}){note}. "
                f"Logged as #{seq}.")
        v_old = self._phase_key(game)
        await self.store.append_action(
            game_id=row.id, seq=seq, seat=target.seat, user_id=ctx.user_id or None, text=f"undo #{target.seq}",
            interaction_id=ctx.interaction_id, dice_before=burned, dice_after=burned,
            events=[{"public": text, "private": {}, "section": None, "rolls": [], "new_phase": False}],
            now=self.clock(), snapshot=g.state, response={"text": text, "ephemeral": False, "ok": True},
            kind="undo", ref_seq=target.seq)
        before = game.state
        game.state = g.state
        out = Outcome.public_reply(text)
        out.dms = self._changed_secrets(game.ruleset, seats, before, g.state)
        fresh = await self.store.game(row.id)
        deadline = await self._sync_clock(fresh, game)
        if self._phase_key(game) != v_old:
            # back in an earlier phase: its notice, one post with the map (as for an order)
            out.notice = await self._notice(game, seats, [], deadline)
            out.map_after = (row.id, None)
        return out

    @_locked(needs_game=True)
    async def undo_vote(self, ctx: Ctx, row: GameRow, req_id: int, at_seq: int, agree: bool) -> Outcome:
        req = await self.store.undo_request(req_id)
        if req is None or req["game_id"] != row.id:
            return Outcome.error("This request is not for the game in this channel.")
        if req["status"] != "open":
            return Outcome.error(f"This request is already closed ({req['status']}).")
        if row.seq != req["at_seq"] or at_seq != req["at_seq"]:
            await self.store.update_undo_request(req_id, status="stale")
            return Outcome.error("This button is out of date: the game has moved on since it was posted. "
                                 "Nothing was taken back; ask again with `/game undo`.")
        if ctx.user_id not in req["needed"] and not ctx.is_moderator:
            return Outcome.error("This vote is not yours: only the other players (or a moderator) answer it.")
        if not agree:
            await self.store.update_undo_request(req_id, status="refused")
            return Outcome.public_reply(f"<@{ctx.user_id}> refuses: #{req['target_seq']} stands.")
        votes = dict(req["votes"])
        votes[ctx.user_id] = True
        await self.store.update_undo_request(req_id, votes=votes)
        missing = [u for u in req["needed"] if not votes.get(u)]
        if missing and not (ctx.is_moderator and ctx.user_id not in req["needed"]):
            return Outcome.public_reply(f"<@{ctx.user_id}> agrees to take back #{req['target_seq']}. "
                                        f"Waiting for {' '.join(f'<@{u}>' for u in missing)}.")
        game = await self.load(row)
        seats = await self.store.seats(row.id)
        rows = await self.store.actions(row.id)
        target = next(a for a in rows if a.seq == req["target_seq"])
        await self.store.update_undo_request(req_id, status="applied")
        how = " (decided by a moderator)" if missing else " (every other player agreed)"
        return await self._apply_undo(ctx, row, game, seats, rows, target, how)

    # ============================================================ odds
    async def odds(self, ctx: Ctx, text: str) -> Outcome:
        row = await self._live(ctx)
        if isinstance(row, Outcome):
            return row
        if row.status != "active":
            return Outcome.error("The game has not started yet.")
        if len(text or "") > MAX_ORDER_TEXT:
            return Outcome.error(f"That is too long ({MAX_ORDER_TEXT} characters at most).")
        game = await self.load(row)
        fn = game.ruleset.odds
        if not game.ruleset.has_odds:
            return Outcome.error(f"Odds are not available for {game.ruleset.title}.")
        seats = await self.store.seats(row.id)
        who = self._seat_for(game, seats, ctx.user_id, None)
        if isinstance(who, Outcome):
            return who
        try:
            answer = fn(game.state, who, text or "")
        except OrderError as e:
            return Outcome.error(f"No odds ({e.kind}): {e}")
        return Outcome.private(clip(str(answer), MAX_TEXT))

    # ============================================================ replay
    async def replay(self, ctx: Ctx, since: str | None = None) -> Outcome:
        row = await self._current(ctx)
        if isinstance(row, Outcome):
            return row
        if row.status == "open":
            return Outcome.error("The game has not started yet.")
        over = row.status in ("over", "ended")
        seats = await self.store.seats(row.id)
        rs = get_ruleset(row.ruleset)
        mine = [s for s in rs.seats if seats.get(s) == ctx.user_id]
        seat = None if over else (mine[0] if mine else None)
        rows = await self.store.actions(row.id)
        first = await self.store.first_snapshot(row.id)
        try:
            start_seq = self._replay_start(rows, first, rs, since, mine)
        except ValueError as e:
            return Outcome.error(str(e))
        frames: list[tuple[str, dict]] = []

        def label(v: dict, seq: int) -> str:
            turn = "Set-up" if v.get("turn") == 0 else f"Turn {v.get('turn')}"
            return f"{turn}: {v.get('phase_title', '')} (after #{seq})" if seq else f"{turn}: {v.get('phase_title', '')}"

        def collect() -> None:  # the whole game again: off the event loop
            game0 = Game(rs, first)
            if start_seq == 0:
                frames.append((label(game0.view(None), 0), self._frame_view(game0, seat, over)))
            g = game0
            for e, g, events in walk(rs, first, [entry_of(a) for a in rows]):
                if e["seq"] <= start_seq:
                    continue
                if any(ev.new_phase for ev in events) or e["kind"] == "undo":  # one frame a phase (and each undo)
                    frames.append((label(g.view(None), e["seq"]), self._frame_view(g, seat, over)))
            if not frames or frames[-1][0] != label(g.view(None), row.seq):
                frames.append((label(g.view(None), row.seq), self._frame_view(g, seat, over)))
        await asyncio.to_thread(collect)
        if self.renderer is None:
            return Outcome.private(f"Replay: {len(frames)} frames (drawing is off here).")
        from render.replay import MAX_FRAMES as REPLAY_FRAMES, render_frames

        gif = await asyncio.to_thread(render_frames, frames, rs.game_board().drawable, self.renderer)
        whose = "everything revealed" if over else (f"{self.seat_title(seat)}'s own view" if seat else "the public view")
        return Outcome.private(f"Replay of game {row.id}, {whose}: {min(len(frames), REPLAY_FRAMES)} frames.",
                               image=gif, filename=f"palantir-replay-{row.id}.gif")

    @staticmethod
    def _frame_view(game: Game, seat: str | None, over: bool) -> dict:
        if not over:
            return game.view(seat)
        return game.ruleset.full_view(game.state)

    @staticmethod
    def _replay_start(rows, first: dict, rs, since: str | None, mine: list[str]) -> int:
        """The log position the replay starts after: 0 (everything), the phase of the caller's
        last move (`last`), or the start of turn N (`turn N`)."""
        text = (since or "").strip().lower()
        if not text or text in ("all", "start"):
            return 0
        if text in ("last", "my last move", "mine"):
            own = [a.seq for a in rows if a.kind == "order" and a.seat in mine]
            if not own:
                raise ValueError("You have made no move in this game yet.")
            phase_start = 0
            for e, g, events in walk(rs, first, [entry_of(a) for a in rows]):
                if e["seq"] >= own[-1]:
                    break
                if any(ev.new_phase for ev in events):
                    phase_start = e["seq"]
            return phase_start
        import re

        m = re.fullmatch(r"(?:turn\s*)?(\d{1,3})", text)
        if not m:
            raise ValueError("`since` is `last` (your last move) or `turn N`.")
        n = int(m.group(1))
        prev = 0
        for e, g, events in walk(rs, first, [entry_of(a) for a in rows]):
            if (g.view(None).get("turn") or 0) >= n:
                return prev
            prev = e["seq"]
        raise ValueError(f"Turn {n} has not been played yet.")
