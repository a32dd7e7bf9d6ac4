"""War of the Ring for four and five players (seed:001): the skeleton and the variant's rules, each test
citing its section."""
import pytest

from engine.core import IllegalOrder, OrderError
from engine.rulesets import get_ruleset
from tests.wotr_helpers import RS, nazgul_at, new, put, texts, to_phase
from engine.rulesets.wotr import dd_succession
from engine.rulesets.wotr import lookup


# ---------------------------------------------------------------- seats, order, who controls what
def test_seats_and_default_level_of_play_is_assist():
    assert RS.seats == ("fellowship", "dark-power", "saruman", "gondor", "rohan")
    assert RS.default_mode == "assist" and RS.optional_seats == ("rohan",)
    assert get_ruleset("wotr@assist").optional_seats == ("rohan", "gm")
    # no other ruleset has a default level of play
    for name in ("gondor", "sauron", "celebrant", "risk-minas-tirith"):
        assert get_ruleset(name).default_mode is None


def test_sequence_of_play_1_four_player_order_of_draw_and_turns():
    g = new(4)
    assert g.active_seats() == ["saruman", "fellowship", "gondor", "dark-power"]  # Ring Phase, all
    to_phase(g, "events")
    drawn = []
    while g.state["phase"] == "events":
        [s] = g.active_seats()
        drawn.append(s)
        g.play(s, "draw none")
    assert drawn == ["saruman", "fellowship", "gondor", "dark-power"]
    to_phase(g, "turn")
    turns = []
    while g.state["phase"] == "turn":
        [s] = g.active_seats()
        turns.append(s)
        g.play(s, "done")
    assert turns == ["saruman", "fellowship", "gondor", "dark-power"] and g.state["turn"] == 2


def test_sequence_of_play_2_five_player_order():
    g = to_phase(new(5), "turn")
    turns = []
    while g.state["phase"] == "turn":
        [s] = g.active_seats()
        turns.append(s)
        g.play(s, "done")
    assert turns == ["saruman", "fellowship", "rohan", "gondor", "dark-power"]


def test_four_player_gondor_controls_the_rohan_characters_and_units():
    g = new(4)
    for c in ("denethor", "boromir", "faramir", "imrahil"):
        assert c in g.state["chars"]
    for c in ("theoden", "theodred", "eomer", "eowyn"):
        assert g.state["chars"][c]["seat"] == "gondor"
    assert lookup._unit_seat(RS, g.state, "roh-ed") == "gondor"
    with pytest.raises(IllegalOrder, match="no Rohan player"):
        g.play("rohan", "done")


def test_five_player_rohan_controls_its_four_characters():
    g = new(5)
    assert {c for c, d in g.state["chars"].items() if d["seat"] == "rohan"} == {"theoden", "theodred", "eomer", "eowyn"}
    assert lookup._unit_seat(RS, g.state, "roh-ed") == "rohan" and lookup._unit_seat(RS, g.state, "gon-mt") == "gondor"


def test_map_has_the_seeds_hexes_provinces_and_places():
    b = RS.board
    assert b.province_of["E0630"] == "south-ithilien" and b.province_of["W3022"] == "east-emnet"
    for p in ("gorgoroth", "nurn"):
        assert p in b.areas
    for place in ("minas-tirith", "dol-amroth", "helms-deep", "dunharrow", "edoras", "rivendell", "lothlorien"):
        assert place in b.places
    assert set(b.terrain.values()) == {"clear", "desert", "rough", "marsh", "forest/rough", "mountain", "forest",
                                       "citadel", "town", "tunnels"}
    import tomllib
    from engine.rulesets.wotr.common import DATA
    for f in ("map.toml", "forces.toml"):
        d = tomllib.loads((DATA / f).read_text())
        assert d["reconstructed"] is True and d["reason"]


def test_options_are_checked():
    with pytest.raises(OrderError):
        new(6)
    with pytest.raises(OrderError):
        RS.new_game({"scenario": "peace"}, "s")


def test_a_random_game_ends():
    import random
    g = new(5, turns=3)
    rnd = random.Random(3)
    for _ in range(3000):
        if g.result() is not None:
            break
        s = rnd.choice(g.active_seats())
        acts = list(g.legal_actions(s))
        g.play(s, RS.format(rnd.choice(acts)))
    assert g.result() is not None


MT = "E0228"


def dead(g, *cids):
    for c in cids:
        g.state["chars"][c]["alive"] = False


