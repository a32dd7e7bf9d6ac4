"""Sauron (issue 13): the variant's other cases (seed 004), one test or more each, citing it:
4.3 rough, the reconstructed map and order of battle, 14.3 spares, 7.175, 8.11/8.25, 16.6x the Ring,
18.1 the Gates, 19.21x Narsil, 20.21, 22.x Mortal Combat."""
import pytest

from engine.core import Game, OrderError
from engine.hexgrid import Hex, Hexside
from tests.sauron_helpers import RS, at, game, place, refused
from engine.rulesets.sauron import c07_175_missiles
from engine.rulesets.sauron import c07_22_leader_combat
from engine.rulesets.sauron import c08_1_stacking
from engine.rulesets.sauron import c16_6_ring
from engine.rulesets.sauron import c18_1_gates
from engine.rulesets.sauron import c19_21_narsil
from engine.rulesets.sauron import c22_mortal_combat
from engine.rulesets.sauron import victory
from engine.spi import c06_zoc
from engine.spi import c07_3_melee
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c05_stacking



# ----------------------------------------------------------------- the map and forces
def test_map_is_dagorlad_before_the_morannon():
    m = RS.hexmap
    kinds = {i.terrain for i in m.hexes.values()}
    assert {"clear", "slope", "rough", "mountain"} <= kinds
    assert m.edges["west"] == "top"  # the compass arrow points west
    gates = [hs for hs, t in m.hexsides.items() if t == "gate"]
    assert gates and RS.map_data["reconstructed"] is True and RS.map_data["reason"]
    # Mordor is reached from the plain only through the Gates
    for hs in gates:
        a, b = hs.hexes()
        assert (str(a) in RS.mordor_hexes) != (str(b) in RS.mordor_hexes)


def test_4_3_rough_costs_two_more_and_adds_two_armor():
    tec = RS.charts["tec"]
    assert tec["rough"]["cost"] == tec["clear"]["cost"] + 2
    assert tec["rough"]["armor"] == 2
    g = game()
    st = g.state
    rough = next(str(h) for h, i in RS.hexmap.hexes.items() if i.terrain == "rough")
    place(g, MI1=rough, OI1=str(Hex.parse(rough).neighbours()[0]))
    p = c07_combat.attack_profile(RS, st, "OI1", "MI1", "melee")
    place(g, MI1="0506")
    q = c07_combat.attack_profile(RS, st, "OI1", "MI1", "melee")
    assert p["armor"] == min(q["armor"] + 2, 4) or p["armor"] == q["armor"] + 2


def test_orders_of_battle_men_and_dwarves_on_map_elves_turn_2_sauron_by_turn_12():
    g = game()
    st = g.state
    on = {u for u, r in st["units"].items() if r["status"] == "map"}
    west = {u for u in on if RS.units[u].side == "westernesse"}
    assert west and all(c08_1_stacking.nationality(RS, u) in ("men", "dwarves") for u in west)
    elves = [u for u, d in RS.units.items() if c08_1_stacking.nationality(RS, u) == "elves" and "extra" not in d.tags]
    assert elves and all(RS.units[u].arrives == 2 for u in elves)
    sau = [u for u, d in RS.units.items() if d.side == "sauron" and d.setup == "reinforcement"]
    assert min(RS.units[u].arrives for u in sau) == 1 and max(RS.units[u].arrives for u in sau) == 12
    assert RS.hooks.reinforcement_entry(RS, st, "EI1") is None  # turn 1
    st["turn"] = 2
    assert RS.hooks.reinforcement_entry(RS, st, "EI1") and RS.hooks.reinforcement_entry(RS, st, "OI1") == ["1424", "1524", "1624"]


