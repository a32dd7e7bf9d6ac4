"""Tests for bot.dice (the /roll dice roller).

Expected totals are never copied from output: they are recomputed either from
the dice shown in the breakdown text or by replaying the seeded RNG (every die
is exactly one ``rng.randrange(sides)`` call, in evaluation order).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bot.dice import (
    MAX_OUTPUT_CHARS,
    DiceError,
    RollResult,
    roll,
)

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)


# --------------------------------------------------------------------------- helpers
def draws(seed: int, sides: int, n: int) -> list[int]:
    r = random.Random(seed)
    return [r.randrange(sides) + 1 for _ in range(n)]


class Replay:
    """Replays the dice a seeded roll will draw."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def d(self, sides: int, n: int = 1) -> list[int]:
        return [self.r.randrange(sides) + 1 for _ in range(n)]


def shown_dice(text: str) -> list[tuple[int, bool]]:
    """Parse one dice group's breakdown, e.g. ``4d6kh3 (2, 5, ~~**1**~~, 3)``,
    into (value, kept) pairs.  Handles ``6!`` (exploded) and ``1 -> 3`` (min/max)."""
    m = re.search(r"\((.*)\)", text)
    assert m, text
    out = []
    for tok in m.group(1).split(", "):
        if not tok:
            continue
        kept = "~~" not in tok
        clean = tok.replace("~~", "").replace("**", "").replace("!", "")
        value = int(clean.split(" -> ")[-1])
        out.append((value, kept))
    return out


def kept_values(text: str) -> list[int]:
    return [v for v, k in shown_dice(text) if k]


def one(expr: str, seed: int = 1234):
    res = roll(expr, rng=random.Random(seed))
    assert len(res.lines) == 1
    return res.lines[0]


SEEDS = range(25)


# --------------------------------------------------------------------------- determinism
def test_same_seed_same_result():
    exprs = "4d6kh3; 3d6e6; 8d6rr<3; 8d6ro<4; 2d20kl1+3 [atk]; (1d6,2d4)kh1"
    a = roll(exprs, reason="r", rng=random.Random(42))
    b = roll(exprs, reason="r", rng=random.Random(42))
    assert a.to_json() == b.to_json()
    assert a.render("Al") == b.render("Al")


def test_different_seeds_differ():
    results = {roll("10d20", rng=random.Random(s)).lines[0].text for s in range(10)}
    assert len(results) > 1


def test_default_rng_is_system_random_and_works():
    for _ in range(50):
        line = roll("1d20").lines[0]
        assert 1 <= line.total <= 20


def test_rng_draw_order_matches_replay():
    line = one("5d10", seed=7)
    assert [v for v, _ in shown_dice(line.text)] == draws(7, 10, 5)
    assert line.total == sum(draws(7, 10, 5))


# --------------------------------------------------------------------------- notation
@pytest.mark.parametrize("seed", SEEDS)
def test_ndm(seed):
    line = one("3d6", seed)
    vals = kept_values(line.text)
    assert len(vals) == 3 and all(1 <= v <= 6 for v in vals)
    assert line.total == sum(vals) == sum(draws(seed, 6, 3))


@pytest.mark.parametrize("seed", SEEDS)
def test_bare_d20(seed):
    line = one("d20", seed)
    assert line.total == draws(seed, 20, 1)[0]
    assert 1 <= line.total <= 20


@pytest.mark.parametrize("seed", SEEDS)
def test_keep_highest(seed):
    line = one("4d6kh3", seed)
    dice = shown_dice(line.text)
    values = [v for v, _ in dice]
    assert values == draws(seed, 6, 4)
    kept = [v for v, k in dice if k]
    assert len(kept) == 3
    assert sorted(kept) == sorted(values)[1:]
    assert line.total == sum(sorted(values)[1:])


@pytest.mark.parametrize("seed", SEEDS)
def test_keep_lowest(seed):
    line = one("2d20kl1", seed)
    values = [v for v, _ in shown_dice(line.text)]
    assert values == draws(seed, 20, 2)
    assert kept_values(line.text) == [min(values)]
    assert line.total == min(values)


@pytest.mark.parametrize("seed", SEEDS)
def test_drop_lowest(seed):
    line = one("4d6pl1", seed)
    values = draws(seed, 6, 4)
    assert len(kept_values(line.text)) == 3
    assert line.total == sum(values) - min(values)
    assert "~~" in line.text  # the dropped die is still shown, struck through


