"""Issue 41 in the terminal (`palantir local`): `/game rematch` (its buttons typed as `/game rematch confirm` or
`decline`, each seat a separate player), `/template save|list|delete`, `/game new template:` and `/me digest`
answer as on Discord; bad input is refused (the run fails unless the line expects it); a digest that falls due
prints as a private message at the console's next command."""
import io
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from bot.service import GameService
from bot.storage import Store
from bot.transports.console import Console
from tests.clock import Clock

ROOT = Path(__file__).resolve().parents[2]


def run(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_console_offers_rematch_templates_and_the_digest(tmp_path):
    script = tmp_path / "between.txt"
    script.write_text("\n".join([
        "!expect-error /game rematch",  # nothing has ended here yet
        "/template save name:Quick Siege ruleset:gondor options:deadline=12 takeover=vote",
        "!expect-error /template save name:quick siege ruleset:gondor",  # the same name, another case
        "!expect-error /template save name:Odd ruleset:sauron-expanded options:siege=maybe",
        "/template list",
        "/me digest at:08:00",
        "!expect-error /me digest at:25:00",
        "/game end",
        "/game rematch swap:true",  # sauron's player proposes; westernesse's confirms
        "as westernesse",
        "/game rematch confirm",
        "/game status",  # the swapped game runs: its sides follow their new holders
        "/game end",
        "/game rematch",
        "as sauron",
        "/game rematch decline",
        "!expect-error /game rematch confirm",
        "/game new template:quick siege options:deadline=48",
        "!expect-error /template delete name:QUICK SIEGE",  # sauron's player now is not who saved it
        "as westernesse",
        "/template delete name:QUICK SIEGE",
        "/me digest off",
    ]) + "\n")
    res = run(["local", "gondor", "--seed", "3", "--no-images", "--script", str(script)], tmp_path)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    out = res.stdout
    assert "No game here has ended" in out
    assert "saved the set-up **Quick Siege**" in out and "named `Quick Siege` already" in out
    assert "sauron-expanded: `siege` takes on|off, not `maybe`" in out
    assert "[to sauron] **Saved set-ups in this server** (1; page 1 of 1):" in out
    assert "[to sauron] Daily digest on: every day at 08:00 UTC" in out
    assert "proposes a rematch of **Gondor: The Siege of Minas Tirith** with the same options, sides swapped: " \
           "Sauron @westernesse, Westernesse @sauron" in out
    assert "Everyone has confirmed" in out
    assert "declines the rematch" in out and "This rematch proposal is over." in out
    assert "New game of **Gondor: The Siege of Minas Tirith** in this channel" in out
    assert "deleted the set-up **Quick Siege**" in out and "[to westernesse] Daily digest off." in out


async def test_a_digest_due_prints_at_the_consoles_next_command(tmp_path):
    """Issue 41: the console's clock runs a digest that fell due, printed privately (`[to <seat>]`), once."""
    t0 = datetime(2024, 7, 1, 9, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    store = await Store.open(str(tmp_path / "c.db"))
    try:
        svc = GameService(store, renderer=None, seed_source=lambda: "local-3", clock=Clock(t0))
        stream = io.StringIO()
        console = Console(svc, "gondor", None, stream)
        assert await console.setup() is None
        assert (await console.run_command("/me digest at:10:00")).ok
        await console.run_command("/me record")
        assert "Your daily digest" not in stream.getvalue()
        svc.table.clock.t = t0 + 3601
        await console.run_command("/me record")
        await console.run_command("/me record")
        printed = [line for line in stream.getvalue().splitlines() if "Your daily digest" in line]
        assert len(printed) == 1 and printed[0].startswith("[to sauron] ")
        assert "Waiting for you" in stream.getvalue() and "Sauron" in stream.getvalue()
    finally:
        await store.close()
