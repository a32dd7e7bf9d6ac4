"""Issue 43: a sixth game with no test edited. Every test that covers the games reads them from the registry
(``sorted(engine.rulesets.BUILTIN)``: the architecture, golden, autopilot and fuzz tests); what such a test
needs to know of a game beyond its interface is declared by the game (``RulesetBase.hidden_information``,
``secret_twins``, ``golden_script``), never listed in a test. The smallest complete game
(tests/examples/tiny_hex/, shown in docs/architecture.md) is registered as a sixth built-in game for a run
of those tests (``PALANTIR_EXTRA_BUILTIN``, tests/conftest.py), which pick it up. And turn 0 is the set-up
only where the sequence of play has a set-up step."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import Game, state_digest
from engine.rulesets import BUILTIN, get_ruleset
from tests.examples.tiny_hex import TINY_HEX
from engine.spi import c03_sequence

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "tests.examples.tiny_hex:TINY_HEX"
# the tests that cover every game, each naming a game in its test ids
GAME_TESTS = ("tests/engine/test_architecture.py", "tests/e2e/test_golden.py",
              "tests/engine/test_autopilot_policies.py", "tests/fuzz/test_fuzz_games.py")


def _play_out(g: Game) -> list[str]:
    """Every seat passes (`done`) until the game is over; the public texts of its events."""
    public = []
    for _ in range(500):
        if g.result() is not None:
            break
        _, events = g.play(g.active_seats()[0], "done")
        public += [e.public for e in events if e.public]
    assert g.result() is not None
    return public


def test_a_game_without_a_set_up_step_starts_at_turn_1_and_plays_the_turns_it_asks_for():
    """Issue 43: turn 0 is the set-up only when the sequence of play has a set-up step. A game without one
    (the example's sequence: four Game-Turns, no `[[setup]]`) starts at Game-Turn 1, its first phase is
    not called "Set-up" (the view, the status line, the map's header), and it plays 4 turns, not 5."""
    from bot.table import Table
    from render.hex_header import _turn_text

    rs = TINY_HEX
    assert not rs.sequence.get("setup") and rs.sequence["turns"] == 4
    g = Game.new(rs, {}, "t")
    v = g.view(None)
    assert v["turn"] == 1 and v["phase_title"] == "Red Movement Phase (4.0)"
    assert Table._phase_head(v) == "**Game-Turn 1 of 4 (day): Red Movement Phase (4.0)**"
    assert _turn_text(v) == "Turn 1 of 4"
    assert "deploy" not in rs.help("setup") and "Game-Turn 1" in rs.help("setup")
    assert "Set-up" not in rs.help("phases")
    public = _play_out(g)
    turns = sorted({int(m) for t in public for m in re.findall(r"^Game-Turn (\d+)", t)})
    assert turns == [1, 2, 3, 4], turns
    assert not any("Set-up" in t for t in public)
    assert public[-1] == "The 4 Game-Turns are over (12.0)."


def test_a_game_with_a_set_up_step_still_starts_at_turn_0():
    """Issue 43: a game whose sequence has set-up steps (Sauron: 13.1, 13.2) starts at turn 0, the set-up,
    and then plays its turns from Game-Turn 1, as before."""
    rs = get_ruleset("sauron")
    g = Game.new(rs, {}, "t")
    assert g.view(None)["turn"] == 0 and c03_sequence.kind(rs, g.state) == "setup"
    public = _play_out(g)
    assert "Set-up is complete (13.0)." in public
    turns = sorted({int(m) for t in public for m in re.findall(r"^Game-Turn (\d+)", t)})
    assert turns == list(range(1, rs.sequence["turns"] + 1)), turns


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_a_game_with_hidden_information_declares_twins_that_differ_in_secret(name):
    """Issue 43: the secrecy tests (tests/engine/test_autopilot_policies.py) play every game with hidden
    information from the two fixtures it declares (``secret_twins``): each makes a game, and the two games
    differ in their hidden state only."""
    rs = get_ruleset(name)
    if not rs.hidden_information:
        assert rs.secret_twins is None, f"{name} has no hidden information but declares twins"
        return
    assert rs.secret_twins, f"{name} has hidden information: declare `secret_twins`"
    a, b = (Game.new(rs, seed="twin", fixture=f) for f in rs.secret_twins)
    assert state_digest(a.state) != state_digest(b.state)
    assert a.view(None) == b.view(None)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_a_declared_scripted_game_has_its_script_and_its_golden_record(name):
    """Issue 43: the golden test plays a game's scripted whole game where the game declares one
    (``golden_script``: a file of tests/scripts and its seed); every game is played at random."""
    rs = get_ruleset(name)
    if rs.golden_script:
        script, seed = rs.golden_script
        assert (ROOT / "tests" / "scripts" / script).exists() and seed.isdigit(), rs.golden_script
        assert (ROOT / "tests" / "golden" / f"scripted-{name}.txt.gz").exists()
    for seed in (1, 2, 3):
        assert (ROOT / "tests" / "golden" / f"random-{name}-{seed}.txt.gz").exists(), (name, seed)


def test_the_smallest_game_is_the_one_the_doc_shows_and_draws_its_map():
    """Issue 43: docs/architecture.md shows the example's class as it is in tests/examples/tiny_hex/ (so the
    doc cannot drift from the code the tests run), and the renderer, which names no game, draws its map."""
    from render import render_view

    code = (ROOT / "tests" / "examples" / "tiny_hex" / "__init__.py").read_text()
    cls = code[code.index("class TinyHex"):code.index("TINY_HEX = TinyHex()")]
    assert cls in (ROOT / "docs" / "architecture.md").read_text()
    png = render_view(Game.new(TINY_HEX, {}, "map").view(None), TINY_HEX.hexmap)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000


def _pytest(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PALANTIR_EXTRA_BUILTIN=EXAMPLE)
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.heavy
def test_a_sixth_game_registered_is_picked_up_by_every_game_test():
    """Issue 43: the example registered as a sixth built-in game (one line: ``PALANTIR_EXTRA_BUILTIN``, as
    one `BUILTIN` line would) is collected by the architecture, golden, autopilot and fuzz tests with no test
    edited, and a part of each passes for it."""
    assert "tiny-hex" not in BUILTIN  # only in the run below
    collected = _pytest("--collect-only", "-q", *GAME_TESTS)
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    ids = [line for line in collected.stdout.splitlines() if "::" in line]
    for path in GAME_TESTS:
        mine = [i for i in ids if i.startswith(path) and "tiny-hex" in i]
        assert mine, f"{path} does not pick up the sixth game"
    run = _pytest("-q", "-rA", "-k", "tiny-hex", *GAME_TESTS)  # every test of the sixth game (a few seconds)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    for path in GAME_TESTS:
        assert re.search(rf"^PASSED {re.escape(path)}::\S*tiny-hex", run.stdout, re.M), f"{path}: none passed"
