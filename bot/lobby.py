"""Creating, joining, starting, substituting and ending a game."""
from __future__ import annotations

import asyncio
import json
from itertools import combinations
from typing import Awaitable, Callable

from engine.core import Game, OrderError
from engine.dice import commitment
from engine.modes import GM, TABLE_OPTIONS, moded_name, mode_of, split_name
from engine.options import OptionError, check_keys
from engine.rulesets import get_ruleset, ruleset_names
from bot import deadlines as dl
from bot.storage import Clock, GameRow, SeatState

from bot.outcome import MAX_TEXT, NEW_GAME_SECONDS, Post, Outcome, Ctx, PlaceError, clip, parse_options
from bot.table import locked, seated
from bot.results import RESULT_OPTIONS, check_rated
from bot.seats import CHECKIN, SEAT_OPTIONS, SeatRules, one_seat_refusal, other_seat, rate_text
from bot.templates import template_setup


ROOM_KEEP = 5000  # messages kept a private room (the rest are Discord's to keep)
# every game's own options (issue 39): the deadlines', the seats' and the level of play's, beside the ruleset's
GAME_OPTIONS = (*dl.DEADLINE_OPTIONS, *SEAT_OPTIONS, *RESULT_OPTIONS, *TABLE_OPTIONS)


class Lobby:
    """New game, join, leave, start, substitute, end, spectators and the private rooms: an object holding
    the table (the commit path)."""

    def __init__(self, table):
        self.table = table

    @locked(needs_game=False)
    async def new_game(self, ctx: Ctx, ruleset: str, options_text: str | None = None, *,
                       charts: str | None = None,
                       open_thread: Callable[[str], Awaitable[int]] | None = None,
                       template: str | None = None) -> Outcome:
        """A new game here, or, with ``open_thread`` (the transport's way to open a public thread,
        given a default name; it returns the thread's channel id or raises ``PlaceError``), in a
        new thread of this channel. ``charts`` (a chart file's text) becomes the ruleset option
        ``charts``, which the ruleset checks like any other option. ``template`` (issue 41): a set-up
        this server saved (`/template save`), its options overridden key by key by ``options_text``."""
        options: str | dict | None = options_text
        if template is not None and template.strip():
            got = await template_setup(self.table.store, ctx.guild_id, template, ruleset, options_text,
                                       charts is not None)
            if isinstance(got, Outcome):
                return got
            ruleset, options = got
        return await self.create(ctx, ruleset, options, charts=charts, open_thread=open_thread)

    async def checked_setup(self, ruleset: str, options: str | dict | None, charts: str | None = None, *,
                            fixture_of: int | None = None) -> tuple[str, dict, dl.DeadlineRules, dict, str] | Outcome:
        """``/game new``'s checks of a ruleset and its options, in one place (issue 39's typed reader; issue 41:
        `/template save` and a rematch use them too): (the stored ruleset name, the options, the deadline
        rules, the new game's state, its seed), or the refusal (short, private, naming the ruleset and the
        option). ``options`` is the typed text, or pairs already read; ``fixture_of``: the channel whose test
        fixture (``Table.fixtures``) the game is made from, taken once the options are read."""
        ruleset, named_mode = split_name(ruleset or "")  # `gondor@assist` (the console's way) is mode=assist
        if (unknown := self.unknown_ruleset(ruleset)) is not None:
            return unknown
        try:
            # issue 39: one typed reader (engine/options.py); every refusal names this ruleset and the option
            options = dict(options) if isinstance(options, dict) else parse_options(options, ruleset)
            if named_mode:  # `gondor@assist` (`palantir local --mode assist`) is `mode=assist`: both must agree
                asked = options.setdefault("mode", named_mode)
                if asked.strip().lower() != named_mode:
                    raise OptionError(f"{ruleset}: the level of play is given twice, `{named_mode}` (`--mode`, or "
                                      f"`{ruleset}@{named_mode}`) and `mode={clip(asked, 20)}`; give it once")
            if charts is not None:
                if "charts" in options:
                    raise ValueError(f"{ruleset}: give the charts once: as a file or in `options`, not both")
                options["charts"] = charts
            check_keys(get_ruleset(ruleset).options, options, ruleset, GAME_OPTIONS)  # (values: below, each by its reader)
            rs_options, rules = dl.split_options(options, self.table.deadline_defaults, ruleset)
            SeatRules.parse(options, ruleset)  # issue 28: checkin=, min_ontime=, autopilot=, takeover= (refused if bad)
            # a level of play (issue 14) names the wrapped ruleset, `gondor@assist`; without one the
            # game is stored exactly as before
            mode = mode_of(options, ruleset) or get_ruleset(ruleset).default_mode  # wotr: assist unless asked
            check_rated(options, mode, ruleset)  # issue 41: `rated=on|off`, never a tabletop game
            stored_name = moded_name(ruleset, mode) if mode else ruleset
            rs = get_ruleset(stored_name)
            seed = self.table.seed_source()
            fixture = self.table.fixtures.pop(fixture_of, None) if fixture_of is not None else None
            # the options, and a group's chart file above all, are checked in a worker thread with
            # a time limit: whatever a group uploads, the other games keep being answered
            state = await asyncio.wait_for(asyncio.to_thread(rs.new_game, rs_options, seed, fixture),
                                           NEW_GAME_SECONDS)
        except (ValueError, OrderError) as e:  # (an unknown option's refusal lists every option: a whole message)
            return Outcome.error(f"Bad options: {e}", MAX_TEXT)
        except asyncio.TimeoutError:
            return Outcome.error(f"No game was created: checking the options took over {NEW_GAME_SECONDS:g} s. "
                                 "Simplify the chart file.")
        return stored_name, options, rules, state, seed

    @staticmethod
    def unknown_ruleset(ruleset: str) -> Outcome | None:
        """The refusal of a ruleset name that is none of ours (None: it is one)."""
        if ruleset in ruleset_names():
            return None
        if not (ruleset or "").strip():
            return Outcome.error(f"Name the game: `/game new ruleset:<name>` (or `template:<name>`, a set-up saved "
                                 f"here). Available: {', '.join(ruleset_names())}.")
        return Outcome.error(f"Unknown ruleset `{clip(ruleset, 30)}`. Available: {', '.join(ruleset_names())}.")

    async def create(self, ctx: Ctx, ruleset: str, options: str | dict | None, *, charts: str | None = None,
                     open_thread: Callable[[str], Awaitable[int]] | None = None) -> Outcome:
        """``new_game``'s work, under the caller's lock (the channel's): the checks (``checked_setup``), then the
        game, here or in a new thread. (Issue 41: a rematch creates its game this way.)"""
        if (unknown := self.unknown_ruleset(split_name(ruleset or "")[0])) is not None:
            return unknown
        if open_thread is None and await self.table.store.live_game(ctx.channel_id):
            return Outcome.error("This channel already has a game. Finish it with `/game end`, or use another "
                                 "channel or thread (`/game new thread:yes` opens one).")
        got = await self.checked_setup(ruleset, options, charts, fixture_of=ctx.channel_id)
        if isinstance(got, Outcome):
            return got
        stored_name, options, rules, state, seed = got
        rs = get_ruleset(stored_name)
        channel_id = ctx.channel_id
        if open_thread is not None:
            try:
                channel_id = await open_thread(clip(f"{rs.title} ({ctx.user_name or 'new game'})", 100))
            except PlaceError as e:
                return Outcome.error(f"No game was created: {e}")
            if await self.table.store.live_game(channel_id):  # a thread that already holds a game
                return Outcome.error("That thread already has a game. Finish it with `/game end` there.")
        gid = await self.table.store.create_game(
            channel_id=channel_id, guild_id=ctx.guild_id, ruleset=stored_name, options=options, seed=seed,
            commitment=commitment(seed), creator_id=ctx.user_id, now=self.table.clock(), initial_state=state,
            deadline_rules={"hours": rules.hours, "policy": rules.policy, "reminders": list(rules.reminders)})
        self.table.keep(gid, Game(seated(stored_name), state))
        seats = ", ".join(f"`{s}`" for s in rs.seats if s not in rs.optional_seats)
        seats += "".join(f", `{s}` (optional)" for s in rs.seats if s in rs.optional_seats and s != GM)
        if GM in rs.optional_seats:
            seats += " and the moderator's `gm` (the creator or Manage Server)"
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

    @locked(needs_game=True)
    async def join(self, ctx: Ctx, row: GameRow, seat: str) -> Outcome:
        rs = seated(row.ruleset)  # a plain game's moderator is the lobby's (engine/modes/gm.py)
        seat = (seat or "").strip().lower()
        if seat not in rs.seats:
            return Outcome.error(f"`{clip(seat, 30)}` is not a seat here. Seats: {', '.join(rs.seats)}.")
        seats = await self.table.store.seats(row.id)
        if seat in seats:
            holder = seats[seat]
            if holder == ctx.user_id:
                return Outcome.error(f"You already hold `{seat}`.")
            return Outcome.error(f"`{seat}` is taken. Free seats: {', '.join(s for s in rs.seats if s not in seats) or 'none'}.")
        if seat == GM and GM in rs.optional_seats:
            if not self.table.can_admin(ctx, row):
                return Outcome.error("The moderator's seat is taken by the game's creator or a member with Manage Server.")
            if row.status not in ("open", "active"):
                return Outcome.error("The game is over.")
        elif row.status != "open":
            return Outcome.error("The game has started; a moderator can hand a seat over with `/game sub`.")
        rules = SeatRules.of(row)
        rec = await self.table.store.record(ctx.user_id)
        if (rules.min_ontime is not None and seat != GM and rec.ontime_percent is not None
                and rec.ontime_percent < rules.min_ontime):  # issue 28: new players pass
            return Outcome.error(f"This game asks for an on-time record of at least {rules.min_ontime:g}%; yours is "
                                 f"{rec.ontime_percent:.0f}% (`/me record`).")
        if not await self.table.store.take_seat(row.id, seat, ctx.user_id, self.table.clock()):
            return Outcome.error(f"`{seat}` was taken a moment ago.")
        await self.table.store.seat_changed(row.id, seat, ctx.user_id, self.table.clock())  # issue 28: who held it when
        free = [s for s in rs.seats if s not in seats and s != seat and s not in rs.optional_seats]
        tail = f" Still free: {', '.join(free)}." if free else " All seats are taken: `/game start` when ready."
        probe = (ctx.user_id, row.id, seat) if rs.hidden_information else None  # can they be reached privately?
        if row.status == "active":  # the moderator, joining a game under way: the secrets by DM
            out = Outcome.public_reply(f"<@{ctx.user_id}> takes **{self.table.seat_title(seat)}**.")
            out.dms = await self.table.secrets_dms(await self.table.load(row), {seat: ctx.user_id})
            out.probe = None if out.dms else probe
            return out
        checkin = rules.checkin > 0 and not free and seat != GM
        if rules.checkin > 0 and seat != GM:  # a seat taken (again) checks in (again)
            await self.table.store.set_seat_state(SeatState(row.id, seat))
        if checkin:  # issue 28: every holder checks in within the time, or the seat reopens
            now = self.table.clock()
            due = now + rules.checkin * 3600
            await self.table.store.set_clock(Clock(row.id, CHECKIN, now), [("deadline", "", due)])
            self.table.timekeeper.wake()
            tail = (f" All seats are taken: each player checks in with the button below by {dl.stamp(due)}; a seat "
                    "whose holder has not reopens, and the game starts when everyone has checked in.")
        out = Outcome.public_reply(f"<@{ctx.user_id}> takes **{self.table.seat_title(seat)}** ({rate_text(rec)}).{tail}")
        out.probe = probe
        if checkin:
            holders = sorted({u for s, u in {**seats, seat: ctx.user_id}.items() if s not in rs.optional_seats})
            named, out.reply.mentions = await self.table.timekeeper.mention(holders)
            out.reply.text += " " + named
            out.reply.buttons = [(f"checkin:{row.id}", "Check in")]
        return out

    @locked(needs_game=True)
    async def checkin(self, ctx: Ctx, row: GameRow, game_id: int) -> Outcome:
        """The Check in button (issue 28, `checkin=`): the caller's seats are checked in; once every seat
        is, the game starts."""
        if game_id != row.id or row.status != "open":
            return Outcome.error("This check-in is over.")
        clock = await self.table.store.clock(row.id)
        if clock is None or clock.phase_key != CHECKIN:
            return Outcome.error("No check-in is running in this game.")
        rs = get_ruleset(row.ruleset)
        seats = await self.table.store.seats(row.id)
        mine = [s for s, u in seats.items() if u == ctx.user_id and s not in rs.optional_seats]
        if not mine:
            return Outcome.error("You hold no seat in this game.")
        states = await self.table.store.seat_states(row.id)
        if all(states.get(s) is not None and states[s].checked_in for s in mine):
            return Outcome.error("You have checked in already.")
        for s in mine:
            st = states.get(s) or SeatState(row.id, s)
            st.checked_in = True
            states[s] = st
            await self.table.store.set_seat_state(st)
        waiting = [s for s in rs.seats if s not in rs.optional_seats and not (states.get(s) and states[s].checked_in)]
        if waiting or any(s not in seats for s in rs.seats if s not in rs.optional_seats):
            return Outcome.public_reply(f"<@{ctx.user_id}> checks in. Still to check in: "
                                        + ", ".join(self.table.seat_title(s) for s in waiting) + ".")
        out = await self._begin(row, seats)
        out.reply.text = f"<@{ctx.user_id}> checks in; everyone has. " + out.reply.text
        return out

    @locked(needs_game=True)
    async def leave(self, ctx: Ctx, row: GameRow) -> Outcome:
        if row.status == "active":
            return await self._leave_running(ctx, row)
        if row.status != "open":
            return Outcome.error("The game is over.")
        left = await self.table.store.release_seats(row.id, ctx.user_id)
        if not left:
            return Outcome.error("You hold no seat in this game.")
        for s in left:
            await self.table.store.seat_changed(row.id, s, None, self.table.clock())
        return Outcome.public_reply(f"<@{ctx.user_id}> leaves {', '.join(self.table.seat_title(s) for s in left)}.")

    async def _leave_running(self, ctx: Ctx, row: GameRow) -> Outcome:
        """Issue 28: leaving a game under way puts one's seats on autopilot and offers them for takeover;
        the record counts an abandoned game. The leaver's tenure ends (the seat's history closes it,
        ``Table.departed``): from now on nothing of the seat reaches them (no private message, no ping;
        the transport takes them out of the seat's private thread, ``leave_rooms``; what was held for
        their next command is dropped), and they cannot play it: to play it again they take it over like
        anyone else (`/game takeover`, under the game's takeover rule)."""
        store, now = self.table.store, self.table.clock()
        seats = await store.seats(row.id)
        held = [s for s, u in seats.items() if u == ctx.user_id and s != GM]
        if not held:
            return Outcome.error("You hold no seat in this game.")
        gone = await self.table.departed(row.id)
        mine = [s for s in held if s not in gone]
        if not mine:
            return Outcome.error("You have left this game already; your seats are on autopilot, open for takeover.")
        states = await store.seat_states(row.id)
        open_ = {h["seat"] for h in await store.seat_history(row.id) if h.get("to_at") is None}
        for s in mine:
            st = states.get(s) or SeatState(row.id, s)
            st.autopilot, st.missed_in_row, st.takeover = True, 0, None
            await store.set_seat_state(st)
            if s not in open_:  # (a game begun before seats had a history: its tenure, so that it can end)
                await store.seat_changed(row.id, s, ctx.user_id, row.started_at or row.created_at or now)
            await store.seat_changed(row.id, s, None, now)  # their tenure ends: the seat is nobody's
        held_ids = [h["id"] for h in await store.held_posts(ctx.user_id)
                    if h.get("game_id") == row.id and h.get("seat") in mine]
        if held_ids:  # the seat's secrets held for their next command are not theirs any more
            await store.mark_held_shown(held_ids, now)
            await self.table.delivery.shown(ctx.user_id, [])
        await store.add_record(ctx.user_id, games_abandoned=1)
        game = await self.table.load(row)
        clock = await self.table.store.clock(row.id)
        if clock is not None:  # the bot plays the seat from now on, starting with this phase if it is to act
            await self.table.timekeeper.reschedule(row, game, clock, seats)
        names = ", ".join(f"**{self.table.seat_title(s)}**" for s in mine)
        out = Outcome.public_reply(f"<@{ctx.user_id}> leaves {names}: on autopilot from now on (the bot plays the "
                                   "ruleset's safe default) and open for takeover: `/game takeover seat:<seat>`.")
        out.leave_rooms = [(row.id, s, ctx.user_id) for s in mine]
        kept = [s for s, u in seats.items() if u == ctx.user_id and s not in mine]  # (the moderator's seat)
        out.room_moves = [(tid, ctx.user_id, False) for tid in await self.seat_rooms(row.id, mine, kept)]
        return out

    async def seat_rooms(self, game_id: int, seats, besides=()) -> list[int]:
        """The players' private rooms (`/game table`) that any of ``seats`` is in and none of ``besides``
        (issue 28: they follow the seat when it changes hands; a player keeps a room of another seat of theirs)."""
        rooms = json.loads(await self.table.store.get_setting(f"rooms:{game_id}") or "{}")
        return [tid for key, tid in rooms.items() if set(key.split("+")) & set(seats) and not set(key.split("+")) & set(besides)]

    @locked(needs_game=True)
    async def start(self, ctx: Ctx, row: GameRow) -> Outcome:
        if row.status != "open":
            return Outcome.error("This game has already started.")
        seats = await self.table.store.seats(row.id)
        if not (self.table.can_admin(ctx, row) or ctx.user_id in seats.values()):
            return Outcome.error("Only a player, the creator or a moderator can start the game.")
        rs = get_ruleset(row.ruleset)
        missing = [s for s in rs.seats if s not in seats and s not in rs.optional_seats]
        if missing:
            return Outcome.error(f"Seats still free: {', '.join(missing)}. Take them with `/game join`.")
        if SeatRules.of(row).checkin > 0:  # issue 28: it starts by itself once every holder has checked in
            states = await self.table.store.seat_states(row.id)
            waiting = [s for s in rs.seats if s not in rs.optional_seats and not (states.get(s) and states[s].checked_in)]
            return Outcome.error("This game starts when every player has checked in (the Check in button); still to "
                                 "check in: " + ", ".join(self.table.seat_title(s) for s in waiting) + ".")
        return await self._begin(row, seats)

    async def seat_and_begin(self, game_id: int, seats: dict[str, int]) -> Outcome:
        """Issue 41, a rematch whose every player confirmed (by button: so also checked in, with `checkin=`):
        each takes their seat, and the game begins."""
        store, now = self.table.store, self.table.clock()
        row = await store.game(game_id)
        checkin = SeatRules.of(row).checkin > 0
        for s, u in seats.items():
            await store.take_seat(game_id, s, u, now)
            await store.seat_changed(game_id, s, u, now, "rematch")
            if checkin:
                await store.set_seat_state(SeatState(game_id, s, checked_in=True))
        return await self._begin(row, seats)

    async def _begin(self, row: GameRow, seats: dict[str, int]) -> Outcome:
        rs = get_ruleset(row.ruleset)
        await self.table.store.set_status(row.id, "active", self.table.clock())
        game = await self.table.load(row)
        row = await self.table.store.game(row.id)
        text = (f"The game of **{rs.title}** begins.\n"
                f"Dice commitment (SHA-256 of the secret seed): `{row.commitment}`. "
                "Every die and hidden draw comes from that seed; it is published with `/game export` once the game is over.")
        deadline = await self.table.timekeeper.sync(row, game)
        out = Outcome(reply=Post(text=text), ephemeral=False, map_after=(row.id, None),
                      notice=await self.table.notice(game, seats, [], deadline))
        out.dms = await self.table.secrets_dms(game, seats)
        return out

    async def autocomplete_seat(self, ctx: Ctx, current: str) -> list[str]:
        row = await self.table.store.live_game(ctx.channel_id)
        if row is None:
            return []
        rs = seated(row.ruleset)
        seats = await self.table.store.seats(row.id)
        cur = (current or "").lower()
        admin = self.table.can_admin(ctx, row)  # the moderator's seat is offered to who may take it
        return [s for s in rs.seats if s not in seats and cur in s and (s != GM or admin)][:25]

    async def autocomplete_taken_seat(self, ctx: Ctx, current: str) -> list[str]:
        row = await self.table.store.live_game(ctx.channel_id)
        if row is None:
            return []
        seats = await self.table.store.seats(row.id)
        cur = (current or "").lower()
        return [s for s in seated(row.ruleset).seats if s in seats and cur in s][:25]

    @locked(needs_game=True)
    async def end(self, ctx: Ctx, row: GameRow) -> Outcome:
        if not self.table.can_admin(ctx, row):
            return Outcome.error("Only the game's creator or a member with Manage Server can end it.")
        await self.table.store.set_status(row.id, "ended", self.table.clock())
        self.table.forget(row.id)
        await self.table.store.set_clock(Clock(row.id, "ended", self.table.clock()), [])  # no timer outlives its game
        # issue 28: every seat holder hears of the end (not in their quiet hours, not away)
        holders = sorted(set((await self.table.store.seats(row.id)).values()) - {ctx.user_id})
        named, pings = await self.table.timekeeper.mention(holders)
        out = Outcome.public_reply(
            f"The game has been ended by <@{ctx.user_id}>, without a result. Seed, for checking every die: `{row.seed}` "
            f"(its SHA-256 is the commitment `{row.commitment[:16]}…`)." + (f" {named}" if named else ""),
            mentions=pings)
        out.archive_rooms = await self.table.delivery.rooms(row.id, seated(row.ruleset).seats)
        return out

    @locked(needs_game=True)
    async def table_rooms(self, ctx: Ctx, row: GameRow,
                          open_room: Callable[[str, list[int]], Awaitable[int]] | None = None,
                          subset: str | None = None) -> Outcome:
        """`/game table [seats:a+b+c]`: a private thread for each pair of seats, or for the seats named
        (their holders and the moderator), where the server allows private threads. ``open_room(name,
        user_ids)`` is the transport's (it returns the thread's id or raises ``PlaceError``). Each set
        of seats gets one room, ever."""
        if not self.table.can_admin(ctx, row):
            return Outcome.error("Only the game's creator or a member with Manage Server opens the private rooms.")
        game = await self.table.load(row)
        if game.ruleset.whispers(game.state) != "on":
            return Outcome.error("Private talk is not on in this game (`/game new options: mode=... whispers=on`).")
        if open_room is None:
            return Outcome.error("Private rooms are threads on Discord; here, use `/whisper`.")
        rs = game.ruleset
        seats = await self.table.store.seats(row.id)
        players = [s for s in rs.seats if s not in rs.optional_seats and s in seats]
        gm = seats.get(GM)
        key = f"rooms:{row.id}"
        rooms = json.loads(await self.table.store.get_setting(key) or "{}")
        if subset:
            wanted = [w.strip().lower() for w in subset.replace(",", "+").split("+") if w.strip()]
            bad = [w for w in wanted if w not in players]
            if bad:
                return Outcome.error(f"`{clip(bad[0], 30)}` is not a seat held here. Seats: {', '.join(players)}.")
            groups = [tuple(s for s in players if s in wanted)]
        else:
            groups = list(combinations(players, 2))
        made: list[tuple[tuple[str, ...], int]] = []
        for group in groups:
            holders = {seats[s] for s in group}
            if "+".join(group) in rooms or len(holders) < 2:
                continue
            users = sorted(holders | ({gm} if gm else set()))
            names = " & ".join(self.table.seat_title(s) for s in group)
            try:
                tid = await open_room(clip(f"{names} (private)", 100), users)
            except PlaceError as e:
                if not made:
                    return Outcome.error(f"No private room was opened: {e}")
                break
            rooms["+".join(group)] = tid
            await self.table.store.set_setting(f"room:{tid}", json.dumps({"game": row.id, "seats": list(group)}))
            made.append((group, tid))
        if not made:
            return Outcome.error("Those seats already have their private room (or are held by one player)." if subset
                                 else "Every pair of seats held by two players already has its private room.")
        await self.table.store.set_setting(key, json.dumps(rooms))
        what = "for " + " & ".join(self.table.seat_title(s) for s in made[0][0]) if subset else \
            f"one for each pair of seats ({len(made)})"
        out = Outcome.public_reply(f"Private rooms opened, {what}: each is read by its players"
                                   + (" and the moderator." if gm else "."))
        for group, tid in made:
            out.elsewhere[tid] = [Post(text="A private room for " + ", ".join(f"**{self.table.seat_title(s)}**" for s in group)
                                            + (" (the moderator reads it too)" if gm else "")
                                            + ". Orders still go in the game's channel.")]
        return out

    async def room_message(self, channel_id: int, user_id: int, text: str, message_id: int | None = None) -> bool:
        """A message posted in a private room (`/game table`) of a live game: kept for the export,
        which shows it once the game is over (like a whisper). False: not a room, or nothing kept.
        Under the room's own lock, one list a room (``roomlog:<game>:<room>``)."""
        at = await self.table.store.get_setting(f"room:{channel_id}")
        text = (text or "").strip()
        if not at or not text:
            return False
        room = json.loads(at)
        async with self.table.locks[channel_id]:
            row = await self.table.store.game(room["game"])
            if row is None or row.status not in ("open", "active"):
                return False
            key = f"roomlog:{row.id}:{channel_id}"
            kept = json.loads(await self.table.store.get_setting(key) or "[]")
            if message_id is not None and any(m.get("id") == message_id for m in kept):
                return False  # a redelivered event
            if len(kept) >= ROOM_KEEP:
                return False
            kept.append({"id": message_id, "user": user_id, "text": clip(text, 2000), "at": self.table.clock()})
            await self.table.store.set_setting(key, json.dumps(kept))
        return True

    async def room_logs(self, game_id: int) -> list[dict]:
        """Every private room of a game with what was kept of it (for the export, once over)."""
        rooms = json.loads(await self.table.store.get_setting(f"rooms:{game_id}") or "{}")
        out = []
        for group, tid in rooms.items():
            kept = json.loads(await self.table.store.get_setting(f"roomlog:{game_id}:{tid}") or "[]")
            out.append({"seats": group.split("+"),
                        "messages": [{"user": m["user"], "text": m["text"], "at": m["at"]} for m in kept]})
        return out

    # ============================================================ spectators
    async def spectators(self, game_id: int) -> dict[str, list[int]]:
        """``{"asked": [...], "admitted": [...]}``: who asked to watch a game, and whom its creator (or
        Manage Server) admitted. A lobby list (no part of the game's state): a spectator reads what
        the public reads, and is named in the status."""
        return json.loads(await self.table.store.get_setting(f"spectators:{game_id}") or '{"asked": [], "admitted": []}')

    @locked(needs_game=True)
    async def spectate(self, ctx: Ctx, row: GameRow) -> Outcome:
        """`/game spectate`: ask to watch; the creator admits (a button, or `/game admit`). The creator
        or a moderator asking is admitted at once."""
        if row.status not in ("open", "active"):
            return Outcome.error("The game is over: its export and replay are open to everyone.")
        if ctx.user_id in (await self.table.store.seats(row.id)).values():
            return Outcome.error("You hold a seat in this game; a spectator holds none.")
        sp = await self.spectators(row.id)
        if ctx.user_id in sp["admitted"]:
            return Outcome.error("You are already a spectator of this game.")
        if self.table.can_admin(ctx, row):
            return await self._admit(row, sp, ctx.user_id)
        if ctx.user_id in sp["asked"]:
            return Outcome.error("You have asked already; the game's creator admits spectators.")
        sp["asked"].append(ctx.user_id)
        await self.table.store.set_setting(f"spectators:{row.id}", json.dumps(sp))
        out = Outcome.public_reply(f"<@{ctx.user_id}> asks to watch this game as a spectator (the public view only). "
                                   f"The creator admits with the button or `/game admit`.",
                                   mentions=[row.creator_id])
        out.reply.buttons = [(f"spec:{row.id}:{ctx.user_id}:y", "Admit"), (f"spec:{row.id}:{ctx.user_id}:n", "Decline")]
        return out

    @locked(needs_game=True)
    async def admit(self, ctx: Ctx, row: GameRow, user_id: int, yes: bool = True, game_id: int | None = None,
                    user_is_bot: bool = False) -> Outcome:
        """`/game admit user:` (or a button under a request): the creator or Manage Server admits a
        spectator, or (``yes`` False) declines one who asked."""
        if game_id is not None and game_id != row.id:
            return Outcome.error("This button is for a game that is no longer running here.")
        if not self.table.can_admin(ctx, row):
            return Outcome.error("Only the game's creator or a member with Manage Server admits spectators.")
        if row.status not in ("open", "active"):
            return Outcome.error("The game is over.")
        if user_is_bot:
            return Outcome.error("A bot cannot watch a game.")
        sp = await self.spectators(row.id)
        if user_id in sp["admitted"]:
            return Outcome.error(f"<@{user_id}> is already a spectator.")
        if user_id in (await self.table.store.seats(row.id)).values():
            return Outcome.error(f"<@{user_id}> holds a seat in this game.")
        if not yes:
            if user_id not in sp["asked"]:
                return Outcome.error(f"<@{user_id}> has not asked to watch.")
            sp["asked"].remove(user_id)
            await self.table.store.set_setting(f"spectators:{row.id}", json.dumps(sp))
            return Outcome.public_reply(f"<@{user_id}> is not admitted as a spectator.")
        return await self._admit(row, sp, user_id)

    async def _admit(self, row: GameRow, sp: dict, user_id: int) -> Outcome:
        if user_id in sp["asked"]:
            sp["asked"].remove(user_id)
        sp["admitted"].append(user_id)
        await self.table.store.set_setting(f"spectators:{row.id}", json.dumps(sp))
        out = Outcome.public_reply(f"<@{user_id}> watches this game as a spectator: the public view only, "
                                   "never a seat's secrets.", mentions=[user_id])
        out.board_edit = await self.table.board_edit(row.id)
        return out

    @locked(needs_game=True)
    async def sub(self, ctx: Ctx, row: GameRow, seat: str, user_id: int, user_is_bot: bool = False) -> Outcome:
        rs = seated(row.ruleset)
        seat = (seat or "").strip().lower()
        by_vote = False
        if not self.table.can_admin(ctx, row):
            # a seat the players voted to replace (engine/modes/votes.py): any player hands it over, once
            key = f"replaced:{row.id}"
            used = json.loads(await self.table.store.get_setting(key) or "[]")
            voted = row.status == "active" and seat in rs.replaceable_seats((await self.table.load(row)).state)
            if not (voted and seat not in used and ctx.user_id in (await self.table.store.seats(row.id)).values()):
                return Outcome.error("Only the game's creator or a member with Manage Server can hand a seat over "
                                     "(or a player, once the players have voted to replace it: `/order vote replace <seat>`).")
            by_vote = True
        if seat not in rs.seats:
            return Outcome.error(f"`{clip(seat, 30)}` is not a seat here. Seats: {', '.join(rs.seats)}.")
        if user_is_bot:
            return Outcome.error("A bot cannot hold a seat.")
        seats = await self.table.store.seats(row.id)
        if seat not in seats:
            return Outcome.error(f"Nobody holds `{seat}` yet; the player can take it with `/game join`.")
        old = seats[seat]
        if old == user_id and seat not in await self.table.departed(row.id):  # (one who left may be handed it back)
            return Outcome.error(f"<@{user_id}> already holds `{seat}`.")
        held = await other_seat(self.table, row, seats, user_id, seat)  # issue 39: one seat each once play has begun
        if held:
            return one_seat_refusal(self.table, f"<@{user_id}>", held)
        await self.table.store.set_seat_holder(row.id, seat, user_id)
        await self.table.store.seat_changed(row.id, seat, user_id, self.table.clock(), "sub")
        if row.status == "active" and old != user_id:  # issue 28: a seat taken over, in both players' records
            await self.table.store.add_record(user_id, seats_taken_over=1)
            await self.table.store.add_record(old, seats_lost=1)
        if row.status == "active":  # the new holder's (or the one handed it back): no misses, no autopilot
            await self.table.store.set_seat_state(SeatState(row.id, seat))
        if by_vote:
            await self.table.store.set_setting(f"replaced:{row.id}", json.dumps(used + [seat]))
        out = Outcome.public_reply(f"<@{user_id}> now holds **{self.table.seat_title(seat)}** (was <@{old}>), "
                                   f"handed over by <@{ctx.user_id}>.", mentions=[user_id])
        # the seat's private rooms with the other players follow it (issue 28; handed back: its holder again)
        rooms = await self.seat_rooms(row.id, [seat])
        kept = await self.seat_rooms(row.id, [seat], [s for s, u in seats.items() if u == old and s != seat])
        out.room_moves = ([(tid, old, False) for tid in kept] if old != user_id else []) + [(tid, user_id, True) for tid in rooms]
        if row.status == "active":
            game = await self.table.load(row)
            out.dms = await self.table.secrets_dms(game, {seat: user_id})
            await self.table.timekeeper.sync(row, game, force=True)  # the new holder's quiet hours count now
        return out

    # ============================================================ undo
