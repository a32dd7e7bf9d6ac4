"""Issue 39: the process survives whatever arrives. The real discord.py client against the fake Discord:
after each frame it cannot read the bot is still on the same connection (no reconnect, no new session) and
answers the next `/roll` and `/order`; a lone surrogate (`\\ud800`, a valid JSON escape) in what a user sent
is answered, with U+FFFD in its place."""
from __future__ import annotations

import json

from tests.e2e.test_e2e_discord import World
from tests.settle import settled

LONE = "\ud800"
FFFD = "\ufffd"


async def started(w: World, db) -> None:
    await w.start_bot(db)
    await w.cmd(w.alice, "game", "new", ruleset="gondor")
    await w.cmd(w.alice, "game", "join", seat="sauron")
    await w.cmd(w.bob, "game", "join", seat="westernesse")
    await (await w.cmd(w.alice, "game", "start")).wait_for_messages(2)


async def still_answers(w: World, what: str) -> None:
    """The bot, on its first connection, answers a `/roll` and an `/order` (each in order after the frame)."""
    r = await w.cmd(w.bob, "roll", dice="1d6")
    assert not r.ephemeral and "rolls 1d6" in r.content, (what, r)
    r = await w.cmd(w.alice, "order", text="deploy ZZ1 2325")
    assert r.ephemeral and "ZZ1" in r.content, (what, r)
    assert not w.task.done(), (what, w.task)
    assert (w.server.identify_count, w.server.resume_count) == (1, 0), what


async def test_a_frame_the_bot_cannot_read_is_dropped_and_the_next_commands_are_answered(tmp_path):
    """Issue 39: a frame that is not JSON, not an object, an interaction discord.py fails to build (an id that
    is not a number, no token, `d` null, a button with no custom_id), an event of the wrong shape, an unknown
    event, an interaction of an unknown type: each is dropped (counted, and logged in one line) or ignored,
    and the bot stays connected and answers the next `/roll` and `/order`."""
    async with World() as w:
        await started(w, tmp_path / "g.db")
        s = w.server

        def interaction(**change):
            d = s.interaction_payload(w.alice, w.cid, 2, {"id": "1", "name": "roll", "type": 1})
            d.update(change)
            for k in [k for k, v in change.items() if v is None]:
                del d[k]
            return json.dumps(d)

        frames = [  # (what, send it, dropped: discord.py fails on it, rather than ignoring it)
            ("not JSON", lambda: s.send_frame('{"op":0,"t":"INTERACTION_CREATE","s":'), True),
            ("a JSON array", lambda: s.send_frame("[1, 2, 3]"), True),
            ("a JSON string", lambda: s.send_frame('"\\ud800"'), True),
            ("an id that is not a number", lambda: s.dispatch_raw("INTERACTION_CREATE", interaction(id="abc")), True),
            ("an interaction without a token", lambda: s.dispatch_raw("INTERACTION_CREATE", interaction(token=None)), True),
            ("an interaction that is null", lambda: s.dispatch_raw("INTERACTION_CREATE", "null"), True),
            ("a button without a custom_id",
             lambda: s.dispatch_raw("INTERACTION_CREATE", interaction(type=3, data={"component_type": 2})), True),
            ("a member update of the wrong shape", lambda: s.dispatch_raw("GUILD_MEMBER_UPDATE", '{"guild_id": []}'), True),
            ("an unknown event", lambda: s.dispatch_raw("PALANTIR_NO_SUCH_EVENT", '{"x": "\\ud800"}'), False),
            ("an interaction of an unknown type", lambda: s.dispatch_raw("INTERACTION_CREATE", interaction(type=99)), False),
            ("an unknown op", lambda: s.send_frame('{"op": 77, "d": null}'), False),
        ]
        for what, send, dropped in frames:
            before = w.bot.gateway_drops.count
            send()
            await still_answers(w, what)
            assert w.bot.gateway_drops.count == before + dropped, what
        await settled(s, w.bot)
        s.assert_clean()


async def test_a_lone_surrogate_in_what_a_user_sends_is_answered_with_the_replacement_character(tmp_path):
    """Issue 39: `/roll dice:1d6 reason:\\ud800` and `/order text:` with one stopped the bot (orjson refused the
    frame); now each is answered, U+FFFD in the character's place, and so are a member whose name has one
    (in every GUILD_CREATE: the bot could not even start), an autocomplete value and a button's custom_id."""
    async with World() as w:
        odd = w.server.add_user("od" + LONE + "d", guild_id=w.gid)
        await started(w, tmp_path / "s.db")
        s = w.server
        r = await w.cmd(w.alice, "roll", dice="1d6", reason="at the " + LONE + " gate")
        assert not r.ephemeral and f"at the {FFFD} gate" in r.content, r
        r = await w.cmd(w.alice, "order", text="deploy OA1" + LONE + " 2325")
        assert r.ephemeral and f"OA1{FFFD}" in r.content, r
        r = await w.cmd(w.alice, "order", text="deploy OA1 2325")  # the game went on, unchanged by the refusal
        assert not r.ephemeral and "deploy OA1 2325" in r.content, r
        choices = await s.autocomplete(w.alice, w.cid, "order", options={"text": "deploy NAZ" + LONE}, focused="text")
        assert isinstance(choices, list)  # answered (an unanswered one is an ack_timeout violation below)
        r = await w.cmd(odd, "roll", dice="1d4")
        assert not r.ephemeral and f"od{FFFD}d" in r.content, r
        r = await s.interact(w.alice, w.cid, 3, {"custom_id": "rule:1" + LONE + ":x:y", "component_type": 2},
                             message=s.messages(w.cid)[-1])
        assert r.ephemeral and "not one of mine" in r.content, r
        assert w.bot.gateway_drops.count == 0  # answered, none dropped
        await settled(s, w.bot)
        s.assert_clean()
