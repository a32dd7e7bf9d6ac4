"""Every ruleset's autopilot (issue 28): the safe default a seat plays when nobody plays it
(``RulesetBase.autopilot_action``: None means `done`, which is then legal), and ``forced_action``.

- A whole game from ``Game.new`` with every seat on autopilot ends with a result, within a bound of
  actions, each action passing the ruleset's ``check``, the same for the same seed.
- Nothing secret leaks: two games that differ only in a hidden fact (Gondor's real cauldrons, 16.71;
  Field of Celebrant's chits, 14.3; War of the Ring's hidden Fellowship and Gondor's demand; Risk's deck
  order; the same through a level of play) read the same in public, word for word (the public view,
  every public event, every order's public text), up to the first reveal the rules make in public; a
  public text never carries the same event's private text; the autopilot never gives a secret (masked)
  order.
- Mixed: one seat on autopilot against a random-legal opponent, for a few seeds, to a result.
- The policies' choices: the 7.31 attack that risks least, the printed set-up (13.0), Risk's plain
  exchange, War of the Ring's `draw none`; ``forced_action`` only when exactly one action is legal."""
from __future__ import annotations

import itertools

import pytest

from engine.core import Action, Game, RulesetBase, state_digest
from engine.modes import split_name
from engine.rulesets import BUILTIN, get_ruleset
from engine.spi.standard import StandardRules
from tests.autopilot_helpers import BOUND, checked_autopilot, play, playing, random_opponent
from tests.spi_helpers import position
from engine.spi import c07_combat

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

# every ruleset, read from the registry (issue 43: a new game is played here with no line edited), and the
# levels of play over a few of them (enforced and assist delegate to the game)
LEVELS = ["gondor@enforced", "sauron@assist", "celebrant@assist", "risk-minas-tirith@assist", "wotr@enforced"]
WHOLE = sorted(BUILTIN) + LEVELS


@pytest.mark.parametrize("name", WHOLE)
def test_every_seat_on_autopilot_plays_a_whole_game_to_a_result(name):
    g, log, _, _ = play(name, "ap-1")
    assert g.result() is not None, (name, len(log), g.view(None).get("phase"))
    assert 0 < len(log) < BOUND
    g2, log2, _, _ = play(name, "ap-1")  # deterministic for a seed
    assert log2 == log and state_digest(g2.state) == state_digest(g.state)
    g3, log3, _, _ = play(name, "ap-2")  # and another seed ends too
    assert g3.result() is not None


@pytest.mark.parametrize("name,options", [
    ("wotr", {"players": "4"}), ("sauron", {"variant": "off", "extra": "all"}),
    ("gondor", {"setup": "printed"}), ("celebrant", {"setup": "printed"})])
def test_every_seat_on_autopilot_with_the_games_options(name, options):
    """War of the Ring's four-player game (no Rohan seat); Sauron without the variant and with every
    extra reinforcement (14.3); Gondor and Field of Celebrant with `setup=printed`."""
    g, log, _, _ = play(name, "ap-1", options=options)
    assert g.result() is not None and len(log) < BOUND


def test_the_moderators_seat_is_never_on_autopilot():
    """A plain game's lobby moderator (engine/modes/gm.py) and a moded game's `gm` give no order; the
    other seats get their ruleset's own policy through either wrapper."""
    from engine.modes.gm import with_gm_seat

    for rs in (with_gm_seat(get_ruleset("gondor")), get_ruleset("gondor@assist")):
        g = Game.new(rs, seed="s")
        seat = playing(rs, g.state)[0]
        assert rs.autopilot_action(g.state, "gm") is None
        assert rs.format(rs.autopilot_action(g.state, seat)) == "deploy printed"
        other = next(s for s in rs.seats if s not in (seat, "gm"))
        assert rs.autopilot_action(g.state, other) is None  # not its phase: nothing to do


def test_a_game_on_autopilot_replays_from_its_log():
    """The autopilot's orders are ordinary orders: the log replays to the same state."""
    g, log, _, _ = play("celebrant", "ap-3")
    again = Game.new(get_ruleset("celebrant"), seed="ap-3")
    for seat, text in log:
        again.play(seat, text)
    assert state_digest(again.state) == state_digest(g.state)


