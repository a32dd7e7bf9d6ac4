"""Sauron 22.1 (seed 004), issue 27: "If the opposing leader accepts, he moves to his front lines or as
near to the challenging leader as possible during his next movement phase ... If the leader is unable
to occupy the same hex as the challenging leader, then during his movement phase, the challenging leader
moves into the same hex ... In any case, both leaders attempt to move into the other's hex until one is
successful." Before, a leader could accept and then stand still (or walk away) with no penalty."""
from pathlib import Path

from engine.core import Game
from engine.hexgrid import distance
from tests.sauron_helpers import RS, at, place, refused
from tests.sauron_helpers import game as sauron_game
from engine.rulesets.sauron import c22_mortal_combat as sauron_c22_mortal_combat
from engine.spi import c04_movement


def game() -> Game:
    return sauron_game(seed="approach")


ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tests" / "scripts" / "sauron_game.txt"


def replay(lines: list[str], seed: str) -> Game:
    """A console script played on the engine (the console's seed is `local-<N>`)."""
    g = Game.new(RS, {}, seed=f"local-{seed}")
    seat = g.active_seats()[0]
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line.startswith("as "):
            seat = line[3:].strip()
        elif line == "/done":
            g.play(seat, "done")
        elif line.startswith("/order "):
            g.play(seat, line[len("/order "):])
    return g


def moves_of(g: Game, seat: str, uid: str) -> list[str]:
    return [RS.format(a) for a in g.legal_actions(seat) if a.verb == "move" and uid in a.args]


def test_22_1_issue_27_reproduction_gorgol_may_not_end_his_movement_unmoved():
    """The audit's case: the first 114 lines of the scripted game (Isildur challenges Gorgol, Gorgol
    accepts), seed 45, then `/done` in Sauron's Movement Phase with Gorgol unmoved: now refused (22.1)."""
    lines = SCRIPT.read_text().splitlines()[:114]
    g = replay(lines, "45")
    st = g.state
    assert st["step"] == "C" and st["sau"]["mortal"][0]["status"] == "accepted"
    assert st["units"]["GOR"]["hex"] == "1414" and st["units"]["ISI"]["hex"] == "1713"
    refused(g, "sauron", "done", "22.1")
    legal = [RS.format(a) for a in g.legal_actions("sauron")]
    assert "done" not in legal  # not offered either (autocomplete, a random player)
    gor = moves_of(g, "sauron", "GOR")
    assert gor == ["move GOR 1713"]  # he can reach Isildur's hex: only that move is his
    refused(g, "sauron", "move GOR 1415", "22.1")  # any other end is refused
    g.play("sauron", "move GOR 1713")
    _, ev = g.play("sauron", "done")  # the Combat Phase begins with the Mortal Combat (22.1, 22.2)
    assert any("Mortal Combat between ISI and GOR" in (e.public or "") for e in ev)


def test_22_1_both_leaders_close_until_one_is_in_the_others_hex():
    g = game()
    place(g, GOR="2707", ISI="2703")
    at(g, "G")
    g.play("westernesse", "challenge ISI GOR")
    place(g, GOR="2715")  # since driven back: twelve hexes apart, more than one phase's move
    at(g, "A", turn=2)
    g.play("sauron", "accept GOR")
    g.play("sauron", "done")
    st = g.state
    assert st["step"] == "C"
    now, best = sauron_c22_mortal_combat.approach_reach(RS, st, "sauron", "GOR", "ISI")
    assert now == 12 and 0 < best < now
    refused(g, "sauron", "done", "22.1")  # the accepting leader moves first (his next movement phase)
    gor = moves_of(g, "sauron", "GOR")
    assert gor and all(distance(a.split()[-1], "2703") == best for a in gor)
    far = next(str(h) for h in c04_movement._reach(RS, st, "sauron", ["GOR"])
               if distance(str(h), "2703") > best and str(h) != "2715")
    refused(g, "sauron", f"move GOR {far}", "22.1")
    g.play("sauron", gor[0])
    g.play("sauron", "done")  # moved as near as he could: done
    g.play("sauron", "done")  # combat
    g.play("sauron", "done")  # second magic
    assert g.state["step"] == "F"
    # the challenger's movement phase: he must now close in his turn (22.1 "the challenging leader moves")
    refused(g, "westernesse", "done", "22.1")
    isi = moves_of(g, "westernesse", "ISI")
    gor_hex = g.state["units"]["GOR"]["hex"]
    _, best_w = sauron_c22_mortal_combat.approach_reach(RS, g.state, "westernesse", "ISI", "GOR")
    assert isi and all(distance(a.split()[-1], gor_hex) == best_w for a in isi)
    # at a deadline the bot makes the approach for the seat (the safe default)
    a = RS.deadline_action(g.state, "westernesse")
    assert a is not None and a.verb == "move" and "ISI" in a.args


