"""The one path every command takes: the game's lock and idempotency (``locked``), loading and
rebuilding a game, trying an order on a copy and committing it with its notice, DMs and clock
(``_commit``), and the notices a phase begins with."""
from __future__ import annotations

import asyncio
import dataclasses
import functools
import secrets
import time
from collections import OrderedDict, defaultdict
from typing import Awaitable, Callable

from engine.core import Action, Game
from engine.display import track_value
from engine.modes.gm import with_gm_seat
from engine.rulesets import get_ruleset
from bot import deadlines as dl
from bot.history import entry_of, walk
from bot.storage import GameRow, ShardFilter, StaleWriter
from bot.storage import StoreProtocol as Store

from bot.delivery import PrivateDelivery
from bot.engine_runner import EngineRunner
from bot.timekeeper import Timekeeper
from bot.outcome import (Renderer, MAX_TEXT, Post, Outcome, Ctx, fit_lines, public_text, clip, rematch_buttons,
                         seat_title)


NO_GAME = "There is no game in this channel. Start one with `/game new`."
BUSY = "Busy: too many commands are waiting in this channel right now. Nothing was applied; try again in a moment."
MAX_WAITING = 16  # commands waiting for one channel's lock, past which another is answered BUSY
MAX_WAIT_SECONDS = 10.0  # an acknowledged command that waited this long for its turn is answered BUSY
# a command never acknowledged whose interaction expired this long before its turn came: nobody waits for
# it any more (its player saw "did not respond" and may have sent it again), so nothing of it is applied
STALE_SECONDS = 2.0


def seated(name: str):
    """The ruleset a stored game is played with here: its own, plus the moderator's ``gm`` seat
    (a plain game's is the lobby's, ``engine/modes/gm.py``: its state and log are unchanged)."""
    return with_gm_seat(get_ruleset(name))


def default_renderer(view: dict, hexmap, around: str | None = None, *, whole: bool = False,
                     radius: int | None = None) -> bytes:
    """A map: ``around`` a place (``radius`` hexes), else the whole map with ``whole``, else (hex
    games) cropped to where the action is."""
    from render import render_view

    return render_view(view, hexmap, around=around, radius=radius, focus=not whole)


def locked(needs_game: bool = True, remembered: bool = False):
    """A command that may change a game: under the channel's lock; a
    redelivered interaction is answered from storage, not run again; with
    ``needs_game`` the live game's row is passed in (or "no game here").
    With ``remembered`` (an order, whose only write is ``Table.commit``'s
    fenced log row) the row may come from memory (``Store.remembered_context``,
    bot/storage/contexts.py), checked by that write instead of a read before it."""

    def deco(fn):
        @functools.wraps(fn)
        async def wrapper(self, ctx: Ctx, *args, **kw) -> Outcome:
            table: Table = self if isinstance(self, Table) else self.table  # a part of the service, or the table
            if (other := table.not_mine(ctx)):
                return other
            lock = table.locks[ctx.channel_id]
            waited = 0.0
            if ctx.expires_at is not None:  # a command on Discord's clock: shed load rather than apply it unseen
                if lock.locked() and table.waiting[ctx.channel_id] >= MAX_WAITING:
                    return Outcome.error(BUSY)
                table.waiting[ctx.channel_id] += 1
                began = time.monotonic()
                try:
                    await lock.acquire()
                finally:
                    table.waiting[ctx.channel_id] -= 1
                    if not table.waiting[ctx.channel_id]:
                        del table.waiting[ctx.channel_id]
                waited = time.monotonic() - began
            else:
                await lock.acquire()
            try:
                if ctx.acked and waited > MAX_WAIT_SECONDS:  # its player still waits: tell them, apply nothing
                    return Outcome.error(BUSY)
                if not (ctx.acked or ctx.ack_sent) and ctx.expires_at is not None \
                        and time.time() > ctx.expires_at + STALE_SECONDS:
                    return Outcome.error(BUSY)  # (an answer nobody can receive: applying it would be unseen)
                return await _run_locked_body(table, self, fn, needs_game, ctx, args, kw, remembered=remembered)
            finally:
                lock.release()

        return wrapper

    return deco


