"""War of the Ring through `palantir local wotr` (the console, the service, storage): it starts in assist
mode by default, and a scripted five-player game (tests/scripts/wotr_game.txt) runs to its end."""
import functools
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args, stdin=None):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_local_wotr_seed_7_starts_in_assist_mode():
    res = run(["local", "wotr", "--seed", "7", "--no-images"], stdin="/done\nquit\n")
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "War of the Ring (4-5 players) (assist)" in res.stdout
    assert "Saruman is done with the Ring Phase." in res.stdout


SCRIPT = ROOT / "tests" / "scripts" / "wotr_game.txt"
HIDDEN_HEXES = ("W1814", "W2917", "W2620", "W1915")


@functools.cache
def scripted(script: Path = SCRIPT) -> subprocess.CompletedProcess:
    """``script`` played by `palantir local wotr` (text only), once per process: two tests read the scripted
    game's run (issue 43: a suite with margin)."""
    return run(["local", "wotr", "--seed", "7", "--options", "turns=4", "--no-images", "--script", str(script)])


def test_scripted_five_player_game():
    res = scripted()
    out = res.stdout
    assert res.returncode == 0, out[-3000:] + res.stderr[-2000:]
    assert "**Fellowship** `move (a hidden character)`" in out
    assert "Located face down: W2917" in out and "Eregion (Hollin): nobody located" in out  # a hit and misses
    assert "Gondor and Saruman are allied." in out and "Gondor and Fellowship are allied." in out  # CC.2
    assert "[to gondor] **Gondor** (private): Barter b1 agreed" in out  # BB.2 / FF
    assert "Faramir now rules Gondor. (DD.1)" in out  # Denethor's death, the succession
    assert "Rohan may not play 096" in out and "(rule EE)" in out
    assert "Boromir is moved by Fellowship now (Gondor's demand, AA.2)" in out
    assert "Boromir fails to seize the Ring; Frodo keeps it." in out  # 075
    assert "Dark Power moves Nazgul 3 to W2818." in out  # the Nazgul are public pieces (Hidden Movement)
    assert "Lothlorien with 4 Nazgul" in out  # and search where they are, two more each turn
    assert "The last game-turn (4) is over. Winners: Gondor, Rohan." in out  # the continuous conditions held
    channel = [ln for ln in out.splitlines() if not ln.startswith(("[to ", "> ", "["))]
    for hx in HIDDEN_HEXES:  # the Fellowship's walk never reaches the channel
        assert not any(hx in ln for ln in channel), hx
    # the demand reaches Gondor, the Fellowship and the moderator only
    assert not any("demand" in ln.lower() and "Boromir" in ln for ln in channel)
    for seat in ("dark-power", "saruman", "rohan"):
        assert not any(ln.startswith(f"[to {seat}]") and "demand" in ln for ln in out.splitlines())


def _others(out: str) -> list[str]:
    """What the channel and the seats without a right to the Fellowship's whereabouts read."""
    lines = []
    for ln in out.splitlines():
        if ln.startswith(("[to fellowship]", "[to gondor]", "[to gm]", "> ")):
            continue
        if "Turn 3: Search Phase" in ln:
            break
        lines.append(ln)
    return lines


def test_secrecy_over_the_console_two_walks_read_the_same_until_a_search_locates(tmp_path):
    other = tmp_path / "other.txt"
    text = SCRIPT.read_text().replace("W1911 W1814", "W1911 W1812").replace("W1915 W2917", "W2109 W2214")
    other.write_text(text)
    a, b = scripted(), scripted(other)
    assert a.returncode == 0 and b.returncode == 0, b.stdout[-2000:]
    assert a.stdout != b.stdout  # the Fellowship read different walks
    assert _others(a.stdout) == _others(b.stdout) and len(_others(a.stdout)) > 200