def test_14_3_spares_by_agreement_on_or_after_turn_3():
    g = game()
    assert all(g.state["units"][u]["status"] == "out" for u in ("MX1", "EX1", "EX5"))
    g = game(extra="all")
    st = g.state
    assert all(st["units"][u]["status"] == "reinforcement" for u in ("MX1", "EX1", "EX5"))
    assert RS.units["MX1"].ratings.__str__() == "B-3-W" and str(RS.units["EX1"].ratings) == "e-2-X"
    st["turn"] = 2
    assert RS.hooks.reinforcement_entry(RS, st, "EX1") is None
    st["turn"] = 3
    assert RS.hooks.reinforcement_entry(RS, st, "EX1")
    g = game(extra="2")
    assert [u for u in ("MX1", "EX1", "EX2") if g.state["units"][u]["status"] == "reinforcement"] == ["MX1", "EX1"]
    with pytest.raises(OrderError):
        Game.new(RS, options={"extra": "7"}, seed="x")


def test_eighteen_turns_fifteen_to_eighteen_at_night():
    assert RS.sequence["turns"] == 18 and RS.sequence["night_turns"] == [15, 16, 17, 18]


# ----------------------------------------------------------------- 8.11, 8.25
def test_8_11_leaders_stack_only_with_their_nationality_and_may_stand_alone():
    g = game()
    at(g, "F")
    refused(g, "westernesse", "move BAL 1305", "8.11")  # MI6 (Men) stands in 1305
    g.play("westernesse", "move BAL 1408")  # alone: no effect (8.11)
    assert g.state["units"]["BAL"]["hex"] == "1408"


def test_8_25_a_leader_without_his_nationality_joins_allies_but_neither_forms_nor_rallies():
    g = game()
    st = g.state
    for u in ("DW1", "DW2", "DW3", "DW4", "DW5", "DW6"):
        st["units"][u].update(hex=None, status="eliminated")
    assert c08_1_stacking.orphaned(RS, st, "BAL")
    at(g, "F")
    g.play("westernesse", "move BAL 1305")  # with the Men now
    st = g.state
    st["units"]["MI6"]["disrupted"] = True
    at(g, "H")
    refused(g, "westernesse", "rally BAL MI6", "8.25")
    assert "8.11" in c08_1_stacking.stack_fault(RS, st, "GIL", ["DW1"])  # Gil-galad still has Elves to come
    for u in [x for x in st["units"] if c08_1_stacking.nationality(RS, x) == "elves" and RS.units[x].is_combat]:
        st["units"][u].update(hex=None, status="eliminated")
    st["units"]["DW1"].update(hex="0101", status="map")
    assert "Elf" in c08_1_stacking.stack_fault(RS, st, "GIL", ["DW1"])


# ----------------------------------------------------------------- 7.175
def test_7_175_a_missile_unit_next_to_enemies_must_fire_unless_they_are_all_meleed():
    g = game()
    st = g.state
    place(g, MB1="1008", OI1="1009")
    at(g, "G")
    st["ph"]["must"] = c07_3_melee._obligations(RS, st, "westernesse")
    refused(g, "westernesse", "done", "7.175")
    g.play("westernesse", "fire MB1 at 1009")
    if g.state["units"]["OI1"]["status"] == "map":
        pass
    # the obligation is met once it fired
    assert not [u for u, _ in c07_175_missiles.missile_obliged(RS, g.state, "westernesse") if u == "MB1"]


def test_7_175_met_by_melee_on_every_adjacent_enemy():
    g = game()
    st = g.state
    place(g, MB1="1008", OI1="1009", MI1="1010")
    at(g, "G")
    g.play("westernesse", "melee MI1 at 1009")
    assert "MB1" not in [u for u, _ in c07_175_missiles.missile_obliged(RS, g.state, "westernesse")]