async def _run_locked_body(table: "Table", part, fn, needs_game: bool, ctx: Ctx, args, kw, *,
                           remembered: bool = False) -> Outcome:
    """``locked``'s command (a method of ``part``: the table or a part of the service), its lock held."""
    from_memory = None
    if needs_game:
        if remembered and ctx.interaction_id:
            from_memory = table.store.remembered_context(ctx.channel_id)
        if from_memory is not None:  # (whether this interaction was answered before, its write checks)
            stored, row = None, from_memory
        else:  # one read: an answer already stored for this interaction, the live game, its seats
            stored, row = await table.store.order_context(ctx.channel_id, ctx.interaction_id or None)
        if stored is not None:
            return table.replay_of(stored)
        if row is None:
            return Outcome.error(NO_GAME)
    elif (r := await table.replayed(ctx)):
        return r
    gid = None
    try:
        if needs_game:
            gid = row.id
            out = await fn(part, ctx, row, *args, **kw)
        else:
            out = await fn(part, ctx, *args, **kw)
    except StaleWriter:
        if gid is not None:
            table.forget(gid)
        if from_memory is not None:
            # the remembered game was not the stored one (another writer moved it on), or this interaction
            # was answered before (a redelivery): the store refused the write, nothing was applied. Read and
            # run it again, once, as if nothing had been remembered
            return await _run_locked_body(table, part, fn, needs_game, ctx, args, kw)
        # another writer (a second process that believes it owns this game) moved the
        # game on after we read it: the store refused our write, nothing was applied
        return Outcome.error("The game moved on while this was being checked (another order "
                             "was recorded first). Nothing was applied: look again and resend.")
    if from_memory is not None and out.stored is None:
        # refused, or answered without a write: on the remembered game, which the store has not checked.
        # Its answer stands only if the stored truth agrees (no answer already given to this interaction,
        # the same game and seats); else it is run again as if nothing had been remembered
        stored, fresh = await table.store.order_context(ctx.channel_id, ctx.interaction_id)
        if stored is not None:
            return table.replay_of(stored)
        if fresh != from_memory or fresh.seats != from_memory.seats or fresh.departed != from_memory.departed:
            table.forget(gid)
            return await _run_locked_body(table, part, fn, needs_game, ctx, args, kw)
    if out.ok and not out.replayed and (
            out.reply is None or out.stored != (out.reply.text, out.ephemeral)):
        await table.remember(ctx, gid, out)
    return table.stamp(out, gid)


async def _no_board(game_id: int) -> None:
    return None


async def _no_prefs(user_id: int) -> None:
    return None