@pytest.mark.parametrize("name", ["gondor@tabletop", "risk-minas-tirith@tabletop"])
def test_at_tabletop_the_autopilot_passes_its_turn(name):
    """At tabletop the players run the sequence: the autopilot only passes (`done`, the table's), round
    after round, with nothing refused; the game's own state does not move."""
    g, log, _, mine = play(name, "ap-1", bound=30)
    assert set(mine) == {"done"} and len(log) == 30
    assert g.result() is None
    assert g.state["table"]["turns"]["round"] > 5
    assert get_ruleset(name).autopilot_action(g.state, "gm") is None


# ----------------------------------------------------------------------------- secrecy
# every game's twins as the game declares them (``RulesetBase.secret_twins``, issue 43), and the same
# through a level of play
TWINS = {name: get_ruleset(name).secret_twins for name in sorted(BUILTIN) if get_ruleset(name).secret_twins} | {
    "gondor@assist": ({"real_cauldrons": ["K1", "K3", "K5"]}, {"real_cauldrons": ["K2", "K4", "K6"]}),
    "wotr@enforced": ({"demand": False}, {"hexes": {"gandalf": "W2109"}, "demand": True}),
}


@pytest.mark.parametrize("name", sorted(TWINS))
def test_games_differing_only_in_a_secret_read_the_same_in_public(name):
    """Issue 43: every game with hidden information, from the twins it declares. The two public records are
    the same up to their first difference, which comes in an order whose events reveal a secret by the rules
    (``Event.reveals``: the record's ``REVEAL``), or never (Risk's decks differ in their last two cards)."""
    a_fix, b_fix = TWINS[name]
    ga, _, a, _ = play(name, "twin", fixture=a_fix)
    gb, _, b, _ = play(name, "twin", fixture=b_fix)
    n = min(len(a), len(b))
    first = next((i for i in range(n) if a[i] != b[i]), n)
    assert first > 100, (name, first)
    if first < n:  # the order it falls in: from the public view after the one before
        start = max((i for i in range(first) if a[i].startswith("{")), default=0)
        assert "REVEAL" in a[start:first + 1] or "REVEAL" in b[start:first + 1], (name, first, a[start:first + 1])
    rs = ga.ruleset
    assert any(rs.secret_text(ga.state, s) != rs.secret_text(gb.state, s) for s in rs.seats) \
        or first < n  # the twins did differ in secret


def test_risk_twins_read_the_same_until_the_secret_card_is_drawn():
    """Risk: hands are face up, only the decks' order is hidden. Two decks that differ only in their
    last two cards read the same in public until one of them is drawn (a public reveal)."""
    rs = get_ruleset("risk-minas-tirith")
    deck = list(rs.reinforcement_cards)
    _, _, a, _ = play("risk-minas-tirith", "twin", fixture={"reinf_deck": deck})
    _, _, b, _ = play("risk-minas-tirith", "twin", fixture={"reinf_deck": deck[:-2] + deck[-2:][::-1]})
    assert a != b  # the last draw did differ
    a, b = _cut_at_card(a, deck[-2:]), _cut_at_card(b, deck[-2:])
    assert a == b and len(a) > 100


def _cut_at_card(public: list[str], cards: list[str]) -> list[str]:
    for i, text in enumerate(public):
        if any(f"({c} " in text or f", {c} " in text for c in cards):
            return public[:i]
    return public


# ----------------------------------------------------------------------------- mixed games
MIXED = sorted(BUILTIN) + ["gondor@assist"]


@pytest.mark.parametrize("name", MIXED)
def test_one_seat_on_autopilot_against_a_random_opponent(name):
    rs = get_ruleset(name)
    seats = [s for s in rs.seats if s != "gm" and s not in rs.optional_seats]
    answered = []
    for seed in range(3):
        mine = {seats[seed % len(seats)]}
        g, log, _, acted = play(name, f"mixed-{seed}", autopilot=mine, opponent=random_opponent(seed), bound=6000,
                                record=False)
        assert g.result() is not None, (name, seed, len(log))
        answered += [t.split()[0] for t in acted if t not in ("done", "deploy printed", "draw none")]
        if seed == 0:  # the same seed, the same game
            _, log2, _, _ = play(name, "mixed-0", autopilot=mine, opponent=random_opponent(0), bound=6000, record=False)
            assert log2 == log
    if isinstance(get_ruleset(split_name(name)[0]), StandardRules):
        # the opponent's attacks made the autopilot answer what the rules force
        assert {"melee", "retreat"} & set(answered), answered


