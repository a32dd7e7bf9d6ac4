"""Levels of play end to end over the fake Discord (issue 14): a Gondor game in *assist* mode where
the moderator accepts one declared action and refuses another, with a whisper; a Risk game in
*tabletop* mode played to the end of a round with the generic vocabulary; both exports verify, and
what a spectator can read carries none of the secrets."""
import asyncio
import json

from bot.verify import verify_export
from tests.e2e.test_e2e_discord import World, png_of
from tests.settle import settled


async def export_of(w, user):
    r = await w.cmd(user, "game", "export")
    return json.loads(next(a.data for a in r.message.attachments))


def visible_text(w, user) -> str:
    return "\n".join(m.content or "" for m in w.server.all_visible_to(user))


async def test_gondor_in_assist_mode_with_a_moderator(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "assist.db")
        s = w.server
        r = await w.cmd(w.alice, "game", "new", ruleset="gondor", options="mode=assist")
        assert not r.ephemeral and "(assist)" in r.content and "`gm`" in r.content
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        r = await w.cmd(w.carol, "game", "join", seat="gm")
        assert r.ephemeral and "Manage Server" in r.content  # neither creator nor moderator
        assert not (await w.cmd(w.mod, "game", "join", seat="gm")).ephemeral
        r = await w.cmd(w.alice, "game", "start")
        await r.wait_for_messages(2)
        await s.wait_for(lambda: any("real cauldrons" in m.content for m in s.dms(w.mod)))
        assert any("real cauldrons" in m.content for m in s.dms(w.mod))  # the moderator sees every secret
        r = await w.cmd(w.carol, "game", "status")
        assert "Level of play: **assist**" in r.content

        # a declared action the engine does not know: a public proposal with the engine's objection
        r = await w.cmd(w.alice, "order", text="Gothmog rallies the orcs with a speech")
        assert not r.ephemeral and "Declared action d1" in r.content and "unknown order" in r.content
        # an order the engine refuses: refused privately, with the way to declare it
        r = await w.cmd(w.alice, "order", text="deploy GOT 9999")
        assert r.ephemeral and "!deploy GOT 9999" in r.content
        r = await w.cmd(w.alice, "order", text="!deploy GOT 9999")
        assert not r.ephemeral and "Declared action d2" in r.content and "off the map" in r.content
        # rulings: the moderator's, each with its reason; bad ones private and changing nothing
        r = await w.cmd(w.mod, "order", text="accept d1")
        assert r.ephemeral and "reason" in r.content
        r = await w.cmd(w.carol, "order", text="accept d1 because why not")
        assert r.ephemeral
        r = await w.cmd(w.mod, "order", text="accept d1 because a leader may harangue his troops once")
        assert not r.ephemeral and "**accepted** by the moderator" in r.content
        r = await w.cmd(w.mod, "order", text="refuse d2 because 9999 is off the map")
        assert not r.ephemeral and "**refused** by the moderator" in r.content
        r = await w.cmd(w.mod, "order", text="accept d2 because changed my mind")
        assert r.ephemeral and "already refused" in r.content
        # the game goes on by the rules
        r = await w.cmd(w.alice, "order", text="deploy GOT 0123")
        assert not r.ephemeral
        # a whisper: to Westernesse and the moderator, nothing in the channel
        n = len(s.messages(w.cid))
        r = await w.cmd(w.alice, "whisper", seat="westernesse", text="yield the city and live")
        assert r.ephemeral and "Whispered" in r.content
        await s.wait_for(lambda: any("yield the city" in m.content for m in s.dms(w.bob)))
        await s.wait_for(lambda: any("yield the city" in m.content for m in s.dms(w.mod)))
        assert len(s.messages(w.cid)) == n
        r = await w.cmd(w.carol, "game", "log")
        assert "harangue" in r.content and "9999 is off the map" in r.content and "whisper (private)" in r.content
        spectator = visible_text(w, w.carol)
        assert "yield the city" not in spectator and "real cauldrons" not in spectator
        assert "yield the city" not in visible_text(w, w.alice).replace("Whispered to **Westernesse** (the moderator "
                                                                      "reads it too): yield the city and live", "")
        data = await export_of(w, w.alice)
        assert "yield the city" not in json.dumps(data) and data["ruleset"] == "gondor@assist"
        assert (await w.cmd(w.mod, "game", "end")).message
        data = await export_of(w, w.alice)
        assert data["seed"] and "whisper westernesse yield the city and live" in data["orders"]  # revealed now
        assert "accept d1 because a leader may harangue his troops once" in data["orders"]
        ok, lines = verify_export(data)
        assert ok, lines
        s.assert_clean()