# ----------------------------------------------------------------- 16.6 the Ring
def test_16_61_and_16_62_losing_and_recovering_the_ring():
    g = game()
    st = g.state
    place(g, SAU="1522", RW="1521")
    m0, d0 = c07_22_leader_combat.morale_rating(RS, st, "SAU"), RS.hooks.dem_total(RS, st, "sauron")
    magic = st["units"]["SAU"]["magic"]
    c16_6_ring._set_ring(RS, st, "ISI", True)
    assert c07_22_leader_combat.morale_rating(RS, st, "SAU") == m0 - 4
    assert RS.hooks.dem_total(RS, st, "sauron") == d0 + 20
    assert st["units"]["SAU"]["magic"] == magic - 10
    c16_6_ring._set_ring(RS, st, "SAU", True)
    assert (c07_22_leader_combat.morale_rating(RS, st, "SAU"), RS.hooks.dem_total(RS, st, "sauron"), st["units"]["SAU"]["magic"]) == (m0, d0, magic)


def test_16_641_the_ringwraith_brings_it_back_by_entering_saurons_hex():
    g = game()
    st = g.state
    place(g, SAU="1523", RW="1521", OI1="1522")
    c16_6_ring._set_ring(RS, st, "RW", False)
    at(g, "C")
    g.play("sauron", "move RW 1523")
    assert g.state["sau"]["ring"]["holder"] == "SAU" and g.state["sau"]["ring"]["worn"]


def test_16_641_with_sauron_dead_the_highest_ranking_leader_wears_it_with_two_more_morale():
    g = game()
    st = g.state
    place(g, SAU="1522", RW="1521")
    c07_22_leader_combat._wound(RS, st, "SAU", "k")
    assert st["sau"]["ring"]["holder"] == "RW" and st["sau"]["ring"]["worn"]
    assert c07_22_leader_combat.morale_rating(RS, st, "RW") == 3 + 2


def test_16_642_and_16_69_taking_the_ring_off_and_turning_evil():
    g = game()
    st = g.state
    c16_6_ring._set_ring(RS, st, "ISI", True)
    at(g, "H")
    refused(g, "westernesse", "ring ELE off", "16.642")
    g.play("westernesse", "ring ISI off")
    st = g.state
    if not st["sau"]["ring"]["worn"]:
        assert c07_22_leader_combat.ring_rating(RS, st, "ISI") >= 1  # rolled at or under 2
        return
    assert st["sau"]["ring_tries"]["ISI"] == 1
    refused(g, "westernesse", "ring ISI off", "16.642")  # once a phase
    st["sau"]["ring_tries"]["ISI"] = 2
    st["ph"]["ring_tried"] = []
    d = dict(st["dice"])
    g.play("westernesse", "ring ISI off")
    if g.state["sau"]["ring"]["worn"]:
        assert "ISI" in g.state["sau"]["evil"] and c07_22_leader_combat.morale_rating(RS, g.state, "ISI") == 4 + 2


def test_16_69_evil_after_three_failures_by_seed_search():
    for n in range(60):
        g = Game.new(RS, options={}, seed=f"ring-{n}")
        g.play("sauron", "done")
        g.play("westernesse", "done")
        st = g.state
        c16_6_ring._set_ring(RS, st, "ANA", True)
        st["sau"]["ring_tries"]["ANA"] = 2
        at(g, "H")
        _, ev = g.play("westernesse", "ring ANA off")
        if "ANA" in g.state["sau"]["evil"]:
            assert "16.69" in ev[0].public and c07_22_leader_combat.morale_rating(RS, g.state, "ANA") == 3 + 2
            return
    pytest.fail("no seed turned Anarion evil")


def _turn_isildur_evil() -> Game:
    """A seed on which Isildur, wearing the Ring with two failures behind him, fails a third time."""
    for n in range(60):
        g = Game.new(RS, options={}, seed=f"evil-{n}")
        g.play("sauron", "done")
        g.play("westernesse", "done")
        c16_6_ring._set_ring(RS, g.state, "ISI", True)
        g.state["sau"]["ring_tries"]["ISI"] = 2
        at(g, "H")
        _, ev = g.play("westernesse", "ring ISI off")
        if "ISI" in g.state["sau"]["evil"]:
            assert "NC3 stacked with him passes too" in ev[0].public and "16.69" in ev[0].public
            return g
    pytest.fail("no seed turned Isildur evil")


