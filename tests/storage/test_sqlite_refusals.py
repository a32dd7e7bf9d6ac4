"""A SQLite file that cannot be used is refused in one line naming the file and what to do, changes
nothing and leaves nothing running (issue 39): not a database, damaged (cut short), 0 bytes, a log
(``-wal``) of another database beside it, locked by another process, unwritable; a log of its own
left by a crash is taken back; a close leaves the file whole and no ``-wal``/``-shm``."""
import asyncio
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.storage import StorageError, open_store

ROOT = Path(__file__).resolve().parents[2]

CRASH = """
import asyncio, os, sqlite3, sys
from bot.storage import open_store

async def main(path, games, tag):
    s = await open_store(path)
    for i in range(games):
        await s.create_game(channel_id=1000 + i, guild_id=1, ruleset="gondor", options={}, seed=f"{tag}{i}",
                            commitment="c", creator_id=1, now=1.0, initial_state={"tag": tag * (20 + i)})
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()  # the log copied into the file: its next write restarts it
    con.close()
    await s.set_setting("last", tag)  # a new round of the log, over the first frames of the one before
    os._exit(0)  # a crash: nothing closed, the log and its -shm left beside the file

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
"""


def crashed(path: Path, games: int, tag: str) -> Path:
    """A palantir database whose process died without closing (its -wal and -shm left)."""
    subprocess.run([sys.executable, "-c", CRASH, str(path), str(games), tag], cwd=str(ROOT), check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert os.path.getsize(f"{path}-wal") > 0
    return path


def gone(threads: set) -> bool:
    """Whether every thread not in ``threads`` has ended (waited for: the store's ends with its close)."""
    for t in set(threading.enumerate()) - threads:
        t.join(timeout=60)
    return set(threading.enumerate()) <= threads


def digest(*paths) -> list:
    return [hashlib.sha256(Path(p).read_bytes()).hexdigest() if os.path.exists(p) else None for p in paths]


async def refused(path, status: int = 4) -> str:
    """The open's refusal: a StorageError of one line naming the file, no thread of the store left running,
    and the file (with its -wal and -shm) as it was."""
    before = digest(path, f"{path}-wal", f"{path}-shm")
    threads = set(threading.enumerate())
    with pytest.raises(StorageError) as e:
        await open_store(str(path))
    line = str(e.value)
    assert "\n" not in line and str(path) in line and e.value.status == status, (line, e.value.status)
    assert gone(threads), "a thread of the refused open is still running"
    assert digest(path, f"{path}-wal", f"{path}-shm") == before, "the refused open changed a file"
    return line


async def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    """Issue 39: a file that is not a database is refused in one line, not a traceback and a process that never exits."""
    p = tmp_path / "notes.db"
    p.write_text("these are my notes, not a database\n" * 20)
    assert "is not a SQLite database" in await refused(p)


async def test_an_empty_file_is_refused_not_started_empty(tmp_path):
    """Issue 39: a 0-byte file (SQLite would start it as a new, empty database) is refused."""
    p = tmp_path / "palantir.db"
    p.touch()
    assert "empty file (0 bytes)" in await refused(p)
    assert os.path.getsize(p) == 0


async def forty_games(p: Path) -> Path:
    """A closed database of 40 games, each state about 2 kB: pages enough to damage."""
    s = await open_store(str(p))
    for i in range(40):
        await s.create_game(channel_id=i + 1, guild_id=1, ruleset="gondor", options={}, seed=f"s{i}",
                            commitment="c", creator_id=1, now=1.0, initial_state={"x": "y" * 2000})
    await s.close()
    return p


async def test_a_file_cut_short_is_refused_as_damaged(tmp_path):
    """Issue 39: a damaged file (cut short, as by a full disk or a copy broken off) is refused."""
    p = await forty_games(tmp_path / "palantir.db")
    with open(p, "r+b") as f:
        f.truncate(os.path.getsize(p) // 2)
    assert "is damaged" in await refused(p)


async def test_a_file_damaged_inside_is_refused_at_open_not_met_later(tmp_path):
    """Issue 39: a file damaged inside (a page overwritten: a bad disk, a copy that went wrong), of the right
    length and with no log beside it, is refused when the store opens (``PRAGMA quick_check``), not met by the
    first order that reads that page."""
    p = await forty_games(tmp_path / "palantir.db")
    size = os.path.getsize(p)
    with open(p, "r+b") as f:  # the middle pages written over with garbage; the length unchanged
        f.seek(size // 2)
        f.write(b"\xff\x00garbage" * 1000)
    assert os.path.getsize(p) == size and not os.path.exists(f"{p}-wal")
    assert "is damaged" in await refused(p)


async def test_a_log_of_another_database_beside_the_file_is_refused(tmp_path):
    """Issue 39: the database replaced (a backup put back) while another database's -wal lies beside it:
    SQLite would apply that log silently (a mixture of the two); it is refused, whether its -shm is there
    or not, and the database's own log, left by a crash, is taken back with everything it held."""
    mine = crashed(tmp_path / "mine.db", 60, "m")
    other = crashed(tmp_path / "other.db", 3, "o")
    for keep_shm in (True, False):
        p = tmp_path / f"replaced-{keep_shm}.db"
        shutil.copy(other, p)  # the file replaced by another database ...
        shutil.copy(f"{mine}-wal", f"{p}-wal")  # ... while the log of the one before lies beside it
        if keep_shm:
            shutil.copy(f"{mine}-shm", f"{p}-shm")
        assert f"{p}-wal is not the log of {p}" in await refused(p)
    s = await open_store(str(mine))  # its own log: taken back
    try:
        assert (await s._one("SELECT COUNT(*) FROM games"))[0] == 60
        assert await s.get_setting("last") == "m"
    finally:
        await s.close()


CRASH_AT_ONCE = """
import asyncio, os, sys
from bot.storage import open_store
from bot.storage.sqlite import Checkpointer

Checkpointer.INTERVAL = 3600  # the process dies before the checkpoint thread's first round: its log copied nothing

async def main(path, tag):
    s = await open_store(path)
    note = "palantir-log-tie:" + "ab" * 16 + ":" + "0" * 20  # a player's words that read as another database's stamp
    await s.create_game(channel_id=7, guild_id=1, ruleset="gondor", options={}, seed=tag, commitment="c", creator_id=1,
                        now=1.0, initial_state={"tag": tag, "note": note})
    os._exit(0)

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


def crashed_at_once(path: Path, tag: str) -> Path:
    """A database whose process died within its first quarter second of writing: its log has nothing in the file
    to be known by (no frame copied yet, no round before), so only the store's own tie tells whose it is."""
    subprocess.run([sys.executable, "-c", CRASH_AT_ONCE, str(path), tag], cwd=str(ROOT), check=True, timeout=120,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert os.path.getsize(f"{path}-wal") > 0
    return path


async def games_of(path: Path) -> list[str]:
    s = await open_store(str(path))
    try:
        return [json.loads(r[0])["tag"] for r in await s._all("SELECT state FROM snapshots ORDER BY game_id")]
    finally:
        await s.close()


async def test_a_log_that_copied_nothing_yet_is_still_known_by_its_database(tmp_path):
    """Issue 39: a log whose process died before any of it was copied into the file, beside a file replaced
    (another database; an older copy of its own, a backup put back) is refused: each commit carries its
    database's id and count (the log's tie, bot/storage/sqlite.py: LOG_TIE). The database's own log is taken
    back, though a player's words in it read like another database's stamp."""
    other = await forty_games(tmp_path / "other.db")
    new = crashed_at_once(tmp_path / "new.db", "n")  # a new database, dead at once
    p = tmp_path / "replaced.db"
    shutil.copy(other, p)
    shutil.copy(f"{new}-wal", f"{p}-wal")
    assert f"{p}-wal is not the log of {p} (it was written by another database)" in await refused(p)

    mine = tmp_path / "mine.db"  # a database that lived, a backup of it kept, then more games and a crash
    s = await open_store(str(mine))
    await s.set_setting("k", "v")
    await s.close()
    backup = tmp_path / "backup.db"
    shutil.copy(mine, backup)
    s = await open_store(str(mine))
    await s.set_setting("k", "w")
    await s.close()
    crashed_at_once(mine, "m")
    assert b"palantir-log-tie:" + b"ab" * 16 in Path(f"{mine}-wal").read_bytes()  # the player's words are in the log
    shutil.copy(backup, p)  # the backup put back, the log of the later database beside it
    shutil.copy(f"{mine}-wal", f"{p}-wal")
    assert f"{p}-wal is not the log of {p} (the database has" in await refused(p)

    assert await games_of(new) == ["n"] and await games_of(mine) == ["m"]  # their own logs: taken back


async def test_a_log_without_its_database_is_refused(tmp_path):
    """Issue 39: the file gone (or an empty one put in its place) with its -wal left: refused, not a new, empty start."""
    mine = crashed(tmp_path / "mine.db", 5, "m")
    os.remove(mine)
    with pytest.raises(StorageError) as e:
        await open_store(str(mine))
    assert "without its database" in str(e.value) and not mine.exists()
    mine.touch()
    assert "empty file (0 bytes)" in await refused(mine)


async def test_a_file_another_process_holds_locked_is_refused(tmp_path, monkeypatch):
    """Issue 39: another process holds the file locked (an exclusive lock): refused once SQLite's wait
    (``busy_timeout``, ``SqliteStore.OPEN_WAIT_MS``: 5 s, a fifth of it here) is over, in one line, nothing
    left running."""
    from bot.storage.sqlite import SqliteStore

    monkeypatch.setattr(SqliteStore, "OPEN_WAIT_MS", 1000)
    p = tmp_path / "palantir.db"
    await (await open_store(str(p))).close()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys\n"
        f"con = sqlite3.connect({str(p)!r}, isolation_level=None)\n"
        "con.execute('PRAGMA locking_mode=EXCLUSIVE')\n"
        "con.execute('BEGIN EXCLUSIVE')\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        threads = set(threading.enumerate())
        began = time.monotonic()
        with pytest.raises(StorageError) as e:
            await open_store(str(p))
        assert time.monotonic() - began >= 0.9  # the lock was waited for (SQLite's busy_timeout), then refused
        assert "is locked by another process" in str(e.value) and str(p) in str(e.value)
        assert gone(threads)
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)


UNWRITABLE = """
import asyncio, sys
from bot.storage import StorageError, open_store

async def main(path):
    try:
        s = await open_store(path)
    except StorageError as e:
        print(e.status, e)
        return
    await s.close()
    print("opened")

asyncio.run(main(sys.argv[1]))
"""


def without_override() -> list[str]:
    """A command prefix under which file permissions hold: root's override taken away (setpriv)."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv: permissions cannot be made to hold")
    return ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search", "--"]


@pytest.mark.parametrize("what", ["file", "folder"])
def test_an_unwritable_file_or_folder_is_refused(tmp_path, what):
    """Issue 39: a read-only file, or a file in a read-only folder, is refused in one line (status 2: the
    place is wrong), in a process that then exits; the file is left as it was."""
    folder = tmp_path / "data"
    folder.mkdir()
    p = folder / "palantir.db"
    asyncio.run(_make(p))
    os.chmod(p if what == "file" else folder, 0o444 if what == "file" else 0o555)
    before = digest(p)
    try:
        out = subprocess.run([*without_override(), sys.executable, "-c", UNWRITABLE, str(p)], cwd=str(ROOT),
                             env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=120)
    finally:
        os.chmod(folder, 0o755)
        os.chmod(p, 0o644)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert out.stdout.startswith("2 ") and str(p) in out.stdout and len(out.stdout.splitlines()) == 1, out.stdout
    assert digest(p) == before


async def _make(p):
    await (await open_store(str(p))).close()


async def test_a_close_leaves_the_file_whole_and_no_log(tmp_path):
    """Issue 39: a normal stop checkpoints the whole log into the file: with no other connection, no -wal
    or -shm is left; with one (a backup tool's, say) still open, the -wal is emptied, so the file alone
    holds every game (the last write included)."""
    p = tmp_path / "palantir.db"
    s = await open_store(str(p))
    await s.set_setting("a", "1")
    await s.close()
    assert sorted(os.listdir(tmp_path)) == ["palantir.db"]
    s = await open_store(str(p))
    other = sqlite3.connect(str(p))  # another connection, idle, keeps the log from being removed
    other.execute("SELECT COUNT(*) FROM settings").fetchall()
    try:
        await s.set_setting("b", "2")
        await s.close()
        assert os.path.getsize(f"{p}-wal") == 0
        alone = tmp_path / "alone.db"
        shutil.copy(p, alone)  # the file without its log
        con = sqlite3.connect(str(alone))
        assert con.execute("SELECT value FROM settings WHERE key='b'").fetchall() == [("2",)]
        con.close()
    finally:
        other.close()


async def test_a_new_path_still_makes_a_new_database(tmp_path):
    """Issue 39: where no file is, a new database is made, as before."""
    p = tmp_path / "new.db"
    s = await open_store(str(p))
    await s.set_setting("k", "v")
    await s.close()
    s = await open_store(str(p))
    try:
        assert await s.get_setting("k") == "v"
    finally:
        await s.close()
