"""Issue 39 at `/game new` (the path Discord's `/game new options:` and the console share): every game's
own options (deadline, policy, remind, checkin, min_ontime, autopilot, takeover, mode, whispers) are read
by the one typed reader, beside the ruleset's. Good values take effect on the stored game; bad ones get a
short private refusal naming the ruleset and the option, and no game is made. The reported cases each
have a test here."""
from __future__ import annotations

import json

import pytest

from bot.results import rated_asked

from bot.lobby import GAME_OPTIONS
from bot.seats import SeatRules
from bot.service import Ctx, GameService
from bot.storage import Store
from bot import deadlines as dl

RED = 11
_ids = iter(range(1, 10**9))


def ctx(channel=9):
    return Ctx(channel_id=channel, user_id=RED, guild_id=1, interaction_id=f"o{next(_ids)}")


@pytest.fixture
async def svc(tmp_path):
    store = await Store.open(str(tmp_path / "options.db"))
    s = GameService(store, renderer=None, seed_source=lambda: "opt-seed")
    yield s
    await store.close()


async def refused(svc, ruleset, text):
    """The refusal's text, once it is known that it was private and that nothing was made."""
    out = await svc.lobby.new_game(ctx(), ruleset, text)
    assert not out.ok and out.ephemeral, out.reply.text
    assert await svc.store.live_game(9) is None
    text = out.reply.text
    assert "\n" not in text and len(text) < 2000 and "Traceback" not in text, text
    return text


def _rules(row):
    return json.loads(row.deadline_rules) if isinstance(row.deadline_rules, str) else row.deadline_rules


# option -> ([(good value, effect on the stored game)], [bad values])
GAME_TABLE = {
    "deadline": ([("36", lambda row: _rules(row)["hours"] == 36), ("0.5", lambda row: _rules(row)["hours"] == 0.5),
                  ("off", lambda row: _rules(row)["hours"] == 0)], ["-1", "nan", "1e3", "721", "²", "soon"]),
    "policy": ([("pass", lambda row: _rules(row)["policy"] == "pass")], ["explode"]),
    "remind": ([("12+2", lambda row: _rules(row)["reminders"] == [12, 2]),
                ("off", lambda row: _rules(row)["reminders"] == [])], ["12/2", "1+2+3+4+5+6", "x"]),
    "checkin": ([("0.25", lambda row: SeatRules.of(row).checkin == 0.25),
                 ("168", lambda row: SeatRules.of(row).checkin == 168),
                 ("off", lambda row: SeatRules.of(row).checkin == 0)], ["1e-9", "0.2", "0", "169", "nan", "abc"]),
    "min_ontime": ([("80%", lambda row: SeatRules.of(row).min_ontime == 80)], ["150", "-5", "most"]),
    "autopilot": ([("3", lambda row: SeatRules.of(row).autopilot == 3),
                   ("off", lambda row: SeatRules.of(row).autopilot == 0)], ["²", "0", "21", "-1", "1.5"]),
    "takeover": ([("vote", lambda row: SeatRules.of(row).takeover == "vote")], ["maybe"]),
    # issue 41: the game counts for `/ratings`
    "rated": ([("on", lambda row: rated_asked(row.options)), ("off", lambda row: not rated_asked(row.options))],
              ["maybe", "2"]),
    "mode": ([("assist", lambda row: row.ruleset == "gondor@assist"),
              ("tabletop", lambda row: row.ruleset == "gondor@tabletop")], ["chaos"]),
    "whispers": ([("off", lambda row: row.ruleset == "gondor@enforced")], ["sometimes"]),
}


def test_the_table_covers_every_game_option():
    assert {o.name for o in GAME_OPTIONS} == set(GAME_TABLE)
    # the keys the service keeps from the ruleset: the deadline and seat options, named in one tuple
    assert set(dl.GAME_OPTION_KEYS) == {o.name for o in GAME_OPTIONS} - {"mode", "whispers"}