# ---------------------------------------------------------------- DD.1 succession in Gondor
def test_dd1_boromir_rules_after_denethor_only_in_minas_tirith_or_with_a_gondor_army():
    g = new(4)
    dead(g, "denethor")
    put(g, "boromir", "W1911")  # with the Fellowship: not eligible
    put(g, "faramir", MT)
    assert dd_succession._ruler(RS, g.state) == "faramir"
    put(g, "boromir", "W2836")  # with the Swan knights, a Gondorian army unit
    assert dd_succession._ruler(RS, g.state) == "boromir"  # "until Boromir becomes eligible"
    dead(g, "boromir", "faramir")
    put(g, "imrahil", "W2737")  # alone: not eligible
    assert dd_succession._ruler(RS, g.state) is None
    put(g, "imrahil", MT)
    assert dd_succession._ruler(RS, g.state) == "imrahil"


def test_dd1_denethors_death_announces_the_new_ruler():
    g = new(4)
    put(g, "boromir", MT)
    _, ev = g.play("gondor", "kill denethor")
    assert "Boromir now rules Gondor. (DD.1)" in texts(ev)


def test_dd1_aragorn_king_by_the_paths_of_the_dead_makes_the_game_long_alliance():
    g = to_phase(new(4), "turn", "fellowship")
    dead(g, "denethor", "boromir")
    g.play("fellowship", "paths")
    _, ev = g.play("fellowship", "move aragorn E0127 E0228")
    assert "King of Gondor" in texts(ev)
    st = g.state
    assert st["king"] == "aragorn" and st["chars"]["aragorn"]["seat"] == "gondor" and dd_succession._ruler(RS, st) == "aragorn"
    assert ["fellowship", "gondor"] in st["alliances"]
    with pytest.raises(IllegalOrder, match="whole game"):
        g.play("gondor", "dissolve fellowship")


# ---------------------------------------------------------------- DD.2, DD.3, GG
def test_dd2_denethor_commands_any_stack_of_gondor_units_he_is_in():
    g = to_phase(new(4), "turn", "gondor")
    put(g, "faramir", MT)
    with pytest.raises(IllegalOrder, match=r"rule DD\.2|DD\.2"):
        g.play("gondor", "command E0228 faramir")
    g.play("gondor", "command E0228 denethor")
    put(g, "denethor", "E0127")
    put(g, "boromir", MT)
    with pytest.raises(IllegalOrder, match="DD.2"):
        g.play("gondor", "command E0228 faramir")
    g.play("gondor", "command E0228 boromir")


def test_dd2_faramir_as_ruler_allied_with_the_fellowship_may_defer_to_gandalf_or_aragorn():
    g = to_phase(new(4), "turn", "gondor")
    dead(g, "denethor", "boromir")
    put(g, "faramir", MT)
    put(g, "gandalf", MT)
    with pytest.raises(IllegalOrder, match="not there"):
        g.play("gondor", "command E0228 gandalf")  # hidden: Gondor does not see him
    g.play("fellowship", "reveal gandalf")
    with pytest.raises(IllegalOrder, match="DD.2"):
        g.play("gondor", "command E0228 gandalf")
    g.state["alliances"].append(["fellowship", "gondor"])
    g.play("gondor", "command E0228 gandalf")


def test_dd3_denethor_may_never_initiate_individual_combat():
    g = to_phase(new(4), "turn", "gondor")
    put(g, "mouth", MT)
    with pytest.raises(IllegalOrder, match=r"rule DD\.3"):
        g.play("gondor", "challenge denethor mouth")


def test_gg1_the_rohan_line_and_eowyn_as_queen():
    g = new(5)
    assert dd_succession._king_of_rohan(RS, g.state) == "theoden"
    dead(g, "theoden")
    assert dd_succession._king_of_rohan(RS, g.state) == "theodred"
    dead(g, "theodred")
    assert dd_succession._king_of_rohan(RS, g.state) == "eomer"
    dead(g, "eomer")
    assert dd_succession._king_of_rohan(RS, g.state) == "eowyn"


def test_gg1_eowyn_leads_armies_only_as_queen():
    g = to_phase(new(5), "turn", "rohan")
    with pytest.raises(IllegalOrder, match="GG.2"):
        g.play("rohan", "command W2728 eowyn")  # Theoden is there: he commands
    put(g, "theoden", "W2829")
    with pytest.raises(IllegalOrder, match="Queen"):
        g.play("rohan", "command W2728 eowyn")
    dead(g, "theoden", "theodred", "eomer")
    g.play("rohan", "command W2728 eowyn")


