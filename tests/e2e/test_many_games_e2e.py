"""Many games at the same instant, end to end: the real bot (PalantirBot, its cogs, the service,
one SQLite file) over the fake Discord, one game of the tiny test ruleset per channel.

Every round, at one instant: an order (`/order` or `/done`) in every game that is not at its
deadline, `/order` autocompletes in several channels, and the scheduler firing deadlines (the
`pass` policy ends a seat's phase) in one group of games with a clock and reminders in the other.
The clock strikes as the round's first order reaches the service, so the timers fire while the
orders are being handled (checked). The rounds are laid out so that no game has two log writes
racing each other (a game either gets an order or has its deadline fire in a round; a reminder
writes no log row), so what each game must look like is known exactly; the races are between
games, which is what the one shared connection has to survive.

Checked: every command is answered (nothing timed out, nothing "went wrong"), every order from the
seat to act is accepted, each deadline and reminder is posted exactly once, the autocompletes list
the legal orders, no ERROR or traceback is logged, the fake saw no Discord violation, and
afterwards each game's action log is gapless (seq 1..N), holds exactly what was played, and
equals, entry by entry and in order, the order lines posted in its channel (`**Seat** `order`` in
a reply, with the user who sent it, or `(passed at the deadline)` in the scheduler's post); its
state rebuilt from SQLite equals the live one."""
from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from dataclasses import dataclass, field

from PIL import Image

from engine.core import state_digest
from tests import pbp_helpers
from tests.e2e.test_e2e_discord import World
from tests.e2e.test_pbp_e2e import H, T0, start_world
from tests.settle import settled

assert pbp_helpers.TINY  # tiny-pbp is registered before the bot loads its cogs (the ruleset choices)

DEADLINE_OPTIONS = "deadline=2 remind=1 policy=pass"
ALL_CHOICES = ["note a", "roll", "done"]  # tiny-pbp's legal orders for the seat to act
WRONG = ("went wrong", "Traceback")
TOLD = re.compile(r"^\*\*(Red|Blue)\*\* `([^`]+)`(?: \((.+)\))?$", re.M)  # an order line as posted
PASSED = "passed at the deadline"
_PNG: list[bytes] = []


def tiny_map(view, hexmap, around=None, **opts) -> bytes:
    """The tiny ruleset has no board: a small real PNG stands in for the map (drawn in a thread
    like the real one, so the posts with a map interleave as they do in a real game)."""
    if not _PNG:
        buf = io.BytesIO()
        Image.new("RGB", (64, 48), (90, 120, 90)).save(buf, format="PNG")
        _PNG.append(buf.getvalue())
    return _PNG[0]


@dataclass
class G:
    """One game as its players know it: who is to act and what has been played."""

    k: int
    group: str  # "plain" (no clock), "A" or "B" (a 2-hour deadline; A fires in odd rounds, B in even)
    cid: int
    red: int
    blue: int
    gid: int = 0
    active: str = "red"
    played: list[tuple[str, str, int | None]] = field(default_factory=list)  # (seat, text, user or None)
    reminders: int = 0  # reminders the channel must have received
    passes: int = 0  # deadline passes the channel must have received

    def user(self, seat: str | None = None) -> int:
        return self.red if (seat or self.active) == "red" else self.blue

    def flip(self) -> None:
        self.active = "blue" if self.active == "red" else "red"


class Strike:
    """The clock strikes the round's hour the moment the round's first order reaches the service,
    and wakes the scheduler: its deadlines and reminders then fire while the orders are being
    handled (set before the orders are sent, the scheduler is done before they arrive). Also
    counts, for each firing, how many orders were in the service when it began."""

    def __init__(self, w: "ManyWorld"):
        self.w, self.pending, self.inflight = w, None, 0
        self.fired: list[tuple[int, int, int]] = []  # (round, orders in the service, timers fired)
        self.round = 0
        svc = w.service
        self._order, self._fire_due = svc.orders.order, svc.clocks.fire_due
        svc.orders.order, svc.clocks.fire_due = self.order, self.fire_due  # the cogs and the scheduler call these

    def strike(self) -> None:
        if self.pending is not None:
            self.w.clock.t, self.pending = self.pending, None
            self.w.bot._wake.set()

    async def order(self, *args, **kw):
        self.inflight += 1
        self.strike()
        try:
            return await self._order(*args, **kw)
        finally:
            self.inflight -= 1

    async def fire_due(self) -> int:
        during = self.inflight
        n = await self._fire_due()
        if n:
            self.fired.append((self.round, during, n))
        return n


