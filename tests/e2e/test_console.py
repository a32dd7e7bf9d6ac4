"""`palantir local` in --script mode, as a subprocess (the real CLI)."""
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "scripts" / "gondor_setup.txt"


def run(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_script_plays_the_gondor_set_up_and_images_are_byte_identical(tmp_path):
    outs = []
    for k in ("a", "b"):
        res = run(["local", "gondor", "--seed", "7", "--script", str(SCRIPT), "--out", str(tmp_path / k)], ROOT)
        assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
        outs.append(res.stdout.replace(str(tmp_path / k), "OUT"))
    assert outs[0] == outs[1]
    text = outs[0]
    assert "Set-up is complete (13.0)." in text
    # private lines are marked; the real cauldrons appear only in lines to Westernesse
    secret = [ln for ln in text.splitlines() if "real cauldrons" in ln.lower()]
    assert secret and all(ln.startswith("[to westernesse]") for ln in secret)
    a = sorted((tmp_path / "a").glob("*.png"))
    b = sorted((tmp_path / "b").glob("*.png"))
    assert len(a) >= 3 and [p.name for p in a] == [p.name for p in b]
    for x, y in zip(a, b):
        assert hashlib.sha256(x.read_bytes()).digest() == hashlib.sha256(y.read_bytes()).digest()
    assert any("westernesse-view" in p.name for p in a)  # the private map from `/game map mine:true`


def test_a_refused_line_fails_the_run_unless_expected(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("/order deploy OA1 1905\n")
    res = run(["local", "gondor", "--seed", "1", "--no-images", "--script", str(bad)], tmp_path)
    assert res.returncode == 1 and "refused" in res.stdout
    ok = tmp_path / "ok.txt"
    ok.write_text("# a comment\n!expect-error /order deploy OA1 1905\n/order deploy OA1 2325\n")
    res = run(["local", "gondor", "--seed", "1", "--no-images", "--script", str(ok)], tmp_path)
    assert res.returncode == 0, res.stdout
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("!expect-error /order deploy OA1 2325\n")
    res = run(["local", "gondor", "--seed", "1", "--no-images", "--script", str(wrong)], tmp_path)
    assert res.returncode == 1 and "expected an error" in res.stdout


def test_db_resumes_a_local_game(tmp_path):
    s1 = tmp_path / "one.txt"
    s1.write_text("/order deploy OA1 2325\n")
    db = tmp_path / "g.db"
    assert run(["local", "gondor", "--seed", "3", "--no-images", "--db", str(db), "--script", str(s1)],
               tmp_path).returncode == 0
    s2 = tmp_path / "two.txt"
    s2.write_text("/game log\n!expect-error /order deploy OA2 2325\n")
    res = run(["local", "gondor", "--seed", "3", "--no-images", "--db", str(db), "--script", str(s2)], tmp_path)
    assert res.returncode == 0 and "Resuming game" in res.stdout and "deploy OA1 2325" in res.stdout


def test_run_without_a_token_falls_back_to_the_console(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    res = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=tmp_path, env=env, input="/game status\nquit\n",
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0
    assert "No Discord token" in res.stderr and "Gondor" in res.stdout


async def test_the_terminal_takes_every_option_form_discord_does_and_game_sub(tmp_path):
    """Issue 20: `/odds text:roll 3` (a value runs on to the next option), `/roll` with a reason of
    several words, `/help topic:`, and `/game sub` (a new local player takes a seat)."""
    import io

    from bot.service import GameService
    from bot.storage import open_store
    from bot.transports.console import Console
    from tests import pbp_helpers  # noqa: F401  (tiny-pbp, whose odds answer `roll N`)

    store = await open_store(str(tmp_path / "c.db"))
    out = io.StringIO()
    con = Console(GameService(store, renderer=None, seed_source=lambda: "c"), "tiny-pbp", None, out)
    await con.setup()
    r = await con.run_command("/odds text:roll 3")
    assert r.ok and "4/6" in r.reply.text, r.reply.text
    r = await con.run_command("/roll dice:2d6 reason:to cross the ford at night")
    assert r.ok and "to cross the ford at night" in r.reply.text, r.reply.text
    r = await con.run_command("/order text:roll")
    assert r.ok, r.reply.text
    assert (await con.run_command("/done")).ok
    r = await con.run_command("/game sub seat:blue user:carol")
    assert r.ok and "now holds **Blue**" in r.reply.text, r.reply.text
    assert "@carol now holds **Blue** (was @blue)" in out.getvalue()
    await con.run_command("as blue")
    r = await con.run_command("/order roll")  # carol speaks for blue now
    assert r.ok, r.reply.text
    row = await store.live_game(con.ctx().channel_id)
    assert (await store.actions(row.id))[-1].user_id == con.names["carol"]
    r = await con.run_command("/game sub seat:blue")
    assert not r.ok and "user:" in r.reply.text
    await store.close()