async def test_risk_in_tabletop_mode_to_the_end_of_a_round(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "tabletop.db")
        s = w.server
        r = await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=tabletop")
        assert not r.ephemeral and "(tabletop)" in r.content
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        r = await w.cmd(w.alice, "game", "start")  # no moderator: the game starts without one
        notice = (await r.wait_for_messages(2))[1]
        assert "Round 1: Good to act (tabletop)" in notice.content and notice.pinged() == {w.alice}
        for text in ("deck orders o1 o2 o3 o4 o5 o6", "draw orders", "place A1 city infantry",
                     "place H1 wall-n scout hidden", "move A1 wall-n", "roll 2d6 for the sortie", "set morale 2"):
            r = await w.cmd(w.alice, "order", text=text)
            # an order on a hidden piece is answered privately as typed, and masked in the channel
            assert r.ephemeral == ("hidden" in text), (text, r.content)
        # (the channel's masked line is posted after the private answer: waited for, not assumed there)
        assert await s.wait_for(lambda: any("`place (a face-down piece) wall-n`" in m.content
                                            for m in s.messages(w.cid)), timeout=10.0)
        assert "face-down piece ?2" in visible_text(w, w.carol)
        await s.wait_for(lambda: any("you draw" in m.content for m in s.dms(w.alice)))
        card = next(m.content for m in s.dms(w.alice) if "you draw" in m.content).split("`")[1]
        r = await w.cmd(w.bob, "order", text="move A1 city")
        assert r.ephemeral and "Good's turn" in r.content  # not his turn: private, nothing changes
        r = await w.cmd(w.alice, "done")
        notice = (await r.wait_for_messages(2))[1]
        assert "Evil to act" in notice.content and notice.pinged() == {w.bob}
        png_of(notice)
        r = await w.cmd(w.bob, "order", text="move H1 city")
        assert r.ephemeral and "no piece `H1` that you can see" in r.content
        for text in ("place E1 osgiliath-e troll", "roll 3d6 for the assault", "draw orders"):
            r = await w.cmd(w.bob, "order", text=text)
            assert not r.ephemeral, (text, r.content)
        r = await w.cmd(w.bob, "done")
        notice = (await r.wait_for_messages(2))[1]
        assert "Round 2 begins" in notice.content or "Round 2" in notice.content
        assert notice.pinged() == {w.alice}
        r = await w.cmd(w.carol, "game", "status")
        assert "Level of play: **tabletop**" in r.content and "Round 2" in r.content and "morale: 2" in r.content
        spectator = visible_text(w, w.carol)
        assert "H1" not in spectator and "scout" not in spectator and f"`{card}`" not in spectator
        assert (await w.cmd(w.alice, "game", "end")).message
        data = await export_of(w, w.alice)
        assert data["ruleset"] == "risk-minas-tirith@tabletop" and data["seed"]
        ok, lines = verify_export(data)
        assert ok, lines
        s.assert_clean()


async def tabletop_with_secrets(w, kind: str, whisper: str, pact: str):
    await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=tabletop")
    await w.cmd(w.alice, "game", "join", seat="good")
    await w.cmd(w.bob, "game", "join", seat="evil")
    await w.cmd(w.mod, "game", "join", seat="gm")
    await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
    for text in (f"place S1 city {kind} secret", f"place H1 wall-n {kind} hidden", "move H1 city",
                 f"pact secret evil {pact}", "done"):
        await (await w.cmd(w.alice, "order", text=text)).wait_for_messages(1)
    r = await w.cmd(w.alice, "whisper", seat="gm", text=whisper)
    assert r.ephemeral
    r = await w.cmd(w.bob, "order", text="move H1 wall-n")
    assert r.ephemeral and "no piece `H1` that you can see" in r.content
    await (await w.cmd(w.bob, "game", "map", whole=True)).wait_for_messages(1)
    await (await w.cmd(w.carol, "game", "log")).wait_for_messages(1)
    r = await w.cmd(w.bob, "done")
    await r.wait_for_messages(2)
    await settled(w.server, w.bot)