class ManyWorld(World):
    def __init__(self, plain: int, per_group: int):
        self.shape = (plain, per_group)
        self.sent = 0  # orders sent in the rounds

    async def __aenter__(self):
        await super().__aenter__()
        s = self.server
        plain, per_group = self.shape
        groups = ["plain"] * plain + ["A"] * per_group + ["B"] * per_group
        self.games = []
        for k, group in enumerate(groups):
            cid = s.add_channel(self.gid, f"game-{k}")
            red = s.add_user(f"red{k}", guild_id=self.gid)
            blue = s.add_user(f"blue{k}", guild_id=self.gid)
            self.games.append(G(k, group, cid, red, blue))
        return self


def is_wrong(text: str | None) -> bool:
    return any(w in (text or "") for w in WRONG)


async def set_up(w: ManyWorld, g: G) -> None:
    s = w.server
    opts = {"ruleset": "tiny-pbp"}
    if g.group != "plain":
        opts["options"] = DEADLINE_OPTIONS
    r = await s.slash(g.red, g.cid, "game", "new", options=opts, timeout=20)
    assert not r.ephemeral and "Tiny PBP" in r.content, r
    for user, seat in ((g.red, "red"), (g.blue, "blue")):
        r = await s.slash(user, g.cid, "game", "join", options={"seat": seat}, timeout=20)
        assert not r.ephemeral, r
    r = await s.slash(g.red, g.cid, "game", "start", timeout=20)
    msgs = await r.wait_for_messages(2)
    assert "To act: Red" in msgs[1].content, msgs
    g.gid = (await w.store.live_game(g.cid)).id


def posts(w: ManyWorld, g: G, needle: str) -> int:
    return sum(1 for m in w.server.messages(g.cid) if needle in (m.content or ""))


async def settle(w: ManyWorld, predicate, what: str, problems: list[str], timeout: float = 8.0) -> bool:
    try:
        await w.server.wait_for(predicate, timeout=timeout)
        return True
    except asyncio.TimeoutError:
        problems.append(f"{what}: not within {timeout}s")
        return False


def order_for(g: G, rnd: int) -> str:
    """The order game ``g`` sends in round ``rnd``: a note (its text unique to the game and the
    round), a roll, or `done` (only in games without a clock: a deadline game's phase must keep
    the start its deadline was set from)."""
    cycle = ("note", "roll", "done") if g.group == "plain" else ("note", "roll")
    verb = cycle[(rnd + g.k) % len(cycle)]
    return f"note r{rnd}g{g.k}" if verb == "note" else verb


async def resync(w: ManyWorld, g: G, problems: list[str], where: str) -> None:
    """What the game really is, in the bot: if it differs from what its players were told,
    that is a problem; adopt it, so that the next rounds still send orders the game accepts."""
    game = w.service.table.games.get(g.gid)
    active = game.active_seats() if game else []
    if active and active[0] != g.active:
        problems.append(f"{where}: game {g.k} has {active[0]} to act, its players were told {g.active}")
        g.active = active[0]


