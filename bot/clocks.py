"""Deadlines: a phase's clock and its timers, firing them, extending and pausing, players' quiet
hours and absence."""
from __future__ import annotations

import asyncio
import dataclasses

from engine.core import Game, OrderError
from engine.rulesets import get_ruleset
from bot import deadlines as dl
from bot.storage import Clock, FireTimer, GameRow, OutboxPost, PauseClock, SeatState
from bot.seats import CHECKIN, SeatRules

from bot.outcome import Post, Outcome, Ctx
from bot.table import locked


class Clocks:
    """Deadlines as commands and as the scheduler's work: firing due timers, extending, pausing, quiet hours
    and absence; the clock's maths is the table's ``timekeeper`` (bot/timekeeper.py)."""

    def __init__(self, table):
        self.table = table

    async def outbox_post(self, payload: dict) -> Post:
        """An outbox row as a post: a phase's notice gets its map and its deadline as they are now."""
        post = Post(text=payload.get("text", ""), mentions=list(payload.get("mentions") or []),
                    buttons=[(str(c), str(label)) for c, label in payload.get("buttons") or []])
        if payload.get("deadline"):
            clock = await self.table.store.clock(payload["deadline"])
            if clock and clock.deadline_at and clock.paused_at is None:
                post.text += f"\nDeadline: {dl.stamp(clock.deadline_at)}."
        if payload.get("map"):
            post.image, _ = await self.table.render_game(payload["map"], None)
            post.alt = await self.table.map_description(payload["map"], None)
        return post

    async def fire_due(self) -> int:
        """Fire every timer that is due (the scheduler calls this). Each timer is marked fired in
        the same transaction as what it causes (an outbox post, a passed seat, a pause), so after a
        crash nothing is lost and nothing happens twice. Returns how many fired."""
        n = 0
        for t in await self.table.store.due_timers(self.table.clock()):
            row = await self.table.store.game(t.game_id)
            async with self.table.locks[row.channel_id]:
                t = await self.table.store.timer(t.id)
                if t is None or t.fired_at is not None:
                    continue
                await self._fire(row, t)
                n += 1
        return n

    async def _fire(self, row: GameRow, t) -> None:
        now = self.table.clock()
        fire = FireTimer(t.id, now)
        clock = await self.table.store.clock(row.id)
        if t.phase_key == CHECKIN:  # issue 28: the check-in's time is over
            await self._checkin_over(row, clock, fire)
            return
        if row.status != "active" or clock is None or clock.phase_key != t.phase_key or clock.paused_at is not None:
            await self.table.store.apply_effects([fire])  # stale: the phase it was for is gone
            return
        game = await self.table.load(row)
        seats = await self.table.store.seats(row.id)
        active = game.active_seats()
        title = game.view(None).get("phase_title", "this phase")
        if t.kind == "remind":
            if t.seat not in active or t.seat not in seats or t.seat in await self.table.departed(row.id):
                # done already: no reminder (Diplicity #1219); or its holder left (issue 28): nobody to remind
                await self.table.store.apply_effects([fire])
                return
            uid = seats[t.seat]
            ping = await self.table.timekeeper.awake([uid], now)
            text = (f"⏰ Reminder for **{self.table.seat_title(t.seat)}** (<@{uid}>): the deadline for {title} is "
                    f"{dl.stamp(clock.deadline_at)}. Give your orders, then `/done`.")
            await self.table.store.apply_effects(
                [fire, OutboxPost(row.id, {"text": text, "mentions": ping}, now, channel_id=row.channel_id)])
            return
        if t.seat:  # issue 28: a seat the bot plays as soon as it is to act (autopilot, autoplay)
            if await self.table.store.apply_effects([fire]):
                await self._play_for(row, seats, t, title)
            return
        # the deadline
        if not active:
            await self.table.store.apply_effects([fire])
            return
        rules = self.table.timekeeper.rules(row)
        who = [s for s in active if s in seats]
        auto = await self._missed(row, seats, who, now, t.id)
        if auto:
            # the seats on autopilot play (or pass) now; the rest follow the game's policy
            for seat in auto:
                row = await self.table.store.game(row.id)
                await self._play_for(row, seats, dataclasses.replace(t, seat=seat), title)
            row = await self.table.store.game(row.id)
            game = await self.table.load(row)
            if row.status != "active" or self.table.timekeeper.phase_key(game) != t.phase_key:
                await self.table.store.apply_effects([fire])
                return
            who = [s for s in game.active_seats() if s in seats]
            if not who:
                await self.table.store.apply_effects([fire])
                return
        if rules.policy == "pass":
            # Every seat still to act in this phase is passed; where the rules refuse `done`
            # (a retreat to choose, an attack the rules require) the ruleset's deadline action
            # is applied first, then `done` again. Each step is its own logged order, keyed by
            # the log position, so a crash in between neither loses nor repeats one.
            for _ in range(200):
                row = await self.table.store.game(row.id)
                game = await self.table.load(row)
                if row.status != "active" or self.table.timekeeper.phase_key(game) != t.phase_key:
                    break
                todo = [s for s in game.active_seats() if s in seats]
                if not todo:
                    break
                applied, nag, ended = await self._pass_seat(row, game, seats, todo[0], t, title, fire)
                if ended:
                    return  # the fired flag went with the order that ended the passing
                if not applied:
                    await self.table.store.apply_effects([fire] + nag)  # the nag goes out once, with the fired flag
                    return
            await self.table.store.apply_effects([fire])
            return
        pings = await self.table.timekeeper.awake(sorted({seats[s] for s in who} | {row.creator_id}), now)
        names = ", ".join(f"{self.table.seat_title(s)} (<@{seats[s]}>)" for s in who)
        if rules.policy == "pause":
            text = (f"⌛ The deadline for {title} has passed; still to act: {names}. The game is paused. "
                    f"<@{row.creator_id}>: `/game resume` restarts the clock.")
            clock.paused_at = now
            await self.table.store.apply_effects([
                fire, PauseClock(row.id, now),
                OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id),
                *await self._board_row(row)])
            await self.table.timekeeper.reschedule(row, game, clock)
            return
        text = (f"⌛ The deadline for {title} has passed; still to act: {names}. "
                f"<@{row.creator_id}>: `/game extend hours:<n>` gives more time; `/game pause` stops the clock.")
        await self.table.store.apply_effects(
            [fire, OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id)])

    async def _checkin_over(self, row: GameRow, clock, fire) -> None:
        """The check-in's time is over with seats not checked in: they reopen, and their holders are told."""
        now = self.table.clock()
        if row.status != "open" or clock is None or clock.phase_key != CHECKIN:
            await self.table.store.apply_effects([fire])
            return
        seats = await self.table.store.seats(row.id)
        states = await self.table.store.seat_states(row.id)
        optional = get_ruleset(row.ruleset).optional_seats
        late = sorted({u for s, u in seats.items() if s not in optional and not (states.get(s) and states[s].checked_in)})
        if not late:
            await self.table.store.apply_effects([fire])
            return
        opened = []
        for u in late:
            for s in await self.table.store.release_seats(row.id, u):
                await self.table.store.seat_changed(row.id, s, None, now)
                await self.table.store.set_seat_state(SeatState(row.id, s))
                opened.append((s, u))
        await self.table.store.set_clock(Clock(row.id, "open", now), None)  # (its timer is marked fired below)
        pings = await self.table.timekeeper.awake(late, now)
        text = ("⌛ The check-in is over. Open again: " + ", ".join(
            f"**{self.table.seat_title(s)}** (<@{u}> did not check in)" for s, u in opened)
                + ". Take a seat with `/game join`; when the game is full, everyone checks in again.")
        board = ([OutboxPost(row.id, {"seatboard": row.guild_id}, now, channel_id=row.channel_id)]
                 if row.guild_id and await self.table.store.get_setting(f"seatboard:{row.guild_id}") else [])
        await self.table.store.apply_effects(
            [fire, OutboxPost(row.id, {"text": text, "mentions": pings}, now, channel_id=row.channel_id)] + board)

    async def _missed(self, row: GameRow, seats: dict[str, int], who: list[str], now: float,
                      timer_id: int) -> list[str]:
        """Issue 28: a deadline passed with these seats' orders incomplete: each holder's record counts a
        missed phase, and a seat that has missed the game's ``autopilot=`` deadlines in a row goes on
        autopilot (the table is told; the seat is up for takeover). Returns the seats on autopilot."""
        rules = SeatRules.of(row)
        states = await self.table.store.seat_states(row.id)
        auto, newly = [], []
        for s in who:
            st = states.get(s) or SeatState(row.id, s)
            if st.autopilot:
                auto.append(s)
                continue  # the seat is the bot's: its holder is not counted again
            # once per deadline, the record and the seat's misses together (a crash before the timer's
            # fired flag is written fires it again: nothing is counted twice)
            counted = await self.table.store.count_missed(row.id, s, seats[s], timer_id, rules.autopilot)
            after = (await self.table.store.seat_states(row.id)).get(s)
            if after is not None and after.autopilot:
                auto.append(s)
                if counted:
                    newly.append(s)
        if newly:
            names = ", ".join(f"**{self.table.seat_title(s)}** (<@{seats[s]}>)" for s in newly)
            text = (f"🤖 {names} missed {rules.autopilot} deadline{'s' if rules.autopilot > 1 else ''} in a row and "
                    f"{'is' if len(newly) == 1 else 'are'} now on autopilot: the bot plays the ruleset's safe default "
                    f"each phase. The seat is open: `/game takeover seat:<seat>` (or `/game open`). Its holder takes "
                    f"it back by finishing a phase.")
            board = ([OutboxPost(row.id, {"seatboard": row.guild_id}, now, channel_id=row.channel_id)]
                     if row.guild_id and await self.table.store.get_setting(f"seatboard:{row.guild_id}") else [])
            buttons = [(f"stake:{row.id}:{s}", f"Take over {self.table.seat_title(s)}") for s in newly][:5]
            await self.table.store.apply_effects(
                [OutboxPost(row.id, {"text": text, "mentions": [], "buttons": buttons}, now, channel_id=row.channel_id)]
                + board, first_must_change=False)
        return auto

    async def _play_for(self, row: GameRow, seats: dict[str, int], t, title) -> None:
        """Play a seat the bot plays (issue 28) while it is to act in this phase: on autopilot, the
        ruleset's ``autopilot_action`` (else `done`, else the deadline's action); with its holder's
        `/me autoplay on`, only an action that is forced (the one legal action). Each step is its own
        logged order keyed by the log position."""
        for _ in range(50):
            row = await self.table.store.game(row.id)
            game = await self.table.load(row)
            if (row.status != "active" or self.table.timekeeper.phase_key(game) != t.phase_key
                    or t.seat not in game.active_seats() or t.seat not in seats):
                return
            rs = game.ruleset
            st = (await self.table.store.seat_states(row.id)).get(t.seat)
            if st is not None and st.autopilot:
                action, how = rs.autopilot_action(game.state, t.seat), "autopilot"
                # issue 42: why it answered so (public), with the order
                by = f"autopilot: {action.memo['why']}" if action is not None and action.memo.get("why") else how
            elif (await self.table.store.prefs(seats[t.seat])).autoplay:
                action, by = rs.forced_action(game.state, t.seat), "autoplay: the only legal action"
                how = by
                if action is None:
                    return
            else:
                return
            iid = f"play-{t.id}-{row.seq}"
            if await self.table.store.response_for(iid):
                return
            try:
                if action is not None:
                    got = await asyncio.to_thread(self.table.try_play, game, t.seat, rs.format(action))
                else:
                    try:
                        got = await asyncio.to_thread(self.table.try_play, game, t.seat, "done")
                    except OrderError:
                        alt = rs.deadline_action(game.state, t.seat)
                        if alt is None:
                            return  # nothing safe to play: the deadline deals with the seat
                        got = await asyncio.to_thread(self.table.try_play, game, t.seat, rs.format(alt))
            except OrderError:
                return  # (a policy that proposed an illegal action plays nothing: never a guess)
            action, events, new_state = got
            ctx = Ctx(channel_id=row.channel_id, user_id=0, guild_id=row.guild_id, interaction_id=iid)
            now = self.table.clock()
            board = await self._board_row(row)
            head = f"🤖 {self.table.seat_title(t.seat)} is played by the bot ({how})."

            def also(text: str, out: Outcome, head=head, board=board, now=now):
                body = out.notice.text if out.notice else f"{head}\n{text}"
                mentions = out.notice.mentions if out.notice else list(out.reply.mentions)
                posts = [OutboxPost(row.id, {"text": body, "mentions": mentions,
                                             "map": row.id if out.map_after else None,
                                             "deadline": row.id if out.map_after else None,
                                             # issue 41: a game's end offers a rematch
                                             **({"buttons": out.reply.buttons} if out.reply.buttons else {})},
                                    now, channel_id=row.channel_id)]
                for uid, ps in out.dms.items():
                    for p in ps:
                        posts.append(OutboxPost(row.id, {"text": p.text, "seat": p.seat, "quiet": p.quiet}, now, user_id=uid))
                return posts + board

            await self.table.commit(ctx, row, game, seats, t.seat, action, events, new_state, also=also, by=by,
                                    merge=head)

    async def _board_row(self, row: GameRow) -> list:
        """The outbox row that has the scheduler edit the game's status board in place (as it is when
        sent), if the game has one: a deadline's order or pause changes what the board reads."""
        at = await self.table.board_at(row.id)
        if not at:
            return []
        return [OutboxPost(row.id, {"board": row.id}, self.table.clock(), channel_id=int(at.split(":")[0]))]

    async def _pass_seat(self, row: GameRow, game: Game, seats: dict[str, int], seat: str, t,
                         title, fire) -> tuple[bool, list, bool]:
        """The ``pass`` policy for one seat: its part of the phase ends with no further
        orders (`done`). Where the rules refuse that, the ruleset's ``deadline_action``
        (if any) is applied instead. Returns (an order was applied, the statements of a
        nag to send, the passing is over). The order that ends the passing (the phase
        moves on, or nobody is left to pass) carries the timer's fired flag in its own
        transaction, before the new phase's timers replace the old ones."""
        iid = f"deadline-{t.id}-{row.seq}"
        if await self.table.store.response_for(iid):
            return False, [], False  # applied before a crash; the log already has it
        rs = game.ruleset
        by = "passed at the deadline"
        try:
            action, events, new_state = await asyncio.to_thread(self.table.try_play, game, seat, "done")
        except OrderError as e:
            alt = rs.deadline_action(game.state, seat)
            if alt is None:  # the rules do not let this seat stop here: say so, and nag instead
                uid = seats[seat]
                text = (f"⌛ The deadline for {title} has passed, but {self.table.seat_title(seat)} (<@{uid}>) cannot be "
                        f"passed: {e}. <@{row.creator_id}>: `/game extend hours:<n>` or `/game sub`.")
                pings = await self.table.timekeeper.awake(sorted({uid, row.creator_id}))
                return False, [OutboxPost(row.id, {"text": text, "mentions": pings}, self.table.clock(),
                                                     channel_id=row.channel_id)], False
            action, events, new_state = await asyncio.to_thread(self.table.try_play, game, seat, rs.format(alt))
            by = f"chosen by the bot at the deadline, because {e.message}"
        ctx = Ctx(channel_id=row.channel_id, user_id=0, guild_id=row.guild_id, interaction_id=iid)
        now = self.table.clock()
        after = Game(rs, new_state)
        ended = (rs.result(new_state) is not None or self.table.timekeeper.phase_key(after) != t.phase_key
                 or not [s for s in after.active_seats() if s in seats])

        head = f"⌛ The deadline for {title} has passed."
        board = await self._board_row(row)

        def also(text: str, out: Outcome):
            # a phase that begins here: one post (the order, the report, the ping; the map and
            # the deadline are added when it is sent)
            body = out.notice.text if out.notice else f"{head}\n{text}"
            posts = [OutboxPost(row.id, {"text": body,
                                                    "mentions": out.notice.mentions if out.notice else list(out.reply.mentions),
                                                    "map": row.id if out.map_after else None,
                                                    "deadline": row.id if out.map_after else None,
                                                    # issue 41: a game's end offers a rematch
                                                    **({"buttons": out.reply.buttons} if out.reply.buttons else {})},
                                           now, channel_id=row.channel_id)]
            for uid, ps in out.dms.items():
                for p in ps:
                    posts.append(OutboxPost(row.id, {"text": p.text, "seat": p.seat, "quiet": p.quiet}, now, user_id=uid))
            return ([fire] if ended else []) + posts + board

        await self.table.commit(ctx, row, game, seats, seat, action, events, new_state, also=also, by=by, merge=head)
        return True, [], ended

    async def _admin_clock(self, ctx: Ctx, row: GameRow, what: str) -> tuple[Game, Clock] | Outcome:
        if not self.table.can_admin(ctx, row):
            return Outcome.error(f"Only the game's creator or a member with Manage Server can {what}.")
        if row.status != "active":
            return Outcome.error("The game is not running (start it with `/game start`).")
        game = await self.table.load(row)
        await self.table.timekeeper.sync(row, game)
        return game, await self.table.store.clock(row.id)

    @locked(needs_game=True)
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
        if self.table.timekeeper.rules(row).hours <= 0:
            return Outcome.error("This game has no deadlines (`/game new options:deadline=<hours>` sets them).")
        clock.extra += hours * 3600
        deadline = await self.table.timekeeper.reschedule(row, game, clock)
        when = dl.stamp(deadline) if deadline else "paused"
        return Outcome.public_reply(f"<@{ctx.user_id}> extends the deadline by {hours:g} h: now {when}.")

    @locked(needs_game=True)
    async def pause(self, ctx: Ctx, row: GameRow) -> Outcome:
        got = await self._admin_clock(ctx, row, "pause the game")
        if isinstance(got, Outcome):
            return got
        game, clock = got
        if clock.paused_at is not None:
            return Outcome.error("The game is already paused; `/game resume` restarts the clock.")
        clock.paused_at = self.table.clock()
        await self.table.timekeeper.reschedule(row, game, clock)
        return Outcome.public_reply(f"<@{ctx.user_id}> pauses the game: no deadline runs and no reminder "
                                    "goes out until `/game resume`.")

    @locked(needs_game=True)
    async def resume(self, ctx: Ctx, row: GameRow) -> Outcome:
        got = await self._admin_clock(ctx, row, "resume the game")
        if isinstance(got, Outcome):
            return got
        game, clock = got
        if clock.paused_at is None:
            return Outcome.error("The game is not paused.")
        clock.extra += max(0.0, self.table.clock() - clock.paused_at)  # the paused time is given back
        clock.paused_at = None
        deadline = await self.table.timekeeper.reschedule(row, game, clock)
        tail = f" Deadline: {dl.stamp(deadline)}." if deadline else ""
        return Outcome.public_reply(f"<@{ctx.user_id}> resumes the game.{tail}")

    async def _resync_user(self, user_id: int) -> None:
        for gid in await self.table.store.active_games_of(user_id):
            row = await self.table.store.game(gid)
            async with self.table.locks[row.channel_id]:
                row = await self.table.store.game(gid)
                game = await self.table.load(row)
                await self.table.timekeeper.sync(row, game, force=True)

    async def set_quiet(self, ctx: Ctx, start: str, end: str, tz: str) -> Outcome:
        try:
            q = dl.Quiet(dl.parse_hhmm(start), dl.parse_hhmm(end), dl.parse_zone(tz))
        except ValueError as e:
            return Outcome.error(str(e))
        p = await self.table.store.prefs(ctx.user_id)
        p.quiet_from, p.quiet_to, p.tz = f"{q.start:%H:%M}", f"{q.end:%H:%M}", q.tz
        await self.table.store.set_prefs(p)
        await self._resync_user(ctx.user_id)
        await self.table.prefs_changed(ctx.user_id)  # issue 41: the daily digest, at the new zone's time
        if q.start == q.end:
            return Outcome.private(f"Quiet hours cleared (time zone {q.tz} kept for `/me away`).")
        return Outcome.private(f"Quiet hours set: {q.label()}. No pings then, and a deadline in your games "
                               "that would fall inside them moves to their end.")

    async def set_away(self, ctx: Ctx, until: str) -> Outcome:
        p = await self.table.store.prefs(ctx.user_id)
        text = (until or "").strip().lower()
        if text in ("none", "off", "back", "no"):
            p.away_until = None
            await self.table.store.set_prefs(p)
            await self._resync_user(ctx.user_id)
            await self.table.prefs_changed(ctx.user_id)
            return Outcome.private("Welcome back: you are no longer away.")
        try:
            t = dl.parse_date(until, p.tz)
        except ValueError as e:
            return Outcome.error(str(e))
        now = self.table.clock()
        if t <= now:
            return Outcome.error("That date is already over; give a day from today on, or `off`.")
        if t > now + 90 * 86400:
            return Outcome.error("At most 90 days ahead; ask for a substitute (`/game sub`) for longer.")
        p.away_until = t
        await self.table.store.set_prefs(p)
        await self._resync_user(ctx.user_id)
        await self.table.prefs_changed(ctx.user_id)
        return Outcome.private(f"Away until {dl.stamp(t)}: deadlines of phases where your seats must act "
                               "wait for your return. `/me away until:off` when you are back early.")

    # ============================================================ seats