def test_16_69_16_643_the_evil_leader_and_his_stack_pass_to_the_sauron_seat():
    """16.643 (cut off) / 16.69: "He becomes a servant to Sauron and is under control of the Sauron Player.
    Any combat units with whom he stacks also come under the Sauron player's control." Control passes
    between seats through the Standard Rules' ``side_of`` hook."""
    from render.hexmap import _counter, _side_color
    g = _turn_isildur_evil()
    st = g.state
    assert st["units"]["ISI"]["hex"] == st["units"]["NC3"]["hex"] == "2206"
    assert st["turned"] == {"ISI": "sauron", "NC3": "sauron"}
    assert hooks.side_of(RS, st, "ISI") == hooks.side_of(RS, st, "NC3") == "sauron"
    assert hooks.side_of(RS, st, "ANA") == "westernesse" and RS.units["NC3"].side == "westernesse"  # the OOB is untouched
    # Westernesse may no longer move them; Sauron may, in his Movement Phase
    at(g, "F")
    with pytest.raises(OrderError, match="not yours"):
        g.play("westernesse", "move NC3 2307")
    with pytest.raises(OrderError, match="not yours"):
        g.play("westernesse", "move ISI 2307")
    at(g, "C")
    g.play("sauron", "move ISI NC3 2307")
    assert g.state["units"]["ISI"]["hex"] == g.state["units"]["NC3"]["hex"] == "2307"
    # zones of control and combat: NC3 is now an enemy of Westernesse and a friend of Sauron
    st = g.state
    assert "NC3" in c06_zoc.exerting(RS, st, Hex.parse("2306"), "westernesse")
    assert "NC3" not in c06_zoc.exerting(RS, st, Hex.parse("2306"), "sauron")
    assert c05_stacking.side_in(RS, st, "2307") == "sauron"
    # the views and the map: both seats see them as Sauron's, drawn in Sauron's colour
    for seat in (None, "sauron", "westernesse"):
        v = g.view(seat)
        us = {u["id"]: u for u in v["units"]}
        assert us["ISI"]["side"] == us["NC3"]["side"] == "sauron"
        sides = v["sides"]
        assert _side_color(sides, "sauron") != _side_color(sides, "westernesse")
        a = _counter(us["NC3"], sides, 64).convert("RGB")
        b = _counter(dict(us["NC3"], side="westernesse"), sides, 64).convert("RGB")
        c = _counter(dict(us["NC3"], side="sauron"), sides, 64).convert("RGB")
        assert a.tobytes() == c.tobytes() != b.tobytes()


def test_16_69_the_evil_leader_stacks_as_sauron_s_and_entering_sauron_s_hex_gives_back_the_ring():
    """16.69: "If this leader ever enters Sauron's hex, Sauron takes back the ring automatically, and wears
    it." Ruling: turned, he and his units stack as Sauron's (8.11: with any Sauron unit)."""
    g = _turn_isildur_evil()
    place(g, SAU="2307", OI1="2307")
    assert c08_1_stacking.nationality(RS, "ISI", g.state) == c08_1_stacking.nationality(RS, "NC3", g.state) == "mordor"
    assert c08_1_stacking.nationality(RS, "ISI") == "men"  # the order of battle's
    at(g, "C")
    _, ev = g.play("sauron", "move ISI 2307")  # a Men leader could not stack with Orcs (8.11)
    st = g.state
    assert st["units"]["ISI"]["hex"] == "2307"
    assert st["sau"]["ring"]["holder"] == "SAU" and st["sau"]["ring"]["worn"]
    assert any("returns the One Ring to Sauron" in e.public for e in ev)