@pytest.mark.parametrize("seed", SEEDS)
def test_bare_selector_is_a_literal_value(seed):
    # d20 semantics: a selector without l/h/</> matches a face value, so
    # ``4d6p1`` drops every 1 and ``4d6k6`` keeps only the 6s.
    values = draws(seed, 6, 4)
    line = one("4d6p1", seed)
    assert kept_values(line.text) == [v for v in values if v != 1]
    assert line.total == sum(v for v in values if v != 1)
    assert one("4d6k6", seed).total == sum(v for v in values if v == 6)


@pytest.mark.parametrize("seed", SEEDS)
def test_drop_highest(seed):
    line = one("4d6ph1", seed)
    values = draws(seed, 6, 4)
    assert line.total == sum(values) - max(values)


def _explode_replay(seed: int, n: int, sides: int, on: int) -> list[int]:
    rp = Replay(seed)
    all_vals = rp.d(sides, n)
    pending = sum(1 for v in all_vals if v == on)
    while pending:
        new = rp.d(sides, pending)
        all_vals += new
        pending = sum(1 for v in new if v == on)
    return all_vals


def test_exploding():
    exploded_seen = False
    for seed in range(60):
        line = one("3d6e6", seed)
        expected = _explode_replay(seed, 3, 6, 6)
        assert [v for v, _ in shown_dice(line.text)] == expected
        assert line.total == sum(expected)
        if len(expected) > 3:
            exploded_seen = True
            assert "6!" in line.text
    assert exploded_seen


def test_exploding_single_letter_form():
    for seed in range(20):
        line = one("1d6e6", seed)
        assert line.total == sum(_explode_replay(seed, 1, 6, 6))


def test_reroll_once():
    rerolled = False
    for seed in range(60):
        line = one("1d6ro1", seed)
        rp = Replay(seed)
        first = rp.d(6)[0]
        expected = rp.d(6)[0] if first == 1 else first
        assert line.total == expected
        if first == 1:
            rerolled = True
            assert shown_dice(line.text)[0] == (1, False)  # old value struck
    assert rerolled


def test_reroll_until():
    rerolled = False
    for seed in range(60):
        line = one("1d4rr1", seed)
        rp = Replay(seed)
        v = rp.d(4)[0]
        n = 0
        while v == 1:
            v = rp.d(4)[0]
            n += 1
        assert line.total == v != 1
        assert sum(1 for _, k in shown_dice(line.text) if not k) == n
        rerolled |= n > 0
    assert rerolled


def test_reroll_and_add():
    for seed in range(40):
        line = one("2d6ra6", seed)
        rp = Replay(seed)
        vals = rp.d(6, 2)
        if 6 in vals:
            vals += rp.d(6)
        assert line.total == sum(vals)


