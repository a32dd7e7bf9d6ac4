"""The `palantir` command: `run` (the Discord bot), `local` (a game in the terminal), `verify`
(a finished game's export), `record` (an export's HTML record) and `db copy` (a database to another backend)."""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from engine.rulesets import ruleset_names


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="palantir", description="A Discord moderator for play-by-post wargames.")
    sub = p.add_subparsers(dest="cmd")
    r = sub.add_parser("run", help="run the Discord bot (with no token: a local game of gondor)")
    r.add_argument("--config", default=None, help="config file (default config.toml, else built-in defaults)")
    loc = sub.add_parser("local", help="play a game in the terminal, no Discord needed")
    loc.add_argument("ruleset", choices=ruleset_names())
    loc.add_argument("--mode", choices=("enforced", "assist", "tabletop"), default=None,
                     help="level of play (docs/modes.md); adds the moderator's `gm` seat")
    loc.add_argument("--seed", default=None, help="dice seed (same seed + same commands = same game and images)")
    loc.add_argument("--script", default=None, help="read commands from this file, one a line")
    loc.add_argument("--out", default=None, help="directory for map images")
    loc.add_argument("--no-images", action="store_true", help="text only: draw no maps")
    loc.add_argument("--options", default=None,
                     help="the game's `/game new options:`, e.g. `setup=printed` or `mode=assist`")
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

        return verify_main(args.export)

    if args.cmd == "record":
        from bot.archive import record_main

        return record_main(args.export, args.output)

    if args.cmd == "local":
        from bot.transports.console import run_local

        ruleset = args.ruleset
        if not args.mode and "@" not in ruleset:  # a game with a default level of play (wotr: assist)
            try:
                from engine.rulesets import get_ruleset

                args.mode = get_ruleset(ruleset).default_mode
            except KeyError:
                pass
        ruleset = f"{args.ruleset}@{args.mode}" if args.mode else args.ruleset
        return asyncio.run(run_local(ruleset, args.seed, args.script, args.out, args.db,
                                     images=not args.no_images, options=args.options))
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

            return asyncio.run(run_local("gondor", None, None, "out", None))
        logging.basicConfig(level=cfg.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        from bot.event_loop import run
        from bot.transports.discord_app import StartupError, run_bot

        try:
            return run(run_bot(cfg))
        except StartupError as e:
            print(f"palantir: {e}", file=sys.stderr)
            return 3
    p.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
