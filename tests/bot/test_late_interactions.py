"""Discord's clock, not the handler's (issue 25): an interaction has 3 s from its creation (its
snowflake's time) to be acknowledged, however late it reached the bot.

Over the fake Discord (``slash(..., delay=)`` delivers an interaction that long after its creation),
the real bot in this process, a tabletop game of Gondor (Sauron to act; `roll 2d6 for <tag>` is
legal for Sauron at any time and refused for Westernesse, whose turn it is not):
- an `/order` delivered 2.2 s after its creation is acknowledged before its 3 s, and answered;
- one delivered 3.2 s after its creation (expired before the bot saw it) whose order is legal is
  applied once and answered within a few seconds by a plain message in the game's channel (the
  interaction can no longer be answered);
- one delivered as late whose order is illegal leaves nothing in the log and nothing public."""
from __future__ import annotations

import asyncio

from tests.fakediscord.server import ACK_DEADLINE
from tests.e2e.test_e2e_discord import World

WITHIN = 8.0  # "within a few seconds"


async def tabletop(w: World, tmp_path) -> int:
    await w.start_bot(tmp_path / "late.db")
    w.service.table.renderer = None  # no map is needed here; drawing one would only slow the start
    r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="mode=tabletop")
    assert not r.ephemeral and "Gondor" in r.content, r
    assert not (await w.cmd(w.alice, "game", "join", seat="sauron")).ephemeral
    assert not (await w.cmd(w.bob, "game", "join", seat="westernesse")).ephemeral
    assert not (await w.cmd(w.alice, "game", "start")).ephemeral
    return (await w.store.live_game(w.cid)).id


def plain_posts(w: World) -> list[str]:
    """The bot's messages in the game's channel that answer no interaction."""
    s = w.server
    return [m.content or "" for m in s.messages(w.cid)
            if m.interaction_id is None and m.webhook_id is None and m.author_id == s.bot_user_id]


async def logged(w: World, game_id: int, text: str) -> int:
    return sum(1 for a in await w.store.actions(game_id) if a.text == text)


def slow_commits(w: World, seconds: float) -> None:
    """Every order's commit takes ``seconds`` more (a slow disk), inside its channel's turn: an
    interaction that arrives 2.2 s after its creation cannot wait for it before acknowledging, and
    orders queued behind it wait for it too."""
    append = w.store.append_action
    w.slowed = 0  # commits slowed: a test whose slowness never applied would prove nothing

    async def slow(*args, **kw):
        w.slowed += 1
        await asyncio.sleep(seconds)
        return await append(*args, **kw)

    w.store.append_action = slow


async def test_an_order_delivered_2_2_s_late_is_acknowledged_within_its_3_s(tmp_path):
    async with World() as w:
        gid = await tabletop(w, tmp_path)
        s = w.server
        slow_commits(w, 1.0)  # 2.2 + 1.0 > 3: only an acknowledgement before the order is done is in time
        r = await s.slash(w.alice, w.cid, "order", options={"text": "roll 2d6 for the gate"}, delay=2.2,
                          timeout=20)
        assert not r.expired and r.acknowledged_age is not None and r.acknowledged_age < ACK_DEADLINE, \
            f"acknowledged {r.acknowledged_age}s after its creation: {r!r}"
        await r.wait_for_messages(1)
        # answered: the roll (applied once), or, if the bot judged it could not start in time, "busy"
        # privately with nothing applied
        await s.wait_for(lambda: any("Sauron rolls 2d6 for the gate" in (m.content or "")
                                     or (m.ephemeral and (m.content or "").lower().startswith("busy"))
                                     for m in r.messages), timeout=WITHIN)
        applied = any("Sauron rolls 2d6 for the gate" in (m.content or "") for m in r.messages)
        assert await logged(w, gid, "roll 2d6 for the gate") == (1 if applied else 0), r.messages
        assert w.slowed == (1 if applied else 0)
        assert s.violations == []


