"""Deadlines: a phase's clock and its timers, firing them, extending and pausing, players' quiet
hours and absence."""
from __future__ import annotations

import asyncio
import json

from engine.core import Game, OrderError
from bot import deadlines as dl
from bot.storage import Clock, FireTimer, GameRow, OutboxPost, PauseClock, Prefs

from bot.outcome import Post, Outcome, Ctx
from bot.table import _locked


class Clocks:
    """A part of ``GameService`` (``bot/service.py``); see the module's docstring."""

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
        return game.ruleset.phase_key(game.state)

    async def outbox_post(self, payload: dict) -> Post:
        """An outbox row as a post: a phase's notice gets its map and its deadline as they are now."""
        post = Post(text=payload.get("text", ""), mentions=list(payload.get("mentions") or []))
        if payload.get("deadline"):
            clock = await self.store.clock(payload["deadline"])
            if clock and clock.deadline_at and clock.paused_at is None:
                post.text += f"\nDeadline: {dl.stamp(clock.deadline_at)}."
        if payload.get("map"):
            post.image, _ = await self.render_game(payload["map"], None)
            post.alt = await self.map_description(payload["map"], None)
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

    async def _sync_clock(self, row: GameRow, game: Game, *, force: bool = False, seats: dict[str, int] | None = None,
                          logged_at: float | None = None) -> float | None:
        """After anything that may change the phase: a new phase gets a fresh clock (starting when
        the order that began it was logged: ``logged_at`` when the caller just logged it, else
        read), and the timers follow. ``seats``: the game's seats, if the caller holds them
        current. Returns the deadline."""
        now = self.clock()
        clock = await self.store.clock(row.id)
        if row.status != "active" or game.result() is not None:
            if clock is None or clock.phase_key != "ended":
                await self.store.set_clock(Clock(row.id, "ended", now, synced_seq=row.seq), [])
            return None
        key = self._phase_key(game)
        if clock is None or clock.phase_key != key:
            started = (logged_at or await self.store.last_action_time(row.id)) or row.started_at or now
            clock = Clock(row.id, key, started, 0.0, clock.paused_at if clock else None, None)
            force = True
        if not force:
            return clock.deadline_at
        clock.synced_seq = row.seq
        return await self._reschedule(row, game, clock, seats)

    async def _reschedule(self, row: GameRow, game: Game, clock: Clock,
                          seats: dict[str, int] | None = None) -> float | None:
        now = self.clock()
        rules = self._rules(row)
        active = game.active_seats()
        timers: list[tuple[str, str, float]] = []
        clock.deadline_at = None
        if rules.hours > 0 and clock.paused_at is None and active:
            seats = seats if seats is not None else await self.store.seats(row.id)
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
                OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id),
                *await self._board_row(row)])
            await self._reschedule(row, game, clock)
            return
        text = (f"⌛ The deadline for {title} has passed; still to act: {names}. "
                f"<@{row.creator_id}>: `/game extend hours:<n>` gives more time; `/game pause` stops the clock.")
        await self.store.apply_effects(
            [fire, OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id)])

    async def _board_row(self, row: GameRow) -> list:
        """The outbox row that has the scheduler edit the game's status board in place (as it is when
        sent), if the game has one: a deadline's order or pause changes what the board reads."""
        at = await self.board_at(row.id)
        if not at:
            return []
        return [OutboxPost(row.id, {"board": row.id}, self.clock(), channel_id=int(at.split(":")[0]))]

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
            action, events, new_state = await asyncio.to_thread(self._try, game, seat, "done")
        except OrderError as e:
            alt = rs.deadline_action(game.state, seat)
            if alt is None:  # the rules do not let this seat stop here: say so, and nag instead
                uid = seats[seat]
                text = (f"⌛ The deadline for {title} has passed, but {self.seat_title(seat)} (<@{uid}>) cannot be "
                        f"passed: {e}. <@{row.creator_id}>: `/game extend hours:<n>` or `/game sub`.")
                pings = await self._awake(sorted({uid, row.creator_id}))
                return False, [OutboxPost(row.id, {"text": text, "mentions": pings}, self.clock(),
                                                     channel_id=row.channel_id)], False
            action, events, new_state = await asyncio.to_thread(self._try, game, seat, rs.format(alt))
            by = f"chosen by the bot at the deadline, because {e.message}"
        ctx = Ctx(channel_id=row.channel_id, user_id=0, guild_id=row.guild_id, interaction_id=iid)
        now = self.clock()
        after = Game(rs, new_state)
        ended = (rs.result(new_state) is not None or self._phase_key(after) != t.phase_key
                 or not [s for s in after.active_seats() if s in seats])

        head = f"⌛ The deadline for {title} has passed."
        board = await self._board_row(row)

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
                    posts.append(OutboxPost(row.id, {"text": p.text, "seat": p.seat, "quiet": p.quiet}, now, user_id=uid))
            return ([fire] if ended else []) + posts + board

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
