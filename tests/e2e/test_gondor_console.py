"""A complete game of Gondor through `palantir local gondor --script` (the
same service, storage and console as on Discord), from set-up to the victory
decision of 20.1, with the siege rules in play on the way. The script is
written by tests/scripts/make_gondor_game.py. The game's maps are read from
its single drawing in the test process (tests/scripted_helpers.py's drawn,
shared with the golden output, the PNG bound and the phone preview: issue 43)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.heavy  # a long unit (5 s or more on one worker): handed out first under xdist (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "gondor_game.txt"


def run(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.scripted_game("gondor")  # its maps: the game's single drawing, shared (tests/scripted_helpers.py)
def test_scripted_complete_gondor_game_ends_in_a_victory_decision():
    res = run(["local", "gondor", "--seed", "7", "--script", str(SCRIPT), "--no-images"])
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    assert "Victory (20.1)" in out
    assert "Westernesse prevents" in out or "Sauron achieves" in out
    # the full reasoning once; the result in one short line, the winner first (issue 26), in the
    # channel's post, the map's caption and its header
    full = next(ln for ln in out.splitlines() if "Victory (20.1): A, the Minas Tirith" in ln)
    assert out.count(full) == 1 and len(full) > 300
    short = "Westernesse wins: Minas Tirith holds (20.1)" if "Westernesse prevents" in full else \
        "Sauron wins: Minas Tirith falls (20.1)"
    assert f"**The game is over: {short}**" in out and f"Map: The game is over: {short}." in out
    # the siege rules were in play (16.x, 17.13)
    for needle in ("BREACHED for the rest of the game (16.22, 16.27)", "hurls a severed head",
                   "picks up an oil counter", "sets a ladder against", "casts Operate Grond",
                   "The fires outside the city burn out", "gives a secret standing order for its oil",
                   "pours boiling oil"):
        assert needle in out, needle
    # Westernesse's secrets went to Westernesse only (16.71, 16.74)
    assert all(line.startswith("[to westernesse]") for line in out.splitlines() if "REAL" in line)
    # the secret orders reach the channel masked; only the console's echo of the typed line shows them
    assert not [ln for ln in out.splitlines() if "`pour GS" in ln and not ln.startswith("[to westernesse]")]
    # the same game with its maps (the console, service and renderer of `palantir local --out`, in this
    # process: tests/scripted_helpers.py's drawn, the game drawn once for every test that reads its maps)
    from tests.scripted_helpers import drawn

    with_maps = drawn("gondor", "7", SCRIPT.name)
    pngs = [size for ext, size in with_maps.saved if ext == "png"]
    assert len(pngs) > 100 and all(size < 2_000_000 for size in pngs)
    # the same seed and script give the same game, the maps drawn or not
    strip = [ln for ln in out.splitlines() if "image" not in ln and ".png" not in ln]
    strip2 = [ln for ln in with_maps.text.split("\n== replay digest ")[0].splitlines()
              if "image" not in ln and ".png" not in ln]
    assert strip == strip2
