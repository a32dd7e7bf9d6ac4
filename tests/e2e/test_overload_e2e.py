"""A bot past its capacity (issue 25): the real bot in its own process (tests/load_runner.py), a
real SQLite file, over the fake Discord; 100 tabletop games of Gondor, then 1,000 orders in one
burst while two processes keep the machine's CPUs busy: 34 in each of 4 channels (a long queue
in one channel), 9 in each of the others. A fifth of the orders reach the bot late
(created 1.0 to 2.5 s before their delivery, as a backed-up gateway or a slow client delivers
them: Discord's 3 s count from the creation), the rest at once.

Every order is Sauron's `roll 2d6 for <tag>` (legal whatever the order they are applied in, and
harmful if applied twice: two more dice from the game's stream, a line more in its log). Every
interaction ends in exactly one class, by what its player saw:
(a) answered in time: acknowledged within Discord's 3 s counted from the interaction's creation,
    and answered with the order's stored answer;
(b) expired (Discord refused the bot's late answer) but applied: its stored answer posted in the
    game's channel as a plain message;
(c) answered privately "Busy ...", nothing applied;
(d) expired, nothing applied.
Checked against the SQLite file (the `actions` log, the `responses` stored with them): every
order in a log is answered where its player sees it ((a) or (b)), no interaction is applied twice,
and the fake Discord saw no violation (the expiries are expected: ``late_ok``). A player whose
interaction expired or was refused as busy retries the same order at once, during the burst (the
first may still be queued): a retry of an order already applied is answered "already applied (log
#n)" or nothing (expired) and is not applied again, one of an order not applied is never answered
so, and the log holds each order once at most."""
from __future__ import annotations

import asyncio
import collections
import time

import pytest

from tests.fakediscord import FakeDiscord
from tests.load_helpers import (BotProcess, Classes, Sent, answer_seconds, answered, busy_cpus, classify, is_busy,
                                make_world, pct, read_sqlite, roll_text, send, set_up, sqlite_reader,
                                wait_answered)

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

GAMES = 100
HOT, HOT_ORDERS, ORDERS = 4, 34, 9  # 4 busy channels with 34 orders each, 96 with 9: 1,000 orders
LATE_WITHIN = 15.0  # seconds after the burst for the answers still on their way (late ones in the channel)


def delay_of(k: int, i: int) -> float:
    """How long before its delivery order ``i`` of game ``k`` was created: 0, or for a fifth of
    them 1.0 to 2.5 s."""
    return 1.0 + (k % 16) * 0.1 if i % 5 == 2 else 0.0


async def test_a_thousand_orders_at_once_on_busy_cpus_are_each_answered_or_refused(tmp_path):
    t0 = time.monotonic()
    server = FakeDiscord()
    await server.start()
    bot = None
    t_setup = t_burst = 0.0
    sent: list[Sent] = []
    c, errors, waits = Classes(), [], []
    try:
        (gid,), tables = make_world(server, GAMES)
        db = tmp_path / "load.db"
        read = sqlite_reader(db)
        bot = BotProcess(tmp_path, server, gid, str(db))
        await bot.start()
        await set_up(server, tables)
        t_setup = time.monotonic() - t0

        sent = [Sent(t, roll_text(t, i), delay=delay_of(t.k, i)) for i in range(HOT_ORDERS) for t in tables
                if i < (HOT_ORDERS if t.k < HOT else ORDERS)]
        assert len(sent) == 1000
        at_once: dict[int, Sent] = {}  # id(original) -> its player's retry, sent as soon as they saw nothing

        async def play(s: Sent) -> None:
            await send(server, s)
            if s.result is not None and (s.result.expired or is_busy(s.result)):
                at_once[id(s)] = await send(server, Sent(s.table, s.text))

        with busy_cpus(2):
            t1 = time.monotonic()
            await asyncio.gather(*(play(s) for s in sent))
            t_burst = time.monotonic() - t1
            # the answers still on their way (the late ones, in the channel) come within a few seconds
            await wait_answered(server, sent + list(at_once.values()), read, LATE_WITHIN)

        # what became of the burst, as it finally is
        applied, answers = await read()
        c = classify(server, sent, applied, answers)
        ours = {str(s.result.interaction_id): s for s in sent if s.result is not None}
        seen = {str(s.result.interaction_id) for s in c.in_time + c.late_in_channel}
        unseen = [f"game {ours[i].table.k} `{ours[i].text}`" for i in applied if i in ours and i not in seen]
        if unseen:
            c.problems.append(f"{len(unseen)} orders in the logs not answered where their player sees them: "
                              f"{unseen[:5]}")
        expected_late = {str(s.result.interaction_id) for s in c.late_in_channel + c.expired_unapplied}
        bad = [v for v in server.violations
               if not (v.kind == "ack_timeout" and any(i in v.message for i in expected_late))]
        if bad:
            c.problems.append(f"Discord violations: {bad[:5]}")
        for s in sent:  # the retries sent at once, during the burst, while the order may still be queued
            if (again := at_once.get(id(s))) is None:
                continue
            r, who = again.result, f"game {s.table.k} `{s.text}` retried"
            said = (r.content or "") if r is not None else ""
            first, second = (applied.get(str(x.result.interaction_id), 0) for x in (s, again))
            if r is None:
                c.problems.append(f"{who}: no result ({again.error})")
            elif "already applied" in said and not first:
                c.problems.append(f"{who}: never applied, answered {said!r}")
            elif second and not answered(server, again, applied, answers):
                c.problems.append(f"{who}: applied, never answered where its player sees it")
            elif not second and not r.expired and not (is_busy(r) or "already applied" in said):
                c.problems.append(f"{who}: not applied, answered {said!r}")
        actions, _ = read_sqlite(db)
        logged = collections.Counter(t for _, _, t in actions)
        for s in sent:
            if logged[s.text] > 1:
                c.problems.append(f"game {s.table.k} `{s.text}`: applied {logged[s.text]} times")
        waits = [w for x in c.in_time + c.late_in_channel if (w := answer_seconds(server, x, answers)) is not None]
        errors = bot.errors()
        if errors:
            c.problems.append(f"the bot logged {len(errors)} tracebacks: " + "; ".join(sorted(set(errors))[:3]))
    finally:
        if bot is not None:
            await bot.stop()
        await server.stop()
    ages = [s.result.acknowledged_age for s in sent if s.result is not None and s.result.acknowledged_age is not None]
    summary = (f"{len(sent)} orders in {GAMES} games (set-up {t_setup:.1f}s, burst {t_burst:.1f}s, "
               f"{time.monotonic() - t0:.1f}s in all): {c.counts()}; acknowledged p50 {pct(ages, 50):.2f}s "
               f"p99 {pct(ages, 99):.2f}s max {max(ages, default=0):.2f}s from creation, answered p50 "
               f"{pct(waits, 50):.2f}s p99 {pct(waits, 99):.2f}s; {len(c.problems)} problems, "
               f"{len(errors)} tracebacks logged by the bot")
    print(summary)
    assert not c.problems, summary + "\n" + "\n".join(c.problems[:12] + ["..."] + c.problems[-8:])
    classified = c.in_time + c.late_in_channel + c.busy + c.expired_unapplied
    assert sorted(map(id, classified)) == sorted(map(id, sent)), summary  # each in exactly one class
