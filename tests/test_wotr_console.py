"""War of the Ring through `palantir local wotr` (the console, the service, storage): it starts in assist
mode by default, and a scripted five-player game (tests/scripts/wotr_game.txt) runs to its end."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(args, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_local_wotr_seed_7_starts_in_assist_mode():
    res = run(["local", "wotr", "--seed", "7", "--no-images"], stdin="/done\nquit\n")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "War of the Ring (4-5 players) (assist)" in res.stdout
    assert "Saruman is done with the Ring Phase." in res.stdout
