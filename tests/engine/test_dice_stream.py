from collections import Counter

from engine.dice import Dice, commitment, draw_word, new_dice


def test_same_seed_same_dice_and_the_counter_only_goes_up():
    a, b = Dice(new_dice("s")), Dice(new_dice("s"))
    ra = [a.d6() for _ in range(50)]
    assert ra == [b.d6() for _ in range(50)]
    assert a.record["counter"] >= 50
    assert [r["n"] for r in a.rolls] == sorted({r["n"] for r in a.rolls})  # no draw is ever reused


def test_other_seed_other_dice():
    a, b = Dice(new_dice("s")), Dice(new_dice("t"))
    assert [a.d6() for _ in range(30)] != [b.d6() for _ in range(30)]


def test_dice_are_fair_enough():
    d = Dice(new_dice("fair"))
    c = Counter(d.d6() for _ in range(6000))
    assert set(c) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in c.values())


def test_a_die_is_hmac_of_seed_and_counter_and_the_commitment_is_sha256():
    import hashlib

    d = Dice(new_dice("k"))
    v = d.d6()
    assert v == 1 + draw_word("k", 0) % 6
    assert commitment("k") == hashlib.sha256(b"k").hexdigest()


def test_shuffle_is_a_permutation():
    d = Dice(new_dice("sh"))
    items = list(range(10))
    out = d.shuffle(items)
    assert sorted(out) == items and out != items
