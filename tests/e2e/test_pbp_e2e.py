"""Play by post through the real discord.py client against the fake Discord:
deadlines under a controllable clock (reminders, the pass policy with its turn
notice), /me quiet (with time-zone autocomplete) and /me away, /game extend,
pause, resume, sub (the secret by DM), undo with consent buttons (and a stale
button refused), /odds, /game replay (a deferred private GIF), /game export
and `palantir verify`, and several users at once."""
import asyncio
import io
import json

from PIL import Image

from bot.verify import verify_export
from tests.gondor_helpers import SAURON_SETUP
from tests.e2e.test_e2e_discord import World
from tests.settle import settled
from tests.clock import Clock

H = 3600.0
T0 = 1_720_000_000.0


async def start_world(w, tmp_path, name):
    w.clock = Clock(T0)
    w.cfg_poll = 0.05
    import bot.config as config

    orig = config.DeadlinesConfig.poll_seconds
    config.DeadlinesConfig.poll_seconds = 0.05  # the scheduler looks often; the clock is ours
    try:
        await w.start_bot(tmp_path / name)
    finally:
        config.DeadlinesConfig.poll_seconds = orig
    w.service.table.clock = w.clock
    w.bot.cfg.deadlines.poll_seconds = 0.05


def public(w):
    return [m for m in w.server.messages(w.cid) if not m.ephemeral]


async def test_deadlines_reminders_and_the_pass_policy_through_discord(tmp_path):
    async with World() as w:
        await start_world(w, tmp_path, "dl.db")
        s = w.server
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=3 remind=1 policy=pass")
        assert not r.ephemeral
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        r = await w.cmd(w.alice, "game", "start")
        notice = (await r.wait_for_messages(2))[1]  # the answer, then the notice with the map
        deadline = int(T0 + 3 * H)
        assert f"<t:{deadline}:F>" in notice.content and f"<t:{deadline}:R>" in notice.content
        assert notice.pinged() == {w.alice} and any(a.filename.endswith(".png") for a in notice.attachments)
        r = await w.cmd(w.carol, "game", "status")
        assert r.ephemeral and f"<t:{deadline}:F>" in r.content
        n = len(public(w))
        w.clock.t = T0 + 2 * H + 1  # the reminder, one hour before: to Sauron only
        w.bot._wake.set()
        await s.wait_for(lambda: len(public(w)) > n, timeout=10)
        remind = public(w)[-1]
        assert "Reminder" in remind.content and remind.pinged() == {w.alice}
        await settled(s, w.bot)
        assert len(public(w)) == n + 1  # once
        for o in SAURON_SETUP:  # every counter placed, but no `/done`
            assert not (await w.cmd(w.alice, "order", text=o)).ephemeral
        n = len(public(w))
        w.clock.t = T0 + 3 * H + 1  # the deadline: Sauron's set-up ends with no further orders
        w.bot._wake.set()
        await s.wait_for(lambda: len(public(w)) > n, timeout=10)
        notice = public(w)[-1]
        assert "passed at the deadline" in notice.content and "Westernesse set-up" in notice.content
        assert notice.pinged() == {w.bob}  # exactly the seat that must act now
        assert any(a.filename.endswith(".png") for a in notice.attachments)  # one post: map, report, ping
        assert f"<t:{int(T0 + 6 * H + 1)}:F>" in notice.content
        await settled(s, w.bot)
        assert len(public(w)) == n + 1
        # the creator or a moderator controls the clock; anyone else is refused privately
        for user, names, opts in ((w.carol, ("game", "extend"), {"hours": 2}), (w.bob, ("game", "pause"), {}),
                                  (w.carol, ("game", "resume"), {})):
            r = await w.cmd(user, *names, **opts)
            assert r.ephemeral and "Manage Server" in r.content
        r = await w.cmd(w.mod, "game", "extend", hours=2)
        assert not r.ephemeral and f"<t:{int(T0 + 8 * H + 1)}:F>" in r.content
        r = await w.cmd(w.alice, "game", "pause")
        assert not r.ephemeral and "pauses" in r.content
        r = await w.cmd(w.alice, "game", "pause")
        assert r.ephemeral and "already paused" in r.content
        r = await w.cmd(w.alice, "game", "resume")
        assert not r.ephemeral and "<t:" in r.content
        s.assert_clean()


