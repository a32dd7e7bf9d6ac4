"""Issue 28 in the terminal (`palantir local`): `/me games`, `/me record`, `/me autoplay`, `/game open` and
`/game takeover` answer as on Discord, privately, and a bad value or a takeover of a held, active seat is
refused (the run fails unless the line expects it)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_console_offers_the_seat_commands(tmp_path):
    script = tmp_path / "seats.txt"
    script.write_text("\n".join([
        "/me games",
        "/me record",
        "/me autoplay on",
        "!expect-error /me autoplay sometimes",
        "/game open",
        "!expect-error /game takeover seat:westernesse user:carol",
        "/me autoplay off",
    ]) + "\n")
    res = run(["local", "gondor", "--seed", "3", "--no-images", "--script", str(script)], tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    assert "[to sauron] **Your games** (1; 1 wait for you):" in out
    assert "[to sauron] **Your record** (every server)" in out
    assert "[to sauron] Autoplay on" in out and "[to sauron] `/me autoplay` takes `on` or `off`." in out
    assert "No game in this server has a free seat or a seat up for takeover." in out
    assert "is held and its holder is playing: it is not up for takeover." in out
    bad = tmp_path / "bad.txt"
    bad.write_text("/game takeover seat:westernesse\n")
    res = run(["local", "gondor", "--seed", "3", "--no-images", "--script", str(bad)], tmp_path)
    assert res.returncode != 0