async def test_two_tabletop_games_differing_only_in_secrets_read_the_same(tmp_path):
    """Everything the other seat and a spectator can read, images included, is byte-identical in two
    games that differ only in hidden pieces and a whisper to the moderator; the moderator's differs."""
    from tests.e2e.test_e2e_discord import seen_by

    seen = []
    for k, (kind, whisper, pact) in enumerate((("spy", "the north wall is weak", "we share the spoils"),
                                              ("assassin", "I will betray evil", "we share the spoils"))):
        async with World() as w:
            await w.start_bot(tmp_path / f"b{k}.db")
            await tabletop_with_secrets(w, kind, whisper, pact)
            await settled(w.server, w.bot)  # a phase notice may still be on its way: compare once nothing more comes
            seen.append((seen_by(w, w.bob), seen_by(w, w.carol), seen_by(w, w.mod)))
            w.server.assert_clean()
    (a_bob, a_carol, a_mod), (b_bob, b_carol, b_mod) = seen
    # the same messages, byte for byte (in any order: Discord promises none between a command's
    # answer and the DMs and posts that follow it)
    assert sorted(a_bob) == sorted(b_bob) and sorted(a_carol) == sorted(b_carol)
    assert a_mod != b_mod  # the moderator saw the secrets
    assert any(d[:4] == b"\x89PNG" for _, atts in a_bob for d in atts)


