"""Issue 39: options read by one typed reader (engine/options.py), declared per ruleset as data.

For every built-in ruleset, a table over every option it declares: good values are accepted and take
effect in the new game's state; bad values are refused with one short line that names the ruleset and
the option (and says what it takes). The table must cover each declared option, so an option added
without a line here fails. Then the reader itself: the text's pairs, a key twice, a comma in a value,
digits that are not ASCII, numbers in exponent form."""
from __future__ import annotations

import pytest

from engine.core import Game, InvalidOrder
from engine.options import OptionError, pairs
from engine.rulesets import get_ruleset

CHART = '[cpt]\nD = ["2-12", "2-12", "2-12", "2-12"]\n'  # a group's valid chart file (the printed CPT)


def _status(st, uid):
    return st["units"][uid]["status"]


def _placed(st):
    """Every counter set up at the start: none waits in a pool to be deployed."""
    return not any(u.get("status") == "pool" for u in st["units"].values())


# ruleset -> option -> ([(good value, effect on the new state)], [bad values])
TABLE = {
    "gondor": {
        "rally.": ([("7", lambda st: st["options"]["rally"] == {"GAN": 7})], ["0", "14", "²", "seven"]),
        "setup": ([("printed", _placed)], ["sideways", "yes"]),
        "charts": ([(CHART, lambda st: st["options"]["charts"] == CHART)], ["[cpt]\nA = 1\n", "x = ["]),
    },
    "celebrant": {
        "swap.gondor": ([("on", lambda st: _status(st, "GB4") == "out" and _status(st, "GS9") != "out"),
                         ("off", lambda st: _status(st, "GB4") != "out" and _status(st, "GS9") == "out")],
                        ["maybe", "2"]),
        "swap.eotheod": ([("yes", lambda st: _status(st, "EA3") == "out" and _status(st, "ER10") != "out")], ["maybe"]),
        "swap.orcs": ([("2", lambda st: _status(st, "OI20") != "out" and _status(st, "OA7") == "out"
                        and _status(st, "OI21") == "out")], ["5", "-1", "²", "two"]),
        "swap.balchoth": ([("on", lambda st: _status(st, "BL4") == "out" and _status(st, "BI6") != "out")], ["sure"]),
        "balance": ([("shadow", lambda st: _status(st, "BI6") != "out" and _status(st, "OI22") != "out")],
                    ["gondor", "both"]),
        "setup": ([("printed", _placed)], ["sideways"]),
        "charts": ([(CHART, lambda st: st["options"]["charts"] == CHART)], ["x = ["]),
    },
    "sauron": {
        "variant": ([("off", lambda st: st["options"]["variant"] is False and st["options"]["errata"] == "1978"),
                     ("on", lambda st: st["options"]["variant"] is True and st["options"]["errata"] == "none")],
                    ["maybe", "heli"]),
        "errata": ([("1978", lambda st: st["options"]["errata"] == "1978"),
                    ("none", lambda st: st["options"]["errata"] == "none")], ["1979", "yes"]),
        "extra": ([("all", lambda st: _status(st, "MX1") != "out" and _status(st, "EX5") != "out"),
                   ("MX1+EX2", lambda st: _status(st, "MX1") != "out" and _status(st, "EX2") != "out"
                    and _status(st, "EX1") == "out"),
                   ("2", lambda st: st["options"]["extra"] == ["MX1", "EX1"])],
                  ["7", "²", "MX1,EX2", "OI1"]),
        "charts": ([], ["x = ["]),  # (a good one: test_sauron_charts_option_is_its_own)
    },
    "risk-minas-tirith": {
        "mt_cards": ([("theoden+mordor*2+ladders", lambda st: sorted(st["mt_defs"]) == ["ladders", "mordor1", "mordor2",
                                                                                       "theoden"]),
                      ("leaders-only", lambda st: len(st["mt_defs"]) == 9)],
                     ["theoden,mordor", "nosuchcard", "mordor*9", "mordor*²", "gandalf*2"]),
    },
    "wotr": {
        "players": ([("4", lambda st: st["players"] == 4), ("5", lambda st: st["players"] == 5)], ["3", "²"]),
        "scenario": ([("all-out-war", lambda st: st["scenario"] == "all-out-war")], ["peace"]),
        "magic": ([("historical", lambda st: st["magic"] == "historical")], ["none"]),
        "turns": ([("5", lambda st: st["last_turn"] == 5), ("60", lambda st: st["last_turn"] == 60)],
                  ["0", "61", "²", "1e1"]),
        "seizure": ([("public", lambda st: st["seizure_public"] is True),
                     ("secret", lambda st: st["seizure_public"] is False)], ["loud"]),
        "charts": ([], ["x = ["]),  # (a group's whole file: tests/rulesets/wotr/test_wotr_map_file.py)
    },
}
TABLE["sauron-expanded"] = {
    **TABLE["sauron"],
    "lost": ([("OI1+NC1", lambda st: st["options"]["lost"] == ["NC1", "OI1"] and len(st["sau"]["carry"]) == 2)],
             ["OI1,NC1", "ELE", "NOPE"]),
    "dead": ([("ELE+ISI", lambda st: st["options"]["dead"] == ["ELE", "ISI"]),
              ("GOR", lambda st: st["sau"]["adj"]["GOR"] == {"as": "GOR"})], ["ELE,ISI", "OI1"]),
    "narsil": ([("gone", lambda st: st["sau"]["items"]["narsil"] is None),
                ("whole", lambda st: st["sau"]["items"]["narsil"] == "ELE")], ["broken"]),
    "ring": ([("ele", lambda st: st["sau"]["ring"]["holder"] == "ELE")], ["OI1", "nobody"]),
    "siege": ([("off", lambda st: st["options"]["siege"] is False),
               ("on", lambda st: st["options"]["siege"] is True)], ["maybe", "²"]),
    "victory": ([("points", lambda st: st["options"]["victory"] == "points")], ["total"]),
}
CASES = [(rs, opt, good, bad) for rs, opts in TABLE.items() for opt, (good, bad) in opts.items()]