def test_gg2_theoden_commands_unless_deferring_to_an_ally():
    g = to_phase(new(5), "turn", "rohan")
    put(g, "imrahil", "W2728")
    with pytest.raises(IllegalOrder, match="GG.2"):
        g.play("rohan", "command W2728 imrahil")
    g.state["alliances"].append(["gondor", "rohan"])
    with pytest.raises(IllegalOrder, match="GG.2"):
        g.play("rohan", "command W2728 imrahil")  # the King defers only to the ruler of Gondor
    put(g, "denethor", "W2728")
    g.play("rohan", "command W2728 denethor")
    put(g, "theoden", "W2829")
    g.play("rohan", "command W2728 imrahil")  # Theodred? not there: Eowyn is lesser; any Gondor character


def test_restrictions_on_alliances_no_nazgul_commands_free_peoples_nor_free_characters_orcs():
    g = new(5)
    nazgul_at(g, "E0228", 1, seat="gondor")
    to_phase(g, "turn", "gondor")
    with pytest.raises(IllegalOrder, match="Nazgul"):
        g.play("gondor", "command E0228 nazgul")
    g = to_phase(new(5), "turn", "saruman")
    put(g, "wormtongue", "W2024")
    # Wormtongue is a man of Rohan on Saruman's side, not of the Fellowship, Gondor or Rohan: he may
    g.play("saruman", "command W2024 wormtongue")
    g.state["alliances"].append(["gondor", "saruman"])
    put(g, "imrahil", "W2024")
    assert "may not command orcs" in dd_succession._command_error(RS, g.state, "saruman", "W2024", "imrahil")


def test_restrictions_on_alliances_no_stacking_with_allied_orcs_or_rohan_with_dunlendings():
    g = new(5)
    g.state["mobilized"].update(gondor=1, rohan=1)
    g.state["alliances"].append(["gondor", "saruman"])
    g.state["alliances"].append(["rohan", "saruman"])
    to_phase(g, "turn", "rohan")
    with pytest.raises(IllegalOrder, match="Dunlendings"):
        g.play("rohan", "move roh-ed W1627")
    with pytest.raises(IllegalOrder, match="orcs"):
        g.play("rohan", "move roh-ed W2024")
    g.state["alliances"] = []
    g.play("rohan", "move roh-ed W2024")  # not allied: to fight them


# ---------------------------------------------------------------- CC.2, FF, BB.2
def test_cc2_ff_alliances_formed_by_both_and_dissolved_by_either():
    g = new(5)
    g.play("gondor", "ally saruman")
    assert g.state["alliances"] == []
    g.play("saruman", "ally gondor")
    assert ["gondor", "saruman"] in g.state["alliances"]
    g.play("saruman", "dissolve gondor")
    assert g.state["alliances"] == []
    for a, b in (("gondor", "dark-power"), ("rohan", "dark-power"), ("fellowship", "dark-power")):
        with pytest.raises(IllegalOrder):
            g.play(a, f"ally {b}")
    g.play("rohan", "ally fellowship")


def test_bb2_ff_barter_terms_private_to_the_two_seats():
    g = new(5)
    with pytest.raises(IllegalOrder):
        g.play("gondor", "barter dark-power 5 SP for Athelas")
    _, ev = g.play("rohan", "barter gondor Shadowfax for two Event Cards")
    assert "Shadowfax" not in ev[0].public and set(ev[0].private) == {"rohan", "gondor"}
    assert RS.public_order_text("barter gondor Shadowfax for two") == "barter (private) with gondor"
    with pytest.raises(IllegalOrder):
        g.play("saruman", "agree b1")
    g.play("gondor", "agree b1")
    assert g.state["barters"][0]["state"] == "agreed"


# ---------------------------------------------------------------- Modifications to Mobilization, All Out War
def test_mobilization_1_faramirs_group_moves_within_south_ithilien_once_mordor_mobilizes():
    g = to_phase(new(5), "turn", "gondor")
    with pytest.raises(IllegalOrder, match="Mobilization"):
        g.play("gondor", "move gon-ith E0632")
    g.state["mobilized"]["mordor"] = 1
    g.play("gondor", "move gon-ith E0632")
    g.play("gondor", "move faramir E0731")
    with pytest.raises(IllegalOrder, match="South Ithilien"):
        g.play("gondor", "move faramir E0524")
    g.play("gondor", "move gon-ith E0228")  # to Minas Tirith: then frozen until Gondor mobilizes
    with pytest.raises(IllegalOrder, match="until Gondor mobilizes"):
        g.play("gondor", "move gon-ith E0127")
    g.play("gondor", "mobilize gondor")
    g.play("gondor", "move gon-ith E0127")


