"""Gondor set-up: exclusive rules 13.0-13.2, 16.71-16.72, 12.0, 15.15."""
import pytest

from engine.core import AmbiguousOrder, Game, IllegalOrder, InvalidOrder, state_digest
from engine.hexgrid import distance
from tests.gondor_helpers import SAURON_SETUP, full_setup
from engine.rulesets import get_ruleset


def new(seed="t", fixture=None, options=None):
    return Game.new(get_ruleset("gondor"), options or {}, seed=seed, fixture=fixture)


def refused(game, seat, text, kind=IllegalOrder):
    before = state_digest(game.state)
    with pytest.raises(kind) as e:
        game.play(seat, text)
    assert state_digest(game.state) == before  # a refused order changes nothing, dice included
    return str(e.value)


# ---------------------------------------------------------------- 13.0
def test_13_0_sauron_places_first_then_westernesse():
    g = new()
    assert g.active_seats() == ["sauron"]
    msg = refused(g, "westernesse", "deploy GS1 1809")
    assert "13.0" in msg and "Sauron" in msg
    for o in SAURON_SETUP:
        g.play("sauron", o)
    g.play("sauron", "done")
    assert g.active_seats() == ["westernesse"]
    refused(g, "sauron", "deploy OA1 0623")


def test_13_0_a_side_cannot_finish_with_counters_still_off_the_map():
    g = new()
    msg = refused(g, "sauron", "done")
    assert "30 counters still to deploy" in msg and "13.1" in msg
    for o in SAURON_SETUP[:-1]:
        g.play("sauron", o)
    assert "1 counter still to deploy: GOT" in refused(g, "sauron", "done")


def test_13_0_after_both_set_ups_turn_1_begins():
    g = new()
    full_setup(g)
    v = g.view(None)
    assert v["turn"] == 1 and v["phase"] == "A-westernesse" and v["active"] == ["westernesse"]


# ---------------------------------------------------------------- 13.1
def test_13_1_sauron_sets_up_within_four_hexes_of_the_eastern_edge():
    g = new()
    m = g.ruleset.hexmap
    last = m.rows[1]
    # the fourth row from the edge is allowed, the fifth is not
    g.play("sauron", f"deploy OA1 20{last - 3:02d}")
    assert "13.1" in refused(g, "sauron", f"deploy OA2 20{last - 4:02d}")
    assert "13.1" in refused(g, "sauron", "deploy OA2 1905")  # inside the city
    zone = g.ruleset.zones["east"]
    assert all(m.distance_from_edge(h, "east") <= 4 for h in zone)
    assert len(zone) == (m.columns[1] - m.columns[0] + 1) * 4


def test_13_1_and_14_1_reinforcements_are_not_set_up():
    g = new()
    msg = refused(g, "sauron", "deploy UH1 2124")
    assert "14.1" in msg and "Game-Turn 2" in msg
    g2 = new()
    for o in SAURON_SETUP:
        g2.play("sauron", o)
    g2.play("sauron", "done")
    assert "14.2" in refused(g2, "westernesse", "deploy RH1 1910")
    assert "14.2" in refused(g2, "westernesse", "deploy ARA 1910")


# ---------------------------------------------------------------- 13.2
def _to_westernesse(g):
    for o in SAURON_SETUP:
        g.play("sauron", o)
    g.play("sauron", "done")


def test_13_2_westernesse_inside_the_city_or_within_two_hexes_of_its_walls():
    g = new()
    _to_westernesse(g)
    m = g.ruleset.hexmap
    edge = [h for h, i in m.hexes.items() if i.level == 1]

    def reach(h):
        return min(distance(h, e) for e in edge)

    outside = sorted((h for h, i in m.hexes.items() if not i.level and i.terrain in ("clear", "slope")), key=reach)
    two = next(h for h in outside if reach(h) == 2)
    three = next(h for h in outside if reach(h) == 3)
    g.play("westernesse", "deploy GS1 1905")  # inside Minas Tirith
    g.play("westernesse", f"deploy GS2 {two}")
    assert "13.2" in refused(g, "westernesse", f"deploy GS3 {three}")
    mountain = next(h for h, i in m.hexes.items() if i.terrain == "mountain" and reach(h) <= 2)
    assert "13.2" in refused(g, "westernesse", f"deploy GS3 {mountain}")


def test_13_2_citadel_guard_starts_in_1903():
    g = new()
    assert any(u["id"] == "CG1" and u["hex"] == "1903" for u in g.view(None)["units"])
    _to_westernesse(g)
    assert "13.2" in refused(g, "westernesse", "deploy CG1 1904")


# ---------------------------------------------------------------- 16.71-16.72
def test_16_71_three_real_and_three_dummy_cauldrons_known_only_to_westernesse():
    g = new()
    real = g.state["hidden"]["real_cauldrons"]
    assert len(real) == 3 and set(real) < {f"K{i}" for i in range(1, 7)}
    wv = g.view("westernesse")
    flags = {u["id"]: u["real"] for u in wv["units"] if u["type"] == "cauldron"}
    assert sorted(k for k, v in flags.items() if v) == real and len(flags) == 6
    for seat in ("sauron", None):
        assert all("real" not in u for u in g.view(seat)["units"])
    assert g.ruleset.secret_text(g.state, "sauron") is None
    text = g.ruleset.secret_text(g.state, "westernesse")
    assert all(k in text for k in real) and "16.71" in text