async def play_round(w: ManyWorld, rnd: int, problems: list[str], sent_by: dict[int, int]) -> None:
    s = w.server
    fire_group = "A" if rnd % 2 else "B"
    firing = [g for g in w.games if g.group == fire_group]
    ordering = [g for g in w.games if g.group != fire_group]
    for g in w.games:
        await resync(w, g, problems, f"round {rnd} (before)")
    orders = [(g, order_for(g, rnd)) for g in ordering]
    # autocompletes of /order in several channels: four games that get an order now, one at its deadline
    rot = [ordering[(rnd + i) % len(ordering)] for i in range(min(4, len(ordering)))]
    asks = [(g, g.user()) for g in rot] + [(g, g.user()) for g in firing[:1]]
    changing = {g.k for g, text in orders if text == "done"} | {g.k for g in firing}

    def send(g: G, text: str):
        if text == "done":
            return s.slash(g.user(), g.cid, "done", timeout=20)
        return s.slash(g.user(), g.cid, "order", options={"text": text}, timeout=20)

    coros = [send(g, text) for g, text in orders]
    w.sent += len(coros)
    coros += [s.autocomplete(u, g.cid, "order", options={"text": ""}, focused="text") for g, u in asks]
    # the same instant: every order and autocomplete is on its way, and as the first order reaches
    # the bot the clock reaches this round's deadlines (and the other group's reminders)
    w.strike.round, w.strike.pending = rnd, T0 + (rnd + 1) * H
    results = await asyncio.gather(*coros, return_exceptions=True)
    w.strike.strike()  # (if no order reached the service, the problems say so already)

    follow = []
    for (g, text), r in zip(orders, results[:len(orders)]):
        who = f"round {rnd} game {g.k} {g.active} `{text}`"
        if isinstance(r, BaseException):
            problems.append(f"{who}: no answer ({type(r).__name__}: {r})")
            continue
        if r.expired or not r.messages:
            problems.append(f"{who}: not answered ({r!r})")
            continue
        if any(is_wrong(m.content) for m in r.messages):
            problems.append(f"{who}: went wrong: {r.content!r}")
            continue
        line = f"**{g.active.title()}** `{text}`"
        told = [m for m in r.messages if not m.ephemeral and (m.content or "").startswith(line)]
        if not told:
            problems.append(f"{who}: not accepted: {r.content!r}")
            continue
        sent_by[told[0].id] = g.user()
        g.played.append((g.active, text, g.user()))
        if text == "done":
            g.flip()
            follow.append((g, r))
    for (g, u), ch in zip(asks, results[len(orders):]):
        where = f"round {rnd} autocomplete in game {g.k}"
        if isinstance(ch, BaseException):
            problems.append(f"{where}: no answer ({type(ch).__name__}: {ch})")
            continue
        values = [c["value"] for c in ch]
        ok = values in ([], ALL_CHOICES) if g.k in changing else values == ALL_CHOICES
        if not ok:
            problems.append(f"{where}: {values!r}")

    # then everything this round started has landed: the notices after `/done`, each deadline's
    # post (the seat passed, the next to act pinged, with the map), each reminder; once only
    for g, r in follow:
        await settle(w, lambda r=r: any("To act:" in (m.content or "") for m in r.messages),
                     f"round {rnd} game {g.k}: the notice after `done`", problems)
    for g in firing:
        g.passes += 1
        if await settle(w, lambda g=g: posts(w, g, PASSED) >= g.passes,
                        f"round {rnd} game {g.k}: the deadline's post", problems):
            g.played.append((g.active, "done", None))
            g.flip()
    for g in ordering:
        if g.group != "plain":
            g.reminders += 1
            await settle(w, lambda g=g: posts(w, g, "Reminder for") >= g.reminders,
                         f"round {rnd} game {g.k}: the reminder", problems)
    await settled(w.server, w.bot)  # anything extra (a second post of the same deadline) would show now
    for g in w.games:
        if g.group != "plain" and (posts(w, g, PASSED), posts(w, g, "Reminder for")) != (g.passes, g.reminders):
            problems.append(f"round {rnd} game {g.k}: {posts(w, g, PASSED)} deadline posts and "
                            f"{posts(w, g, 'Reminder for')} reminders, expected {g.passes} and {g.reminders}")


async def check_logs(w: ManyWorld, problems: list[str], sent_by: dict[int, int]) -> None:
    for g in w.games:
        row = await w.store.game(g.gid)
        log = await w.store.actions(g.gid)
        seqs = [a.seq for a in log]
        if seqs != list(range(1, len(log) + 1)) or row.seq != len(log):
            problems.append(f"game {g.k}: the log is not gapless: seqs {seqs}, games.seq {row.seq}")
        logged = [(a.seat, a.text, a.user_id) for a in log]
        if any(a.kind != "order" for a in log):
            problems.append(f"game {g.k}: unexpected log kinds {[a.kind for a in log]}")
        if logged != g.played:
            problems.append(f"game {g.k}: the log is not what was played:\n  log    {logged}\n  played {g.played}")
        told = []
        for m in w.server.messages(g.cid):
            for seat, text, by in TOLD.findall(m.content or ""):
                user = sent_by.get(m.id)
                if (by == PASSED) != (user is None):
                    problems.append(f"game {g.k}: a post of `{text}` by {user} says ({by})")
                told.append((seat.lower(), text, user))
        if told != logged:
            problems.append(f"game {g.k}: what the players were told is not the log:\n  told {told}\n"
                            f"  log  {logged}")
        live = w.service.table.games.get(g.gid)
        rebuilt = await w.service.table.rebuild(row)
        replayed = await w.service.table.replay_from_start(row)
        if live is None or not (state_digest(live.state) == state_digest(rebuilt.state)
                                == state_digest(replayed.state)):
            problems.append(f"game {g.k}: the live state differs from SQLite's")


