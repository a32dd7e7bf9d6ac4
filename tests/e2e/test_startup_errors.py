"""`palantir run` when Discord cannot be used (issue 20): no route, a refused token, an intent the
application was not granted. Each gives one clear line on stderr and a non-zero exit, never a
traceback. The bot runs as its own process, as a server admin would start it. Likewise (issue 39) a
database that cannot be used (status 4), SIGTERM (a normal stop: status 0, no -wal left), and every
bad argument of `palantir local`, `run`, `db copy` and `verify` (status 2)."""
import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again: nothing listens there


async def run(tmp_path: Path, token: str, api_base: str, storage: str | None = None,
              server: FakeDiscord | None = None) -> tuple[int, str]:
    """`palantir run` as its own process, to its end (within a generous 60 s: it must exit by itself);
    with ``server``, once it is connected there it is sent SIGTERM, as a service manager stops it."""
    cfg = tmp_path / "config.toml"
    storage = storage or f'path = "{tmp_path / "s.db"}"'
    cfg.write_text(f'[discord]\ntoken = "{token}"\napi_base = "{api_base}"\nsync_global = false\n'
                   f'[storage]\n{storage}\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "run", "--config", str(cfg),
                                                cwd=str(tmp_path), env=env, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        if server is not None:
            await server.wait_connected(timeout=60)
            proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    except asyncio.TimeoutError:
        proc.kill()
        raise
    return proc.returncode, err.decode()


def one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip() and " WARNING " not in ln and " INFO " not in ln]
    assert len(lines) == 1, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    return lines[0]


async def test_no_route_to_discord_is_one_line(tmp_path):
    code, err = await run(tmp_path, "abc.def", f"http://127.0.0.1:{free_port()}/api/v10")
    line = one_line(err)
    assert code == 3 and line.startswith("palantir: Cannot reach Discord at http://127.0.0.1:"), line


@pytest.mark.parametrize("case", ["token", "intents"])
async def test_a_refused_token_or_intent_is_one_line(tmp_path, case):
    server = FakeDiscord()
    await server.start()
    try:
        token = server.token
        if case == "token":
            token = "someone-elses-token"
        else:
            server.disallowed_intents = 1  # GUILDS: refused as if it were a privileged intent not granted
        code, err = await run(tmp_path, token, server.api_base)
    finally:
        await server.stop()
    line = one_line(err)
    assert code == 3
    if case == "token":
        assert "Discord refused the token" in line, line
    else:
        assert "Discord refused a privileged intent" in line, line


# ----------------------------------------------------------------------------- issue 39: the database
@pytest.mark.parametrize("case", ["not-a-database", "empty", "postgresql"])
async def test_a_database_that_cannot_be_used_is_one_line_status_4_and_the_process_exits(tmp_path, case):
    """Issue 39: a file that is not a database, a 0-byte file, a PostgreSQL server that cannot be reached:
    one line naming it and what to do, status 4, and the process exits by itself (no thread of the store
    keeping it alive); the password of the url is not shown."""
    db = tmp_path / "s.db"
    storage = None
    if case == "not-a-database":
        db.write_text("not a database\n" * 100)
    elif case == "empty":
        db.touch()
    else:
        storage = f'url = "postgresql://palantir:s3cret@127.0.0.1:{free_port()}/palantir"'
    server = FakeDiscord()
    await server.start()
    try:
        code, err = await run(tmp_path, server.token, server.api_base, storage)
    finally:
        await server.stop()
    line = one_line(err)
    assert code == 4, err[-3000:]
    if case == "postgresql":
        assert "cannot reach PostgreSQL at postgresql://palantir:***@127.0.0.1:" in line and "s3cret" not in err, line
    else:
        assert line.startswith(f"palantir: {db} is ") and ("not a SQLite database" in line or "0 bytes" in line), line
        assert not os.path.exists(f"{db}-wal"), "the refused file was opened for writing"


async def test_sigterm_is_a_normal_stop_that_leaves_no_wal(tmp_path):
    """Issue 39: a service manager stops the bot with SIGTERM: the bot closes as on Ctrl-C (status 0), and
    the store's close leaves the database whole, with no -wal or -shm beside it."""
    server = FakeDiscord()
    await server.start()
    try:
        code, err = await run(tmp_path, server.token, server.api_base, server=server)
    finally:
        await server.stop()
    assert code == 0 and "Traceback" not in err, err[-3000:]
    assert (tmp_path / "s.db").exists()
    assert not [f for f in os.listdir(tmp_path) if f.endswith(("-wal", "-shm"))], os.listdir(tmp_path)