@pytest.mark.parametrize("seed", SEEDS)
def test_min_max(seed):
    line = one("4d6mi2ma5", seed)
    expected = [min(5, max(2, v)) for v in draws(seed, 6, 4)]
    assert kept_values(line.text) == expected
    assert line.total == sum(expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_modifiers_and_arithmetic(seed):
    d = draws(seed, 6, 2)
    assert one("2d6+1", seed).total == sum(d) + 1
    assert one("1d20+5-2", seed).total == draws(seed, 20, 1)[0] + 3
    assert one("(2d6+1)*2", seed).total == (sum(d) + 1) * 2
    assert one("2d6//2", seed).total == sum(d) // 2
    assert one("-2d6", seed).total == -sum(d)
    assert one("7/2").total == 3  # floats truncate, as in d20


@pytest.mark.parametrize("seed", SEEDS)
def test_sets(seed):
    line = one("(1d6,2d4)kh1", seed)
    rp = Replay(seed)
    a = rp.d(6)[0]
    b = sum(rp.d(4, 2))
    assert line.total == max(a, b)
    assert one("(1,5,3)kh2").total == 8
    assert one("(1d20, 10)kl1", seed).total == min(draws(seed, 20, 1)[0], 10)


@pytest.mark.parametrize("seed", SEEDS)
def test_comparisons(seed):
    v = draws(seed, 20, 1)[0]
    assert one("1d20>=10", seed).total == int(v >= 10)
    assert one("1d20 < 5", seed).total == int(v < 5)
    assert one("1d20==20", seed).total == int(v == 20)


def test_annotations_and_labels():
    line = one("1d20+5 [to hit]", 3)
    assert line.total == draws(3, 20, 1)[0] + 5
    assert r"\[to hit\]" in line.text  # shown, markdown-escaped
    line = one("1d20+5 attack roll", 3)
    assert line.label == "attack roll"
    assert line.expression == "1d20+5"
    assert line.total == draws(3, 20, 1)[0] + 5


def test_percentile():
    line = one("1d%", 9)
    assert line.total % 10 == 0 and 0 <= line.total <= 90


def test_multiple_rolls_semicolon_and_comma():
    seed = 11
    res = roll("1d20+5 attack; 2d6+3 damage", rng=random.Random(seed))
    rp = Replay(seed)
    assert [l.label for l in res.lines] == ["attack", "damage"]
    assert [l.expression for l in res.lines] == ["1d20+5", "2d6+3"]
    assert res.lines[0].total == rp.d(20)[0] + 5
    assert res.lines[1].total == sum(rp.d(6, 2)) + 3

    res = roll("1d20, 1d8, (1,2,3)kh1", rng=random.Random(seed))
    rp = Replay(seed)
    assert [l.total for l in res.lines] == [rp.d(20)[0], rp.d(8)[0], 3]


def test_comma_inside_label_stays_in_label():
    res = roll("1d20+5 attack, then retreat", rng=random.Random(1))
    assert len(res.lines) == 1
    assert res.lines[0].label == "attack, then retreat"
    res = roll("1d20+5 to hit, 2d6 damage", rng=random.Random(1))
    assert [l.label for l in res.lines] == ["to hit", "damage"]


def test_repeat():
    seed = 5
    res = roll("3#1d20 init", rng=random.Random(seed))
    assert len(res.lines) == 3
    assert [l.total for l in res.lines] == draws(seed, 20, 3)
    assert all(l.expression == "1d20" and l.label == "init" for l in res.lines)
    res = roll("2#1d6; 1d4", rng=random.Random(seed))
    assert len(res.lines) == 3


def test_structured_dice_json():
    res = roll("4d6kh3", reason="stats", private=True, rng=random.Random(2))
    j = res.to_json()
    assert j["reason"] == "stats" and j["private"] is True
    group = j["lines"][0]["dice"][0]
    assert group["sides"] == 6 and group["count"] == 4
    values = [r["value"] for r in group["rolls"]]
    assert values == draws(2, 6, 4)
    assert sum(r["value"] for r in group["rolls"] if r["kept"]) == j["lines"][0]["total"]
    assert json.loads(json.dumps(j)) == j


# --------------------------------------------------------------------------- rendering
def test_render_single_line():
    res = roll("4d6kh3", reason="ability", rng=random.Random(1))
    text = res.render("Alice")
    assert text.startswith("**Alice** rolls 4d6kh3 (ability): 4d6kh3 (")
    assert text.endswith(f"= **{res.lines[0].total}**")
    assert "~~" in text  # dropped die visible


def test_render_multi_line():
    res = roll("1d20+5 attack; 2d6+3 damage", rng=random.Random(1))
    text = res.render("Bob")
    rows = text.split("\n")
    assert rows[0] == "**Bob** rolls:"
    assert len(rows) == 3
    for row, line in zip(rows[1:], res.lines):
        assert row.endswith(f"= **{line.total}**")
    assert roll("1d4").render().startswith("🎲 1d4: ")


def test_long_output_is_summarised():
    res = roll("5#100d1000 " + "x" * 150, reason="y" * 200, rng=random.Random(1))
    text = res.render("A" * 300)
    assert len(text) <= MAX_OUTPUT_CHARS
    assert "…" in text
    for line in res.lines:
        assert f"**{line.total}**" in text  # every total still shown
    assert text.count("~~") % 2 == 0 and text.count("**") % 2 == 0


def test_many_big_rolls_fit():
    res = roll("; ".join(["50d1000"] * 10), rng=random.Random(3))
    text = res.render("Zed")
    assert len(text) <= MAX_OUTPUT_CHARS
    for line in res.lines:
        assert f"**{line.total}**" in text


def test_huge_total_fits():
    big = "9" * 95
    res = roll(f"10#{big}*{big}", rng=random.Random(3))
    assert len(res.render("x")) <= MAX_OUTPUT_CHARS


# --------------------------------------------------------------------------- safety
MENTION = re.compile(r"@(everyone|here)|<@[!&]?\d+>")


def test_mentions_escaped_everywhere():
    evil = "@everyone @here <@123> <@!45> <@&678>"
    res = roll("1d20 [@everyone] + 1 hits @here <@123>", reason=evil, rng=random.Random(1))
    text = res.render("<@999> @everyone")
    assert not MENTION.search(text)
    assert "everyone" in text  # still readable, just defused


def test_markdown_in_reason_is_escaped():
    res = roll("1d6", reason="**bold** ~~strike~~ `code` ||spoiler|| [link](http://x) _i_\n# head",
               rng=random.Random(1))
    text = res.render("A")
    assert "\n" not in text
    assert r"\*\*bold\*\*" in text
    assert r"\~\~strike\~\~" in text
    assert r"\`code\`" in text and r"\|\|spoiler\|\|" in text
    assert r"\[link\]" in text
    # the markup we add ourselves is still balanced
    unescaped = re.sub(r"\\.", "", text)
    assert unescaped.count("**") % 2 == 0 and unescaped.count("~~") % 2 == 0


BAD_INPUTS = [
    "10000d10000",
    "101d6",
    "1d1001",
    "x" * 201,
    "; ".join(["1d20"] * 11),
    "11#1d20",
    "6#1d20; 5#1d20",
    "0#1d20",
    "3#",
    "1d1e1",
    "1d6e<7",
    "1d6rr<7",
    "100d2rr<3",
    "100d1e1",
    "1/0",
    "1d6 % 0",
    "1/(1-1)",
    "",
    "   ",
    ";;,",
    "drop table",
    "DROP TABLE users;--",
    "1d0",
    "1d6mih1",
    "6#100d6",
    "1d20+",
    "((((1d20",
    "1d20\n+\n",
]


@pytest.mark.parametrize("expr", BAD_INPUTS)
def test_bad_input_raises_short_dice_error(expr):
    with pytest.raises(DiceError) as ei:
        roll(expr, rng=random.Random(0))
    msg = str(ei.value)
    assert msg and len(msg) < 200
    assert not MENTION.search(msg)


def test_specific_messages():
    with pytest.raises(DiceError, match="too big"):
        roll("10000d10000")
    with pytest.raises(DiceError, match="divide by zero"):
        roll("1d6/0")
    with pytest.raises(DiceError, match="too long"):
        roll("1" * 201)
    with pytest.raises(DiceError, match="At most 10 rolls"):
        roll(",".join(["1d4"] * 11))
    with pytest.raises(DiceError, match="Too many dice"):
        roll("1d1e1")
    with pytest.raises(DiceError, match="limit is 500"):
        roll("5#100d6; 1d6")


def test_reason_limit():
    roll("1d6", reason="r" * 200)
    with pytest.raises(DiceError, match="reason"):
        roll("1d6", reason="r" * 201)


def test_limits_allow_the_maximum():
    assert len(roll("100d1000").lines[0].dice[0]["rolls"]) == 100
    assert len(roll("5#100d6").lines) == 5
    assert len(roll("; ".join(["1d20"] * 10)).lines) == 10
    assert len(roll("1d6+" * 39 + "1d6").lines) == 1


def test_dice_error_is_value_error():
    assert issubclass(DiceError, ValueError)


# --------------------------------------------------------------------------- fuzzing
def _check_any(text: str, reason: str | None = None) -> None:
    try:
        res = roll(text, reason=reason, rng=random.Random(0))
    except DiceError as e:
        assert 0 < len(str(e)) < 200
        return
    assert isinstance(res, RollResult)
    for who in (None, "Alice", "@everyone " * 20):
        out = res.render(who)
        assert len(out) <= MAX_OUTPUT_CHARS
        assert not MENTION.search(out)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=250), st.one_of(st.none(), st.text(max_size=250)))
def test_any_text_rolls_or_raises_dice_error(text, reason):
    _check_any(text, reason)


DICEY = st.lists(
    st.sampled_from(list("0123456789d%+-*/()<>=!kKhlpermiax#;,[] .\n@")
                    + ["1d6", "d20", "e6", "rr", "ro", "ra", "kh", "kl", "mi", "ma",
                       "100d1000", "#", "[x]", "1", "6"]),
    max_size=60,
).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DICEY)
def test_dice_like_text_rolls_or_raises_dice_error(text):
    _check_any(text)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["1d20", "4d6kh3", "3d6e6", "100d1000", "2d6+3 dmg", "10#1d4",
                                 "1d6rr1", "(1d6,1d8)kh1", "50d1000 " + "w" * 40]),
                min_size=1, max_size=12),
       st.sampled_from([";", ",", "; "]))
def test_combined_rolls_respect_limits(parts, sep):
    _check_any(sep.join(parts), reason="z" * 200)
