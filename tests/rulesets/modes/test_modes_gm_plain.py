"""The moderator's seat on a game without a level of play (issue 14, CONVENTIONS: "Every ruleset
also has an optional `gm` seat"): the lobby's moderator (engine/modes/gm.py). Taking it changes
neither the game's stored name, nor its state, nor its log: the export verifies as it would have."""
import json

from bot.verify import verify_export
from engine.core import Game
from engine.modes.gm import with_gm_seat
from engine.rulesets import get_ruleset
from tests.e2e.test_e2e_discord import World


async def export_of(w, user):
    r = await w.cmd(user, "game", "export")
    return json.loads(next(a.data for a in r.message.attachments))


def visible_text(w, user) -> str:
    return "\n".join(m.content or "" for m in w.server.all_visible_to(user))


async def test_the_creator_takes_gm_mid_game_on_a_plain_gondor_game(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "gm.db")
        s = w.server
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor")
        assert not r.ephemeral and "`gm`" not in r.content  # a plain game reads as it always did
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        r = await w.cmd(w.alice, "game", "start")
        await r.wait_for_messages(2)
        r = await w.cmd(w.carol, "game", "status")
        assert "Moderator" not in r.content  # no moderator listed until one is seated
        r = await w.cmd(w.alice, "order", text="deploy GOT 0123")
        assert not r.ephemeral
        # a non-creator without Manage Server is refused, privately, and nothing changes
        r = await w.cmd(w.carol, "game", "join", seat="gm")
        assert r.ephemeral and "Manage Server" in r.content
        assert not any("real cauldrons" in m.content for m in s.dms(w.carol))
        # the creator takes it mid-game: every seat's secrets by DM
        r = await w.cmd(w.alice, "game", "join", seat="gm")
        assert not r.ephemeral and "Moderator" in r.content
        await s.wait_for(lambda: any("real cauldrons" in m.content for m in s.dms(w.alice)))
        dm = next(m.content for m in s.dms(w.alice) if "real cauldrons" in m.content)
        assert "Moderator" in dm and "Westernesse: Your real cauldrons" in dm
        r = await w.cmd(w.carol, "game", "status")
        assert "Moderator: <@" in r.content
        r = await w.cmd(w.alice, "secret")
        assert r.ephemeral
        # the moderator gives no order here; the game goes on by the rules
        r = await w.cmd(w.alice, "order", text="deploy GOT 0124", seat="gm")
        assert r.ephemeral and "moderator" in r.content.lower()
        assert "real cauldrons" not in visible_text(w, w.carol)
        assert (await w.cmd(w.alice, "game", "end")).message
        data = await export_of(w, w.alice)
        assert data["ruleset"] == "gondor" and all(e["seat"] != "gm" for e in data["log"])
        ok, lines = verify_export(data)
        assert ok, lines


def test_the_lobby_moderator_changes_nothing_of_the_game():
    rs = get_ruleset("gondor")
    g, h = Game.new(rs, {}, "s1"), Game(with_gm_seat(rs), None)
    h.state = g.state
    assert with_gm_seat(rs).name == "gondor" and "gm" in with_gm_seat(rs).seats
    assert with_gm_seat(get_ruleset("gondor@assist")) is get_ruleset("gondor@assist")
    assert list(h.legal_actions("gm")) == [] and h.active_seats() == g.active_seats()
    assert "real cauldrons" in with_gm_seat(rs).secret_text(g.state, "gm")
    assert h.view("westernesse") == g.view("westernesse")


