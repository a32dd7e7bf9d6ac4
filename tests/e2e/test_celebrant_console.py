"""A complete Field of Celebrant game through `palantir local --script` (the
same service, storage and console as every ruleset), ending in a graded
result (20.x); and the Celebrant map drawn by the hex renderer."""
import os
import subprocess
import sys
from pathlib import Path

from engine.core import Game
from render import render_view
from engine.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "celebrant_game.txt"


def run(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_scripted_complete_game_ends_in_a_graded_result():
    res = run(["local", "celebrant", "--seed", "7", "--script", str(SCRIPT), "--no-images"])
    out = res.stdout
    assert res.returncode == 0, out[-3000:] + res.stderr[-3000:]
    # the generator recorded the result its own engine run reached; the console reaches the same
    want = SCRIPT.read_text().strip().splitlines()[-1].removeprefix("# The end: ")
    # the full reasoning once (the log), then the result in one short line, the winner first (issue 26)
    assert out.count(want) == 1
    assert f"{want}\n**The game is over: Shadow wins a Marginal Victory (20.3)**" in out
    assert any(f"({s})" in want for s in ("20.1", "20.2", "20.3", "20.4"))
    # 13.0 Shadow first; 14.3 each seat told its own chit, privately; 13.21, 14.5, the reveal, 14.6
    assert "Shadow places first, then Westernesse (rule 13.0)" in out
    assert "[to shadow] **Shadow** (private): Your Eotheod chit is" in out
    assert "[to westernesse] **Westernesse** (private): Your Eotheod chit is" in out
    assert "(13.21)." in out and "for the Balchoth" in out
    assert "Westernesse reveals its Eotheod chit" in out and "Eorl and the Eotheod arrive" in out
    assert "uses **" in out  # special abilities announced (17.0)


def test_celebrant_map_renders_deterministically():
    g = Game.new(get_ruleset("celebrant"), seed="r")
    png = render_view(g.view(None), g.ruleset.hexmap)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 1_500_000
    assert png == render_view(g.view(None), g.ruleset.hexmap)
    crop = render_view(g.view("shadow"), g.ruleset.hexmap, around="4208")
    assert crop != png