def test_16_71_cauldrons_only_inside_minas_tirith():
    g = new()
    _to_westernesse(g)
    assert "16.71" in refused(g, "westernesse", "deploy K1 1910")  # outside, though within reach of the walls
    g.play("westernesse", "deploy K1 1804")


def test_16_72_each_cauldron_has_three_oil_counters():
    g = new()
    assert all(u["oil"] == 3 for u in g.view("sauron")["units"] if u["type"] == "cauldron")


def test_16_73_cauldrons_do_not_count_against_stacking():
    g = new()
    _to_westernesse(g)
    g.play("westernesse", "deploy GS1 1804")
    g.play("westernesse", "deploy K1 1804")
    g.play("westernesse", "deploy K2 1804")
    assert "stacking" in refused(g, "westernesse", "deploy GS2 1804")


def test_the_real_cauldrons_come_from_the_seed():
    draws = {tuple(new(seed=str(s)).state["hidden"]["real_cauldrons"]) for s in range(40)}
    assert len(draws) > 5
    assert new(seed="x").state == new(seed="x").state


def test_a_fixture_fixes_the_real_cauldrons_but_draws_the_same_dice():
    a = new(fixture={"real_cauldrons": ["K1", "K2", "K3"]})
    b = new(fixture={"real_cauldrons": ["K4", "K5", "K6"]})
    assert a.state["dice"] == b.state["dice"]
    assert a.state["hidden"] != b.state["hidden"]
    with pytest.raises(ValueError):
        new(fixture={"real_cauldrons": ["K1"]})


# ---------------------------------------------------------------- stacking
def test_stacking_one_combat_unit_leaders_and_one_siege_equipment():
    g = new()
    g.play("sauron", "deploy OA1 2024")
    assert "stacking" in refused(g, "sauron", "deploy OA2 2024")
    g.play("sauron", "deploy NAZ 2024")
    g.play("sauron", "deploy GOT 2024")
    g.play("sauron", "deploy SC1 2024")
    assert "stacking" in refused(g, "sauron", "deploy ST1 2024")


# ------------------------------------------------------------ notation
def test_errors_tell_invalid_from_illegal_from_ambiguous():
    g = new()
    refused(g, "sauron", "deploy OA1 23x5", InvalidOrder)
    refused(g, "sauron", "march OA1 2325", InvalidOrder)
    refused(g, "sauron", "deploy OA1", InvalidOrder)
    refused(g, "sauron", "", InvalidOrder)
    refused(g, "sauron", "deploy OA1 9999", IllegalOrder)
    refused(g, "sauron", "deploy ZZ9 2325", IllegalOrder)
    with pytest.raises(AmbiguousOrder) as e:
        g.play("sauron", "deploy OA 2325")
    assert e.value.candidates == ["OA1", "OA2", "OA3", "OA4"]
    refused(g, "sauron", "x" * 300, InvalidOrder)


def test_every_legal_action_round_trips_and_is_accepted():
    g = new()
    acts = list(g.legal_actions("sauron"))
    # perft-style count: every undeployed counter in every hex of the 13.1 zone, no `done` yet
    assert len(acts) == 30 * len(g.ruleset.zones["east"])
    for a in acts[::97]:
        text = g.ruleset.format(a)
        assert g.parse("sauron", text) == a
        assert g.parse("sauron", text.lower()) == a
    assert list(g.legal_actions("westernesse")) == []


def test_legal_actions_after_a_full_set_up_are_only_done():
    g = new()
    for o in SAURON_SETUP:
        g.play("sauron", o)
    texts = [g.ruleset.format(a) for a in g.legal_actions("sauron")]
    assert texts[0] == "done"
    assert "deploy OA1 0523" not in texts  # already there
    assert "deploy OA2 0523" not in texts  # stacking


# ------------------------------------------------------------ sequence
def test_12_0_sixteen_turns_two_to_six_at_night():
    g = new()
    full_setup(g)
    nights = set()
    while not g.result():
        seat = g.active_seats()[0]
        before = g.view(None)["turn"]
        g.play(seat, "done")
        if g.view(None)["night"]:
            nights.add(g.view(None)["turn"])
        assert g.view(None)["turn"] in (before, before + 1, 17)
    assert nights == {2, 3, 4, 5, 6}
    assert g.state["turn"] == 17 and "sixteen" in g.result().summary


def test_15_15_westernesse_controls_every_gate_at_the_start():
    g = new()
    gates = g.view(None)["gates"]
    assert len(gates) == 7 and set(gates.values()) == {"westernesse"}


def test_options_override_a_reconstructed_rally_rating():
    g = new(options={"rally.gan": "8"})
    gan = next(u for u in g.view(None)["units"] if u["id"] == "GAN")
    assert gan["rally"] == 8
    with pytest.raises(InvalidOrder):
        new(options={"rally.gs1": "3"})
    with pytest.raises(InvalidOrder):
        new(options={"bogus": "1"})
