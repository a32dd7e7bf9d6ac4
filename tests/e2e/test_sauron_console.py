"""A complete game of Sauron through `palantir local --script` (the same service, storage and console as
every ruleset), from the set-up to a result in victory points, reaching on the way Mortal Combat (22.x),
the One Ring changing hands (7.251, 16.61) and a leader turning evil (16.642, 16.69); and the Sauron map
drawn by the hex renderer."""
import os
import re
import subprocess
import sys
from pathlib import Path

from engine.core import Game
from engine.rulesets import get_ruleset
from render import render_view

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "sauron_game.txt"


def run(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_scripted_complete_game_reaches_mortal_combat_the_ring_evil_and_a_result():
    text = SCRIPT.read_text()
    seed = re.search(r"^# seed: (\d+)$", text, re.M).group(1)
    res = run(["local", "sauron", "--seed", seed, "--script", str(SCRIPT), "--no-images"])
    out = res.stdout
    assert res.returncode == 0, out[-3000:] + res.stderr[-3000:]
    want = text.strip().splitlines()[-1].removeprefix("# The end: ")
    assert out.count(want) == 1  # the full reasoning once; then the short line, the winner first (issue 26)
    assert f"{want}\n**The game is over: Westernesse wins: a Decisive Victory, 193 victory points to 39**" in out
    assert "Victory points: Sauron" in want
    assert "ISI challenges GOR to Mortal Combat (22.0)" in out
    assert "GOR accepts ISI's challenge" in out
    assert "Mortal Combat between ISI and GOR" in out and "(22.2)" in out
    assert "ISI takes the One Ring from SAU and puts it on (7.251)" in out
    assert "Sauron has lost the Ring: +20 demoralization" in out  # 16.61
    assert "ISI becomes evil" in out and "(16.643, 16.69)" in out
    assert "Set-up is complete (13.0)." in out and "Game-Turn 15 (night)" in out


def test_local_sauron_seed_7_starts():
    script = ROOT / "tests" / "scripts" / "sauron_setup.txt"
    res = run(["local", "sauron", "--seed", "7", "--script", str(script), "--no-images"])
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "Game-Turn 1 (day): First Magic Leader Phase (Sauron)" in res.stdout


def test_sauron_map_renders_deterministically():
    g = Game.new(get_ruleset("sauron"), seed="r")
    png = render_view(g.view(None), g.ruleset.hexmap)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 1_500_000
    assert png == render_view(g.view(None), g.ruleset.hexmap)
