"""A throw-away PostgreSQL server for the tests, started on loopback in a temporary
directory (issue 16).

The binaries are looked up on PATH and in Debian's ``/usr/lib/postgresql/<n>/bin`` (``apt-get
install postgresql``). ``initdb`` refuses to run as root, so under root the cluster belongs to an
unprivileged user (``postgres`` if it exists, else ``nobody``) and the server is started through
``runuser``. ``PALANTIR_TEST_PG_URL`` (a superuser url such as ``postgresql://me@127.0.0.1/postgres``)
uses an existing server instead. When none can be had, :func:`start` raises :class:`NoServer`
with the reason, and the tests that need it are skipped with that message."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


class NoServer(RuntimeError):
    pass


def _bindir() -> Path | None:
    for name in ("initdb", "pg_ctl"):
        found = shutil.which(name)
        if found:
            return Path(os.path.realpath(found)).parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(d, "initdb")):
            return Path(d)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, admin_url: str, stop=None):
        self.admin_url = admin_url
        self._stop = stop
        self._n = 0

    def url(self, db: str) -> str:
        base, _, _ = self.admin_url.rpartition("/")
        return f"{base}/{db}"

    async def new_database(self, prefix: str = "t") -> str:
        """A fresh, empty database; its url."""
        import asyncpg

        self._n += 1
        name = f"{prefix}_{os.getpid()}_{self._n}_{int(time.time() * 1000) % 10**8}"
        con = await asyncpg.connect(self.admin_url)
        try:
            await con.execute(f'CREATE DATABASE "{name}"')
        finally:
            await con.close()
        return self.url(name)

    def stop(self) -> None:
        if self._stop:
            self._stop()
            self._stop = None


def start() -> Server:
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        raise NoServer("asyncpg is not installed") from None
    if os.environ.get("PALANTIR_TEST_PG_URL"):
        return Server(os.environ["PALANTIR_TEST_PG_URL"])
    bindir = _bindir()
    if bindir is None:
        raise NoServer("no PostgreSQL binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin; "
                       "install them (apt-get install postgresql) or set PALANTIR_TEST_PG_URL")
    prefix: list[str] = []
    owner = None
    if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to an unprivileged user
        for name in ("postgres", "nobody"):
            try:
                owner = pwd.getpwnam(name)
                break
            except KeyError:
                continue
        runuser = shutil.which("runuser") or shutil.which("su")
        if owner is None or runuser is None:
            raise NoServer("running as root with no unprivileged user (postgres, nobody) or no runuser")
        prefix = [runuser, "-u", owner.pw_name, "--"] if runuser.endswith("runuser") else None
        if prefix is None:
            raise NoServer("running as root and runuser is missing")
    tmp = Path(tempfile.mkdtemp(prefix="palantir-pg-"))
    if owner is not None:
        os.chown(tmp, owner.pw_uid, owner.pw_gid)
    data = tmp / "data"
    port = _free_port()
    env = dict(os.environ, LC_ALL="C", LANG="C")
    try:
        subprocess.run(prefix + [str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "palantir",
                                 "-E", "UTF8", "--no-sync"],
                       check=True, capture_output=True, env=env, timeout=120)
        opts = (f"-h 127.0.0.1 -p {port} -k {tmp} -c fsync=off -c synchronous_commit=off "
                f"-c full_page_writes=off -c max_connections=200")
        subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-l", str(tmp / "log"),
                                 "-w", "-t", "60", "start"],
                       check=True, capture_output=True, env=env, timeout=90)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        out = getattr(e, "stderr", b"") or b""
        log = (tmp / "log").read_text(errors="replace")[-400:] if (tmp / "log").exists() else ""
        shutil.rmtree(tmp, ignore_errors=True)
        raise NoServer(f"could not start PostgreSQL from {bindir}: {e}; {out.decode(errors='replace')[-400:]} {log}")

    def stop():
        subprocess.run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True, env=env, timeout=60)
        shutil.rmtree(tmp, ignore_errors=True)

    return Server(f"postgresql://palantir@127.0.0.1:{port}/postgres", stop)