def test_mobilization_2_eomers_group_moves_within_east_emnet():
    g = to_phase(new(5), "turn", "rohan")
    with pytest.raises(IllegalOrder):
        g.play("rohan", "move eomer W3123")
    g.state["mobilized"]["mordor"] = 1
    g.play("rohan", "move eomer W3123")
    g.play("rohan", "move roh-em W2924")
    with pytest.raises(IllegalOrder, match="East Emnet"):
        g.play("rohan", "move roh-em W2829")


def test_all_out_war_fixed_mobilization_schedule():
    g = new(5, scenario="all-out-war", turns=7)
    seen = {}
    while g.result() is None:
        for n, t in g.state["mobilized"].items():
            if t is not None:
                seen.setdefault(n, t)
        s = g.active_seats()[0]
        g.play(s, "draw none" if g.state["phase"] == "events" else "done")
    assert seen == {"mordor": 1, "isengard": 2, "dunland": 2, "gondor": 3, "rohan": 4, "elves": 6, "dwarves": 6,
                    "west": 6}
    g = to_phase(new(5, scenario="all-out-war"), "turn", "gondor")
    with pytest.raises(IllegalOrder, match="All Out War"):
        g.play("gondor", "mobilize gondor")


# ---------------------------------------------------------------- victory
def play_out(g):
    while g.result() is None:
        s = g.active_seats()[0]
        g.play(s, "draw none" if g.state["phase"] == "events" else "done")
    return g.result()


def test_victory_four_player_gondor_holds_all_four_continuously():
    g = new(4, turns=1)
    r = play_out(g)
    assert "Gondor" in r.summary and r.winner == "gondor"
    g = new(4, turns=2)
    g.state["control"]["dunharrow"] = "saruman"
    to_phase(g, "turn", "gondor")
    g.play("gondor", "done")  # the end of a player turn with Dunharrow lost
    g.state["control"]["dunharrow"] = "gondor"  # retaken: too late, the condition is continuous
    assert "gondor" not in play_out(g).summary.lower().split("winners:")[1]


def test_victory_five_player_gondor_drops_helms_deep_and_dunharrow_and_rohan_needs_minas_tirith():
    g = new(5, turns=1)
    g.state["control"]["helms-deep"] = "saruman"  # Gondor does not care; Rohan does
    r = play_out(g)
    assert r.summary.endswith("Winners: Gondor.")
    g = new(5, turns=1)
    g.state["control"]["minas-tirith"] = "dark-power"
    r = play_out(g)
    assert r.summary.endswith("Winners: none.")  # Rohan needed Gondor to keep Minas Tirith
    g = new(5, turns=1)
    g.state["control"]["minas-tirith"] = "dark-power"
    g.state["rohan_attacked"] = True  # Gondor attacked Rohan: the requirement is dropped
    assert play_out(g).summary.endswith("Winners: Rohan.")


def test_five_player_gondor_attacking_rohan_is_recorded():
    g = new(5)
    g.state["mobilized"].update(gondor=1, rohan=1)
    to_phase(g, "turn", "gondor")
    g.play("gondor", "move gon-mt W2728")
    _, ev = g.play("gondor", "attack W2728")
    assert g.state["rohan_attacked"] and "Gondor has attacked Rohan" in texts(ev)


def test_sequence_of_play_tabletop_follows_the_four_player_order():
    rs = get_ruleset("wotr@tabletop")
    g = __import__("engine.core", fromlist=["Game"]).Game.new(rs, {"players": "4", "mode": "tabletop"}, "t")
    seen = []
    for _ in range(5):
        [s] = g.active_seats()
        seen.append(s)
        g.play(s, "done")
    assert seen == ["saruman", "fellowship", "gondor", "dark-power", "saruman"]


def test_dd2_gg2_the_commander_of_each_stack_is_worked_out_for_every_seat_to_see():
    g = new(5)
    v = RS.view(g.state, None)["commanders"]
    assert v["E0228"] == "Denethor II" and v["W2728"] == "Theoden" and v["E0630"] == "Faramir"
    put(g, "boromir", "W2836")  # hidden Boromir with the Swan knights: Gondor sees him command, the public not
    assert RS.view(g.state, "gondor")["commanders"]["W2836"] == "Boromir"
    assert "W2836" not in RS.view(g.state, None)["commanders"]
    assert "W2836" not in RS.view(g.state, "dark-power")["commanders"]
