"""The end of a game told (issue 20): each victory level of Field of Celebrant says which rule decided it
and what the score means (demoralization: the lower total wins), with no 'Turn 19 of 18'."""
import pytest

from engine.core import Game
from engine.rulesets import get_ruleset
from engine.rulesets.celebrant import c19_demoralization

RS = get_ruleset("celebrant")
WHY = "The eighteen Game-Turns are over (12.0)."


def graded(dem: dict[str, int]) -> dict:
    g = Game.new(RS, {}, seed="end")
    g.state["dem"].update(dem)
    return c19_demoralization._grade(RS, g.state, WHY, "12.0")


def level(army: str) -> int:
    return RS.hooks.dem_level(RS, Game.new(RS, {}, seed="end").state, army)


def over(army: str) -> int:
    return level(army) + 1


@pytest.mark.parametrize("dem,winner,sec,words", [
    ({"orcs": "over", "balchoth": "over"}, "westernesse", "20.1",
     "Westernesse wins a Decisive Victory (20.1): both Shadow armies demoralized, none of its own."),
    ({"gondor": "over", "eotheod": "over"}, "shadow", "20.1",
     "Shadow wins a Decisive Victory (20.1): both Westernesse armies demoralized, none of its own."),
    ({"orcs": "over", "balchoth": "over", "gondor": "over"}, "westernesse", "20.2",
     "Westernesse wins a Tactical Victory (20.2): both Shadow armies demoralized, one of its own."),
    ({"gondor": 10, "eotheod": 12, "orcs": 3, "balchoth": 4}, "shadow", "20.3",
     "Shadow wins a Marginal Victory (20.3): no army demoralized on each side, and demoralization 7 against 22: "
     "the lower wins."),
    ({"gondor": "over", "orcs": "over", "eotheod": 1, "balchoth": 0}, None, None, "demoralized on each side"),
    ({"gondor": 5, "eotheod": 5, "orcs": 5, "balchoth": 5}, None, "20.4",
     "The battle is a draw (20.4): demoralization points Westernesse 10, Shadow 10: the lower total is the better."),
])
def test_20_each_victory_level_says_its_rule_and_what_the_score_means(dem, winner, sec, words):
    v = graded({a: over(a) if p == "over" else p for a, p in dem.items()})
    assert words in v["summary"]
    assert v["summary"].startswith(WHY)
    if sec:
        assert v["section"] == sec and v["winner"] == winner


def test_20_3_marginal_victory_goes_to_the_lower_total_not_the_higher():
    low_west = graded({"gondor": 2, "eotheod": 2, "orcs": 10, "balchoth": 10})
    assert low_west["winner"] == "westernesse" and "demoralization 4 against 20: the lower wins" in low_west["summary"]