def test_16_69_ruling_a_turned_units_loss_counts_for_sauron():
    g = _turn_isildur_evil()
    st = g.state
    before = dict(st["dem"])
    RS.hooks.on_unit_lost(RS, st, "NC3", 5)
    assert st["dem"]["sauron"] == before["sauron"] + 5 and st["dem"]["westernesse"] == before["westernesse"]


def test_16_69_a_turned_unit_shares_sauron_s_demoralization_not_westernesse_s():
    """9.1 with 16.69: a demoralized army's units defend at Morale -1; a unit turned evil counts for
    Sauron's army now, so Westernesse's demoralization no longer weakens it, and Sauron's does."""
    g = _turn_isildur_evil()
    st = g.state
    st["dem"]["westernesse"] = 10_000  # Westernesse demoralized, Sauron not
    st["dem"]["sauron"] = 0
    assert c02_units.army_now(RS, st, "NC3") == "sauron" and c02_units.army_of(RS, "NC3") == "westernesse"
    notes = c07_combat.attack_profile(RS, st, "OI1", "NC3", "melee")["notes"]
    assert not any("demoralized" in n for n in notes)
    st["dem"]["westernesse"], st["dem"]["sauron"] = 0, 10_000
    notes = c07_combat.attack_profile(RS, st, "OI1", "NC3", "melee")["notes"]
    assert any("defender's army demoralized" in n for n in notes)


def test_side_of_defaults_to_the_order_of_battle():
    g = game()
    assert "turned" in g.state and not g.state["turned"]
    assert all(hooks.side_of(RS, g.state, u) == d.side for u, d in RS.units.items())
    del g.state["turned"]  # a game saved before the hook
    assert hooks.side_of(RS, g.state, "ISI") == "westernesse"


# ----------------------------------------------------------------- 18.1 the Gates
def test_18_1_gates_close_only_with_sauron_in_mordor_in_a_magic_phase_once_a_turn():
    g = game()
    at(g, "A")
    refused(g, "sauron", "gates close", "18.1")  # Sauron is not on the map
    place(g, SAU="1523")
    g.play("sauron", "gates close")
    assert c18_1_gates.gates_closed(RS, g.state)
    refused(g, "sauron", "gates open", "18.1")  # once a Game-Turn
    at(g, "C", turn=2)
    refused(g, "sauron", "gates open", "18.1")  # not in a Magic Leader Phase


def test_18_1_closed_gates_stop_movement_and_melee_and_fire_only_from_inside():
    g = game()
    place(g, SAU="1523", OI1="1521", MI1="1520")
    for u in ("WG4",):
        g.state["units"][u].update(hex=None, status="eliminated")
    at(g, "G")
    assert g.legal_texts("westernesse", "melee MI1")  # open: MI1 may attack through the gateway
    g.state["sau"]["gates"] = "closed"
    assert not g.legal_texts("westernesse", "melee MI1")
    g.state["units"]["OI1"].update(hex=None, status="eliminated")
    at(g, "F")
    with pytest.raises(OrderError) as e:
        g.play("westernesse", "move MI1 1521")
    assert "Gates" in str(e.value)
    g.state["sau"]["gates"] = "open"
    assert "move MI1 1521" in g.legal_texts("westernesse", "move MI1")
    g.state["sau"]["gates"] = "closed"
    place(g, OI1="1521")
    place(g, MB1="1519")
    at(g, "G")
    refused(g, "westernesse", "fire MB1 at 1521", "18.1")
    place(g, GA1="1522")
    at(g, "D")
    g.play("sauron", "fire GA1 at 1520")  # from inside Mordor: allowed