async def test_sigterm_stops_a_local_game_waiting_for_a_line(tmp_path):
    """Issue 39: `palantir local` waiting at its prompt, sent SIGTERM: a normal stop (status 0), the game's file
    closed whole with no -wal beside it; not killed by the signal, nor held by the thread reading the line."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "local", "gondor", "--no-images",
                                                "--db", str(tmp_path / "g.db"), cwd=str(tmp_path), env=env,
                                                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        seen = b""
        while b"]> " not in seen:  # the prompt: the game is set up and waits for a line
            chunk = await asyncio.wait_for(proc.stdout.read(4096), 60)
            assert chunk, (seen + await proc.stderr.read()).decode()[-3000:]
            seen += chunk
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 60)  # (stdin stays open: no end of input)
    except asyncio.TimeoutError:
        proc.kill()
        raise
    assert proc.returncode == 0 and "Traceback" not in err.decode(), err.decode()[-3000:]
    assert (tmp_path / "g.db").exists()
    assert not [f for f in os.listdir(tmp_path) if f.endswith(("-wal", "-shm"))], os.listdir(tmp_path)


# ----------------------------------------------------------------------------- issue 39: the terminal
def palantir(tmp_path: Path, *args: str, prefix: tuple = ()) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    out = subprocess.run([*prefix, sys.executable, "-m", "bot.cli", *args], cwd=str(tmp_path), env=env,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    return out.returncode, out.stderr


BAD_ARGUMENTS = {
    "local: unknown ruleset": (["local", "gondr"], "invalid choice: 'gondr'"),
    "local: --script of a missing file": (["local", "gondor", "--script", "nope.txt"], "--script: nope.txt: no such file"),
    "local: --script names a folder": (["local", "gondor", "--script", "."], "--script: . is a folder"),
    "local: --db in a missing folder": (["local", "gondor", "--db", "nowhere/x.db"], "nowhere does not exist"),
    "local: --db names a folder": (["local", "gondor", "--db", "."], ". is a folder, not a database file"),
    "local: --out names a file": (["local", "gondor", "--out", "afile"], "--out: afile is a file, not a folder"),
    "local: --seed without its value": (["local", "gondor", "--seed"], "--seed: expected one argument"),
    "local: an unknown flag": (["local", "gondor", "--sed", "7"], "unrecognized arguments: --sed 7"),
    "run: --config of a missing file": (["run", "--config", "nope.toml"], "config file nope.toml not found"),
    "run: --config names a folder": (["run", "--config", "."], "cannot read config file ."),
    "run: a bad number in the config": (["run", "--config", "bad.toml"], "dev_guild_ids must be a list of server ids"),
    "db copy: a missing SQLite source": (["db", "copy", "--from", "sqlite:///typo.db", "--to", "sqlite:///copy.db"],
                                         "there is no database at typo.db"),
    "db copy: a url of no backend": (["db", "copy", "--from", "mysql://x/y", "--to", "sqlite:///copy.db"],
                                     "unknown storage url `mysql://x/y`"),
    "db copy: a target in a missing folder": (["db", "copy", "--from", "sqlite:///src.db", "--to",
                                               "sqlite:///nowhere/copy.db"], "nowhere does not exist"),
    "db copy: no --to": (["db", "copy", "--from", "sqlite:///src.db"], "the following arguments are required: --to"),
    "verify: a missing file": (["verify", "nope.json"], "nope.json: no such file"),
    "verify: not JSON": (["verify", "afile"], "cannot read afile"),
    "verify: JSON but not an export": (["verify", "list.json"], "list.json is not a palantir export"),
    "an unknown command": (["play"], "invalid choice: 'play'"),
}


@pytest.mark.parametrize("case", list(BAD_ARGUMENTS))
def test_a_bad_argument_is_one_line_and_status_2(tmp_path, case):
    """Issue 39: every bad flag or argument of `palantir local`, `run`, `db copy` and `verify` (missing
    files and folders, a file where a folder belongs or the reverse, unknown rulesets and urls, a bad
    number) is one line on stderr, status 2, no traceback; and it creates nothing (a SQLite url's typo
    made an empty database there and was reported copied and verified)."""
    args, says = BAD_ARGUMENTS[case]
    (tmp_path / "afile").write_text("not json, not a folder\n")
    (tmp_path / "list.json").write_text("[1, 2]\n")
    (tmp_path / "bad.toml").write_text('[discord]\ntoken = "x"\ndev_guild_ids = ["my server"]\n')
    if "src.db" in " ".join(args):
        subprocess.run([sys.executable, "-c", "import sqlite3; c = sqlite3.connect('src.db'); c.execute('CREATE TABLE t (x)');"
                        " c.close()"], cwd=str(tmp_path), check=True)
    before = sorted(os.listdir(tmp_path))
    code, err = palantir(tmp_path, *args)
    line = one_line(err)
    assert code == 2 and says in line, (code, err[-3000:])
    assert sorted(os.listdir(tmp_path)) == before, "a refused command left a file"


@pytest.mark.parametrize("flag", ["--out", "--db"])
def test_an_unwritable_place_is_one_line_and_status_2(tmp_path, flag):
    """Issue 39: `palantir local --out` or `--db` in a folder this user cannot write: one line, status 2."""
    from tests.storage.test_sqlite_refusals import without_override

    locked = tmp_path / "locked"
    locked.mkdir()
    target = locked / ("maps" if flag == "--out" else "game.db")
    os.chmod(locked, 0o555)
    try:
        code, err = palantir(tmp_path, "local", "gondor", flag, str(target), "--script", os.devnull,
                             prefix=tuple(without_override()))
    finally:
        os.chmod(locked, 0o755)
    line = one_line(err)
    assert code == 2 and str(target) in line, (code, err[-3000:])
    assert not target.exists()


async def test_a_damaged_db_for_the_terminal_is_one_line_and_status_4(tmp_path):
    """Issue 39: `palantir local --db` of a file that is not a database: one line, status 4, and the
    process exits (it printed a traceback and never exited: aiosqlite's thread kept it alive)."""
    (tmp_path / "game.db").write_bytes(b"\x00garbage" * 500)
    code, err = await asyncio.to_thread(palantir, tmp_path, "local", "gondor", "--db", "game.db", "--script", os.devnull)
    line = one_line(err)
    assert code == 4 and line == ("palantir: game.db is not a SQLite database: name the right file, or restore it "
                                  "from a backup"), line
