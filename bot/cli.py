"""The `palantir` command: `run` (the Discord bot), `local` (a game in the terminal), `verify`
(a finished game's export), `record` (an export's HTML record) and `db copy` (a database to another backend).

Exit statuses (README, "Exit statuses"): 0 done; 1 a check failed (a script line refused, an export
or a copy not verified); 2 a bad argument, flag or config (one line on stderr, never a traceback,
issue 39); 3 Discord cannot be used (``StartupError``); 4 the database cannot be used
(``StorageError``: damaged, locked, another's log beside it, a server that cannot be reached or
refuses; a path that names no usable place is 2)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import tempfile

from engine.modes import MODES
from engine.rulesets import ruleset_names


class _Parser(argparse.ArgumentParser):
    """argparse with a bad argument told in one line (its usage is `--help`'s), status 2."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def _usage(prog: str, message: str) -> int:
    print(f"{prog}: {message}", file=sys.stderr)
    return 2


def _readable_file(path: str) -> str | None:
    """Why ``path`` cannot be read as a file, or None."""
    if not os.path.exists(path):
        return f"{path}: no such file"
    if os.path.isdir(path):
        return f"{path} is a folder, not a file"
    try:
        with open(path, "rb"):
            return None
    except OSError as e:
        return f"cannot read {path}: {e.strerror}"


def _writable_folder(path: str) -> str | None:
    """Why ``path`` cannot be the folder images are written to (made if missing), or None."""
    if os.path.exists(path) and not os.path.isdir(path):
        return f"{path} is a file, not a folder: name a folder for the images"
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            return None
    except OSError as e:
        return f"cannot write images to {path}: {e.strerror}"


async def _until_terminated(coro, stop: asyncio.Event | None = None, grace: float = 20.0) -> int:
    """``coro`` run to its end, or until SIGTERM (how a service manager stops the bot) or SIGINT (Ctrl-C): then
    everything closes as on a normal stop (the store checkpoints and leaves no ``-wal``/``-shm``, issue 39), and
    the status is 0.

    With ``stop`` (an event the coroutine watches: the bot closes itself, no cancellation in flight), the signal
    sets it. Without it, or when the coroutine is still running ``grace`` seconds later, it is cancelled, and
    cancelled again each second while it runs on: one cancel can be lost (Python 3.11's ``asyncio.wait_for``
    returns its inner result, dropping a cancel that arrives as that result does; discord.py's gateway
    handshake runs in one, and a bot sent SIGTERM just as it connected ran on for good)."""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(coro)
    asked = asyncio.Event()
    signals = (signal.SIGTERM, signal.SIGINT)
    for sig in signals:
        loop.add_signal_handler(sig, asked.set)
    try:
        waiter = asyncio.ensure_future(asked.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        if not task.done():
            if stop is not None:
                stop.set()
                await asyncio.wait({task}, timeout=grace)
            while not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=1.0)
        if task.cancelled():
            return 0
        return task.result()
    except asyncio.CancelledError:  # this coroutine itself cancelled (the loop stopped under it): the same stop
        task.cancel()
        raise
    finally:
        for sig in signals:
            loop.remove_signal_handler(sig)


def _local_exit(code: int) -> int:
    """A local game stopped at its prompt (SIGTERM, Ctrl-C) ends here, its store already closed: the thread
    still waiting for a line would make Python's own end abort (bot/transports/console.py: still_reading)."""
    from bot.transports.console import still_reading

    if still_reading():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def main(argv: list[str] | None = None) -> int:
    from bot.storage import StorageError

    try:
        return _main(argv)
    except StorageError as e:
        print(f"palantir: {e}", file=sys.stderr)
        return e.status


def _main(argv: list[str] | None) -> int:
    p = _Parser(prog="palantir", description="A Discord moderator for play-by-post wargames.")
    sub = p.add_subparsers(dest="cmd")
    r = sub.add_parser("run", help="run the Discord bot (with no token: a local game of gondor)")
    r.add_argument("--config", default=None, help="config file (default config.toml, else built-in defaults)")
    loc = sub.add_parser("local", help="play a game in the terminal, no Discord needed")
    loc.add_argument("ruleset", choices=ruleset_names())
    loc.add_argument("--mode", choices=MODES, default=None,
                     help="level of play (docs/modes.md), the same as `--options mode=...` (both given: they "
                          "must agree); adds the moderator's `gm` seat")
    loc.add_argument("--seed", default=None, help="dice seed (same seed + same commands = same game and images)")
    loc.add_argument("--script", default=None, help="read commands from this file, one a line")
    loc.add_argument("--out", default=None, help="directory for map images")
    loc.add_argument("--no-images", action="store_true", help="text only: draw no maps")
    loc.add_argument("--options", default=None,
                     help="the game's `/game new options:`, e.g. `setup=printed` or `mode=assist`: key=value "
                          "pairs separated by spaces, a list's items joined by `+` (`dead=ELE+ISI`); a bad one is "
                          "one line and exit status 2")
    loc.add_argument("--db", default=None, help="SQLite file to keep the game in (resumes a game found there)")
    ver = sub.add_parser("verify", help="check a finished game's export: seed, every roll, draw and state")
    ver.add_argument("export", help="the JSON file from /game export")
    rec = sub.add_parser("record", help="the HTML record of an export: the public view of a game under way, "
                                        "everything once it is over")
    rec.add_argument("export", help="the JSON file from /game export")
    rec.add_argument("-o", "--output", default=None, help="the HTML file (default: beside the export, .html)")
    db = sub.add_parser("db", help="database tools")
    dbsub = db.add_subparsers(dest="dbcmd", required=True)
    cp = dbsub.add_parser("copy", help="copy every game, log, snapshot and preference to another database "
                                       "(e.g. SQLite to PostgreSQL) and verify each game on the copy")
    cp.add_argument("--from", dest="src", required=True, help="sqlite:///palantir.db, postgresql://..., or a file")
    cp.add_argument("--to", dest="dst", required=True, help="an empty database: postgresql://... or sqlite:///...")
    args = p.parse_args(argv)

    if args.cmd == "db":
        from bot.storage.copy import copy_database

        return asyncio.run(copy_database(args.src, args.dst))

    if args.cmd == "verify":
        from bot.verify import main as verify_main

        if why := _readable_file(args.export):
            return _usage("palantir verify", why)
        return verify_main(args.export)

    if args.cmd == "record":
        from bot.archive import record_main

        return record_main(args.export, args.output)

    if args.cmd == "local":
        from bot.transports.console import local_ruleset, run_local

        if args.script and (why := _readable_file(args.script)):
            return _usage("palantir local", f"--script: {why}")
        if args.out and not args.no_images and (why := _writable_folder(args.out)):
            return _usage("palantir local", f"--out: {why}")
        ruleset = local_ruleset(args.ruleset, args.mode, args.options)  # `--mode X` is `mode=X` (issue 39)
        return _local_exit(asyncio.run(_until_terminated(run_local(
            ruleset, args.seed, args.script, args.out, args.db, images=not args.no_images, options=args.options))))
    if args.cmd == "run" or args.cmd is None:
        from bot.config import ConfigError, load_config

        try:
            cfg = load_config(getattr(args, "config", None))
        except ConfigError as e:
            print(f"palantir: {e}", file=sys.stderr)
            return 2
        if not cfg.token:
            print("No Discord token (config [discord] token or DISCORD_TOKEN): starting a local game of gondor.\n"
                  "Run `palantir local --help` for options.", file=sys.stderr)
            from bot.transports.console import run_local

            return _local_exit(asyncio.run(_until_terminated(run_local("gondor", None, None, "out", None))))
        logging.basicConfig(level=cfg.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        from bot.event_loop import run
        from bot.transports.discord_app import StartupError, run_bot

        try:
            async def bot_until_terminated() -> int:
                stop = asyncio.Event()
                return await _until_terminated(run_bot(cfg, stop), stop)

            return run(bot_until_terminated())
        except StartupError as e:
            print(f"palantir: {e}", file=sys.stderr)
            return 3
    p.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
