"""Issue 42: `/rule case:<number or word> [ruleset:]` over the fake Discord (the real discord.py bot) and in
the terminal: for every ruleset, every case the engine cites is found by its number and answered privately
within 2,000 characters; autocomplete gives at most 25 choices; the channel's game is the default; bad input
gets a short private answer and changes nothing."""
import io

import pytest

from bot.transports.console import run_local
from engine import cases
from engine.rulesets import BUILTIN, get_ruleset
from tests.e2e.test_e2e_discord import World

pytestmark = pytest.mark.heavy  # every cited case of six rulesets, over Discord


async def test_rule_over_discord_finds_every_cited_case_of_every_ruleset(tmp_path):
    """Issue 42: every case each ruleset's engine cites, asked by number with `ruleset:`, comes back privately
    with its own summary (the fake refuses a message over 2,000 characters)."""
    async with World() as w:
        await w.start_bot(tmp_path / "rule.db")
        for name in sorted(BUILTIN):
            rs = get_ruleset(name)
            book = cases.book(rs)
            for n in sorted(cases.cited(rs), key=cases.sort_key):
                r = await w.cmd(w.carol, "rule", case=n, ruleset=name)
                assert r.ephemeral and len(r.content) <= 2000, (name, n)
                assert f"**{book[n].label}**" in r.content and book[n].summary[:60] in r.content, (name, n, r.content)
        w.server.assert_clean()


async def test_rule_in_a_game_channel_autocomplete_and_bad_input(tmp_path):
    """Issue 42: in a channel with a game, `/rule` reads that game (its options too); autocomplete offers at most
    25 choices narrowing as typed; an unknown case names the nearest, privately; no game and no `ruleset:` says
    what to give; nothing is posted in the channel."""
    async with World() as w:
        await w.start_bot(tmp_path / "rule.db")
        r = await w.cmd(w.alice, "rule", case="16.71")
        assert r.ephemeral and "ruleset:" in r.content  # no game here yet
        assert not (await w.cmd(w.alice, "game", "new", ruleset="gondor", options="rally.GAN=7")).ephemeral
        r = await w.cmd(w.bob, "rule", case="16.71")
        assert r.ephemeral and "16.71 Cauldrons" in r.content and "Gondor" in r.content
        assert "`/rule case:" in (await w.cmd(w.bob, "help")).content  # `/help` tells of it
        r = await w.cmd(w.bob, "rule", case="8.37")
        assert r.ephemeral and "`rally.gan=7`" in r.content.lower() and "Reconstructed [leaders]" in r.content
        r = await w.cmd(w.bob, "rule", case="oil")
        assert r.ephemeral and "16.7 Boiling oil" in r.content and "`pour " in r.content
        r = await w.cmd(w.bob, "rule", case="16.79")
        assert r.ephemeral and "No case `16.79`" in r.content and "16.75" in r.content
        r = await w.cmd(w.bob, "rule", case="fireball", ruleset="sauron")  # another ruleset's rules: asked for
        assert r.ephemeral and "No case `fireball` in Sauron" in r.content
        choices = await w.server.autocomplete(w.bob, w.cid, "rule", options={"case": ""}, focused="case")
        assert len(choices) == 25
        choices = await w.server.autocomplete(w.bob, w.cid, "rule", options={"case": "16.7"}, focused="case")
        assert [c["value"] for c in choices[:2]] == ["16.7", "16.71"] and len(choices) <= 25
        choices = await w.server.autocomplete(w.bob, w.cid, "rule", options={"case": "ground", "ruleset": "risk-minas-tirith"},
                                              focused="case")
        assert "Ground Attack" in [c["value"] for c in choices]
        public = [m for m in w.server.messages(w.cid) if "Cauldrons" in m.content or "No case" in m.content]
        assert public == []
        w.server.assert_clean()


@pytest.mark.parametrize("name", sorted(BUILTIN))
async def test_rule_in_the_terminal_finds_every_cited_case(tmp_path, name):
    """Issue 42: `palantir local`'s `/rule <number>` answers every case the engine cites for the ruleset (a
    refused command would fail the script), and `/rule <unknown>` is refused with the nearest cases."""
    rs = get_ruleset(name)
    numbers = sorted(cases.cited(rs), key=cases.sort_key)
    script = tmp_path / "rule.txt"
    script.write_text("".join(f"/rule case:{n}\n" for n in numbers) + "!expect-error /rule case:zz.99\n")
    out = io.StringIO()
    rc = await run_local(name, "1", str(script), None, stream=out, images=False)
    text = out.getvalue()
    assert rc == 0, text[-2000:]
    book = cases.book(rs)
    for n in numbers:
        assert f"**{book[n].label}**" in text, n
    assert "No case `zz.99`" in text
