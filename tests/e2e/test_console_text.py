"""Issue 39: the console survives whatever is typed: bytes that are not UTF-8 and lone surrogates (a C
locale's way of reading such bytes) are read as U+FFFD, in the terminal, in a script and through its API."""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FFFD = "\ufffd"
BAD = b"\xff\xed\xa0\x80"  # not UTF-8: a stray byte and the 3-byte form of U+D800


def local(args: list[str], cwd: Path, stdin: bytes, encoding: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING=encoding)
    env.pop("DISCORD_TOKEN", None)
    return subprocess.run([sys.executable, "-m", "bot.cli", "local", "gondor", "--seed", "3", "--no-images", *args],
                          cwd=cwd, env=env, input=stdin, capture_output=True, timeout=300)


def test_a_typed_line_of_bytes_that_are_not_utf8_is_answered(tmp_path):
    """Issue 39: in the terminal (strict UTF-8 input, and a C locale's `surrogateescape` that reads the bytes as
    lone surrogates), a `/roll` whose reason is not UTF-8 is answered with U+FFFD and the console reads on."""
    lines = b"/roll dice:1d6 reason:at the " + BAD + b" gate\n/game status\nquit\n"
    for encoding in ("utf-8:strict", "utf-8:surrogateescape"):
        res = local([], tmp_path, lines, encoding)
        out = res.stdout.decode("utf-8")
        assert res.returncode == 0, (encoding, res.stderr.decode("utf-8", "replace")[-2000:])
        assert "rolls 1d6 (at the " + FFFD in out and "Gondor" in out.split("rolls 1d6", 1)[1], (encoding, out[-2000:])


def test_a_script_with_bytes_that_are_not_utf8_is_played(tmp_path):
    """Issue 39: a script file is read as UTF-8 with U+FFFD for what is not; the line is played, not the run
    ended by a traceback."""
    script = tmp_path / "s.txt"
    script.write_bytes(b"/roll dice:1d6 reason:" + BAD + b"\n!expect-error /order deploy OA1" + BAD + b" 2325\n")
    res = local(["--script", str(script)], tmp_path, b"", "utf-8:strict")
    out = res.stdout.decode("utf-8")
    assert res.returncode == 0, res.stderr.decode("utf-8", "replace")[-2000:]
    assert f"rolls 1d6 ({FFFD}" in out and f"OA1{FFFD}" in out, out[-2000:]


async def test_a_command_with_a_lone_surrogate_is_answered_and_prints_as_utf8(tmp_path):
    """Issue 39: through the console's API, a lone surrogate in a command is U+FFFD in its answer, so what the
    console printed can be written as UTF-8 (a terminal refuses a surrogate)."""
    from bot.service import GameService
    from bot.storage import open_store
    from bot.transports.console import Console

    store = await open_store(str(tmp_path / "c.db"))
    out = io.StringIO()
    con = Console(GameService(store, renderer=None, seed_source=lambda: "c"), "gondor", None, out)
    try:
        await con.setup()
        r = await con.run_command("/roll dice:1d6 reason:\ud800")
        assert r.ok and f"({FFFD})" in r.reply.text, r.reply.text
        r = await con.run_command("/order deploy \udcff 2325")
        assert not r.ok and FFFD in r.reply.text, r.reply.text
        out.getvalue().encode("utf-8")
    finally:
        await store.close()
