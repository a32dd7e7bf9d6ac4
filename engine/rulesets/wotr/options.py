"""War of the Ring's options (issue 39), declared as data: `/game new options:` reads them with the one
typed reader of ``engine/options.py``; every refusal names `wotr` and this list."""
from __future__ import annotations

from engine.options import Choice, Option, Text, Whole

OPTIONS = (
    Option("players", Choice(("4", "5")), about="five players (the default) or four, without Rohan"),
    Option("scenario", Choice(("standard", "all-out-war"))),
    Option("magic", Choice(("random", "historical")), about="the magic cards dealt at random or to their owners"),
    Option("turns", Whole(1, 60, "game-turns"), about="the last game-turn (12 by default)"),
    Option("seizure", Choice(("secret", "public")), about="whether the Ring's seizure is announced"),
    # the group's own file (map, starts, characters, forces, cards, charts): group_file.load checks it
    Option("charts", Text("<the group's file>", "the group's own file (TOML)", keep=True)),
)
DEFAULTS = {"players": "5", "scenario": "standard", "magic": "random", "turns": "12"}
