"""Issue 39 over the fake Discord, through the real discord.py client: `/game new options:` with a bad
option (the reported cases) is answered privately, in one line naming the ruleset and the option, and
makes nothing (no game, no public post); a good one makes the game."""
from tests.e2e.test_e2e_discord import World
from tests.e2e.test_pbp_e2e import public

CASES = [
    ("sauron-expanded", "siege=maybe", "sauron-expanded: `siege` takes on|off, not `maybe`"),
    ("sauron-expanded", "foo=bar", "sauron-expanded has no option `foo`; its options are: "),
    ("sauron-expanded", "dead=ELE,ISI", "join a list's items with `+`, not a comma: `dead=ELE+ISI`"),
    ("sauron-expanded", "siege=on siege=off", "`siege` is given twice"),
    ("gondor", "autopilot=²", "gondor: `autopilot` takes a whole number from 1 to 20"),
    ("gondor", "checkin=1e-9", "gondor: `checkin` takes a number of hours from 0.25 to 168"),
]


async def test_bad_options_are_refused_privately_and_change_nothing(tmp_path):
    """Issue 39: the Discord refusal is private (ephemeral), names the ruleset and the option, and within
    Discord's 2,000 characters; no game is created and nothing is posted in the channel."""
    async with World() as w:
        await w.start_bot(tmp_path / "o.db")
        for ruleset, options, says in CASES:
            r = await w.cmd(w.alice, "game", "new", ruleset=ruleset, options=options)
            assert r.ephemeral and r.content.startswith("Bad options: ") and says in r.content, r.content
            assert "\n" not in r.content and len(r.content) <= 2000
            assert await w.store.latest_game(w.cid) is None
        assert public(w) == []
        r = await w.cmd(w.alice, "game", "new", ruleset="sauron-expanded", options="dead=ELE+ISI siege=off")
        assert not r.ephemeral and "New game" in r.content, r.content
        row = await w.store.live_game(w.cid)
        assert row is not None and row.options == {"dead": "ELE+ISI", "siege": "off"}
        w.server.assert_clean()
