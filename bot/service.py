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
from typing import Callable

from engine.core import (
    Action,
    Game,
    OrderError,
    commitment,
    get_ruleset,
    ruleset_names,
)
from bot.storage import GameRow, Store

MAX_TEXT = 2000
MAX_ORDER_TEXT = 200


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


@dataclass
class Outcome:
    reply: Post | None = None  # the answer to the caller
    ephemeral: bool = True  # whether that answer is private
    public: list[Post] = field(default_factory=list)  # further posts in the channel
    dms: dict[int, list[Post]] = field(default_factory=dict)  # user id -> private messages
    ok: bool = True
    replayed: bool = False  # answered from a redelivered interaction
    map_after: tuple[int, str | None] | None = None  # (game id, seat or None): post this map next

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
                 roll_rng=None):
        self.store = store
        self.clock = clock
        self.renderer = renderer
        self.seed_source = seed_source or (lambda: secrets.token_hex(32))
        self.roll_rng = roll_rng  # /roll dice: None means the system's unpredictable source
        self.games: dict[int, Game] = {}  # game id -> live game
        self.locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # channel id -> lock
        self.fixtures: dict[int, dict] = {}  # channel id -> fixture for the next new game (tests, tabletop)

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
        game = Game(row.ruleset, state)
        for a in await self.store.actions(row.id, after_seq=seq):
            if game.dice_drawn() != a.dice_before:
                raise RuntimeError(f"game {row.id}: dice counter mismatch before #{a.seq}")
            game.play(a.seat, a.text)
            if game.dice_drawn() != a.dice_after:
                raise RuntimeError(f"game {row.id}: dice counter mismatch after #{a.seq}")
        return game

    async def replay_from_start(self, row: GameRow) -> Game:
        """The first snapshot plus the whole log (for verification)."""
        game = Game(row.ruleset, await self.store.first_snapshot(row.id))
        for a in await self.store.actions(row.id):
            game.play(a.seat, a.text)
        return game

    async def warm(self) -> int:
        """Load every live game (start-up)."""
        n = 0
        for gid in await self.store.live_game_ids():
            row = await self.store.game(gid)
            await self.load(row)
            n += 1
        return n

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

    def render(self, game: Game, seat: str | None, around: str | None = None) -> bytes | None:
        if self.renderer is None:
            return None
        view = game.view(seat)
        return self.renderer(view, getattr(game.ruleset, "hexmap", None), around)

    async def render_async(self, game: Game, seat: str | None, around: str | None = None) -> bytes | None:
        if self.renderer is None:
            return None
        view = game.view(seat)  # the view is taken now, under the lock; drawing may run in a thread
        return await asyncio.to_thread(self.renderer, view, getattr(game.ruleset, "hexmap", None), around)

    async def render_game(self, game_id: int, seat: str | None) -> tuple[bytes | None, str]:
        """The map of a game as it is now (for ``Outcome.map_after``)."""
        game = self.games.get(game_id)
        if game is None:
            row = await self.store.game(game_id)
            game = await self.load(row)
        v = game.view(None)
        turn = "set-up" if v["turn"] == 0 else f"turn {v['turn']}"
        return await self.render_async(game, seat), (f"Map: {turn}, {v['phase_title']}. "
                                                      "Open it to read the counters; `/game map around:<hex>` zooms in.")

    @staticmethod
    def seat_title(seat: str) -> str:
        return seat.replace("-", " ").title()

    def _turn_line(self, game: Game, seats: dict[str, int], ping: bool) -> tuple[str, list[int]]:
        v = game.view(None)
        active = v["active"]
        users = []
        who = []
        for s in active:
            uid = seats.get(s)
            if uid is not None and ping:
                users.append(uid)
                who.append(f"{self.seat_title(s)} (<@{uid}>)")
            else:
                who.append(self.seat_title(s))
        turn = "Set-up" if v["turn"] == 0 else f"Game-Turn {v['turn']} of {v['turns']} ({'night' if v['night'] else 'day'})"
        text = f"**{turn}: {v['phase_title']}**"
        if who:
            text += f"\nTo act: {', '.join(who)}."
        return text, sorted(set(users))

    async def _secrets_dms(self, game: Game, seats: dict[str, int], only_seat: str | None = None) -> dict[int, list[Post]]:
        dms: dict[int, list[Post]] = defaultdict(list)
        for seat, uid in seats.items():
            if only_seat and seat != only_seat:
                continue
            text = game.ruleset.secret_text(game.state, seat)
            if text:
                dms[uid].append(Post(text=f"**{self.seat_title(seat)}** — hidden information, for you only:\n{text}"))
        return dict(dms)

    # -------------------------------------------------------------- commands
    @_locked(needs_game=False)
    async def new_game(self, ctx: Ctx, ruleset: str, options_text: str | None = None) -> Outcome:
        if ruleset not in ruleset_names():
            return Outcome.error(f"Unknown ruleset `{clip(ruleset, 30)}`. Available: {', '.join(ruleset_names())}.")
        if await self.store.live_game(ctx.channel_id):
            return Outcome.error("This channel already has a game. Finish it with `/game end`, or use another channel or thread.")
        try:
            options = parse_options(options_text)
            rs = get_ruleset(ruleset)
            seed = self.seed_source()
            state = rs.new_game(options, seed, self.fixtures.pop(ctx.channel_id, None))
        except (ValueError, OrderError) as e:
            return Outcome.error(f"Bad options: {e}")
        gid = await self.store.create_game(
            channel_id=ctx.channel_id, guild_id=ctx.guild_id, ruleset=ruleset, options=options, seed=seed,
            commitment=commitment(seed), creator_id=ctx.user_id, now=self.clock(), initial_state=state)
        self.games[gid] = Game(rs, state)
        seats = ", ".join(f"`{s}`" for s in rs.seats)
        return Outcome.public_reply(
            f"New game of **{rs.title}** in this channel. Seats: {seats}. "
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
        head, pings = self._turn_line(game, seats, ping=True)
        text = (f"The game of **{rs.title}** begins.\n"
                f"Dice commitment (SHA-256 of the secret seed): `{row.commitment}`. "
                "Every die and hidden draw comes from that seed; it is published with `/game export` once the game is over.\n"
                f"{head}")
        out = Outcome(reply=Post(text=text, mentions=pings), ephemeral=False, map_after=(row.id, None))
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
        return await self._commit(ctx, row, game, seats, who, action, events, new_state)

    def _try(self, game: Game, seat: str, text: str):
        """Parse, check and apply on a copy; the live game is untouched."""
        trial = Game(game.ruleset, game.state)
        action, events = trial.play(seat, text)  # play() works on a clone of the state
        return action, events, trial.state

    async def _commit(self, ctx: Ctx, row: GameRow, game: Game, seats: dict[str, int], seat: str,
                      action: Action, events, new_state: dict) -> Outcome:
        rs = game.ruleset
        canon = rs.format(action)
        new_phase = any(e.new_phase for e in events)
        seq = row.seq + 1
        res = rs.result(new_state)
        lines = [f"**{self.seat_title(seat)}** `{canon}`"]
        for e in events:
            if e.public and not (e.new_phase and not res):  # the phase header below says it
                lines.append(e.public)
            for roll in e.rolls:
                lines.append(f"  🎲 {roll.get('label', '')}: {roll['value']}")
        old_game_state = game.state
        dice_before = game.dice_drawn()
        game.state = new_state
        pings: list[int] = []
        if new_phase and not res:
            head, pings = self._turn_line(game, seats, ping=True)
            lines.append(head)
        if res:
            lines.append(f"**The game is over.** {res.summary}")
        text = clip("\n".join(lines), MAX_TEXT)
        out = Outcome(reply=Post(text=text, mentions=pings), ephemeral=False)
        try:
            await self.store.append_action(
                game_id=row.id, seq=seq, seat=seat, user_id=ctx.user_id, text=canon,
                interaction_id=ctx.interaction_id, dice_before=dice_before,
                dice_after=game.dice_drawn(), events=[e.to_json() for e in events],
                now=self.clock(), snapshot=new_state if new_phase else None,
                response={"text": text, "ephemeral": False, "ok": True},
                status="over" if res else None)
        except BaseException:
            game.state = old_game_state  # nothing was written; nothing changes
            raise
        if new_phase:
            out.map_after = (row.id, None)
        dms: dict[int, list[Post]] = defaultdict(list)
        for e in events:
            for s, t in e.private.items():
                if s in seats:
                    dms[seats[s]].append(Post(text=f"**{self.seat_title(s)}** (private): {t}"))
        out.dms = dict(dms)
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
        return [t for t in game.legal_texts(who, current or "", limit=limit) if len(t) <= 100]

    async def autocomplete_seat(self, ctx: Ctx, current: str) -> list[str]:
        row = await self.store.live_game(ctx.channel_id)
        if row is None:
            return []
        rs = get_ruleset(row.ruleset)
        seats = await self.store.seats(row.id)
        cur = (current or "").lower()
        return [s for s in rs.seats if s not in seats and cur in s][:25]

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
        tracks = "\n".join(f"- {t['name']}: {t['points']} / {t['level']}" for t in v.get("tracks", []))
        text = (f"**{rs.title}** ({row.status}). Seats: {seat_list}.\n{head}\n"
                f"Deadline: none set.\n{tracks}\nOrders so far: {row.seq}.")
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
            from engine.hexgrid import Hex, HexError

            try:
                h = Hex.parse(around)
            except HexError as e:
                return Outcome.error(str(e))
            hm = getattr(game.ruleset, "hexmap", None)
            if hm is not None and h not in hm:
                return Outcome.error(f"Hex {around} is off the map.")
            around = str(h)
        img = await self.render_async(game, seat, around)
        label = f"{self.seat_title(seat)}'s own view (private)" if seat else "Public map"
        text = f"{label}" + (f", around {around}" if around else "") + "."
        return Outcome(reply=Post(text=text, image=img), ephemeral=bool(seat))

    async def log(self, ctx: Ctx, last: int | None = None) -> Outcome:
        row = await self._current(ctx)  # a finished game still answers
        if isinstance(row, Outcome):
            return row
        n = max(1, min(int(last or 20), 200))
        rows = await self.store.actions(row.id)
        rows = rows[-n:]
        if not rows:
            return Outcome.private("No orders yet.")
        lines = []
        for a in rows:
            secs = sorted({e["section"] for e in a.events if e.get("section")})
            dice = [str(r["value"]) for e in a.events for r in e.get("rolls", [])]
            extra = (f" 🎲 {' '.join(dice)}" if dice else "") + (f" ({', '.join(secs)})" if secs else "")
            lines.append(f"`#{a.seq}` {a.seat}: `{a.text}`{extra}")
        text = "\n".join(lines)
        chunks = split_text(text, 1900)
        return Outcome.private(chunks[-1] if len(chunks) > 1 else chunks[0])

    async def export_data(self, row: GameRow) -> dict:
        seats = await self.store.seats(row.id)
        rows = await self.store.actions(row.id)
        over = row.status in ("over", "ended")
        return {
            "palantir_export": 1,
            "ruleset": row.ruleset,
            "options": row.options,
            "status": row.status,
            "commitment": row.commitment,
            "seed": row.seed if over else None,
            "seats": seats,
            "orders": [a.text for a in rows],
            "log": [{"seq": a.seq, "seat": a.seat, "order": a.text, "dice": [a.dice_before, a.dice_after],
                     "public": [e["public"] for e in a.events if e.get("public")]} for a in rows],
        }

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
