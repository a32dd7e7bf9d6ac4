"""Issue 42: `/rule case:` reads an index of rule cases built from the code's own registry (engine/cases.py):
every case the engine cites is found by its number and has this project's own summary, for every ruleset;
words find cases; an unknown case names the nearest; reconstructed chart values and the game's options
are shown."""
import random

import pytest

from engine import cases
from engine.core import Game, OrderError, iter_limit
from engine.rulesets import BUILTIN, get_ruleset

RULESETS = sorted(BUILTIN)  # the games the project ships (a test may register its own: not here)


@pytest.mark.parametrize("name", RULESETS)
def test_every_case_the_engine_cites_has_a_summary_and_is_found_by_its_number(name):
    """Issue 42: every section the engine cites for a ruleset (refusals, events, order records, data files)
    is found by its number, with a title and a summary of our own (a data file beside the ruleset)."""
    rs = get_ruleset(name)
    cited = cases.cited(rs)
    assert len(cited) >= 10, sorted(cited)
    book = cases.book(rs)
    missing = sorted(n for n in cited if n not in book or not book[n].summary.strip() or not book[n].title.strip())
    assert not missing, f"{name}: cases cited by the engine with no summary: {missing}"
    ix = cases.index(rs)
    for n in cited:
        c = ix.get(n)
        assert c is not None and c.number == n, n
        found, lines = cases.answer(rs, n)
        assert found and book[n].summary in "\n".join(t for _, t in lines)


def test_the_registry_reads_every_way_the_code_cites_a_case():
    """Issue 42: the registry is the code: an event's section (Gondor 16.71 at set-up), an IllegalOrder's
    literal (16.23), an order record's named case (Risk's `Ground Attack`), a helper's section argument
    (War of the Ring's `refuse(..., S_SEQ)`), a section in a data file (a unit's 13.1) and a case number in a
    message's named constant; a game's module of another ruleset (Sauron's expanded game) stays out."""
    gondor, risk, wotr = (cases.cited(get_ruleset(n)) for n in ("gondor", "risk-minas-tirith", "wotr"))
    assert {"16.71", "16.23", "13.1", "7.31", "4.27"} <= gondor
    assert {"Ground Attack", "Walls and Territory of Minas Tirith", "Retreat"} <= risk
    assert {"Sequence of Play", "Restrictions on Alliances", "AA.2", "EE"} <= wotr
    assert "16.632" in cases.cited(get_ruleset("sauron-expanded"))
    assert "16.632" not in cases.cited(get_ruleset("sauron"))


def _random_sections(name: str, steps: int, seed: int) -> dict[str, str]:
    """Sections a random game shows: every event's, and every refusal's of another seat's legal order."""
    rs = get_ruleset(name)
    rnd = random.Random(seed)
    g = Game.new(rs, {"setup": "printed"} if name in ("gondor", "celebrant") else {}, seed=str(seed))
    seen: dict[str, str] = {}
    for _ in range(steps):
        seats = g.active_seats()
        if g.result() is not None or not seats:
            break
        seat = rnd.choice(seats)
        for other in rs.seats:
            for a in iter_limit(g.legal_actions(other), 4) if other != seat else ():
                try:
                    g.parse(seat, rs.format(a))
                except OrderError as e:
                    if e.section:
                        seen.setdefault(e.section, str(e))
        acts = iter_limit(g.legal_actions(seat), 200)
        if not acts:
            break
        for e in g.play(seat, rs.format(rnd.choice(acts)))[1]:
            if e.section:
                seen.setdefault(e.section, e.public[:80])
    return seen


@pytest.mark.parametrize("name", RULESETS)
def test_every_section_a_played_game_shows_is_found(name):
    """Issue 42: independent of how the registry reads the code, the sections a random game's events and
    refusals actually carry are all found by their number, with a summary."""
    seen = _random_sections(name, 80, 3)
    assert seen
    ix = cases.index(get_ruleset(name))
    missing = {s: why for s, why in seen.items() if ix.get(s) is None or not ix.get(s).summary}
    assert not missing, missing


@pytest.mark.parametrize("name", RULESETS)
def test_every_reconstructed_chart_table_is_shown_by_a_case(name):
    """Issue 42: each chart table marked `reconstructed = true` is named by a case of its ruleset (so its
    reason reaches `/rule`), and every table a case names exists."""
    rs = get_ruleset(name)
    book = cases.book(rs)
    named = {p for c in book.values() for p in c.charts}
    assert not [t for t in cases.reconstructed_tables(rs) if t not in named]
    data = cases.chart_data(rs)
    assert not [(c.number, p) for c in book.values() for p in c.charts if cases.table_at(data, p) is None]
    some = next(c for c in book.values() if any(t in c.charts for t in cases.reconstructed_tables(rs)))
    text = "\n".join(t for _, t in cases.explain(rs, some.number))
    assert "Reconstructed [" in text