async def test_quiet_hours_away_sub_undo_odds_replay_export_through_discord(tmp_path):
    async with World() as w:
        await start_world(w, tmp_path, "pbp.db")
        s = w.server
        ch = await s.autocomplete(w.bob, w.cid, "me", "quiet", options={"tz": "Europe/Lon"}, focused="tz")
        assert [c["value"] for c in ch][:1] == ["Europe/London"] and len(ch) <= 25
        r = await s.slash(w.bob, w.cid, "me", "quiet", options={"from": "22:00", "to": "07:00", "tz": "Narnia/Cair"})
        assert r.ephemeral and "IANA" in r.content
        r = await s.slash(w.bob, w.cid, "me", "quiet", options={"from": "22:00", "to": "07:00", "tz": "Europe/London"})
        assert r.ephemeral and "22:00–07:00 Europe/London" in r.content
        r = await s.slash(w.carol, w.cid, "me", "away", options={"until": "next week"})
        assert r.ephemeral and "date" in r.content
        r = await s.slash(w.carol, w.cid, "me", "away", options={"until": "2024-07-05"})
        assert r.ephemeral and "Away until" in r.content

        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=48")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        await s.wait_for(lambda: any("real cauldrons" in m.content for m in s.dms(w.bob)))

        # several users at once
        results = await asyncio.gather(
            w.cmd(w.alice, "order", text=SAURON_SETUP[0]), w.cmd(w.carol, "game", "status"),
            w.cmd(w.bob, "order", text="deploy GS1 1809"), w.cmd(w.mod, "game", "log"))
        assert not results[0].ephemeral and results[1].ephemeral and results[2].ephemeral and results[3].ephemeral
        # a free undo of one's own set-up move
        r = await w.cmd(w.alice, "game", "undo")
        assert not r.ephemeral and "takes back" in r.content and SAURON_SETUP[0] in r.content
        r = await w.cmd(w.bob, "game", "undo")
        assert r.ephemeral and "nothing to take back" in r.content.lower()
        for o in SAURON_SETUP:
            assert not (await w.cmd(w.alice, "order", text=o)).ephemeral
        await w.cmd(w.alice, "done")
        # taking back the `done` that ended the phase needs Westernesse's consent, by button
        r = await w.cmd(w.alice, "game", "undo")
        assert not r.ephemeral and "ended the phase" in r.content
        ask = r.message
        assert len(ask.custom_ids()) == 2 and ask.pinged() == {w.bob}
        yes = next(c for c in ask.custom_ids() if c.endswith(":y"))
        c = await s.click(w.carol, ask, yes)
        assert c.ephemeral and "not yours" in c.content
        c = await s.click(w.bob, ask, yes)
        assert not c.ephemeral and "every other player agreed" in c.content
        # back in Sauron's set-up: that phase's notice, one post with the map, pinging Sauron
        back = (await c.wait_for_messages(2))[1]
        assert "Sauron set-up" in back.content and back.pinged() == {w.alice}
        assert any(a.filename.endswith(".png") for a in back.attachments)
        # ask again, then the game moves on: the old button is refused and changes nothing
        await w.cmd(w.alice, "done")
        r = await w.cmd(w.alice, "game", "undo")
        stale_yes = next(x for x in r.message.custom_ids() if x.endswith(":y"))
        assert not (await w.cmd(w.bob, "order", text="deploy GS1 1809")).ephemeral
        row = await w.store.latest_game(w.cid)
        c = await s.click(w.bob, r.message, stale_yes)
        assert c.ephemeral and "out of date" in c.content
        assert (await w.store.latest_game(w.cid)).seq == row.seq

        # substitutes: only the creator or a moderator; the new holder gets the secret by DM
        r = await s.slash(w.bob, w.cid, "game", "sub", options={"seat": "westernesse", "user": w.carol})
        assert r.ephemeral and "Manage Server" in r.content
        ch = await s.autocomplete(w.mod, w.cid, "game", "sub", options={"seat": "we"}, focused="seat")
        assert [c["value"] for c in ch] == ["westernesse"]
        r = await s.slash(w.mod, w.cid, "game", "sub", options={"seat": "westernesse", "user": w.carol})
        assert not r.ephemeral and f"<@{w.carol}> now holds" in r.content
        await s.wait_for(lambda: any("real cauldrons" in m.content for m in s.dms(w.carol)))
        r = await w.cmd(w.bob, "order", text="deploy GS2 2009")
        assert r.ephemeral and "no seat" in r.content  # Bob no longer orders for it
        assert not (await w.cmd(w.carol, "order", text="deploy GS2 2009")).ephemeral

        # odds: Gondor answers privately either way
        r = await w.cmd(w.alice, "odds", text="attack nonsense")
        assert r.ephemeral

        # replay: deferred, private, an animated GIF from the caller's own view
        r = await w.cmd(w.alice, "game", "replay")
        assert r.deferred and r.ephemeral
        gif = next(a.data for a in r.message.attachments if a.filename.endswith(".gif"))
        im = Image.open(io.BytesIO(gif))
        assert im.format == "GIF" and im.n_frames >= 3 and len(gif) < 8 * 1024 * 1024
        assert "Sauron's own view" in r.content
        r = await w.cmd(w.carol, "game", "replay", since="turn 9")
        assert r.ephemeral and "not been played" in r.content

        # export before the end: no seed; after: the seed, and it verifies
        r = await w.cmd(w.alice, "game", "export")
        data = json.loads(next(a.data for a in r.message.attachments))
        assert data["seed"] is None
        await w.cmd(w.mod, "game", "end")
        r = await w.cmd(w.alice, "game", "export")
        data = json.loads(next(a.data for a in r.message.attachments))
        ok, lines = verify_export(data)
        assert ok, lines
        assert [e["kind"] for e in data["log"]].count("undo") == 2
        s.assert_clean()
