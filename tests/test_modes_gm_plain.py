"""The moderator's seat on a game without a level of play (issue 14, CONVENTIONS: "Every ruleset
also has an optional `gm` seat"): the lobby's moderator (engine/modes/gm.py). Taking it changes
neither the game's stored name, nor its state, nor its log: the export verifies as it would have."""
import json

from bot.verify import verify_export
from engine.core import Game
from engine.modes.gm import with_gm_seat
from engine.rulesets import get_ruleset
from tests.test_e2e_discord import World


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
