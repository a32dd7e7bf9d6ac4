"""`palantir run` when Discord cannot be used (issue 20): no route, a refused token, an intent the
application was not granted. Each gives one clear line on stderr and a non-zero exit, never a
traceback. The bot runs as its own process, as a server admin would start it."""
import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again: nothing listens there


async def run(tmp_path: Path, token: str, api_base: str) -> tuple[int, str]:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[discord]\ntoken = "{token}"\napi_base = "{api_base}"\nsync_global = false\n'
                   f'[storage]\npath = "{tmp_path / "s.db"}"\n')
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "run", "--config", str(cfg),
                                                cwd=str(tmp_path), env=env, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
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
