"""The Ring in the four- and five-player game (seed:001 AA, BB.4, CC.1, DD.1, EE), each test citing its
section."""
import pytest

from engine.core import Game, IllegalOrder
from engine.rulesets.wotr.aa_ring import RING_RATING
from engine.rulesets.wotr.common import load_toml
from tests.wotr_helpers import RS, fix_dice, nazgul_count, new, put, ring_to, texts, to_phase
from engine.rulesets.wotr import aa_ring, dd_succession, hidden_movement, victory
from engine.rulesets.wotr import lookup

MT = "E0228"


def denethor_ready(g, wearing=True):
    ring_to(g, "denethor", wearing)
    g.state["ring_start"] = aa_ring._ring_phase_conditions(RS, g.state)


def test_aa1_denethor_and_aa2b_boromir_have_a_ring_rating_of_three():
    assert RING_RATING == {"denethor": 3, "boromir": 3}
    chars = load_toml("forces.toml")["characters"]
    assert chars["denethor"]["ring_rating"] == 3 and chars["boromir"]["ring_rating"] == 3


@pytest.mark.parametrize("roll,ok", [(1, True), (4, True), (5, False), (6, False)])
def test_aa1_denethor_controls_a_nazgul_on_one_to_four(monkeypatch, roll, ok):
    g = new(4)
    denethor_ready(g)
    fix_dice(monkeypatch, [roll])
    _, ev = g.play("gondor", "nazgul control")
    assert nazgul_count(g, "gondor") == (1 if ok else 0)
    assert nazgul_count(g, "dark-power") == (8 if ok else 9)
    if ok:  # the Nazgul changes hands where it stands (naz1, the first of the Dark Power's, in Gorgoroth)
        assert g.state["nazgul"]["naz1"] == {"name": "Nazgul 1", "hex": "E0927", "seat": "gondor"}
    assert ("success" in texts(ev)) == ok
    with pytest.raises(IllegalOrder, match="one attempt"):
        g.play("gondor", "nazgul control")


def test_aa1_conditions_are_those_at_the_start_of_the_ring_phase():
    g = new(4)
    ring_to(g, "denethor", wearing=False)  # the phase began with the Ring off
    g.state["ring_start"] = aa_ring._ring_phase_conditions(RS, g.state)
    g.play("gondor", "ring on")
    with pytest.raises(IllegalOrder, match="start of the Ring Phase"):
        g.play("gondor", "nazgul control")


@pytest.mark.parametrize("why", ["palantir", "place", "wearing"])
def test_aa1_needs_minas_tirith_the_palantir_and_the_ring_worn(why):
    g = new(4)
    ring_to(g, "denethor", wearing=why != "wearing")
    if why == "palantir":
        g.state["palantir"] = "faramir"
    if why == "place":
        put(g, "denethor", "E0127")
    g.state["ring_start"] = aa_ring._ring_phase_conditions(RS, g.state)
    with pytest.raises(IllegalOrder, match="AA.1"):
        g.play("gondor", "nazgul control")


def test_aa1_gondor_possessing_the_ring_takes_the_dark_powers_victory_conditions():
    g = new(4)
    assert victory._winners(RS, g.state) == ["gondor"]  # holding its four places
    with pytest.raises(IllegalOrder):
        g.play("gondor", "claim")  # its conditions are the variant's, checked by the bot
    put(g, "frodo", MT)
    put(g, "denethor", MT)
    g.play("fellowship", "ring to denethor")
    assert g.state["ring"]["gondor_had"]
    assert "gondor" not in victory._winners(RS, g.state)
    g.play("gondor", "claim")  # the Dark Power's conditions: the base game's, claimed at the table
    assert "gondor" in victory._winners(RS, g.state)


def seize_setup(players=4):
    g = new(players)
    g.state["hands"]["gondor"].append("075")
    return g


def test_aa2_gondor_plays_075_only_with_boromir_in_the_ringbearers_hex():
    g = seize_setup()
    put(g, "boromir", "W1911")
    with pytest.raises(IllegalOrder, match="same hex as the Ringbearer"):
        g.play("gondor", "event 075")
    put(g, "boromir", "W2010")
    g.play("gondor", "event 075")  # at any time: here in the Ring Phase
    assert g.state["boromir_attempted"] and g.state["ring"]["seizure"] == {"from": "frodo", "by": "boromir"}