# ----------------------------------------------------------------- 19.21 Narsil, 20.21
def test_19_211_narsil_breaks_into_shards_for_a_numenorean_and_20_21_demoralization():
    g = game()
    st = g.state
    d0 = RS.hooks.dem_total(RS, st, "westernesse")
    text = c19_21_narsil._break_narsil(RS, st, "test")
    assert st["sau"]["items"]["narsil"] is None and st["sau"]["items"]["shards"] in ("ELE", "ISI", "ANA")
    assert RS.hooks.dem_total(RS, st, "westernesse") == d0 + 10 and "20.21" in text
    # 19.212: the shards only add 1 to Combat in leader combat (no rally bonus)
    bearer = st["sau"]["items"]["shards"]
    assert c07_22_leader_combat.leader_total(RS, st, bearer) == c07_22_leader_combat.combat_rating(RS, st, bearer) + c07_22_leader_combat.morale_rating(RS, st, bearer) + 1
    assert c08_3_rally.leader_rating(RS, st, bearer) == c07_22_leader_combat.combat_rating(RS, st, bearer) + c07_22_leader_combat.morale_rating(RS, st, bearer)
    # the shards disintegrate with their bearer: 10 more (20.21); plus his own Rally Points (20.2)
    pts = c07_22_leader_combat.combat_rating(RS, st, bearer) + c07_22_leader_combat.morale_rating(RS, st, bearer)
    c07_22_leader_combat._wound(RS, st, bearer, "k")
    assert st["sau"]["items"]["shards"] is None
    assert RS.hooks.dem_total(RS, st, "westernesse") == d0 + 20 + pts


def test_19_211_only_numenoreans_take_up_the_shards():
    g = game()
    st = g.state
    for u in ("ELE", "ISI", "ANA"):
        st["units"][u]["status"] = "eliminated"
    st["sau"]["items"]["narsil"] = "BAL"
    c19_21_narsil._break_narsil(RS, st, "test")
    assert st["sau"]["items"]["shards"] is None and RS.hooks.dem_total(RS, st, "westernesse") == 20


# ----------------------------------------------------------------- 22 Mortal Combat
def test_22_4_example_isildur_may_challenge_gorgol_elendil_may_not():
    st = game().state
    assert c22_mortal_combat.may_challenge(RS, st, "ISI", "GOR")
    assert not c22_mortal_combat.may_challenge(RS, st, "ELE", "GOR")


def test_22_0_challenge_within_4_hexes_in_the_combat_phase():
    g = game()
    place(g, GOR="1408", ISI="1404")
    at(g, "G")
    refused(g, "westernesse", "challenge ELE GOR", "22.4")
    g.play("westernesse", "challenge ISI GOR")
    place(g, GOR="1414")
    g2 = game()
    place(g2, GOR="1414", ISI="1404")
    at(g2, "G")
    refused(g2, "westernesse", "challenge ISI GOR", "22.0")


def test_22_3_declining_costs_rally_points_and_the_rally():
    g = game()
    place(g, GOR="1408", ISI="1404")
    at(g, "G")
    g.play("westernesse", "challenge ISI GOR")
    at(g, "A", turn=2)
    refused(g, "sauron", "done", "22.3")
    d0 = RS.hooks.dem_total(RS, g.state, "sauron")
    g.play("sauron", "decline GOR")
    assert RS.hooks.dem_total(RS, g.state, "sauron") == d0 + 4
    assert "GOR" in c22_mortal_combat.ph_declined(RS, g.state)
    g.state["units"]["GA1"]["disrupted"] = True
    place(g, GA1="1409")
    at(g, "H")
    refused(g, "sauron", "rally GOR GA1", "22.3")


def test_22_1_22_2_accepted_leaders_meet_and_fight_to_the_death():
    g = game()
    place(g, GOR="2707", ISI="2703")
    at(g, "G")
    g.play("westernesse", "challenge ISI GOR")
    at(g, "A", turn=2)
    g.play("sauron", "accept GOR")
    g.play("sauron", "done")
    # Sauron's movement: Gorgol walks out to Isildur's hex (4.27 opened by 22.1)
    place(g, GOR="2704")
    g.play("sauron", "move GOR 2703")
    assert g.state["units"]["GOR"]["hex"] == "2703"
    _, ev = g.play("sauron", "done")  # the Sauron Combat Phase begins: Mortal Combat (22.2)
    text = " ".join(e.public or "" for e in ev)
    assert "Mortal Combat between ISI and GOR" in text
    dead = [u for u in ("ISI", "GOR") if g.state["units"][u]["status"] == "eliminated"]
    assert dead, text
    assert not g.state["sau"]["mortal"]


