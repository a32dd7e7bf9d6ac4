"""A complete expanded game of Sauron (seed 004's rematch) through `palantir local sauron-expanded --script`
(issue 27: no scripted expanded game shipped): from the default set-up (the three catapults in the
fortifications, the armies apart) to the result at the end of Game-Turn 18, with catapult fire on the way.
The script is written by tests/scripts/make_sauron_expanded_game.py."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "tests" / "scripts" / "sauron_expanded_game.txt"


def test_scripted_expanded_game_plays_to_a_result():
    text = SCRIPT.read_text()
    seed = re.search(r"^# seed: (\d+)$", text, re.M).group(1)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    res = subprocess.run([sys.executable, "-m", "bot.cli", "local", "sauron-expanded", "--seed", seed, "--script",
                          str(SCRIPT), "--no-images"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    out = res.stdout
    assert res.returncode == 0, out[-3000:] + res.stderr[-3000:]
    want = text.strip().splitlines()[-1].removeprefix("# The end: ")
    assert want in out and "**The game is over:" in out
    assert "Set-up is complete (13.0)." in out and "Game-Turn 18" in out
    assert re.search(r"Sauron: CT\d \(Catapult e-1-Z\) fires at ", out)  # the mountain catapults in action
