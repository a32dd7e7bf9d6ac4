"""A game's clock, derived from its phase: the deadline and the reminders a phase gets, players' quiet
hours and absence taken into account, and who may be pinged now. An object of its own (it holds the
store, the service's clock, the default rules and the scheduler's wake-up), so the commit path (``Table``)
and the service parts use it without reaching into one another."""
from __future__ import annotations

import json
from typing import Callable

from engine.core import Game
from bot import deadlines as dl
from bot.storage import Clock, GameRow, Prefs


class Timekeeper:
    def __init__(self, store, clock: Callable[[], float], defaults: Callable[[], dl.DeadlineRules],
                 wake: Callable[[], None]):
        self.store = store
        self.clock = clock
        self.defaults = defaults  # a game's rules when its options set none
        self.wake = wake  # the scheduler looks at the timers again

    def rules(self, row: GameRow) -> dl.DeadlineRules:
        if not row.deadline_rules:
            return self.defaults()
        d = json.loads(row.deadline_rules)
        return dl.DeadlineRules(float(d["hours"]), d["policy"], tuple(d["reminders"]))

    @staticmethod
    def quiet(p: Prefs) -> dl.Quiet | None:
        if not (p.quiet_from and p.quiet_to and p.tz):
            return None
        return dl.Quiet(dl.parse_hhmm(p.quiet_from), dl.parse_hhmm(p.quiet_to), p.tz)

    async def departed(self, game_id: int) -> set[str]:
        """Issue 28: the seats whose holder left the running game (``Table.departed``): the seat's history
        has an entry for it and none open (the store's ``departed``, which ``order_context`` reads too)."""
        return await self.store.departed(game_id)

    async def mention(self, users: list[int], now: float | None = None) -> tuple[str, list[int]]:
        """Issue 28's pings to whoever must answer: every one of ``users`` named (``<@id>``, in their
        order), only those ``awake`` notified. A player in quiet hours or away reads their name in the
        channel without a notification; nothing is sent later (the deadline, not a ping, waits for them)."""
        return " ".join(f"<@{u}>" for u in users), await self.awake(users, now)

    async def awake(self, users: list[int], now: float | None = None) -> list[int]:
        """Those of ``users`` who may be pinged now: not in their quiet hours, not away (issue 28)."""
        now = self.clock() if now is None else now
        out = []
        for u in users:
            p = await self.store.prefs(u)
            if not dl.in_quiet(now, self.quiet(p)) and not (p.away_until and now < p.away_until):
                out.append(u)
        return out

    @staticmethod
    def phase_key(game: Game) -> str:
        return game.ruleset.phase_key(game.state)

    async def deadline_line(self, row: GameRow) -> str:
        clock = await self.store.clock(row.id)
        if row.status != "active":
            return "Deadline: none (the game is not running)."
        if clock and clock.paused_at is not None:
            return "Deadline: paused (`/game resume` restarts the clock)."
        if not clock or clock.deadline_at is None:
            return "Deadline: none set."
        passed = " (passed)" if clock.deadline_at <= self.clock() else ""
        return f"Deadline: {dl.stamp(clock.deadline_at)}{passed}."

    async def sync(self, row: GameRow, game: Game, *, force: bool = False, seats: dict[str, int] | None = None,
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
        key = self.phase_key(game)
        if clock is None or clock.phase_key != key:
            started = (logged_at or await self.store.last_action_time(row.id)) or row.started_at or now
            clock = Clock(row.id, key, started, 0.0, clock.paused_at if clock else None, None)
            force = True
        if not force:
            return clock.deadline_at
        clock.synced_seq = row.seq
        return await self.reschedule(row, game, clock, seats)

    async def play_timers(self, row: GameRow, game: Game, active: list[str], seats: dict[str, int] | None,
                          now: float, prefs: dict[int, Prefs] | None = None) -> list[tuple[str, str, float]]:
        """Issue 28: a seat the bot plays as soon as it is to act: on autopilot, or held by a player with
        `/me autoplay on` whose only legal action is forced. A ``deadline`` timer of that seat, due now
        (the scheduler plays it: ``Clocks``)."""
        states = await self.store.seat_states(row.id)
        seats = seats if seats is not None else await self.store.seats(row.id)
        out = []
        for s in active:
            if s not in seats:
                continue
            st = states.get(s)
            if st is not None and st.autopilot:
                out.append(("deadline", s, now))
            elif (prefs[seats[s]] if prefs and seats[s] in prefs else await self.store.prefs(seats[s])).autoplay \
                    and game.ruleset.forced_action(game.state, s) is not None:
                out.append(("deadline", s, now))
        return out

    async def add_play_timers(self, row: GameRow, game: Game, seats_now: list[str], seats: dict[str, int]) -> None:
        """Seats that became active within a phase: those the bot plays get their timer (the others
        pending are kept)."""
        clock = await self.store.clock(row.id)
        if clock is None or clock.paused_at is not None or clock.phase_key != self.phase_key(game):
            return
        new = await self.play_timers(row, game, seats_now, seats, self.clock())
        if not new:
            return
        pending = [(t.kind, t.seat, t.due_at) for t in await self.store.timers(row.id, pending_only=True)]
        await self.store.set_clock(clock, pending + new)
        self.wake()

    async def new_holder_time(self, row: GameRow, game: Game, clock: Clock, seat: str,
                              held_before: bool) -> None:
        """Issue 39: a seat handed over (a takeover) gives its new holder a full phase only when they are
        a real new holder (not ``held_before``: never held this seat in this game, so not a holder taking
        back their own seat), the seat must act in this phase, and no takeover has moved this phase's
        deadline yet: otherwise a player could stall the table by leaving and taking a seat back. The
        deadline then runs to at least the game's phase length from now (never earlier than it was: a
        creator's extension is kept); ``started_at`` stays the phase's start. The caller reschedules."""
        hours = self.rules(row).hours
        if hours <= 0 or held_before or seat not in game.active_seats() or clock.phase_key == "ended":
            return
        key, phase = f"newholder:{row.id}", json.dumps([clock.phase_key, clock.started_at])
        if await self.store.get_setting(key) == phase:  # once a phase
            return
        await self.store.set_setting(key, phase)
        # (paused: the resume gives the paused time back, so the phase is measured from the pause)
        now = clock.paused_at if clock.paused_at is not None else self.clock()
        clock.extra = max(clock.extra, now - clock.started_at)

    async def reschedule(self, row: GameRow, game: Game, clock: Clock,
                          seats: dict[str, int] | None = None) -> float | None:
        now = self.clock()
        rules = self.rules(row)
        active = game.active_seats()
        timers: list[tuple[str, str, float]] = []
        prefs: dict[int, Prefs] | None = None
        clock.deadline_at = None
        if rules.hours > 0 and clock.paused_at is None and active:
            seats = seats if seats is not None else await self.store.seats(row.id)
            # (a holder who left the game is nobody's to wait for: their quiet hours and absence do not count)
            gone = await self.departed(row.id)
            prefs = {u: await self.store.prefs(u) for u in {seats[s] for s in active if s in seats and s not in gone}}
            quiets = [q for q in (self.quiet(p) for p in prefs.values()) if q]
            aways = [p.away_until for p in prefs.values() if p.away_until]
            clock.deadline_at = dl.phase_deadline(clock.started_at, rules.hours, extra=clock.extra,
                                                  quiets=quiets, away_until=aways)
            timers.append(("deadline", "", clock.deadline_at))
            for s in active:
                q = self.quiet(prefs[seats[s]]) if s in seats and seats[s] in prefs else None
                for lead in rules.reminders:
                    t = dl.reminder_at(clock.deadline_at, lead, q, not_before=max(now, clock.started_at))
                    if t is not None:
                        timers.append(("remind", s, t))
        if clock.paused_at is None and active:
            timers += await self.play_timers(row, game, active, seats, now, prefs)
        await self.store.set_clock(clock, timers)
        self.wake()
        return clock.deadline_at
