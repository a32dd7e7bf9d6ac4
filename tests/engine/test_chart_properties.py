"""Properties of the Standard Rules charts and of combat resolution
(hypothesis): monotonic tables, exact odds, and /odds agreeing with the
dice the engine really rolls."""
import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.rulesets.gondor import GONDOR
from engine.spi.charts import LETTERS, MORALES, Charts, severity
from tests.spi_helpers import position
from engine.rulesets import get_ruleset
from engine.spi import c07_combat

CH = Charts.load()
FAST = settings(max_examples=30, deadline=None)
COMBAT = sorted(u for u, d in GONDOR.units.items() if d.is_combat)
letters = st.sampled_from(LETTERS)
armors = st.integers(1, 4)
morales = st.sampled_from(MORALES)


def p_hit(letter, armor):
    hits = CH.cpt_hits(letter, armor)
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b in hits), 36)


def expected_severity(letter, armor, morale):
    return p_hit(letter, armor) * Fraction(sum(severity(CH.crt_result(morale, r)) for r in range(1, 7)), 6)


@FAST
@given(letters, letters, armors)
def test_7_33_a_better_letter_never_lowers_the_chance_of_a_casualty(a, b, armor):
    better, worse = sorted((a, b))  # "A" < "E": A is the better letter
    assert CH.cpt_hits(worse, armor) <= CH.cpt_hits(better, armor)
    assert p_hit(better, armor) >= p_hit(worse, armor)


@FAST
@given(letters, armors, armors, morales)
def test_better_armor_never_worsens_the_defender(letter, a1, a2, morale):
    lo, hi = sorted((a1, a2))
    assert p_hit(letter, hi) <= p_hit(letter, lo)
    assert expected_severity(letter, hi, morale) <= expected_severity(letter, lo, morale)


@FAST
@given(letters, armors, morales, morales, st.integers(1, 6))
def test_7_42_better_morale_never_worsens_the_defender(letter, armor, m1, m2, roll):
    better, worse = sorted((m1, m2))  # "W" < "Z": W is the better Morale
    assert severity(CH.crt_result(better, roll)) <= severity(CH.crt_result(worse, roll))
    assert expected_severity(letter, armor, better) <= expected_severity(letter, armor, worse)


@FAST
@given(morales, st.integers(1, 5))
def test_7_42_a_higher_roll_never_worsens_the_defender(morale, roll):
    assert severity(CH.crt_result(morale, roll + 1)) <= severity(CH.crt_result(morale, roll))


def duel_state(att, dfn, turn, disrupted, fanatic_mode):
    g = position({att: "1516", dfn: "1517"}, step="G" if GONDOR.units[att].side == "westernesse" else "D",
                 turn=turn)
    g.state["units"][dfn]["disrupted"] = disrupted
    if fanatic_mode == "modifiers":
        from engine.core import Game
        g.state["options"] = Game.new(get_ruleset("gondor"), options={"charts": '[fanatic]\nmode = "modifiers"\n'}).state["options"]
    return g


pairs = st.tuples(st.sampled_from(COMBAT), st.sampled_from(COMBAT)).filter(
    lambda p: GONDOR.units[p[0]].side != GONDOR.units[p[1]].side)


@FAST
@given(pairs, st.sampled_from([3, 7]), st.booleans(), st.sampled_from(["bypass_cpt", "modifiers"]),
       st.sampled_from(["melee", "fire"]))
def test_odds_sum_to_exactly_one(pair, turn, disrupted, mode, kind):
    att, dfn = pair
    g = duel_state(att, dfn, turn, disrupted, mode)
    dist, prof = c07_combat.outcome_distribution(GONDOR, g.state, att, dfn, kind)
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    assert sum(dist.values()) == 1


def monte_carlo(att, dfn, turn, kind, trials, seed):
    g = duel_state(att, dfn, turn, False, "bypass_cpt")
    dice = Dice({"seed": seed, "counter": 0})
    counts = {}
    for _ in range(trials):
        _, res, _ = c07_combat._resolve_attack(GONDOR, g.state, dice, att, dfn, kind)
        counts[res] = counts.get(res, 0) + 1
    return c07_combat.outcome_distribution(GONDOR, g.state, att, dfn, kind)[0], counts


def check_close(dist, counts, n):
    assert set(counts) <= set(dist)
    for res, p in dist.items():
        sigma = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(counts.get(res, 0) / n - float(p)) <= 3 * sigma + 1e-3, (res, counts.get(res, 0), p)


def test_outcome_distribution_matches_the_real_dice_by_day():
    dist, counts = monte_carlo("GS1", "OI1", 7, "melee", 3000, "mc-day")
    check_close(dist, counts, 3000)


def test_outcome_distribution_matches_the_real_dice_for_fire_and_fanatics():
    dist, counts = monte_carlo("GB1", "LO1", 7, "fire", 2000, "mc-fire")
    check_close(dist, counts, 2000)
    dist, counts = monte_carlo("OI1", "GS1", 3, "melee", 2000, "mc-night")  # no CPT at night
    assert dist[()] == Fraction(2, 6)  # only the CRT: X rolls 5 and 6
    check_close(dist, counts, 2000)
