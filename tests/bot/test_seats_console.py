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


def test_the_console_clock_checks_every_seat_in_and_runs_the_autopilot_after_each_command(tmp_path):
    """The console has no scheduler: what is due runs after each command (the console's clock). A game
    made with `checkin=` checks in every seat (all at this keyboard) and starts; a seat left during the
    game is played by the autopilot at once (the printed set-up, then `done`), and nothing of the seat
    reaches its former holder (no `[to westernesse]` line once they left; `/secret` refused)."""
    script = tmp_path / "clock.txt"
    script.write_text("\n".join([
        "as westernesse",
        "/game leave",
        "!expect-error /secret",
        "as sauron",
        "/order deploy printed",
        "/done",
        "/game status",
    ]) + "\n")
    res = run(["local", "gondor", "--seed", "3", "--no-images", "--options", "checkin=2 autopilot=1 deadline=24",
               "--script", str(script)], tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    assert "@sauron checks in. Still to check in: Westernesse." in out
    assert "@westernesse checks in; everyone has. The game of **Gondor: The Siege of Minas Tirith** begins." in out
    after = out.split("> /game leave", 1)[1]
    assert "**Westernesse** `deploy printed` (autopilot)" in after and "**Westernesse** `done` (autopilot)" in after
    assert "To act: Sauron (@sauron)." in after.split("> /done", 1)[1]  # the game went on to Sauron's phase
    assert "[to westernesse]" not in after.replace("> /secret\n[to westernesse] You hold no seat in this game.", "")
    assert "cauldron" not in after.split("> /done", 1)[1].lower()  # (the placed cauldrons: Westernesse's secret)


def test_the_console_checks_in_with_game_checkin_in_a_game_made_there(tmp_path):
    script = tmp_path / "checkin.txt"
    script.write_text("\n".join([
        "/game end",
        "/game new ruleset:gondor options:checkin=1",
        "/game join seat:sauron",
        "as westernesse",
        "/game join seat:westernesse",
        "!expect-error /game start",
        "/game checkin",
        "as sauron",
        "/game checkin",
        "!expect-error /game checkin",
    ]) + "\n")
    res = run(["local", "gondor", "--seed", "3", "--no-images", "--script", str(script)], tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "@westernesse checks in. Still to check in: Sauron." in res.stdout
    assert "@sauron checks in; everyone has. The game of **Gondor: The Siege of Minas Tirith** begins." in res.stdout