# ----------------------------------------------------------------------------- the policies' choices
def test_7_31_the_owed_attack_is_the_one_that_risks_least():
    """GS1 began the combat phase in the zones of control of two Sauron units: it must attack one (7.31).
    The deadline takes the first offered; the autopilot the one with the least chance of no result."""
    from fractions import Fraction

    g = position({"GS1": "1516", "OA1": "1517", "LO1": "1416"}, step="G", turn=7)
    rs = g.ruleset
    targets = rs.hooks._melee_targets(rs, g.state, "GS1")
    assert len(targets) == 2
    p_nothing = {t: c07_combat.outcome_distribution(rs, g.state, "GS1", t, "melee")[0].get((), Fraction(0)) for t in targets}
    assert len(set(p_nothing.values())) == 2, p_nothing  # the two attacks differ
    best = min(targets, key=lambda t: p_nothing[t])
    a = rs.autopilot_action(g.state, "westernesse")
    assert rs.format(a) == f"melee GS1 at {g.state['units'][best]['hex']}"
    first = rs.deadline_action(g.state, "westernesse")
    assert rs.format(first) != rs.format(a)  # not merely the first offered
    g.play("westernesse", rs.format(a))
    while rs.autopilot_action(g.state, g.active_seats()[0]) is not None:  # a retreat to answer, if any
        seat = g.active_seats()[0]
        g.play(seat, rs.format(rs.autopilot_action(g.state, seat)))
    assert rs.autopilot_action(g.state, "westernesse") is None  # nothing more owed: done is legal
    g.play("westernesse", "done")


def test_7_5_a_retreat_owed_goes_to_the_first_hex_offered():
    from tests.spi_helpers import fixed_dice

    g = position({"GS1": "1516", "OI1": "1517"}, step="G", turn=7)
    fixed_dice(g, [1, 1, 3])  # a casualty and a retreat of two (tests/bot/test_deadline_actions.py)
    g.play("westernesse", "melee GS1 at 1517")
    rs = g.ruleset
    offered = [a for a in rs.legal_actions(g.state, "sauron")]
    assert len(offered) > 1 and {a.verb for a in offered} == {"retreat"}
    assert rs.autopilot_action(g.state, "sauron") == offered[0]
    assert rs.autopilot_action(g.state, "westernesse") is None  # not the attacker's to answer
    assert rs.forced_action(g.state, "sauron") is None  # more than one hex: nothing forced


def test_13_0_the_set_up_is_the_printed_one():
    rs = get_ruleset("gondor")
    g = Game.new(rs, seed="s")
    seat = g.active_seats()[0]
    assert rs.format(rs.autopilot_action(g.state, seat)) == "deploy printed"
    g.play(seat, "deploy printed")
    assert rs.autopilot_action(g.state, seat) is None  # all placed: done is legal


def test_gondor_autopilot_never_pours_oil_even_where_it_may():
    """16.74: `pour` is a secret standing order; the autopilot gives none, in a whole game."""
    _, log, _, mine = play("gondor", "oil")
    assert mine and not any(t.startswith("pour") for t in mine)


def test_risk_takes_a_die_and_exchanges_plainly_when_the_hand_is_full():
    _, _, _, mine = play("risk-minas-tirith", "ap-1")
    assert any(t.startswith("take ") for t in mine)
    exchanges = [t for t in mine if t.startswith("exchange")]
    assert exchanges and not any("special" in t for t in exchanges)


def test_wotr_events_phase_draws_no_card():
    rs = get_ruleset("wotr")
    g = Game.new(rs, seed="s")
    for _ in range(200):
        seat = g.active_seats()[0]
        if g.view(None).get("phase") == "events" or g.state["phase"] == "events":
            assert rs.format(rs.autopilot_action(g.state, seat)) == "draw none"
            assert rs.public_order_text("draw none") == rs.public_order_text("draw 075")  # tells nothing
            return
        g.play(seat, checked_autopilot(rs, g.state, seat))
    raise AssertionError("no Events phase met")


# ----------------------------------------------------------------------------- forced_action
class Listed(RulesetBase):
    def __init__(self, actions):
        self.actions = actions

    def legal_actions(self, state, seat):
        return iter(self.actions)


def test_forced_action_only_when_exactly_one_action_is_legal():
    one = Action("retreat", ("GS1", "1615"))
    assert Listed([]).forced_action({}, "x") is None
    assert Listed([one]).forced_action({}, "x") == one
    assert Listed([one, Action("retreat", ("GS1", "1616"))]).forced_action({}, "x") is None

    class Endless(RulesetBase):  # it reads two actions at most
        def legal_actions(self, state, seat):
            return (Action("roll", (str(n),)) for n in itertools.count())

    assert Endless().forced_action({}, "x") is None