def test_ee_rohan_may_not_play_075_and_bb1_gondor_not_096_or_092():
    g = new(5)
    g.state["hands"]["rohan"] += ["075", "096"]
    g.state["hands"]["gondor"] += ["092", "096"]
    with pytest.raises(IllegalOrder, match="075"):
        g.play("rohan", "event 075")
    to_phase(g, "turn", "rohan")
    with pytest.raises(IllegalOrder, match="096"):
        g.play("rohan", "event 096")
    g.play("rohan", "done")
    for card in ("092", "096"):
        with pytest.raises(IllegalOrder, match=r"rule BB\.1"):
            g.play("gondor", f"event {card}")


def test_aa2_seizure_lost_boromir_bears_the_ring_and_leaves_the_fellowship():
    g = seize_setup()
    g.play("gondor", "event 075")
    with pytest.raises(IllegalOrder):
        g.play("gondor", "seizure lost")  # the Fellowship answers
    g.play("fellowship", "seizure lost")
    st = g.state
    assert st["ring"]["bearer"] == "boromir" and not st["ring"]["wearing"]
    assert st["chars"]["boromir"]["seat"] == "gondor" and st["chars"]["boromir"]["hidden"]  # secret by default
    assert st["ring"]["gondor_had"]  # AA.1: now the Dark Power's conditions
    with pytest.raises(IllegalOrder):
        g.play("gondor", "event 075")  # (c.) he has attempted: never again


def test_aa2_the_seizure_is_announced_without_the_hex_by_default_issue_27():
    """The seed is silent on where the seizure is announced; the hex would tell every seat where the
    hidden Fellowship just was: the public line names none; Gondor and the Fellowship are told privately;
    Boromir stays hidden, Gondor's (the Fellowship no longer follows him); Gondor reveals him at will."""
    g = seize_setup()
    hx = g.state["chars"]["boromir"]["hex"]
    g.play("gondor", "event 075")
    _, ev = g.play("fellowship", "seizure lost")
    public = texts(ev)
    assert "Boromir seizes the Ring!" in public and hx not in public
    assert all(hx not in (e.public or "") for e in ev)
    told = {seat for e in ev for seat, t in (e.private or {}).items() if hx in t}
    assert told == {"gondor", "fellowship"}
    st = g.state
    for seat in ("dark-power", "saruman", "rohan"):
        assert not lookup._sees_char(RS, st, seat, "boromir")
        assert all(p["id"] != "boromir" for p in RS.view(st, seat)["pieces"])
    assert lookup._sees_char(RS, st, "gondor", "boromir") and not lookup._sees_char(RS, st, "fellowship", "boromir")
    assert lookup._sees_char(RS, st, "fellowship", "frodo")
    with pytest.raises(IllegalOrder):
        g.play("fellowship", "reveal boromir")  # no longer the Fellowship's
    _, ev = g.play("gondor", "reveal boromir")
    assert f"Gondor reveals Boromir at {hx}" in texts(ev)


def test_aa2_option_seizure_public_announces_the_hex():
    g = new(4, seizure="public")
    g.state["hands"]["gondor"].append("075")
    hx = g.state["chars"]["boromir"]["hex"]
    g.play("gondor", "event 075")
    _, ev = g.play("fellowship", "seizure lost")
    assert f"Boromir seizes the Ring at {hx}!" in texts(ev)
    assert not g.state["chars"]["boromir"]["hidden"]


def test_aa2_a_game_stored_before_the_secret_seizure_keeps_announcing_the_hex():
    """A game keeps the rules it began with: a state stored before issue 27 (no ``seizure_public``)
    is brought up to date as the public announcement it was played with, so its log replays as it was."""
    g = new(4)
    del g.state["seizure_public"]
    g = Game(RS, g.state)  # as loaded from storage
    g.state["hands"]["gondor"].append("075")
    hx = g.state["chars"]["boromir"]["hex"]
    g.play("gondor", "event 075")
    _, ev = g.play("fellowship", "seizure lost")
    assert f"Boromir seizes the Ring at {hx}!" in texts(ev)


def test_aa2_seizure_held_ends_the_demand():
    g = seize_setup()
    g.play("gondor", "demand on")
    assert hidden_movement._demand_in_force(RS, g.state)
    g.play("gondor", "event 075")
    g.play("fellowship", "seizure held")
    assert g.state["ring"]["bearer"] == "frodo" and not hidden_movement._demand_in_force(RS, g.state)
    with pytest.raises(IllegalOrder, match="demand is over"):
        g.play("gondor", "demand on")