def test_22_1_backing_out_of_an_accepted_challenge_pays_22_3s_penalty():
    """Ruling: avoiding an accepted challenge is avoiding a challenge (22.3): the leader's Rally Points
    to his side's demoralization and no rally that Game-Turn; then he is free to move as he likes."""
    g = game()
    place(g, GOR="2707", ISI="2703")
    at(g, "G")
    g.play("westernesse", "challenge ISI GOR")
    place(g, GOR="2715")
    at(g, "A", turn=2)
    g.play("sauron", "accept GOR")
    g.play("sauron", "done")
    d0 = RS.hooks.dem_total(RS, g.state, "sauron")
    assert "decline GOR" in [RS.format(a) for a in g.legal_actions("sauron")]
    _, ev = g.play("sauron", "decline GOR")
    assert "backs out" in ev[0].public and "(22.1, 22.3)" in ev[0].public
    assert RS.hooks.dem_total(RS, g.state, "sauron") == d0 + 4  # Gorgol's Rally Points, 2 + 2
    assert "GOR" in sauron_c22_mortal_combat.ph_declined(RS, g.state) and not g.state["sau"]["mortal"]
    g.play("sauron", "done")  # no longer bound


def test_22_1_a_leader_already_moved_before_accepting_is_bound_from_his_next_movement_phase():
    g = game()
    place(g, GOR="2703", ISI="2707")
    at(g, "D")
    g.play("sauron", "challenge GOR ISI")
    g.play("sauron", "done")
    g.play("sauron", "done")  # second magic phase: Westernesse's next phase is its Movement Phase
    assert g.state["step"] == "F"
    g.play("westernesse", "move ISI 2712")
    g.play("westernesse", "accept ISI")
    g.play("westernesse", "done")  # he has moved this phase: his duty starts with the next one
    assert g.state["sau"]["mortal"][0]["status"] == "accepted"


def test_22_1_8_1_16_641_where_a_move_may_end_is_one_declared_list_run_in_order():
    """Issue 29: Sauron's checks of a move's end are the declared list ``MOVE_END`` run by the Standard
    Rules' ``check_move_end`` (22.1's meeting, the leaders' stacking 8.1, 22.1's approach, 16.641), not a
    case file calling another's step; 22.1's reach tries the first two (``LEADER_MAY_END``)."""
    from engine.rulesets.sauron import c08_1_stacking, c16_6_ring, c22_mortal_combat
    from engine.spi import hooks
    assert type(RS).hooks.check_move_end is hooks.check_move_end
    assert type(RS).LEADER_MAY_END == (c22_mortal_combat.meeting_check, c08_1_stacking.check_move_end)
    assert type(RS).hooks.MOVE_END == (*type(RS).LEADER_MAY_END, c22_mortal_combat.approach_move_end,
                                 c16_6_ring.ring_return_move_end)
    assert "c08_1_stacking" not in Path(c22_mortal_combat.__file__).read_text()
