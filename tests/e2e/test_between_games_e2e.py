"""Issue 41's proof over the fake Discord, with two servers: a rematch from the end-of-game post's buttons,
with and without the sides swapped, declined by one player; one whose channel is taken opens a thread;
set-ups saved per server, used, overridden and refused when their options are bad; a daily digest that falls
due when the scheduler's clock moves forward: sent once, at the player's local time, listing the games that
wait in both servers, not sent when nothing waits, held where DMs are closed and shown with the next command."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from tests import pbp_helpers
from tests.clock import Clock
from tests.e2e.test_e2e_discord import World
from tests.settle import settled

assert pbp_helpers.TINY  # tiny-pbp is registered before the bot loads its cogs (the ruleset choices)
T0 = datetime(2024, 7, 1, 9, 0, tzinfo=ZoneInfo("UTC")).timestamp()  # Monday 09:00 UTC


async def click(w, user, message, custom_id):
    r = await w.server.click(user, message, custom_id, timeout=20)
    if r.deferred and not r.messages:  # acknowledged first ("thinking…"), the answer follows
        await r.wait_for_messages(1)
    return r


def public(w, cid):
    return [m for m in w.server.messages(cid) if not m.ephemeral]


async def second_server(w):
    s = w.server
    south = s.add_guild("southrons")
    scid = s.add_channel(south, "harad")
    s.add_member(south, w.alice)
    dave = s.add_user("dave", guild_id=south)
    return south, scid, dave


async def play_to_the_end(w, cid, red, blue, options="deadline=24"):
    """A tiny-pbp game in ``cid``: red wins at once. Returns the end-of-game post."""
    s = w.server
    r = await s.slash(red, cid, "game", "new", options={"ruleset": "tiny-pbp", "options": options}, timeout=20)
    assert not r.ephemeral, r.content
    assert not (await s.slash(red, cid, "game", "join", options={"seat": "red"}, timeout=20)).ephemeral
    assert not (await s.slash(blue, cid, "game", "join", options={"seat": "blue"}, timeout=20)).ephemeral
    assert not (await s.slash(red, cid, "game", "start", timeout=20)).ephemeral
    r = await s.slash(red, cid, "order", options={"text": "win"}, timeout=20)
    assert not r.ephemeral and "The game is over" in r.content
    return r.message


async def test_rematch_with_and_without_swap_declined_in_a_thread_and_set_ups_in_two_servers(tmp_path):
    async with World() as w:
        s = w.server
        south, scid, dave = await second_server(w)
        await w.start_bot(tmp_path / "between.db")
        w.service.table.renderer = None  # (tiny-pbp has no map)

        # server one: the end-of-game post carries the Rematch buttons
        end = await play_to_the_end(w, w.cid, w.alice, w.bob)
        old = await w.store.finished_game(w.cid)
        assert end.custom_ids() == [f"rematch:{old.id}", f"rematch:{old.id}:swap"]
        # a stranger's press: a short private answer, nothing proposed
        r = await click(w, w.carol, end, f"rematch:{old.id}")
        assert r.ephemeral and "Only the game's players" in r.content and await w.store.rematch(old.id) is None
        # bob asks for it with the sides swapped; alice declines: cancelled, said in the channel
        r = await click(w, w.bob, end, f"rematch:{old.id}:swap")
        assert not r.ephemeral and "sides swapped" in r.content and r.message.pinged() == {w.alice}
        assert f"Red <@{w.bob}>" in r.content and f"Blue <@{w.alice}>" in r.content
        proposal = r.message
        r = await click(w, w.alice, proposal, f"rmv:{old.id}:1:n")
        assert not r.ephemeral and f"<@{w.alice}> declines" in r.content and "cancelled" in r.content
        r = await click(w, w.bob, proposal, f"rmv:{old.id}:1:y")  # a button of the declined proposal
        assert r.ephemeral and "over" in r.content
        assert await w.store.live_game(w.cid) is None
        # alice asks again, the same sides; bob confirms: the rematch begins here, with its first notice
        r = await click(w, w.alice, end, f"rematch:{old.id}")
        assert not r.ephemeral and "the same sides" in r.content
        r = await click(w, w.bob, r.message, f"rmv:{old.id}:2:y")
        assert not r.ephemeral and "Everyone has confirmed" in r.content, r.content
        new = await w.store.live_game(w.cid)
        assert new.status == "active" and new.options == old.options
        assert await w.store.seats(new.id) == {"red": w.alice, "blue": w.bob}
        await s.wait_for(lambda: any("To act: Red" in (m.content or "") for m in public(w, w.cid)), timeout=15)

        # server two: dave and alice; dave proposes a swapped rematch by command; meanwhile a game takes the
        # channel, so alice's confirmation opens a public thread for the rematch
        await play_to_the_end(w, scid, dave, w.alice)
        old2 = await w.store.finished_game(scid)
        r = await s.slash(dave, scid, "game", "rematch", options={"swap": True}, timeout=20)
        assert not r.ephemeral and "sides swapped" in r.content
        proposal = r.message
        assert not (await s.slash(dave, scid, "game", "new", options={"ruleset": "tiny-pbp"}, timeout=20)).ephemeral
        r = await click(w, w.alice, proposal, f"rmv:{old2.id}:1:y")
        assert not r.ephemeral and "thread" in r.content, r.content
        (tid,) = [c.id for c in s.channels.values() if c.parent_id == scid and c.type == 11]
        rematch = await w.store.live_game(tid)
        assert rematch.status == "active" and await w.store.seats(rematch.id) == {"red": w.alice, "blue": dave}
        await s.wait_for(lambda: any("commitment" in (m.content or "") for m in s.messages(tid)), timeout=15)
        assert (await w.store.live_game(scid)).id not in (old2.id, rematch.id)  # the channel's game is untouched

        # saved set-ups, per server: a bad one refused privately naming the ruleset and the option
        r = await w.cmd(w.alice, "template", "save", name="Blitz", ruleset="tiny-pbp",
                        options="deadline=12 takeover=vote")
        assert not r.ephemeral and "Blitz" in r.content
        r = await s.slash(dave, scid, "template", "save", options={"name": "BLITZ", "ruleset": "tiny-pbp"}, timeout=20)
        assert not r.ephemeral  # another server's own name
        r = await w.cmd(w.bob, "template", "save", name="blitz", ruleset="tiny-pbp")
        assert r.ephemeral and "already" in r.content
        r = await w.cmd(w.bob, "template", "save", name="Slow", ruleset="tiny-pbp", options="autopilot=99")
        assert r.ephemeral and "tiny-pbp: `autopilot`" in r.content and len(r.content) < 400
        assert [t["name"] for t in await w.store.templates(w.gid)] == ["Blitz"]
        choices = await s.autocomplete(w.bob, w.cid, "game", "new", options={"template": "bl"}, focused="template")
        assert [c["value"] for c in choices] == ["Blitz"]
        # used in a new channel of server one, its deadline overridden
        cid2 = s.add_channel(w.gid, "blitz")
        r = await s.slash(w.bob, cid2, "game", "new", options={"template": "blitz", "options": "deadline=48"},
                          timeout=20)
        assert not r.ephemeral, r.content
        made = await w.store.live_game(cid2)
        assert made.ruleset == "tiny-pbp" and made.options == {"deadline": "48", "takeover": "vote"}
        r = await w.cmd(w.bob, "template", "list")
        assert r.ephemeral and "**Blitz**" in r.content and "BLITZ" not in r.content
        s.assert_clean()


async def test_a_digest_falls_due_sent_once_at_local_time_not_when_nothing_waits_held_when_dms_closed(tmp_path):
    async with World() as w:
        s = w.server
        south, scid, dave = await second_server(w)
        w.clock = Clock(T0)
        import bot.config as config

        orig = config.DeadlinesConfig.poll_seconds
        config.DeadlinesConfig.poll_seconds = 0.05
        try:
            await w.start_bot(tmp_path / "digest.db")
        finally:
            config.DeadlinesConfig.poll_seconds = orig
        w.service.table.clock = w.clock
        w.service.table.renderer = None  # (tiny-pbp has no map)
        s.users[w.bob].dms_open = False

        # alice is to act in both servers; bob in none (until the end); carol in nothing
        for cid, red, blue in ((w.cid, w.alice, w.bob), (scid, w.alice, dave)):
            assert not (await s.slash(red, cid, "game", "new", options={"ruleset": "tiny-pbp",
                                                                        "options": "deadline=30"}, timeout=20)).ephemeral
            await s.slash(red, cid, "game", "join", options={"seat": "red"}, timeout=20)
            await s.slash(blue, cid, "game", "join", options={"seat": "blue"}, timeout=20)
            await s.slash(red, cid, "game", "start", timeout=20)
        r = await w.cmd(w.alice, "me", "quiet", **{"from": "23:00", "to": "06:00", "tz": "America/New_York"})
        assert r.ephemeral
        for who in (w.alice, w.bob, w.carol):
            r = await w.cmd(who, "me", "digest", at="08:00")
            assert r.ephemeral and "08:00" in r.content
        due_alice = datetime(2024, 7, 1, 8, 0, tzinfo=ZoneInfo("America/New_York")).timestamp()  # 12:00 UTC
        await settled(s, w.bot)
        dms0 = len(s.dms(w.alice))

        # 08:00 UTC tomorrow falls for bob and carol first; alice's 08:00 in New York is 12:00 UTC today
        w.clock.t = due_alice - 60
        w.bot._wake.set()
        await settled(s, w.bot)
        assert len(s.dms(w.alice)) == dms0  # not yet: her local time is 07:59
        w.clock.t = due_alice + 1
        w.bot._wake.set()
        await s.wait_for(lambda: len(s.dms(w.alice)) > dms0, timeout=15)
        w.bot._wake.set()
        await settled(s, w.bot)
        (dm,) = s.dms(w.alice)[dms0:]  # once
        one, two = await w.store.live_game(w.cid), await w.store.live_game(scid)
        for row in (one, two):
            clock = await w.store.clock(row.id)
            assert f"/channels/{row.guild_id}/{row.channel_id}" in dm.content
            assert f"<t:{int(clock.deadline_at)}:F>" in dm.content
        assert "Your daily digest" in dm.content and len(dm.content) <= 2000

        # the game in server one ends: bob (DMs closed) has a result to read at his 08:00 UTC; carol nothing
        assert not (await w.cmd(w.alice, "order", text="win")).ephemeral
        carol_before = len(s.dms(w.carol))
        w.clock.t = datetime(2024, 7, 2, 8, 0, 30, tzinfo=ZoneInfo("UTC")).timestamp()
        w.bot._wake.set()
        await s.wait_for(lambda: w.service.table.delivery.holds(w.bob), timeout=15)
        await settled(s, w.bot)
        assert len(s.dms(w.carol)) == carol_before  # nothing waits for carol: no digest
        assert (await w.store.digest(w.carol))["due_at"] > w.clock.t
        assert all("digest" not in (m.content or "") for m in s.dms(w.bob))
        # held for bob, shown to him alone with his next command, nowhere in public
        r = await w.cmd(w.bob, "me", "record")
        await r.wait_for_messages(2)
        held = [m for m in r.messages if "Your daily digest" in (m.content or "")]
        assert held and all(m.ephemeral for m in held) and "red wins" in held[0].content
        assert not any("daily digest" in (m.content or "") for m in public(w, w.cid) + public(w, scid))
        s.assert_clean()