def test_forced_action_on_risk_the_last_action_die():
    """1. Select an Action die: with one die left (and one battalion type each, so no standing loss
    order is offered), `take` it is the only legal action; with two or three, nothing is forced."""
    from tests.risk_helpers import empty_game, put

    g = empty_game(seed="s")
    put(g, "fort-w", "good", infantry=6)
    put(g, "fort-e", "evil", infantry=6)
    rs = g.ruleset
    seen = {"one": 0, "many": 0}
    for _ in range(60):
        seat = playing(rs, g.state)[0]
        legal = list(itertools.islice(rs.legal_actions(g.state, seat), 3))
        forced = rs.forced_action(g.state, seat)
        if legal and legal[0].verb == "take":
            if len(legal) == 1:
                assert forced == legal[0]
                seen["one"] += 1
            else:
                assert forced is None
                seen["many"] += 1
        g.play(seat, checked_autopilot(rs, g.state, seat))
    assert seen["one"] and seen["many"]


def test_wotr_a_seizure_of_the_ring_is_rolled():
    """AA.2: Gondor plays Event 075 with Boromir in the Ringbearer's hex; the Fellowship on autopilot
    answers, though it is not among the seats to act, with `seizure roll` (issue 42: the game's dice
    decide; tests/rulesets/wotr/test_wotr_autopilot.py plays both outcomes)."""
    rs = get_ruleset("wotr")
    g = Game.new(rs, seed="s")
    while not (g.active_seats()[0] == "gondor" and g.state["phase"] == "events"):
        seat = g.active_seats()[0]
        g.play(seat, checked_autopilot(rs, g.state, seat))
    g.play("gondor", "draw 075")
    g.play("gondor", "event 075")
    assert "fellowship" not in g.active_seats()
    a = rs.autopilot_action(g.state, "fellowship")
    assert rs.format(a) == "seizure roll"
    _, events = g.play("fellowship", rs.format(a))
    assert "The seizure is rolled" in events[0].public and events[0].rolls
    assert rs.autopilot_action(g.state, "fellowship") is None


# ----------------------------------------------------------------------------- issue 42: nothing given away
@pytest.mark.parametrize("name,seat", [("sauron", "sauron"), ("sauron", "westernesse"), ("wotr", "fellowship")])
def test_issue42_a_farming_opponent_gains_nothing_in_whole_games(name, seat):
    """Issue 42: a whole game against a random opponent that challenges to Mortal Combat (22.0) and plays
    Event 075 (AA.2) whenever it may. Sauron: the autopilot answers every challenge, never declines them
    all, and what its declines cost (22.3) stays within the expected cost of a fight it declined (an
    opponent repeating challenges takes no more than one fight would cost); War of the Ring: the seizure
    is rolled with the game's dice. benchmarks/bench_autopilot.py prints the same figures for every
    ruleset."""
    from collections import Counter

    from tests.autopilot_helpers import farmed_game

    tally, verbs = Counter(), Counter()
    g, _ = farmed_game(name, 0, seat, tally, verbs)
    assert g.result() is not None
    if name == "sauron":
        assert tally["challenges"] and tally["accepted"], tally
        assert tally["decline-paid"] <= tally["decline-bound"], tally
        assert tally["decline-paid"] < tally["always-decline"], tally
    else:
        assert tally["seizures"] == 1 and verbs["seizure"] == 1, (tally, verbs)


# Issue 42: the decisions an opponent's order puts to a seat, and why repeating it against an absent seat gains
# nothing. A contest whose answer costs the answering side, and may be asked again and again (22.3's challenge,
# AA.2's seizure), must be answered by a weighing or a die (``Decision.autopilot``); the others are a result
# already applied that leaves the seat a choice of how to carry it out (a retreat's hex, an advance, a card kept),
# which costs nothing more for being asked again.
NO_GROWING_COST = {"retreat", "advance", "keep", "entry", "entry-before-done"}


@pytest.mark.parametrize("name", sorted(__import__("engine.rulesets", fromlist=["BUILTIN"]).BUILTIN))
def test_no_decision_lets_an_opponent_farm_an_absent_seat(name):
    rs = get_ruleset(name)
    for kind, d in (getattr(rs, "decisions", None) or {}).items():
        assert d.autopilot is not None or kind in NO_GROWING_COST, (
            f"{name}: the decision `{kind}` ({d.section}) has no autopilot weighing: an opponent could ask it of an "
            "absent seat again and again; give it Decision.autopilot (engine/pending.py) or say why it costs nothing")
