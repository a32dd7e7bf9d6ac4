"""Sauron over the fake Discord (issue 13): a challenge to Mortal Combat carries Accept / Decline buttons
for the challenged leader's seat (22.3), which play `accept <leader>` / `decline <leader>` from that seat;
nobody else's click changes anything."""
from tests.e2e.test_e2e_discord import World

# Westernesse's Combat Phase of Game-Turn 1: Isildur (3 + 4 = 7) with his cavalry three hexes from Gorgol
# (2 + 2 = 4) and a band of goblins: 22.0 and 22.4 allow the challenge
POSITION = {"position": {"turn": 1, "step": "G", "units": {"ISI": "1206", "NC3": "1206", "GOR": "1209", "GA1": "1209"}}}


async def _challenge(w):
    s = w.server
    await w.cmd(w.alice, "game", "new", ruleset="sauron")
    await w.cmd(w.alice, "game", "join", seat="sauron")
    await w.cmd(w.bob, "game", "join", seat="westernesse")
    await (await w.cmd(w.alice, "game", "start")).wait_for_messages(1)
    r = await w.cmd(w.bob, "order", text="challenge ISI GOR")
    assert not r.ephemeral and "ISI challenges GOR to Mortal Combat (22.0)" in r.content, r.content
    ask = r.message
    assert {"ans:1:sauron:accept GOR", "ans:1:sauron:decline GOR"} <= set(ask.custom_ids())
    # the challenger and a spectator cannot answer for Sauron
    c = await s.click(w.bob, ask, "ans:1:sauron:accept GOR")
    assert c.ephemeral and "Sauron" in c.content
    c = await s.click(w.carol, ask, "ans:1:sauron:decline GOR")
    assert c.ephemeral
    # Sauron answers in his next phase (22.3): not yet, in Westernesse's own Combat Phase
    c = await s.click(w.alice, ask, "ans:1:sauron:accept GOR")
    assert c.ephemeral and "Refused" in c.content
    await w.cmd(w.bob, "done")  # to the Joint Rally Phase
    return ask


async def test_22_3_accept_by_button(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "accept.db", fixture=POSITION)
        ask = await _challenge(w)
        c = await w.server.click(w.alice, ask, "ans:1:sauron:accept GOR")
        assert not c.ephemeral and "GOR accepts ISI's challenge" in c.content, c.content
        r = await w.cmd(w.carol, "game", "log")
        assert "sauron: `accept GOR`" in r.content
        c = await w.server.click(w.alice, ask, "ans:1:sauron:decline GOR")
        assert c.ephemeral  # answered already
        w.server.assert_clean()


async def test_22_3_decline_by_button(tmp_path):
    async with World() as w:
        await w.start_bot(tmp_path / "decline.db", fixture=POSITION)
        ask = await _challenge(w)
        c = await w.server.click(w.alice, ask, "ans:1:sauron:decline GOR")
        assert not c.ephemeral and "GOR declines" in c.content and "22.3" in c.content, c.content
        w.server.assert_clean()


def test_answer_buttons_in_a_level_of_play_too():
    """The buttons come from the engine (``answer_buttons``): the plain game's and a moded one's alike;
    the moderator's seat and the table's own verbs get none."""
    from engine.core import Action
    from engine.rulesets import get_ruleset
    want = [("sauron", "accept GOR", "Accept"), ("sauron", "decline GOR", "Decline")]
    act = Action("challenge", ("ISI", "GOR"))
    for name in ("sauron", "sauron@assist"):
        rs = get_ruleset(name)
        g = rs.new_game({}, "b")
        assert rs.answer_buttons(g, "westernesse", act) == want
        assert rs.answer_buttons(g, "westernesse", Action("duel", ("ISI", "GOR"))) == []
    assert get_ruleset("sauron@assist").answer_buttons(g, "gm", act) == []
    assert get_ruleset("gondor").answer_buttons(get_ruleset("gondor").new_game({}, "b"), "westernesse", act) == []
