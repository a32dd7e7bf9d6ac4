"""The 1978 player errata for SPI's Sauron ([ERR-S] in shared/rules/facts.md, fan-compiled by William
Sariego about 1978-79), issue 27: `options: errata=1978`, the default with `variant=off`; with the
variant only what it does not contradict (no cavalry in rough). One test per erratum:
- TEC 4.3: rough costs +1 MP to enter (the variant: +2);
- TEC 4.3: rough gives +1 to the defender's Armor Protection (the variant: +2);
- TEC 4.3: cavalry may not enter rough;
- 19.11: a magic weapon adds +1 to the bearer's Rally Rating (the variant's overview: +3)."""
import pytest

from engine.core import Game, OrderError
from engine.hexgrid import Hex
from engine.rulesets import get_ruleset
from engine.spi import c04_movement
from engine.spi import c07_5_retreat
from engine.spi import c07_combat
from engine.spi import c03_sequence

RS = get_ruleset("sauron")
ROUGH = "2208"  # a rough hex two hexes from Numenorean Cavalry NC2's start (2106)


def game(**options) -> Game:
    g = Game.new(RS, options=options, seed="errata")
    g.play("sauron", "done")
    g.play("westernesse", "done")
    return g


def to_westernesse_movement(g: Game) -> None:
    st = g.state
    st["step"], st["done"], st["ph"] = "F", [], c03_sequence._fresh_phase(RS)


def refused(g: Game, seat: str, text: str, section: str) -> str:
    with pytest.raises(OrderError) as e:
        g.play(seat, text)
    assert section in str(e.value), str(e.value)
    return str(e.value)


def test_errata_is_the_default_with_variant_off_and_a_choice_with_the_variant():
    assert game(variant="off").state["options"]["errata"] == "1978"
    assert game().state["options"]["errata"] == "none"
    assert game(errata="1978").state["options"]["errata"] == "1978"
    assert game(variant="off", errata="none").state["options"]["errata"] == "none"
    with pytest.raises(OrderError) as e:
        Game.new(RS, options={"errata": "1979"}, seed="x")
    assert "1978" in str(e.value)


def test_4_3_errata_rough_costs_one_more_movement_point():
    h = Hex.parse(ROUGH)
    assert c04_movement._terrain_costs(RS, game(variant="off").state, False)[h] == 1 + 1  # clear 1, +1 (errata)
    assert c04_movement._terrain_costs(RS, game().state, False)[h] == 1 + 2                # the variant's 4.3: +2
    assert c04_movement._terrain_costs(RS, game(errata="1978").state, False)[h] == 1 + 2   # the variant's value stands


@pytest.mark.parametrize("options,bonus", [({"variant": "off"}, 1), ({}, 2), ({"errata": "1978"}, 2)])
def test_4_3_errata_rough_adds_one_to_the_defenders_armor(options, bonus):
    g = game(**options)
    st = g.state
    for uid, hx in (("MI1", ROUGH), ("OI1", "2207")):
        st["units"][uid].update(hex=hx, status="map")
    in_rough = c07_combat.attack_profile(RS, st, "OI1", "MI1", "melee")["armor"]
    st["units"]["MI1"]["hex"] = "0506"  # clear
    in_clear = c07_combat.attack_profile(RS, st, "OI1", "MI1", "melee")["armor"]
    assert in_rough - in_clear == bonus  # (the CPT reads the armour at 4 at most; the profile is unclamped)


@pytest.mark.parametrize("options", [{"variant": "off"}, {"errata": "1978"}])
def test_4_3_errata_cavalry_may_not_enter_rough(options):
    g = game(**options)
    to_westernesse_movement(g)
    why = refused(g, "westernesse", f"move NC2 {ROUGH}", "4.3")
    assert "cavalry may not enter" in why
    legal = {RS.format(a) for a in g.legal_actions("westernesse")}
    assert f"move NC2 {ROUGH}" not in legal
    assert not any(a.startswith("move NC") and a.endswith(ROUGH) for a in legal)


def test_4_3_without_the_errata_the_variant_lets_cavalry_into_rough():
    g = game()
    to_westernesse_movement(g)
    g.play("westernesse", f"move NC2 {ROUGH}")
    assert g.state["units"]["NC2"]["hex"] == ROUGH


def test_4_3_errata_a_cavalry_retreat_never_ends_in_rough():
    g = game(variant="off")
    st = g.state
    st["units"]["NC2"].update(hex="2207", status="map")
    opts = c07_5_retreat.retreat_options(RS, st, ["NC2"], 1, "2206")
    assert opts and ROUGH not in opts and "2308" not in opts
    st2 = game().state
    st2["units"]["NC2"].update(hex="2207", status="map")
    assert ROUGH in c07_5_retreat.retreat_options(RS, st2, ["NC2"], 1, "2206") or "2308" in c07_5_retreat.retreat_options(RS, st2, ["NC2"], 1, "2206")


@pytest.mark.parametrize("options,weapon", [({"variant": "off"}, 1), ({}, 3), ({"errata": "1978"}, 3)])
def test_19_11_errata_a_magic_weapon_adds_one_to_rally(options, weapon):
    st = game(**options).state
    assert st["sau"]["items"]["narsil"] == "ELE"
    with_narsil = RS.hooks.printed_rally(RS, st, "ELE")
    st["sau"]["items"]["narsil"] = None
    assert with_narsil - RS.hooks.printed_rally(RS, st, "ELE") == weapon