def _key(opt: str) -> str:
    return opt + "GAN" if opt.endswith(".") else opt  # a family: one member (Gandalf's rally rating)


def test_the_table_covers_every_option_every_ruleset_declares():
    """Issue 39: each built-in ruleset declares its options, and each has its line here (issue 43: a game
    that declares none needs no line: the games are read from the registry)."""
    from engine.rulesets import BUILTIN

    assert set(TABLE) <= set(BUILTIN)
    for name in BUILTIN:
        declared = {o.name for o in get_ruleset(name).options}
        assert declared == set(TABLE.get(name, {})), name


@pytest.mark.parametrize("ruleset,opt,good,bad", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_good_values_take_effect_and_bad_ones_are_refused_naming_ruleset_and_option(ruleset, opt, good, bad):
    """Issue 39: a good value is accepted and changes the game as it says; a bad one is refused in one
    short line naming the ruleset (its own name, not its parent's) and the option."""
    rs = get_ruleset(ruleset)
    key = _key(opt)
    for value, effect in good:
        st = Game.new(rs, options={key: value}, seed="opt").state
        assert effect(st), (key, value)
    for value in bad:
        with pytest.raises(OptionError) as e:
            Game.new(rs, options={key: value}, seed="opt")
        text = str(e.value)
        assert text.startswith(f"{ruleset}: `{key.lower()}`"), text
        assert "\n" not in text and len(text) < 400 and "invalid literal" not in text, text


def test_sauron_charts_option_is_its_own():
    """Issue 39: `charts=` on both Sauron games: refused naming the game, accepted from the game's own file."""
    for name in ("sauron", "sauron-expanded"):
        rs = get_ruleset(name)
        own = rs.ruleset_charts_text
        st = Game.new(rs, options={"charts": own}, seed="opt").state
        assert st["options"]["charts"] == own
        with pytest.raises(OptionError, match=rf"^{name}: `charts` was refused"):
            Game.new(rs, options={"charts": '[lcrt]\n"0" = ["-/-"]\n'}, seed="opt")


@pytest.mark.parametrize("ruleset", sorted(TABLE))
def test_an_unknown_option_names_the_ruleset_and_lists_its_own_options(ruleset):
    """Issue 39: `sauron-expanded` used to answer as `sauron`, listing Sauron's options."""
    with pytest.raises(OptionError) as e:
        Game.new(get_ruleset(ruleset), options={"foo": "bar"}, seed="opt")
    text = str(e.value)
    assert text.startswith(f"{ruleset} has no option `foo`; its options are: "), text
    for opt in TABLE[ruleset]:
        assert opt in text, (opt, text)
    assert len(text) < 2000


def test_sauron_expanded_siege_maybe_is_refused_not_read_as_off():
    """Issue 39 (reported): `siege=maybe` was accepted and meant off."""
    with pytest.raises(OptionError, match=r"^sauron-expanded: `siege` takes on\|off, not `maybe`$"):
        Game.new(get_ruleset("sauron-expanded"), options={"siege": "maybe"}, seed="x")


def test_options_are_refused_as_invalid_orders():
    """The engine's callers catch InvalidOrder (and ValueError): an option's refusal is both."""
    assert issubclass(OptionError, InvalidOrder) and issubclass(OptionError, ValueError)


# ------------------------------------------------------------------ the text
def test_pairs_are_separated_by_spaces_or_a_comma_between_pairs():
    assert pairs("Siege=on  victory=points", "x") == {"siege": "on", "victory": "points"}
    assert pairs("siege=on,victory=points", "x") == {"siege": "on", "victory": "points"}
    assert pairs("dead=ELE+ISI", "x") == {"dead": "ELE+ISI"}
    assert pairs(None, "x") == {} and pairs("  ", "x") == {}


@pytest.mark.parametrize("text,says", [
    ("siege=on siege=off", "sauron-expanded: `siege` is given twice (`on`, then `off`); give it once"),
    ("SIEGE=on siege=on", "`siege` is given twice"),
    ("dead=ELE,ISI", "sauron-expanded: `dead=ELE,ISI`: join a list's items with `+`, not a comma: `dead=ELE+ISI`"),
    ("lost=OI1,NC1 siege=on", "`lost=OI1+NC1`"),
    ("siege", "sauron-expanded: option `siege` is not key=value"),
    ("siege=", "is not key=value"),
    ("x" * 501 + "=1", "too long"),
])
def test_the_text_refusals_name_the_ruleset(text, says):
    """Issue 39 (reported): a repeated key silently took the last; `dead=ELE,ISI` was split at the comma."""
    with pytest.raises(OptionError) as e:
        pairs(text, "sauron-expanded")
    assert says in str(e.value) and str(e.value).startswith("sauron-expanded"), str(e.value)
