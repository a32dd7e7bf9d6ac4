"""Answers against Discord's clock (issue 25), over the fake Discord, with Gondor (tests/bot/test_late_interactions.py
has the tabletop cases and the 2.2 s-late acknowledgement): an interaction that expired
before we could answer gets its answer in the channel if its order was applied (and nothing if it was
refused); a repeat of an order whose answer may not have reached its player is asked about once; a
channel whose queue is full answers "Busy" and applies nothing."""
from __future__ import annotations

import asyncio

from tests.gondor_helpers import SAURON_SETUP
from tests.e2e.test_e2e_discord import World
from tests.settle import settled


async def gondor_started(w, tmp_path):
    await w.start_bot(tmp_path / "late.db")
    w.service.table.renderer = None
    await w.cmd(w.alice, "game", "new", ruleset="gondor")
    await w.cmd(w.alice, "game", "join", seat="sauron")
    await w.cmd(w.bob, "game", "join", seat="westernesse")
    await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)


async def logged(w) -> list[str]:
    row = await w.store.latest_game(w.cid)
    return [a.text for a in await w.store.actions(row.id)]


async def test_an_expired_interaction_gets_its_answer_in_the_channel_if_applied_and_nothing_if_refused(tmp_path):
    async with World() as w:
        await gondor_started(w, tmp_path)
        s = w.server
        before = len(s.messages(w.cid))
        r = await s.slash(w.alice, w.cid, "order", options={"text": "deploy SC1 1923"}, delay=3.2, late_ok=True)
        assert r.expired and r.messages == []
        late = await s.wait_for(lambda: next((m for m in s.messages(w.cid)[before:] if "deploy SC1 1923" in (m.content or "")), None))
        assert "Discord stopped waiting" in late.content and late.pinged() == {w.alice} and not late.ephemeral
        assert late.interaction_id is None  # a plain message, replying to nobody
        assert (await logged(w)).count("deploy SC1 1923") == 1
        # refused (a hex outside Sauron's set-up area, 13.1): nothing public, nothing logged
        n = len(s.messages(w.cid))
        r = await s.slash(w.alice, w.cid, "order", options={"text": "deploy OA1 1905"}, delay=3.2, late_ok=True)
        assert r.expired
        await settled(s, w.bot)  # the late refusal handled: it must stay silent
        assert len(s.messages(w.cid)) == n and "deploy OA1 1905" not in await logged(w)
        # the player retries the applied one: asked about once, not applied twice; sent again, applied
        r = await w.cmd(w.alice, "order", text="deploy SC1 1923")
        assert r.ephemeral and "already applied (log #" in r.content
        assert (await logged(w)).count("deploy SC1 1923") == 1
        r = await w.cmd(w.alice, "order", text="deploy SC1 1923")
        assert not r.ephemeral and (await logged(w)).count("deploy SC1 1923") == 2
        assert [v.kind for v in s.violations] == []


async def test_a_full_channel_answers_busy_and_applies_nothing(tmp_path, monkeypatch):
    import bot.table as table
    from bot.transports import discord_app

    async with World() as w:
        await gondor_started(w, tmp_path)
        s = w.server
        lock = w.service.table.locks[w.cid]
        await lock.acquire()  # the channel is busy with something long
        try:
            orders = [o for o in SAURON_SETUP if "SC1" not in o and "SC2" not in o][:table.MAX_WAITING]
            waiting = [asyncio.ensure_future(s.slash(w.alice, w.cid, "order", options={"text": o})) for o in orders]
            await s.wait_for(lambda: w.service.table.waiting.get(w.cid) == table.MAX_WAITING)
            r = await s.slash(w.alice, w.cid, "order", options={"text": "deploy SC1 1923"})
            assert r.ephemeral and r.content.startswith("Busy") and not r.deferred
        finally:
            lock.release()
        done = await asyncio.gather(*waiting)
        assert all(not x.expired for x in done)
        applied = await logged(w)
        assert "deploy SC1 1923" not in applied and sorted(applied) == sorted(orders)
        # an acknowledged command that waited past the bound is told so, privately, and applies nothing
        monkeypatch.setattr(table, "MAX_WAIT_SECONDS", 0.2)
        acked = asyncio.Event()
        plain_defer = discord_app.defer

        async def defer(*args, **kw):  # the bot's acknowledgement, seen once it has marked the command acked
            ok = await plain_defer(*args, **kw)
            acked.set()
            return ok

        monkeypatch.setattr(discord_app, "defer", defer)
        await lock.acquire()
        try:
            pending = asyncio.ensure_future(s.slash(w.alice, w.cid, "order", options={"text": "deploy SC2 2123"}))
            await s.wait_for(lambda: w.service.table.waiting.get(w.cid) == 1)
            # past our 1.5 s the interaction is deferred ("thinking…"): waited for, not slept
            await asyncio.wait_for(acked.wait(), timeout=20)
        finally:
            lock.release()
        r = await pending
        assert r.deferred and r.ephemeral and r.content.startswith("Busy")
        assert "deploy SC2 2123" not in await logged(w)
        s.assert_clean()


async def test_a_plain_first_answer_and_a_late_deferral_are_sent_without_asking_for_them_back(tmp_path):
    """bot/transports/callback.py (issue 25): an order's plain answer (callback 4) and the deferral of an
    interaction that reached us late (callback 5) go as one POST without ``?with_response=1``, and the rest of
    the answer still follows (the deferral is filled in); an answer with buttons takes discord.py's own way."""
    async with World() as w:
        await w.start_bot(tmp_path / "late.db")
        await w.cmd(w.alice, "game", "new", ruleset="gondor")
        r = await w.cmd(w.carol, "game", "open")  # the open-seat board: Join buttons, discord.py's own way
        assert r.asked_back is True and any(m.custom_ids() for m in r.messages)
        w.service.table.renderer = None
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        s = w.server
        # no message events asked for (no private rooms kept here): the bot's own answers do not come back to it
        from tests.fakediscord.server import I_DIRECT_MESSAGES, I_GUILD_MESSAGES
        assert not s._session.intents & (I_GUILD_MESSAGES | I_DIRECT_MESSAGES)
        r = await w.cmd(w.alice, "order", text="deploy SC1 1923")
        assert r.callback_type == 4 and r.asked_back is False and "deploy SC1 1923" in r.content
        r = await s.slash(w.alice, w.cid, "order", options={"text": "deploy SC2 2523"}, delay=2.4, timeout=20)
        assert r.callback_type == 5 and r.asked_back is False  # late: "thinking…" at once, not asked back
        msgs = await r.wait_for_messages(2)  # the private "thinking…" filled in, the public answer below it
        assert msgs[0].ephemeral and any("deploy SC2 2523" in (m.content or "") and not m.ephemeral for m in msgs)
        # (issue 39) the fake reads the answer below the note as the answer: a test of what an answer says
        # does not fail because a loaded host made the bot defer
        assert r.posted_below and r.note.content == "Done: posted below." and r.note.ephemeral
        assert not r.ephemeral and "deploy SC2 2523" in r.content and r.message is msgs[1]
        assert (await logged(w)).count("deploy SC2 2523") == 1
        # through the webhook adapter, as discord.py's own answers go: no rate-limit bucket per interaction kept
        # in the client's HTTPClient for 5 minutes (a table it scans whole on each new bucket past 256)
        assert not [k for k in w.bot.http._buckets if "/interactions/" in k]
        assert [v.kind for v in s.violations] == []
