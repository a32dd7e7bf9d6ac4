"""Levels of play (issue 14): a ruleset wrapped for *enforced*, *assist* or *tabletop* play.

``with_mode(ruleset, mode)`` gives a ruleset that adds the moderator's ``gm`` seat and the table's
generic machinery to any registered ruleset; its registry name is ``<ruleset>@<mode>``
(``get_ruleset("gondor@assist")``), which is what a stored game names, so a game stored before
modes existed (a plain name) loads exactly as it did. The inner game's state is the wrapped
state itself (its dice stream included); the table keeps its own under ``state["table"]``.

One concern a file: ``table.py`` the wrapper and its dispatch; ``pieces.py`` generic and hidden
pieces; ``deck.py`` decks and hands; ``tracks.py`` tracks and rolls; ``turns.py`` tabletop turn
order; ``proposals.py`` assist-mode declared actions and rulings; ``talk.py`` whispers and pacts.
"""
from __future__ import annotations

from engine.options import Choice, Option, find, read_value

MODES = ("enforced", "assist", "tabletop")
GM = "gm"
WHISPERS = ("on", "public-only", "off")
# options the table takes for itself (declared as data, issue 39); the rest go to the inner ruleset.
# `palantir local --mode X` is `mode=X` (both given, they must agree)
TABLE_OPTIONS = (Option("mode", Choice(MODES), about="the level of play (docs/modes.md)"),
                 Option("whispers", Choice(WHISPERS), about="`/whisper` between seats"))

_CACHE: dict[tuple[str, str], object] = {}


def split_name(name: str) -> tuple[str, str | None]:
    """``gondor@assist`` -> (``gondor``, ``assist``); a plain name has no mode."""
    base, sep, mode = name.partition("@")
    return base, (mode if sep else None)


def moded_name(base: str, mode: str) -> str:
    return f"{base}@{mode}"


def mode_of(options: dict[str, str], owner: str = "this game") -> str | None:
    """The level of play the options ask for (None: none asked, an unwrapped game as before).
    ``whispers=`` alone asks for the table too (enforced). OptionError (a ValueError) for a bad value,
    naming ``owner`` (the ruleset)."""
    got = {k: read_value(find(TABLE_OPTIONS, k), k, options[k], owner) for k in ("mode", "whispers") if k in options}
    if "mode" not in got and "whispers" in got:
        return "enforced"
    return got.get("mode")


def modes_help() -> str:
    return (
        "**Levels of play** (`/game new options: mode=...`, docs/modes.md):\n"
        "- `enforced` (the default): the engine is the only source of legal actions.\n"
        "- `assist`: an order the engine cannot read, or `!<order>` it refuses, becomes a declared action "
        "(`d1`, …), posted with the engine's objection; the moderator rules `accept d1 because <reason>` / "
        "`refuse d1 because <reason>`, or, with no moderator, every other seat accepts it.\n"
        "- `tabletop`: seats act in turn (`done`) and move pieces freely: `place <id> <place> [<kind>] "
        "[hidden|secret]`, `move <id> <place>`, `remove <id>`, `flip <id>`, `set <track> <value>`, "
        "`deck <name> <card>...`, `draw <deck>`, `discard <card>`, `give <card> to <seat>`, "
        "`reshuffle <deck>`, `roll 2d6 for <reason>`; the ruleset's own orders still work.\n"
        "Any mode: the optional `gm` seat (the creator or Manage Server) sees every secret and may `pass <seat> "
        "because <reason>`; `/whisper seat: text:` (per game `whispers=on|public-only|off`); pacts: "
        "`pact [secret] <seat>[+<seat>] <text>`, each party `accept k1`."
    )


def with_mode(ruleset, mode: str):
    """The ruleset wrapped for ``mode`` (one object per ruleset and mode)."""
    from engine.modes.table import ModedRuleset

    if mode not in MODES:
        raise KeyError(f"unknown mode `{mode}`; known: {', '.join(MODES)}")
    key = (ruleset.name, mode)
    if key not in _CACHE or _CACHE[key].inner is not ruleset:
        _CACHE[key] = ModedRuleset(ruleset, mode)
    return _CACHE[key]