def boromir_with_ring_near_mt():
    g = seize_setup()
    g.play("gondor", "event 075")
    g.play("fellowship", "seizure lost")
    put(g, "boromir", "E0127")
    to_phase(g, "turn", "gondor")
    return g


@pytest.mark.parametrize("roll,given", [(1, True), (3, True), (4, False), (6, False)])
def test_aa2c_boromir_gives_the_ring_to_denethor_on_one_to_three(monkeypatch, roll, given):
    g = boromir_with_ring_near_mt()
    fix_dice(monkeypatch, [roll])
    _, ev = g.play("gondor", "move boromir E0228")
    r = g.state["ring"]
    assert (r["bearer"] == "denethor") == given
    if not given:
        assert r["bearer"] == "boromir" and r["wearing"] and r["failures"] == 1  # Boromir puts on the Ring


def test_aa2c_one_is_added_for_each_earlier_failure_and_only_if_denethor_is_there(monkeypatch):
    g = boromir_with_ring_near_mt()
    put(g, "denethor", "E0127")
    g.play("gondor", "move boromir E0228")
    assert g.state["ring"]["bearer"] == "boromir" and g.state["dice"]["counter"] == 0  # (2.) Denethor not there
    put(g, "denethor", MT)
    g.state["ring"]["failures"] = 2
    fix_dice(monkeypatch, [2])  # 2 + 2 = 4: fails
    g.play("gondor", "move boromir E0127 E0228")
    assert g.state["ring"]["bearer"] == "boromir" and g.state["ring"]["failures"] == 3
    g.play("gondor", "move boromir E0127 E0228")  # once a turn
    assert g.state["ring"]["failures"] == 3


def test_dd1_heirs_use_the_ring_at_minus_one_and_aragorn_as_king_without(monkeypatch):
    g = new(4)
    g.play("fellowship", "done")
    g.state["chars"]["denethor"]["alive"] = False
    g.state["chars"]["boromir"]["alive"] = False
    put(g, "faramir", MT)
    assert dd_succession._ruler(RS, g.state) == "faramir"
    ring_to(g, "faramir", True)
    g.state["palantir"] = "faramir"
    g.state["ring_start"] = aa_ring._ring_phase_conditions(RS, g.state)
    fix_dice(monkeypatch, [4])
    _, ev = g.play("gondor", "nazgul control")
    assert nazgul_count(g, "gondor") == 0 and "+1 (heir" in texts(ev)  # 4 + 1 = 5 fails
    assert aa_ring._ring_penalty(RS, g.state, "aragorn") == 0 and aa_ring._ring_penalty(RS, g.state, "denethor") == 0


def test_ee_no_rohan_character_uses_the_ring_to_control_nazgul():
    g = new(4)
    put(g, "theoden", MT)
    ring_to(g, "theoden", True)
    g.state["palantir"] = "theoden"
    g.state["ring_start"] = aa_ring._ring_phase_conditions(RS, g.state)
    with pytest.raises(IllegalOrder):
        g.play("gondor", "nazgul control")


def test_bb4_gondor_nullifies_093_by_denethor_putting_on_the_ring():
    g = new(4)
    g.state["hands"]["saruman"].append("093")
    to_phase(g, "turn", "saruman")
    g.play("saruman", "event 093")
    with pytest.raises(IllegalOrder, match="Denethor"):
        g.play("gondor", "nullify 093")
    ring_to(g, "denethor", False)
    _, ev = g.play("gondor", "nullify 093")
    assert g.state["played"][-1]["nullified"] and g.state["ring"]["wearing"]


@pytest.mark.parametrize("roll", [1, 6])
def test_cc1_mind_battle_with_sauron_costs_the_dark_power_a_die_of_shadow_points(monkeypatch, roll):
    g = new(4)
    with pytest.raises(IllegalOrder, match="wears the Ring"):
        g.play("gondor", "mind-battle sauron")
    ring_to(g, "denethor", True)
    fix_dice(monkeypatch, [roll])
    g.play("gondor", "mind-battle sauron")
    assert g.state["shadow_lost"] == roll