async def test_without_a_moderator_the_other_seat_accepts_by_button(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "consent.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="gondor", options="mode=assist")
        await w.cmd(w.alice, "game", "join", seat="sauron")
        await w.cmd(w.bob, "game", "join", seat="westernesse")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        r = await w.cmd(w.alice, "order", text="the Nazgul terrify the garrison")
        assert not r.ephemeral and "Declared action d1" in r.content
        ask = r.message
        c = await s.click(w.alice, ask, "rule:1:d1:y")
        assert c.ephemeral and "other seats" in c.content  # not the proposer's to accept
        c = await s.click(w.carol, ask, "rule:1:d1:y")
        assert c.ephemeral  # no seat: nothing changes
        c = await s.click(w.bob, ask, "rule:1:d1:y")
        assert not c.ephemeral and "**accepted**" in c.content
        c = await s.click(w.bob, ask, "rule:1:d1:n")
        assert c.ephemeral and "already accepted" in c.content
        r = await w.cmd(w.alice, "order", text="!deploy GOT 9999")
        c = await s.click(w.bob, r.message, "rule:1:d2:n")
        assert not c.ephemeral and "refuses declared action d2" in c.content
        r = await w.cmd(w.carol, "game", "log")
        assert "westernesse: `accept d1`" in r.content and "westernesse: `refuse d2`" in r.content
        s.assert_clean()


async def test_game_table_opens_a_private_thread_per_pair_of_seats(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "rooms.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=enforced")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        await w.cmd(w.mod, "game", "join", seat="gm")
        r = await w.cmd(w.carol, "game", "table")
        assert r.ephemeral and "creator" in r.content
        r = await w.cmd(w.alice, "game", "table")
        assert not r.ephemeral and "Private rooms opened" in r.content and "(1)" in r.content
        threads = [c for c in s.channels.values() if getattr(c, "type", None) == 12]
        assert len(threads) == 1
        thread = threads[0]
        await s.wait_for(lambda: s.messages(thread.id))
        assert "A private room for **Good**, **Evil**" in s.messages(thread.id)[0].content
        assert thread.type == 12 and thread.thread_members >= {w.alice, w.bob, w.mod}
        assert w.carol not in thread.thread_members
        assert not any("A private room" in m.content for m in s.all_visible_to(w.carol))
        r = await w.cmd(w.alice, "game", "table")
        assert r.ephemeral and "already has" in r.content  # once per pair
        s.assert_clean()


async def test_a_whisper_to_closed_dms_goes_to_the_seats_private_thread_not_the_channel(tmp_path):
    """Issue 25: a whisper to a player whose DMs are closed reaches their private thread (only they,
    the bot and the moderator in it); the channel hears nothing of it."""
    async with World() as w:
        w.server.users[w.bob].dms_open = False
        await w.start_bot(tmp_path / "closed.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=enforced")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        n = len(s.messages(w.cid))
        r = await w.cmd(w.alice, "whisper", seat="evil", text="meet at the gate")
        assert r.ephemeral
        room = await s.wait_for(lambda: next((c for c in s.channels.values() if c.type == 12 and any(
            "meet at the gate" in (m.content or "") for m in s.messages(c.id))), None))
        assert room.thread_members == {s.bot_user_id, w.bob} and room.parent_id == w.cid
        assert len(s.messages(w.cid)) == n  # nothing about the whisper in public
        assert not any("meet at the gate" in (m.content or "") for m in s.all_visible_to(w.carol))
        assert not any(m.channel_id == room.id for m in s.all_visible_to(w.alice))  # the sender: only her own answer
        s.assert_clean()


async def test_a_whisper_nothing_can_carry_is_held_for_its_readers_next_command(tmp_path):
    """Issue 25: closed DMs and no Create Private Threads: the whisper is held and shown to its reader
    alone at their next command; the sender hears privately that it is held; the table was told once
    (at the join) what to change."""
    async with World() as w:
        w.server.users[w.bob].dms_open = False
        await w.start_bot(tmp_path / "held.db")
        s = w.server
        s.set_bot_permissions(w.gid, (1 << 51) - 1 & ~(1 << 3) & ~(1 << 36))  # all but Administrator, Create Private Threads
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=enforced")
        await w.cmd(w.alice, "game", "join", seat="good")
        r = await w.cmd(w.bob, "game", "join", seat="evil")
        note = (await r.wait_for_messages(2))[-1]
        assert note.ephemeral and "Create Private Threads" in note.content
        told = await s.wait_for(lambda: [m for m in s.messages(w.cid) if "cannot receive direct messages" in (m.content or "")])
        assert len(told) == 1 and told[0].pinged() == {w.bob}
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        r = await w.cmd(w.alice, "whisper", seat="evil", text="second thoughts")
        note = (await r.wait_for_messages(2))[-1]
        assert note.ephemeral and "held and shown to them privately" in note.content and "second" not in note.content
        r = await w.cmd(w.bob, "game", "status")
        held = await s.wait_for(lambda: [m for m in r.messages if "second thoughts" in (m.content or "")])
        assert held[0].ephemeral
        assert not any("second thoughts" in (m.content or "") for m in s.all_visible_to(w.carol))
        r = await w.cmd(w.bob, "game", "status")  # shown once
        assert "could not be sent (1 time" not in r.content and "Evil" in r.content
        assert not any("second thoughts" in (m.content or "") for m in r.messages)
        assert len([m for m in s.messages(w.cid) if "cannot receive direct messages" in (m.content or "")]) == 1
        s.assert_clean()


async def test_status_board_is_edited_in_place(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "board.db")
        s = w.server
        await w.cmd(w.alice, "game", "new", ruleset="risk-minas-tirith", options="mode=tabletop")
        await w.cmd(w.alice, "game", "join", seat="good")
        await w.cmd(w.bob, "game", "join", seat="evil")
        await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)
        r = await w.cmd(w.carol, "game", "status", public=True)
        assert not r.ephemeral and "Orders so far: 0." in r.content and r.message.pinged() == set()
        board = r.message
        await (await w.cmd(w.alice, "order", text="roll 2d6 for the gate")).wait_for_messages(1)
        await s.wait_for(lambda: any(m.id == board.id and "Orders so far: 1." in m.content for m in s.messages(w.cid)))
        now = next(m for m in s.messages(w.cid) if m.id == board.id)
        assert "Orders so far: 1." in now.content and now.edited_timestamp
        await (await w.cmd(w.alice, "done")).wait_for_messages(2)
        await s.wait_for(lambda: any(m.id == board.id and "Evil to act" in m.content for m in s.messages(w.cid)))
        await (await w.cmd(w.bob, "order", text="set morale 5")).wait_for_messages(1)
        await (await w.cmd(w.bob, "game", "undo")).wait_for_messages(1)  # taken back: the board follows
        await s.wait_for(lambda: any(m.id == board.id and "Orders so far: 4." in m.content and "morale" not in m.content
                                     for m in s.messages(w.cid)))
        # the board is edited, never posted again
        assert sum("Orders so far" in (m.content or "") for m in s.messages(w.cid)) == 1
        s.assert_clean()