@pytest.mark.parametrize("name", RULESETS)
def test_every_order_a_case_lists_has_its_notation_and_an_example(name):
    """Issue 42: the orders a case governs are shown with their notation and an example (the order record's,
    or the one the game's own `/help topic:orders` gives); an order typed as it reads (`claim`) is its own
    example. Risk's `retreat` is the one the game gives none for: its path is asked of the player when due."""
    rs = get_ruleset(name)
    for c in cases.book(rs).values():
        for o in cases.orders_for(rs, c.number):
            line = cases.order_example(rs, o)
            assert line.startswith("`") and o.verb in line, (c.number, o.verb, line)
            if (name, o.verb) != ("risk-minas-tirith", "retreat"):
                assert ", e.g. `" in line or "<" not in line, (c.number, o.verb, line)


def test_a_case_by_number_or_by_word():
    """Issue 42: `16.71`, `7` (for 7.0), `rule 16.6.` and words (`oil`, `fireball`) find their case in
    Gondor; the orders it governs come with it; War of the Ring and Risk are found by their headings."""
    gondor = get_ruleset("gondor")
    assert cases.lookup(gondor, "16.71")[0].title == "Cauldrons"
    assert cases.lookup(gondor, "7")[0].number == "7.0"
    assert cases.lookup(gondor, " rule 16.6. ")[0].number == "16.6"
    oil, more = cases.lookup(gondor, "oil")
    assert oil.number == "16.7" and {"16.74", "16.71"} <= {c.number for c in more}
    assert cases.lookup(gondor, "fireball")[0].number == "16.6"
    text = "\n".join(t for _, t in cases.explain(gondor, "16.74"))
    assert "`pour " in text and "e.g. `pour " in text
    assert cases.lookup(get_ruleset("wotr"), "aa.2")[0].number == "AA.2"
    assert cases.lookup(get_ruleset("risk-minas-tirith"), "ground attack")[0].number == "Ground Attack"


def test_an_unknown_case_names_the_nearest():
    """Issue 42: an unknown case answers clearly, with the nearest cases (by number, else by spelling)."""
    gondor = get_ruleset("gondor")
    found, lines = cases.answer(gondor, "16.79")
    assert not found and "No case `16.79`" in lines[0][1] and "16.75" in lines[0][1]
    found, lines = cases.answer(gondor, "firbal")
    assert not found and "16.6 Fireballs" in lines[0][1]


def test_autocomplete_offers_at_most_25_narrowing_as_typed():
    """Issue 42: autocomplete gives at most 25 (label, number) choices; `16.7` offers the oil's cases first."""
    ix = cases.index(get_ruleset("gondor"))
    assert len(ix.choices("")) == 25
    got = ix.choices("16.7")
    assert [v for _, v in got[:6]] == ["16.7", "16.71", "16.72", "16.73", "16.74", "16.75"]
    assert all(len(n) <= 100 for n, _ in ix.choices("a"))
    assert "16.6" in [v for _, v in ix.choices("fireball")]


def test_the_games_options_say_whether_they_change_a_case():
    """Issue 42: in a game, the options that change a case are shown with this game's value (Sauron's
    `variant=off`), a group's chart file that replaces a table the case reads is named, and a case no option
    changes says so."""
    sauron = get_ruleset("sauron")
    g = Game.new(sauron, {"variant": "off"}, seed="1")
    text = "\n".join(t for _, t in cases.explain(sauron, "22.3", g.state["options"], g.state))
    assert "`variant=off`" in text
    gondor = get_ruleset("gondor")
    crt = gondor.charts.raw["crt"]
    group = "[crt]\n" + "\n".join(f'{m} = {crt[m]!r}'.replace("'", '"') for m in "WXYZ") + "\n"
    g = Game.new(gondor, {"charts": group}, seed="1")
    text = "\n".join(t for _, t in cases.explain(gondor, "7.3", g.state["options"], g.state))
    assert "This game's own chart file replaces [crt]" in text
    text = "\n".join(t for _, t in cases.explain(gondor, "16.71", g.state["options"], g.state))
    assert "This game's options do not change it." in text