async def test_an_expired_legal_order_is_answered_in_the_channel_and_an_illegal_one_leaves_nothing(tmp_path):
    async with World() as w:
        gid = await tabletop(w, tmp_path)
        s = w.server
        # expired before the bot saw it: legal, so applied, and answered in the channel
        r = await s.slash(w.alice, w.cid, "order", options={"text": "roll 2d6 for the breach"}, delay=3.2,
                          late_ok=True, timeout=20)
        assert r.expired  # Discord's 3 s were over when it arrived: nobody can answer the interaction
        await s.wait_for(lambda: any("Sauron rolls 2d6 for the breach" in p for p in plain_posts(w)),
                         timeout=WITHIN)
        stored = await w.store.response_for(str(r.interaction_id))
        assert stored is not None and any(stored["text"] in p for p in plain_posts(w)), (stored, plain_posts(w))
        assert await logged(w, gid, "roll 2d6 for the breach") == 1
        # the same order again (the player saw nothing when they sent it, then the answer): not twice
        again = await w.cmd(w.alice, "order", text="roll 2d6 for the breach")
        assert "already applied" in again.content and "log #" in again.content, again
        assert await logged(w, gid, "roll 2d6 for the breach") == 1

        # expired and illegal (Westernesse out of turn): nothing public, nothing logged. To know the bot
        # handled it, a legal expired order follows it in the same channel (handled in turn after it)
        before = [m.id for m in s.messages(w.cid)]
        bad = await s.slash(w.bob, w.cid, "order", options={"text": "roll 2d6 for the sortie"}, delay=3.2,
                            late_ok=True, timeout=20)
        marker = await s.slash(w.alice, w.cid, "order", options={"text": "roll 2d6 for the marker"}, delay=3.2,
                               late_ok=True, timeout=20)
        assert bad.expired and marker.expired
        await s.wait_for(lambda: any("Sauron rolls 2d6 for the marker" in p for p in plain_posts(w)),
                         timeout=WITHIN)
        new = [m for m in s.messages(w.cid) if m.id not in before]
        assert not any("sortie" in (m.content or "") for m in new), new
        assert [m for m in new if "marker" not in (m.content or "")] == [], new
        assert await logged(w, gid, "roll 2d6 for the sortie") == 0
        assert await logged(w, gid, "roll 2d6 for the marker") == 1
        assert s.violations == []


async def test_past_capacity_a_long_queue_is_refused_as_busy_and_nothing_of_it_applied(tmp_path):
    # 40 orders at once in one channel, each taking 0.2 s in the service: 8 s of queue, past what a
    # player waits for. Load is shed: some are answered privately "Busy" and applied nowhere; every
    # other one is applied once and answered, none expires (each is acknowledged at once or in time)
    async with World() as w:
        gid = await tabletop(w, tmp_path)
        s = w.server
        slow_commits(w, 0.2)
        texts = [f"roll 2d6 for wave {i}" for i in range(40)]
        results = await asyncio.gather(*(s.slash(w.alice, w.cid, "order", options={"text": t}, timeout=30)
                                         for t in texts))

        def busy(r) -> bool:
            return bool(r.messages) and all(m.ephemeral for m in r.messages) \
                and r.messages[0].content.lower().startswith("busy")

        def answered(r, t) -> bool:
            return any(f"Sauron rolls 2d6 for {t.removeprefix('roll 2d6 for ')}:" in (m.content or "")
                       for m in r.messages)

        await s.wait_for(lambda: all(busy(r) or answered(r, t) for r, t in zip(results, texts)), timeout=WITHIN)
        refused = [t for r, t in zip(results, texts) if busy(r)]
        assert refused, "40 orders at once in one channel, 8 s of work: none was refused as busy"
        assert w.slowed == len(texts) - len(refused)
        assert not any(r.expired for r in results)
        assert all((r.acknowledged_age or 9) < ACK_DEADLINE for r in results)
        for r, t in zip(results, texts):
            assert await logged(w, gid, t) == (0 if t in refused else 1), (t, r.messages)
        assert s.violations == []


async def test_an_already_applied_question_nobody_saw_is_asked_again_not_applied(tmp_path):
    # a busy bot: the order expires and is applied (answered in the channel); the player's retry
    # expires too, so the "already applied (log #n)" it earned reaches nobody; a third sending, in
    # time, must be asked about, not applied: the player was never told the order stood
    async with World() as w:
        gid = await tabletop(w, tmp_path)
        s = w.server
        text = "roll 2d6 for the ram"
        first = await s.slash(w.alice, w.cid, "order", options={"text": text}, delay=3.2, late_ok=True, timeout=20)
        retry = await s.slash(w.alice, w.cid, "order", options={"text": text}, delay=3.2, late_ok=True, timeout=20)
        marker = await s.slash(w.alice, w.cid, "order", options={"text": "roll 2d6 for the marker"}, delay=3.2,
                               late_ok=True, timeout=20)  # handled after the two: its post says they were
        assert first.expired and retry.expired and marker.expired
        await s.wait_for(lambda: any("Sauron rolls 2d6 for the marker" in p for p in plain_posts(w)),
                         timeout=WITHIN)
        assert await logged(w, gid, text) == 1
        again = await w.cmd(w.alice, "order", text=text)
        assert await logged(w, gid, text) == 1, f"applied twice; the third sending was answered {again.content!r}"
        assert "already applied" in again.content and "log #" in again.content, again