def test_22_3_an_unanswered_challenge_is_answered_at_the_deadline_and_7_175_fires():
    g = game()
    place(g, GOR="2707", ISI="2703")
    at(g, "G")
    g.play("westernesse", "challenge ISI GOR")
    at(g, "A", turn=2)
    a = RS.deadline_action(g.state, "sauron")
    assert RS.format(a) == "decline GOR"  # (the cheaper answer here: Gorgol surely dies; issue 42)
    g2 = game()
    place(g2, MB1="1008", OI1="1009")
    at(g2, "G")
    assert RS.format(RS.deadline_action(g2.state, "westernesse")) == "fire MB1 at 1009"


def test_a_group_loads_its_own_charts_and_a_bad_table_is_refused():
    g = Game.new(RS, options={"charts": '[levels]\nsauron = 90\n\n[lcrt]\n"0" = ["k/-", "-/-", "-/-", "-/-", "-/-", "-/k"]\n'},
                 seed="c")
    st = g.state
    assert RS.hooks.dem_level(RS, st, "sauron") == 90
    assert c07_22_leader_combat.lcrt_cell(RS, st, 0, 1) == ("k", "-")
    for bad in ('[lcrt]\n"0" = ["x/-", "-/-", "-/-", "-/-", "-/-", "-/-"]\n',
                '[lcrt]\n"0" = ["-/-"]\n'):
        with pytest.raises(OrderError):
            Game.new(RS, options={"charts": bad}, seed="c")


def test_8_11_holds_in_the_set_up_too():
    g = Game.new(RS, options={}, seed="s")
    g.play("sauron", "done")
    refused(g, "westernesse", "deploy BAL 1305", "8.11")  # Elendil's Men
    g.play("westernesse", "deploy BAL 1306")


def test_variant_off_leaves_out_the_gates_and_mortal_combat():
    g = game(variant="off")
    place(g, SAU="1523", GOR="1408", ISI="1404")
    at(g, "A")
    refused(g, "sauron", "gates close", "18.1")
    at(g, "G")
    refused(g, "westernesse", "challenge ISI GOR", "22.0")


def test_7_241_a_duel_between_met_challengers_is_fought_to_the_end():
    g = game()
    place(g, GOR="2703", ISI="2703")
    g.state["sau"]["mortal"].append({"challenger": "ISI", "challenged": "GOR", "status": "accepted", "turn": 1})
    at(g, "G")
    g.state["ph"]["dueled"].append("ISI")  # a leader already used his attack: 7.241 lets him fight on
    _, ev = g.play("westernesse", "duel ISI GOR")
    assert "Mortal Combat between GOR and ISI" in ev[0].public or "Mortal Combat between ISI and GOR" in ev[0].public
    assert "eliminated" in (g.state["units"]["ISI"]["status"], g.state["units"]["GOR"]["status"])


def test_victory_points_and_their_grades():
    g = game()
    st = g.state
    assert RS.hooks.final_result(RS, st)["winner"] is None  # 0 to 0: a draw
    st["dem"]["sauron"] = 50
    r = RS.hooks.final_result(RS, st)
    assert r["winner"] == "westernesse" and r["decisive"] and "Decisive Victory" in r["summary"]
    st["dem"]["westernesse"] = 30
    r = RS.hooks.final_result(RS, st)
    assert r["winner"] == "westernesse" and not r["decisive"] and "expanded game" in r["summary"]
    st["units"]["ELE"]["status"] = st["units"]["GIL"]["status"] = "eliminated"
    assert victory.victory_points(RS, st)["sauron"] == 30 + 30


