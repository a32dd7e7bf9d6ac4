"""Set-up in one order (13.0): `deploy printed` places a side's whole printed set-up (reconstructed and
marked where the seed prints none), `options: setup=printed` places both sides at `/game new`, and
`deploy <unit> <unit>... <hex>` takes several units to one hex. A game started from the printed set-up
plays the scripted whole game's first turn exactly as the scripted set-up does."""
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine.core import Game, IllegalOrder, InvalidOrder, state_digest
from engine.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"gondor": ("sauron", "westernesse"), "celebrant": ("shadow", "westernesse")}


def refused(game, seat, text, kind=IllegalOrder):
    before = state_digest(game.state)
    with pytest.raises(kind) as e:
        game.play(seat, text)
    assert state_digest(game.state) == before
    return str(e.value)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_13_0_the_printed_set_up_is_marked_reconstructed_and_places_every_set_up_unit(name):
    rs = get_ruleset(name)
    data = tomllib.loads(rs.printed_setup_path.read_text())
    assert data["reconstructed"] is True and data["reason"]
    g = Game.new(rs, {}, seed="p")
    first, second = GAMES[name]
    g.play(first, "deploy printed")
    placed = {u for u, r in g.state["units"].items() if r["status"] == "map" and rs.units[u].side == first}
    assert placed and placed == set(data[first]) | {u for u in placed if u not in data[first]}
    assert all(g.state["units"][u]["hex"] == hx for u, hx in data[first].items())
    # every counter of the side that the set-up places is on the map: `done` is accepted at once
    g.play(first, "done")
    g.play(second, "deploy printed")
    g.play(second, "done")
    assert g.state["turn"] == 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_13_0_setup_printed_option_places_both_sides_and_they_may_still_adjust(name):
    rs = get_ruleset(name)
    g = Game.new(rs, {"setup": "printed"}, seed="p")
    first, second = GAMES[name]
    for seat in GAMES[name]:
        for u, hx in rs.printed_setups[seat].items():
            if g.state["units"][u]["status"] != "out":
                assert g.state["units"][u]["hex"] == hx
    assert g.state["turn"] == 0 and g.active_seats() == [first]  # still the set-up: re-placing is allowed
    uid, hx = next(iter(rs.printed_setups[first].items()))
    legal = [a for a in g.legal_actions(first) if a.verb == "deploy" and a.args[0] == uid]
    assert legal, "a placed unit may be re-placed during the set-up"
    g.play(first, rs.format(legal[0]) if hasattr(rs, "format") else f"deploy {uid} {legal[0].args[1]}")
    assert g.state["units"][uid]["hex"] == legal[0].args[1] != hx
    with pytest.raises(InvalidOrder):
        Game.new(rs, {"setup": "random"}, seed="p")


def test_13_0_deploy_printed_is_refused_out_of_the_set_up_and_for_the_wrong_side():
    g = Game.new(get_ruleset("gondor"), {}, seed="p")
    msg = refused(g, "westernesse", "deploy printed")
    assert "13.0" in msg  # Sauron places first (13.0): not Westernesse's turn yet
    g.play("sauron", "deploy printed")
    g.play("sauron", "done")
    g.play("westernesse", "deploy printed")
    g.play("westernesse", "done")
    msg = refused(g, "westernesse", "deploy printed")
    assert "set-up" in msg


def test_13_0_several_units_to_one_hex_in_one_order_checked_together():
    g = Game.new(get_ruleset("gondor"), {}, seed="p")
    # a siege tower and an infantry unit stack (5.0): one order
    g.play("sauron", "deploy ST1 OI4 1823")
    assert g.state["units"]["ST1"]["hex"] == g.state["units"]["OI4"]["hex"] == "1823"
    # two combat units may not share a hex: the second is checked against the first (5.0, reconstructed)
    msg = refused(g, "sauron", "deploy OI1 OI2 2123")
    assert "one combat unit per hex" in msg and "OI1" in msg
    assert g.state["units"]["OI1"]["status"] == "pool"
    refused(g, "sauron", "deploy OI1 OI1 2123", InvalidOrder)
    msg = refused(g, "sauron", "deploy OI1", InvalidOrder)
    assert "deploy printed" in msg


def _run(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("name,script", [("gondor", "gondor_game.txt"), ("celebrant", "celebrant_game.txt")])
def test_a_game_from_the_printed_set_up_plays_the_scripted_games_first_turn(tmp_path, name, script):
    lines = (ROOT / "tests" / "scripts" / script).read_text().splitlines()
    last_deploy = max(i for i, ln in enumerate(lines) if ln.startswith("/order deploy"))
    first_done = next(i for i in range(last_deploy, len(lines)) if lines[i] == "/done")
    turn2 = [i for i, ln in enumerate(lines) if re.match(r"#.*Game-Turn \d", ln)][1]
    setup = [ln for ln in lines[:first_done + 1] if not ln.startswith(("/order deploy", "!expect-error"))]
    rest = lines[first_done + 1:turn2]
    scripted = tmp_path / "scripted.txt"
    scripted.write_text("\n".join(lines[:turn2]) + "\n")
    printed = tmp_path / "printed.txt"
    printed.write_text("\n".join(setup + rest) + "\n")
    a = _run(["local", name, "--seed", "7", "--no-images", "--script", str(scripted)])
    b = _run(["local", name, "--seed", "7", "--no-images", "--options", "setup=printed", "--script", str(printed)])
    assert a.returncode == 0 and b.returncode == 0, a.stdout[-2000:] + b.stdout[-2000:]
    marker = "Game-Turn 1"
    ta, tb = (re.sub(r"Orders so far: \d+", "Orders so far: n", x[x.index(marker):]) for x in (a.stdout, b.stdout))
    assert "Game-Turn 2" in ta or "Turn 2 of" in ta
    assert ta == tb  # the same dice, the same position: turn 1 reads the same, word for word


@pytest.mark.parametrize("name,text", [("gondor", "move OA1 2325"), ("gondor", "fire OA1 at 2325"),
                                       ("celebrant", "move OI1 0601")])
def test_13_0_a_turn_order_during_set_up_points_to_deploy(name, text):
    rs = get_ruleset(name)
    g = Game.new(rs, {}, seed="p")
    msg = refused(g, GAMES[name][0], text)
    assert "`deploy <unit>" in msg and "deploy printed" in msg and "13.0" in msg