def test_cc1_mind_battle_with_saruman_stops_his_attacks_on_gondor_and_rohan_that_turn():
    g = new(5)
    ring_to(g, "denethor", True)
    g.play("gondor", "mind-battle saruman")
    g.state["mobilized"]["isengard"] = 1
    g.state["units"]["ise-1"]["hex"] = "W2227"  # Uruk-hai at Helm's Deep with Rohan's garrison
    to_phase(g, "turn", "saruman")
    with pytest.raises(IllegalOrder, match=r"rule CC\.1"):
        g.play("saruman", "attack W2227")


def test_dd1_ruler_turned_semi_ringwraith_eliminates_gondor_but_not_rohan():
    g = new(4)
    g.play("gondor", "wraith denethor")
    assert g.state["gondor_out"]
    g.state["mobilized"].update(gondor=1, rohan=1)
    to_phase(g, "turn", "gondor")
    with pytest.raises(IllegalOrder, match=r"rule DD\.1"):
        g.play("gondor", "move gon-mt E0127")
    g.play("gondor", "move roh-ed W2829")  # Rohan's units still move


def test_aa1_denethor_may_attempt_to_seize_the_ring_by_m3_and_ee_no_rohan_character_may():
    g = new(4)
    put(g, "frodo", MT)
    to_phase(g, "turn", "gondor")
    put(g, "theoden", MT)
    with pytest.raises(IllegalOrder, match=r"rule EE"):
        g.play("gondor", "seize theoden")  # Gondor controls him in the four-player game: still never
    with pytest.raises(IllegalOrder, match="075"):
        g.play("gondor", "seize boromir")
    with pytest.raises(IllegalOrder, match="in sight"):
        g.play("gondor", "seize denethor")  # Frodo is hidden: Gondor cannot see him there
    g.play("fellowship", "reveal frodo")
    g.play("gondor", "seize denethor")
    with pytest.raises(IllegalOrder):
        g.play("gondor", "seizure lost")  # the Ringbearer's seat answers
    g.play("fellowship", "seizure lost")
    assert g.state["ring"]["bearer"] == "denethor" and g.state["ring"]["gondor_had"]


def test_aa2b_the_demand_lapses_while_the_ringbearer_is_captured():
    g = new(4)
    g.play("gondor", "demand on")
    assert hidden_movement._demand_in_force(RS, g.state)
    g.play("fellowship", "prisoner frodo on")
    assert not hidden_movement._demand_in_force(RS, g.state)
    g.play("fellowship", "prisoner frodo off")
    assert hidden_movement._demand_in_force(RS, g.state)
    ring_to(g, "gollum" if "gollum" in g.state["chars"] else "mouth")  # (a.) not a Fellowship character
    assert not hidden_movement._demand_in_force(RS, g.state)


def _boromir_with_the_ring(**opts):
    g = new(4, **opts)
    g.state["hands"]["gondor"].append("075")
    g.play("gondor", "event 075")
    g.play("fellowship", "seizure lost")
    hx = g.state["chars"]["boromir"]["hex"]
    put(g, "saruman", hx)
    to_phase(g, "turn", "saruman")
    return g


def test_aa2a_boromir_puts_on_the_ring_only_against_a_sorcerer_using_sorcery():
    """AA.2 (a): "Boromir is only required to put on the Ring if faced with Individual Combat with a
    character that has a Sorcery Rating and then only if the opposing player intends to use sorcery in this
    combat": checked at the declaration (`challenge <yours> <theirs> sorcery`, assist play)."""
    g = _boromir_with_the_ring(seizure="public")
    assert not g.state["ring"]["wearing"]
    _, ev = g.play("saruman", "challenge saruman boromir")
    assert "need not put on the Ring (AA.2 a)" in texts(ev) and not g.state["ring"]["wearing"]
    _, ev = g.play("saruman", "challenge saruman boromir sorcery")
    assert "Boromir must put on the Ring against sorcery" in texts(ev) and g.state["ring"]["wearing"]


def test_aa2a_only_a_character_with_a_sorcery_rating_declares_sorcery():
    g = _boromir_with_the_ring(seizure="public")
    put(g, "wormtongue", g.state["chars"]["boromir"]["hex"])
    assert "sorcery" in g.state["chars"]["saruman"]["ratings"]
    assert "sorcery" not in g.state["chars"]["wormtongue"]["ratings"]
    with pytest.raises(IllegalOrder, match=r"Sorcery Rating.*rule AA\.2"):
        g.play("saruman", "challenge wormtongue boromir sorcery")
    assert not g.state["ring"]["wearing"]