async def run(tmp_path, caplog, *, plain: int, per_group: int, rounds: int, min_orders: int) -> None:
    caplog.set_level(logging.INFO)
    t_start = time.monotonic()
    problems: list[str] = []
    sent_by: dict[int, int] = {}  # message id -> the user whose order it answers
    async with ManyWorld(plain, per_group) as w:
        await start_world(w, tmp_path, "many.db")
        w.service.table.renderer = tiny_map
        w.strike = Strike(w)
        s = w.server
        # set-up, one command at a time: group B (and the plain games) an hour after group A, so the
        # two groups' deadlines fall in alternate rounds; group A's reminder fires at that hour
        for g in w.games:
            if g.group == "A":
                await set_up(w, g)
        w.clock.t = T0 + H
        w.bot._wake.set()
        for g in w.games:
            if g.group == "A":
                g.reminders = 1
                await settle(w, lambda g=g: posts(w, g, "Reminder for") >= 1, f"set-up game {g.k}: reminder",
                             problems)
        for g in w.games:
            if g.group != "A":
                await set_up(w, g)
        assert not problems, problems
        assert plain + per_group >= min_orders  # orders at each instant, at least
        bad_rounds = 0
        for rnd in range(1, rounds + 1):
            before = len(problems)
            await play_round(w, rnd, problems, sent_by)
            bad_rounds += len(problems) > before
        await settled(w.server, w.bot)
        for g in w.games:
            await resync(w, g, problems, "after the rounds")
        await check_logs(w, problems, sent_by)
        if per_group:
            # the timers of each round fired at the same time as its orders (at least mostly: the
            # scheduler may be mid-poll when the clock strikes, and then fires a poll later)
            overlapped = {rnd for rnd, during, n in w.strike.fired if rnd and during}
            fired = {rnd for rnd, during, n in w.strike.fired if rnd}
            if fired != set(range(1, rounds + 1)) or len(overlapped) < rounds // 2:
                problems.append(f"timers fired in rounds {sorted(fired)}, while orders were being handled "
                                f"in rounds {sorted(overlapped)}")
        try:
            s.assert_clean()
        except AssertionError as e:
            problems.append(str(e))
    bad_logs = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    wrong = sum("went wrong" in p for p in problems)
    elapsed = time.monotonic() - t_start
    summary = (f"{len(w.games)} games x {rounds} rounds in {elapsed:.1f}s, {w.sent} orders sent: {len(problems)} "
               f"problems in {bad_rounds} rounds ({wrong} orders went wrong), {len(bad_logs)} ERROR/traceback "
               f"log records")
    detail = problems[:25] + [f"log: {r.name} {r.levelname} {r.getMessage()}"
                              + (f" ({r.exc_info[0].__name__}: {r.exc_info[1]})" if r.exc_info else "")
                              for r in bad_logs[:10]]
    assert not problems and not bad_logs, summary + "\n" + "\n".join(detail)


async def test_many_games_at_the_same_instant_with_deadlines_and_autocompletes(tmp_path, caplog):
    # 8 games without a clock (an order every round) and two groups of 3 with a 2-hour deadline,
    # alternating: each round 11 orders at one instant, 3 deadlines passing, 3 reminders, 5 autocompletes
    await run(tmp_path, caplog, plain=8, per_group=3, rounds=20, min_orders=8)


async def test_two_games_ordering_at_the_same_instant(tmp_path, caplog):
    # the smallest case: two games, no clock, an order in each at the same instant, ten times
    await run(tmp_path, caplog, plain=2, per_group=0, rounds=10, min_orders=2)