async def test_a_spectator_asks_the_creator_admits_and_reads_no_secret(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "spec.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="gondor")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        r = await w.cmd(w.bob, "game", "spectate")
        assert r.ephemeral and "seat" in r.content  # a player is no spectator
        r = await w.cmd(w.carol, "game", "spectate")
        assert not r.ephemeral and "asks to watch" in r.content
        ask = r.message
        r = await w.cmd(w.carol, "game", "spectate")
        assert r.ephemeral and "asked already" in r.content
        c = await s.click(w.bob, ask, f"spec:1:{w.carol}:y")
        assert c.ephemeral and "creator" in c.content  # not the creator's: nothing changes
        assert "Spectators" not in (await w.cmd(w.carol, "game", "status")).content
        c = await s.click(w.alice, ask, f"spec:1:{w.carol}:y")
        assert not c.ephemeral and "spectator" in c.content
        c = await s.click(w.alice, ask, f"spec:1:{w.carol}:y")
        assert c.ephemeral and "already" in c.content
        r = await w.cmd(w.bob, "game", "status")
        assert f"Spectators: <@{w.carol}>" in r.content
        # the public view only: no seat's map, no secret, no order
        r = await w.cmd(w.carol, "secret")
        assert r.ephemeral and "no seat" in r.content
        r = await w.cmd(w.carol, "game", "map", mine=True)
        assert r.ephemeral and "no seat" in r.content
        r = await w.cmd(w.carol, "order", text="deploy GOT 0123")
        assert r.ephemeral
        assert "real cauldrons" not in visible_text(w, w.carol)
        # the moderator admits directly; declining one who never asked is refused
        r = await w.cmd(w.mod, "game", "spectate")
        assert not r.ephemeral and "spectator" in r.content
        r = await s.slash(w.alice, w.cid, "game", "admit", options={"user": w.bob, "admit": False}, timeout=20)
        assert r.ephemeral and "seat" in r.content
        s.assert_clean()


async def test_private_rooms_are_kept_for_the_export_once_the_game_is_over(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "rooms.db", keep_rooms=True)
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=enforced")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(1)
        r = await w.cmd(w.alice, "game", "table")
        assert not r.ephemeral
        thread = next(c for c in s.channels.values() if getattr(c, "type", None) == 12)
        await s.post_message(w.alice, thread.id, "let us betray the dragon at dawn")
        await s.post_message(w.bob, thread.id, "agreed, at dawn")
        await s.post_message(w.carol, w.cid, "a public remark")  # not a room: not kept
        import asyncio
        for _ in range(200):
            kept = await w.store.get_setting(f"roomlog:1:{thread.id}")
            if kept and "agreed" in kept:
                break
            await asyncio.sleep(0.02)
        data = await export_of(w, w.alice)
        assert "betray the dragon" not in json.dumps(data) and "rooms" not in data  # not while it runs
        assert (await w.cmd(w.alice, "game", "end")).message
        data = await export_of(w, w.alice)
        (room,) = data["rooms"]
        assert room["seats"] == ["good", "evil"]
        assert [m["text"] for m in room["messages"]] == ["let us betray the dragon at dawn", "agreed, at dawn"]
        assert "public remark" not in json.dumps(data)
        ok, lines = verify_export(data)
        assert ok, lines


async def test_the_status_board_follows_a_deadline_pass_by_the_scheduler(tmp_path):
    from tests.gondor_helpers import SAURON_SETUP
    from tests.e2e.test_pbp_e2e import H, T0, public, start_world

    async with World() as w:
        await start_world(w, tmp_path, "board-dl.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="deadline=3 policy=pass")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        r = await w.cmd(w.carol, "game", "status", public=True)
        board = r.message
        assert "Sauron" in board.content.split("To act")[-1] and "Orders so far: 0." in board.content
        for o in SAURON_SETUP:
            assert not (await w.cmd(w.alice, "order", text=o)).ephemeral
        n = len(public(w))
        w.clock.t = T0 + 3 * H + 1  # the deadline: Sauron passed by the scheduler
        w.bot._wake.set()
        await s.wait_for(lambda: len(public(w)) > n, timeout=10)
        want = f"Orders so far: {len(SAURON_SETUP) + 1}."
        await s.wait_for(lambda: want in s.message(board.id).content, timeout=10)
        assert "To act: Westernesse" in s.message(board.id).content
        assert sum("Orders so far" in (m.content or "") for m in s.messages(w.cid)) == 1  # edited, not reposted
        s.assert_clean()


async def test_order_whisper_posts_nothing_publicly(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "ow.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=enforced")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)  # the answer, then the phase's notice
        n = len(s.messages(w.cid))
        r = await w.cmd(w.alice, "order", text="whisper evil the gate is weak at night")
        assert r.ephemeral and "Whispered to **Evil**" in r.content
        await s.wait_for(lambda: any("gate is weak" in m.content for m in s.dms(w.bob)))
        # an answer's channel posts go before its DMs (bot/transports/discord_app.py: deliver), so with
        # the DM in, anything the whisper put in the channel would be there now
        assert len(s.messages(w.cid)) == n  # nothing in the channel, not even "whisper (private)"
        r = await w.cmd(w.alice, "order", text="whisper nobody hello")
        assert r.ephemeral and "not a seat" in r.content
        r = await w.cmd(w.carol, "game", "log")
        assert "whisper (private)" in r.content and "gate is weak" not in r.content
        s.assert_clean()


async def test_a_plain_games_moderator_replays_from_the_full_view(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "gm-replay.db")
        await w.cmd(w.alice, "game", "new", ruleset="gondor")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        assert not (await w.cmd(w.mod, "game", "join", seat="gm")).ephemeral  # Manage Server, before the start
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        await w.server.wait_for(lambda: any("real cauldrons" in m.content for m in w.server.dms(w.mod)))
        await w.cmd(w.alice, "order", text="deploy GOT 0123")
        r = await w.cmd(w.mod, "game", "replay")
        assert r.ephemeral and "Moderator's own view" in r.content
        r = await w.cmd(w.carol, "game", "replay")
        assert r.ephemeral and "the public view" in r.content
        w.server.assert_clean()