class Table:
    """The commit path and what every part of the service shares: the store, the loaded games, the
    channels' locks, the clock, the renderer, private delivery and the timekeeper. The service's parts
    (bot/lobby.py, orders.py, views.py, clocks.py, undo.py, archive.py, recovery.py) are objects that
    hold it and call its public methods only."""

    def __init__(self, store: Store, *, clock: Callable[[], float] = time.time,
                 renderer: Renderer | None = default_renderer, seed_source: Callable[[], str] | None = None,
                 roll_rng=None, deadline_defaults: dl.DeadlineRules | None = None, max_loaded: int = 512,
                 shard: ShardFilter | None = None, render_pool=None):
        self.store = store
        # where an order's engine work runs: on the loop once its kind has proven cheap, else a thread
        self.engine = EngineRunner()
        # maps drawn in worker processes ([render] workers; bot/render_pool.py), else in a thread
        self.render_pool = render_pool
        # the guilds this process serves ([discord] shard_ids / shard_count); None: every guild.
        # A command from another shard's guild is answered with nothing loaded; the store's
        # process-wide scans (deadlines, outbox, start-up) are filtered by ``store.shard``
        self.shard = shard
        # a game's deadlines when its options set none (the bot passes `[deadlines]` from its config)
        self.deadline_defaults = deadline_defaults or dl.DeadlineRules(0.0, "nag", (12.0, 2.0))
        self.on_timers_changed: Callable[[], None] | None = None  # the scheduler's wake-up
        self.clock = clock
        self.renderer = renderer
        self.seed_source = seed_source or (lambda: secrets.token_hex(32))
        self.roll_rng = roll_rng  # /roll dice: None means the system's unpredictable source
        # game id -> loaded game, least recently used first: games load on demand and at most
        # ``max_loaded`` stay in memory (a game not here is rebuilt from its snapshot when touched)
        self.games: OrderedDict[int, Game] = OrderedDict()
        # game id -> the log position its loaded state reflects: a loaded game whose row has moved
        # on (another process wrote to it) is rebuilt, and a write is fenced on this position
        self.game_seq: dict[int, int] = {}
        # game id -> where its status board is ("channel:message", "" for none), for the loaded games:
        # asked after every order, read from storage once
        self.boards: dict[int, str] = {}
        self.max_loaded = max_loaded
        self.locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # channel id -> lock
        self.waiting: dict[int, int] = defaultdict(int)  # channel id -> commands waiting for its lock
        self.fixtures: dict[int, dict] = {}  # channel id -> fixture for the next new game (tests, tabletop)
        # where private messages go when a DM is refused, and what is held for a player (bot/delivery.py)
        self.delivery = PrivateDelivery(store, lambda: self.clock())
        # a game's clock, derived from its phase (bot/timekeeper.py)
        self.timekeeper = Timekeeper(store, lambda: self.clock(), lambda: self.deadline_defaults, self._wake)
        # the game's status board as it should read now (the views part gives it: ``Views.board_edit``)
        self.board_edit: Callable[[int], Awaitable[tuple[int, int, str] | None]] = _no_board
        # issue 41: a player's zone, quiet hours or absence changed (the digest part gives it: ``Digest.resync``)
        self.prefs_changed: Callable[[int], Awaitable[None]] = _no_prefs
        # issue 41: a game's result kept as it ends, and at start-up those not kept yet (``Results.keep``, ``backfill``)
        self.on_result: Callable[[GameRow, Game, float], Awaitable[None]] | None = None
        self.backfill: Callable[[], Awaitable[int]] | None = None
        # id(state) -> (state, {seat: its secret text}): the texts of a state an order produced, kept for the next
        # order, whose "before" it is (``changed_secrets``); popped when used, so it holds about one entry a game
        self._secret_memo: dict[int, tuple[dict, dict[str, str]]] = {}

    def _wake(self) -> None:
        if self.on_timers_changed:
            self.on_timers_changed()

    async def load(self, row: GameRow) -> Game:
        """The game as of ``row`` (read under the channel's lock): the loaded copy if it is at
        ``row.seq``, else rebuilt from storage (not loaded yet, or another writer moved it on)."""
        g = self.games.get(row.id)
        if g is None or self.game_seq.get(row.id) != row.seq:
            g, seq = await self._rebuild(row)
            self.keep(row.id, g, seq)
        else:
            self.games.move_to_end(row.id)
        if row.board is not None:  # read with the row (``order_context``): ``board_at`` need not read it again
            self.boards.setdefault(row.id, row.board)  # (a board placed since that read stands: ``set_board``)
        return g

    def keep(self, game_id: int, game: Game, seq: int = 0) -> None:
        """``game`` is the loaded one, at log position ``seq`` (the two always set together: a game is never
        marked with a position its state does not hold); past ``max_loaded``, the least recently used go."""
        self.games[game_id] = game
        self.game_seq[game_id] = seq
        self.games.move_to_end(game_id)
        while len(self.games) > self.max_loaded:
            gid, _ = self.games.popitem(last=False)
            self.game_seq.pop(gid, None)
            self.boards.pop(gid, None)

    def forget(self, game_id: int) -> None:
        self.games.pop(game_id, None)
        self.game_seq.pop(game_id, None)
        self.boards.pop(game_id, None)

    async def board_at(self, game_id: int) -> str:
        """Where the game's status board is ("channel:message"), or "" if it has none."""
        at = self.boards.get(game_id)
        if at is None:
            at = await self.store.get_setting(f"board:{game_id}") or ""
            if game_id in self.games:  # kept only while the game is loaded (bounded like the games)
                self.boards[game_id] = at
        return at

    async def rebuild(self, row: GameRow) -> Game:
        """The last snapshot plus the log after it."""
        return (await self._rebuild(row))[0]

    async def _rebuild(self, row: GameRow) -> tuple[Game, int]:
        """The game and the log position it reflects."""
        seq, state = await self.store.last_snapshot(row.id)
        game = Game(seated(row.ruleset), state)
        for a in await self.store.actions(row.id, after_seq=seq):
            seq = a.seq
            if a.kind != "order":  # an undo row always carries its own snapshot
                raise RuntimeError(f"game {row.id}: undo row #{a.seq} without a snapshot")
            if game.dice_drawn() != a.dice_before:
                raise RuntimeError(f"game {row.id}: dice counter mismatch before #{a.seq}")
            game.redo(a.seat, a.text)  # in place: the log holds accepted orders
            if game.dice_drawn() != a.dice_after:
                raise RuntimeError(f"game {row.id}: dice counter mismatch after #{a.seq}")
        return game, seq

    async def replay_from_start(self, row: GameRow) -> Game:
        """The first snapshot plus the whole log, undos honoured (for verification)."""
        game = Game(seated(row.ruleset), await self.store.first_snapshot(row.id))
        for _, game, _ in walk(row.ruleset, game.state, [entry_of(a) for a in await self.store.actions(row.id)]):
            pass
        return game

    async def warm(self) -> int:
        """Start-up reads no game state: deadlines live in their own table, and games load when
        first touched. Only a game whose phase changed after its clock was derived (the process
        died in between) is loaded now, to give that phase its clock. Returns how many games are
        live."""
        await self.delivery.load()
        if self.backfill is not None:  # issue 41: the results of games that ended before they were kept
            await self.backfill()
        for gid in await self.store.stale_clock_game_ids():
            row = await self.store.game(gid)
            await self.timekeeper.sync(row, await self.load(row))
        return await self.store.count_live_games()

    async def replayed(self, ctx: Ctx) -> Outcome | None:
        if not ctx.interaction_id:
            return None
        r = await self.store.response_for(ctx.interaction_id)
        return None if r is None else self.replay_of(r)

    @staticmethod
    def replay_of(r: dict) -> Outcome:
        """A redelivered interaction: the answer stored the first time, nothing run again."""
        return Outcome(reply=Post(text=r["text"]), ephemeral=r["ephemeral"], ok=r.get("ok", True), replayed=True)

    async def remember(self, ctx: Ctx, game_id: int | None, out: Outcome) -> None:
        if ctx.interaction_id and out.reply:
            await self.store.save_response(ctx.interaction_id, game_id,
                                           {"text": out.reply.text, "ephemeral": out.ephemeral, "ok": out.ok},
                                           self.clock())

    def not_mine(self, ctx: Ctx) -> Outcome | None:
        if self.shard is None or self.shard.owns(ctx.guild_id):
            return None
        return Outcome.error("This server is served by another process of the bot; nothing was done here.")

    async def live(self, ctx: Ctx) -> GameRow | Outcome:
        if (other := self.not_mine(ctx)):
            return other
        row = await self.store.live_game(ctx.channel_id)
        if row is None:
            return Outcome.error(NO_GAME)
        return row

    async def current(self, ctx: Ctx) -> GameRow | Outcome:
        """The channel's game, live or finished (the latest one)."""
        if (other := self.not_mine(ctx)):
            return other
        row = await self.store.latest_game(ctx.channel_id)
        if row is None:
            return Outcome.error("There is no game in this channel. Start one with `/game new`.")
        return row

    def can_admin(self, ctx: Ctx, row: GameRow) -> bool:
        return ctx.is_moderator or ctx.user_id == row.creator_id

    async def render_async(self, game: Game, seat: str | None, around: str | None = None, *,
                           whole: bool = False, radius: int | None = None, game_id: int | None = None) -> bytes | None:
        if self.renderer is None:
            return None
        view = game.view(seat)  # the view is taken now, under the lock; drawing may run in a thread
        if game_id is not None and game.result() is None:
            clock = await self.store.clock(game_id)
            if clock and clock.deadline_at is not None and clock.paused_at is None:
                # public: every seat's notice shows it; in UTC, as an image cannot show local time
                view = dict(view, deadline="Deadline: " + time.strftime("%a %d %b %H:%M UTC", time.gmtime(clock.deadline_at)))
        opts = {k: v for k, v in (("whole", whole), ("radius", radius)) if v}  # only what differs from the default
        if self.render_pool is not None:
            return await self.render_pool.render(self.renderer, view, game.ruleset.name,
                                                 game.ruleset.game_board().drawable, around, **opts)
        return await asyncio.to_thread(functools.partial(self.renderer, **opts), view,
                                       game.ruleset.game_board().drawable, around)

    async def render_game(self, game_id: int, seat: str | None) -> tuple[bytes | None, str]:
        """The map of a game as it is now (for ``Outcome.map_after``)."""
        game = self.games.get(game_id)
        if game is None:
            row = await self.store.game(game_id)
            game = await self.load(row)
        head = self._head(game, game.view(None)).strip("*").rstrip(".")
        return await self.render_async(game, seat, game_id=game_id), f"Map: {head}. {self._map_hint(game)}"

    async def map_description(self, game_id: int, seat: str | None) -> str:
        """``map_alt`` of a game by its id, as it is now (for a map posted after an order or a timer)."""
        game = self.games.get(game_id) or await self.load(await self.store.game(game_id))
        return self.map_alt(game, seat)

    def map_alt(self, game: Game, seat: str | None, around: str | None = None) -> str:
        """The alt text of a map image: whose view, the phase, who acts, the result once over, and a
        short count of what is on the map (from the same view the image is drawn from)."""
        v = game.view(seat)
        whose = f"{self.seat_title(seat)}'s own view" if seat else "public view"
        parts = [f"Map of {game.ruleset.title}, {whose}" + (f", around {around}" if around else "") + "."]
        res = game.result()
        parts.append(self._head(game, v).strip("*") + ("" if res else "."))
        act, _ = self._to_act(v, {}, False)
        if act and res is None:
            parts.append(act)
        units = v.get("units") or []
        if units:
            by_side: dict[str, int] = defaultdict(int)
            for u in units:
                if u.get("hex") or u.get("area"):
                    by_side[str(u.get("side") or "unknown")] += 1
            if by_side:
                parts.append("On the map: " + ", ".join(f"{n} {self.seat_title(s)} counters"
                                                        for s, n in sorted(by_side.items())) + ".")
        return clip(" ".join(parts), 1024)

    seat_title = staticmethod(seat_title)

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

    def _head(self, game: Game, v: dict) -> str:
        """The status line: the game's result once it is over (not "Game-Turn 17 of 16"), else the
        phase."""
        res = game.result()
        if res is not None:
            return f"**The game is over: {res.line}**"
        return self._phase_head(v)

    def turn_line(self, game: Game, seats: dict[str, int], ping: bool) -> tuple[str, list[int]]:
        v = game.view(None)
        if game.result() is not None:
            return self._head(game, v), []
        act, users = self._to_act(v, seats, ping)
        text = self._phase_head(v)
        if act:
            text += "\n" + act
        return text, users

    @staticmethod
    def _map_hint(game: Game) -> str:
        place = game.ruleset.game_board().kind
        if place == "hex":  # the phase's map is cropped to the action (render.hexmap.frame_for)
            return "The map shows where the action is; `/game map whole:true` shows it all, `around:<hex>` zooms in."
        return f"Open the map to read the counters; `/game map around:<{place}>` zooms in."

    async def notice(self, game: Game, seats: dict[str, int], report: list[str], deadline: float | None,
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
                f"{t['name']} {track_value(t)}" + (" (demoralized)" if t.get("demoralized") else "")
                for t in tracks if isinstance(t, dict) and "points" in t), 300)))
        lines += [("keep", act)]
        if deadline:
            lines.append(("keep", f"Deadline: {dl.stamp(deadline)}."))
        lines.append(("opt", self._map_hint(game)))
        return Post(text=fit_lines(lines, limit), mentions=await self.timekeeper.awake(pings))

    async def _keep_record(self, row: GameRow, game: Game, seats: dict[str, int], seat: str, ctx: Ctx,
                           by: str | None, was_active: bool, res, now: float) -> None:
        """Issue 28, the players' records: a holder who finished their part of a phase before its
        deadline is on time for it (and a seat on autopilot whose holder plays again is theirs again);
        a game with a result counts as finished for every holder."""
        uid = seats.get(seat)
        if (by is None and uid is not None and ctx.user_id == uid and was_active
                and (res is not None or seat not in game.active_seats())):
            await self.store.part_finished(row.id, seat, uid, now)  # one trip: the record, the seat theirs again
        if res is not None:  # (a player whose every seat is on autopilot left or vanished: not finished by them)
            states = await self.store.seat_states(row.id)
            for u in sorted(set(seats.values())):
                theirs = [s for s, v in seats.items() if v == u]
                if not all(states.get(s) is not None and states[s].autopilot for s in theirs):
                    await self.store.add_record(u, games_finished=1)

    async def departed(self, game_id: int) -> set[str]:
        """Issue 28: the seats whose holder left the running game (`/game leave`): the seat keeps its last
        holder (the autopilot plays it, its record and a takeover name them) but their tenure in the
        seat's history is closed, and nothing of the seat reaches them any more (no private message,
        no private thread, no ping) until someone takes it over (`/game takeover`, the leaver too)."""
        return await self.timekeeper.departed(game_id)

    async def holding(self, row: GameRow, seats: dict[str, int]) -> dict[str, int]:
        """``seats`` without those whose holder left the running game (``departed``): what a seat's own
        view shows (its map, odds, order choices, replay, set-up) is not theirs any more."""
        if row.status != "active":
            return seats
        gone = await self.departed(row.id)
        return {s: u for s, u in seats.items() if s not in gone} if gone else seats

    @staticmethod
    def withhold(dms: dict[int, list[Post]], seats: dict[str, int], gone: set[str]) -> dict[int, list[Post]]:
        """``dms`` without what the holder of a seat of ``gone`` would get for it: a departed seat's last holder
        (``departed``), or, for the change notices of an order, a seat its private events told (``commit``)."""
        if not gone:
            return dms
        out = {}
        for uid, posts in dms.items():
            keep = [p for p in posts if not (p.seat in gone and seats.get(p.seat) == uid)]
            if keep:
                out[uid] = keep
        return out

    MAX_SECRET_MEMO = 4096  # past it (orders whose commit failed leave their entry), the memo starts afresh

    def changed_secrets(self, rs, seats: dict[str, int], before: dict, after: dict) -> dict[int, list[Post]]:
        """A seat's hidden information changed (an order, an undo): re-sent by DM,
        quietly (if it cannot be delivered, only its reader is told).

        The texts of ``after`` are kept for the next call, whose ``before`` it is when the order is committed
        (``game.state`` then is that very object): the texts of a game's position are worked out once, not
        twice (issue 25: a third of an order's engine time in a game with hidden information). Sound because
        a state that became a game's state is never changed in place: an order works on a copy
        (``Game.play``); only a game rebuilt from storage or replayed (new objects) is played in place."""
        memo = self._secret_memo
        hit = memo.pop(id(before), None)
        known = hit[1] if hit is not None and hit[0] is before else {}
        texts: dict[str, str] = {}
        out: dict[int, list[Post]] = defaultdict(list)
        for s, uid in seats.items():
            now = texts[s] = rs.secret_text(after, s)
            if now and now != (known[s] if s in known else rs.secret_text(before, s)):
                out[uid].append(Post(text=f"**{self.seat_title(s)}** — your hidden information has changed:\n{now}",
                                     quiet=True, seat=s))
        if len(memo) >= self.MAX_SECRET_MEMO:
            memo.clear()
        memo[id(after)] = (after, texts)
        return dict(out)

    async def secrets_dms(self, game: Game, seats: dict[str, int]) -> dict[int, list[Post]]:
        dms: dict[int, list[Post]] = defaultdict(list)
        for seat, uid in seats.items():
            text = game.ruleset.secret_text(game.state, seat)
            if text:
                dms[uid].append(Post(text=f"**{self.seat_title(seat)}** — hidden information, for you only:\n{text}",
                                     seat=seat))
        return dict(dms)

    @staticmethod
    def stamp(out: Outcome, game_id: int | None) -> Outcome:
        """Give each private message of ``out`` its game (where it goes if a DM is refused)."""
        if game_id is not None:
            for posts in out.dms.values():
                for p in posts:
                    if p.game_id is None:
                        p.game_id = game_id
        return out

    def seat_for(self, game: Game, seats: dict[str, int], user_id: int, requested: str | None) -> str | Outcome:
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

    def try_play(self, game: Game, seat: str, text: str):
        """Parse, check and apply on a copy; the live game is untouched."""
        trial = Game(game.ruleset, game.state)
        action, events = trial.play(seat, text)  # play() works on a clone of the state
        return action, events, trial.state

    def try_order(self, game: Game, seat: str, text: str, seats: dict[str, int]):
        """``_try``, and the hidden information the order changed (``_changed_secrets``): the
        engine's whole part of an order, for the worker thread."""
        action, events, new_state = self.try_play(game, seat, text)
        return action, events, new_state, self.changed_secrets(game.ruleset, seats, game.state, new_state)

    async def commit(self, ctx: Ctx, row: GameRow, game: Game, seats: dict[str, int], seat: str,
                      action: Action, events, new_state: dict, *, also=None, by: str | None = None,
                      merge: str | None = None, changed_secrets: dict[int, list[Post]] | None = None,
                      gone: set[str] | None = None) -> Outcome:
        """Write an accepted order (one transaction). ``also(text, outcome)`` gives further
        statements for the same transaction (the scheduler's fired flag and outbox);
        ``by`` names who acted when it was not the seat's holder (the deadline). An order that
        starts a phase gets ``notice`` (report, pings, deadline) to post with the map; with
        ``merge`` (a first line) the order's own lines go into that notice too (one post).
        ``changed_secrets``: ``_changed_secrets`` of this order, if the caller worked it out already;
        ``gone``: ``departed`` of this game, likewise."""
        rs = game.ruleset
        canon = rs.format(action)
        new_phase = any(e.new_phase for e in events)
        seq = row.seq + 1
        res = rs.result(new_state)
        lines = [f"**{self.seat_title(seat)}** `{rs.brief_order_text(public_text(rs, canon))}`" + (f" ({by})" if by else "")]
        report: list[str] = []
        for e in events:
            if e.public and e.new_phase and not res:
                report.append(e.public)  # what begins: in the phase's notice
            elif e.public:
                lines.append(e.public)
            for roll in e.rolls:
                lines.append(f"  🎲 {roll.get('label', '')}: {roll['value']}")
        old_game_state = game.state
        gone = gone if gone is not None else await self.departed(row.id)  # issue 28: a holder who left gets nothing of the seat any more
        present = {s: u for s, u in seats.items() if s not in gone}
        active_before = set(game.active_seats())
        was_active = seat in active_before  # issue 28: a seat that finishes its part on time
        dice_before = game.dice_drawn()
        game.state = new_state
        end_pings: list[int] = []
        if res:
            lines.append(f"**The game is over: {res.line}**")
            # issue 28: the end of a game reaches every seat holder (not in their quiet hours)
            holders = sorted(set(present.values()))
            named, end_pings = await self.timekeeper.mention(holders)
            if named:
                lines.append("Players: " + named)
        text = clip("\n".join(lines), MAX_TEXT)
        ending = rematch_buttons(row.id) if res else []  # issue 41: the end-of-game post offers a rematch
        out = Outcome(reply=Post(text=text, mentions=end_pings, buttons=ending), ephemeral=False)
        secret = public_text(rs, canon) != canon
        if secret:
            # a secret order (Gondor's oil, 16.74): the giver reads it privately (a public
            # answer would show the command as typed); the channel gets the masked line
            # as a plain post
            mine = clip("\n".join([f"**{self.seat_title(seat)}** `{canon}`"] + lines[1:]), MAX_TEXT)
            out = Outcome(reply=Post(text=mine), ephemeral=True,
                          elsewhere={ctx.channel_id: [Post(text=text, buttons=ending)]})

        async def notice(deadline: float | None) -> Post:
            if merge is not None:  # one post for everything: room left for the deadline added when sent
                return await self.notice(game, present, lines + report, None, before=[merge], limit=MAX_TEXT - 120)
            return await self.notice(game, present, report, deadline)

        if new_phase and not res:
            out.notice = await notice(None)
        dms: dict[int, list[Post]] = defaultdict(list)
        told: set[str] = set()  # the seats this order's own private events told
        for e in events:
            for s, t in e.private.items():
                if s in present:
                    # a secret order's DMs (a whisper, a secret pact, a card shown or given): if one cannot
                    # be delivered, the channel must not be told who was to receive it
                    dms[seats[s]].append(Post(text=f"**{self.seat_title(s)}** (private): {t}", quiet=secret, seat=s))
                    told.add(s)
        if changed_secrets is None:
            changed_secrets = self.changed_secrets(rs, seats, old_game_state, new_state)
        # issue 39, one road for each secret: a seat the order told privately is not told it again as "your hidden
        # information has changed" (the event is the news; `/secret` gives the whole of it at any time)
        for uid, posts in self.withhold(changed_secrets, seats, gone | told).items():
            dms[uid].extend(posts)
        out.dms = dict(dms)
        if new_phase:
            out.map_after = (row.id, None)
        self.stamp(out, row.id)
        now = self.clock()
        try:
            await self.store.append_action(
                game_id=row.id, seq=seq, seat=seat, user_id=ctx.user_id or None, text=canon,
                interaction_id=ctx.interaction_id, dice_before=dice_before,
                dice_after=game.dice_drawn(), events=[e.to_json() for e in events],
                now=now, snapshot=new_state if new_phase else None,
                response={"text": out.reply.text, "ephemeral": out.ephemeral, "ok": True},
                status="over" if res else None, also=also(text, out) if also else ())
        except BaseException:
            game.state = old_game_state  # nothing was written; nothing changes
            raise
        # issue 39: this game, at the position just written, is the loaded one, whatever the awaits above did to
        # the cache (pushed it out: it comes back; reloaded it from storage at the older position: replaced)
        self.keep(row.id, game, seq)
        out.stored = (out.reply.text, out.ephemeral)  # written with the log row: not again after
        out.seq = seq  # (what follows the commit reads it here: the game may be pushed out again at any await)
        await self._keep_record(row, game, seats, seat, ctx, by, was_active, res, now)
        if res and self.on_result is not None:  # issue 41: the result kept
            await self.on_result(row, game, now)
        if new_phase or res:  # the phase (and so its clock) changes only with a new phase or the end
            # the row as just written (this transaction moved the counter, and ended the game if over)
            fresh = dataclasses.replace(row, seq=seq, **({"status": "over", "ended_at": now} if res else {}))
            deadline = await self.timekeeper.sync(fresh, game, seats=seats, logged_at=now)
            if out.notice and deadline and merge is None:
                out.notice = await notice(deadline)
        elif set(game.active_seats()) - active_before:
            # issue 28: a seat to act within the phase (a retreat to choose, a challenge to answer): if the
            # bot plays it (autopilot, or a forced action with `/me autoplay`), its timer is due now
            await self.timekeeper.add_play_timers(dataclasses.replace(row, seq=seq), game,
                                                  sorted(set(game.active_seats()) - active_before), seats)
        out.board_edit = await self.board_edit(row.id)  # the status board, if the game has one, edited in place
        if res:  # the seats' private threads (bot/delivery.py) are archived with the game
            out.archive_rooms = await self.delivery.rooms(row.id, rs.seats)
        return out