def test_16_62_sauron_recovers_the_ring_by_killing_its_wearer():
    g = game()
    st = g.state
    place(g, SAU="1408")
    c16_6_ring._set_ring(RS, st, "ISI", True)
    d = RS.hooks.dem_total(RS, st, "sauron")
    c07_22_leader_combat._resolve_pair(RS, st, "SAU", "ISI", "-", "k", 2)
    assert st["sau"]["ring"]["holder"] == "SAU" and st["sau"]["ring"]["worn"]
    assert RS.hooks.dem_total(RS, st, "sauron") == d - 20 and st["units"]["SAU"]["magic"] == 45


def test_8_37_sauron_rallies_automatically_at_night():
    g = game()
    place(g, SAU="1523", OI1="1522")
    g.state["units"]["OI1"]["disrupted"] = True
    at(g, "H", turn=15)
    _, ev = g.play("sauron", "rally SAU OI1")
    assert "automatic" in ev[0].public and "(Rally Rating 13)" in ev[0].public
    assert not g.state["units"]["OI1"]["disrupted"]


def test_16_6_the_ring_is_drawn_on_its_bearers_counter_worn_or_carried():
    """16.6: who wears or carries the Ring is shown on the map: the view gives the bearer's counter a
    `ring` entry ("worn" / "carried", nobody else has one) and the generic mark a gold band (engine/display.py:
    `band` "lit" / "plain"), which the renderer draws (lit: with a fiery glow, top right; plain: bottom right),
    from the view alone."""
    from render.counters import BAND_FIRE as RING_FIRE, BAND_GOLD as RING_GOLD
    from render.hexmap import _counter
    g = game()
    st = g.state
    place(g, SAU="1209")

    def views():
        v = g.view("westernesse")
        return v, {u["id"]: u for u in v["units"]}

    v, us = views()
    assert us["SAU"]["ring"] == "worn" and [u for u in us if "ring" in us[u]] == ["SAU"]
    assert us["SAU"]["look"]["band"] == "lit" and [u for u in us if "band" in us[u].get("look", {})] == ["SAU"]
    assert not any(m.get("type") == "ring" for m in v.get("markers", []))  # the counter shows it, no chit

    def data(img):
        p = img.load()
        return {p[x, y] for x in range(img.width) for y in range(img.height)}

    def pixels(u):
        img = _counter(u, v["sides"], 64).convert("RGBA")
        return img, data(img)

    def near(px, col, tol=30):
        return any(p[3] > 200 and all(abs(p[i] - col[i]) <= tol for i in range(3)) for p in px)

    worn_img, worn = pixels(us["SAU"])
    bare_img, bare = pixels({k: x for k, x in us["SAU"].items() if k not in ("ring", "look")})
    assert worn_img.tobytes() != bare_img.tobytes()
    assert near(worn, RING_GOLD) and near(worn, RING_FIRE) and not near(bare, RING_GOLD)
    c16_6_ring._set_ring(RS, st, "ISI", False)
    v, us = views()
    assert us["ISI"]["ring"] == "carried" and "ring" not in us["SAU"]
    assert us["ISI"]["look"]["band"] == "plain" and "band" not in us["SAU"].get("look", {})
    carried_img, carried = pixels(us["ISI"])
    assert near(carried, RING_GOLD) and not near(carried, RING_FIRE)
    w, h = carried_img.size
    top = data(carried_img.crop((0, 0, w, h // 2)))
    bottom = data(carried_img.crop((0, h // 2, w, h)))
    assert near(bottom, RING_GOLD) and not near(top, RING_GOLD)  # carried: bottom; worn: top
    w, h = worn_img.size
    assert near(data(worn_img.crop((0, 0, w, h // 2))), RING_GOLD)