@pytest.mark.parametrize("opt", sorted(GAME_TABLE))
async def test_every_game_option_good_values_take_effect_bad_ones_are_refused(svc, opt):
    """Issue 39: each game option, on a real ruleset: accepted and in effect, or refused naming
    `gondor` and the option with what it takes."""
    good, bad = GAME_TABLE[opt]
    for i, (value, effect) in enumerate(good):
        out = await svc.lobby.new_game(ctx(100 + i), "gondor", f"{opt}={value}")
        assert out.ok, out.reply.text
        assert effect(await svc.store.live_game(100 + i)), (opt, value)
    for value in bad:
        text = await refused(svc, "gondor", f"{opt}={value}")
        assert f"gondor: `{opt}` takes " in text and "invalid literal" not in text, text


async def test_autopilot_superscript_two_gets_the_option_s_own_answer(svc):
    """Issue 39 (reported): `autopilot=²` answered with Python's `int()` message."""
    text = await refused(svc, "gondor", "autopilot=²")
    assert text == "Bad options: gondor: `autopilot` takes a whole number from 1 to 20 (missed deadlines in a row), or off, not `²`"


async def test_checkin_of_a_nanosecond_is_refused(svc):
    """Issue 39 (reported): `checkin=1e-9` was accepted and reopened both seats at once."""
    text = await refused(svc, "gondor", "checkin=1e-9")
    assert "`checkin` takes a number of hours from 0.25 to 168, or off, not `1e-9`" in text


async def test_sauron_expanded_siege_maybe_is_refused(svc):
    """Issue 39 (reported): `siege=maybe` was accepted (and meant off)."""
    text = await refused(svc, "sauron-expanded", "siege=maybe")
    assert text == "Bad options: sauron-expanded: `siege` takes on|off, not `maybe`"


async def test_sauron_expanded_unknown_option_names_itself_and_its_own_options(svc):
    """Issue 39 (reported): the refusal named `sauron` and listed Sauron's options, not the expanded game's."""
    text = await refused(svc, "sauron-expanded", "foo=bar")
    assert text.startswith("Bad options: sauron-expanded has no option `foo`; its options are: "), text
    for usage in ("siege=on|off", "lost=<combat unit ids joined by +>", "dead=<leader ids joined by +>",
                  "narsil=whole|shards|gone", "victory=decisive|points", "variant=on|off"):
        assert usage in text, (usage, text)
    assert "every game's: deadline=" in text and "autopilot=<1-20>|off" in text


async def test_dead_with_a_comma_is_refused_with_the_plus_form_and_plus_works(svc):
    """Issue 39 (reported): `dead=ELE,ISI` was split at the comma; `+` is the one documented separator."""
    text = await refused(svc, "sauron-expanded", "dead=ELE,ISI")
    assert "`dead=ELE+ISI`" in text and "not a comma" in text
    assert (await svc.lobby.new_game(ctx(), "sauron-expanded", "dead=ELE+ISI")).ok
    st = (await svc.table.load(await svc.store.live_game(9))).state
    assert st["options"]["dead"] == ["ELE", "ISI"]


async def test_a_repeated_key_is_refused(svc):
    """Issue 39 (reported): a repeated key silently took the last value."""
    text = await refused(svc, "sauron-expanded", "siege=on siege=off")
    assert "`siege` is given twice (`on`, then `off`); give it once" in text
    assert "given twice" in await refused(svc, "gondor", "deadline=24 Deadline=48")


async def test_mode_named_twice_must_agree(svc):
    """Issue 39 (reported): `--mode` (the name `gondor@assist`) and `mode=` disagreed silently."""
    text = await refused(svc, "gondor@assist", "mode=tabletop")
    assert "gondor: the level of play is given twice" in text and "`mode=tabletop`" in text
    assert (await svc.lobby.new_game(ctx(), "gondor@assist", "mode=assist")).ok  # agreeing: one game of assist
    assert (await svc.store.live_game(9)).ruleset == "gondor@assist"
