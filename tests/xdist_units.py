"""The units xdist hands out whole (issues 29 and 43), for tests/conftest.py's hooks.

``--dist loadscope`` hands a module, or a class, to one worker. The tests that read one scripted game's
single drawing (marked ``scripted_game``, tests/scripted_helpers.py's ``drawn``: the golden output, the PNG
bound, the phone preview) live in three modules; they are made one unit, ``scripted-<game>``, so that one
worker draws the game once for them all. Only a worker sees the marks: it writes each grouped test's unit
to a file the controller named (``UNITS``, in its input), which the controller's scheduler reads once every
worker has collected. (xdist's own ``--dist loadgroup`` renames node ids, which pytest 9 no longer allows.)"""
from __future__ import annotations

import json
import os
from pathlib import Path

UNITS = "palantir_units"  # the worker input naming the file of the grouped tests' units


def scripted_game(item) -> str | None:
    """The game a test marked ``scripted_game`` reads: the mark's argument, else its ``ruleset`` parameter,
    else its class's ``ruleset``; None for a test not marked."""
    mark = item.get_closest_marker("scripted_game")
    if mark is None:
        return None
    callspec = getattr(item, "callspec", None)
    game = mark.args[0] if mark.args else callspec.params.get("ruleset") if callspec is not None else None
    return game or getattr(item.cls, "ruleset", None) or None


def groups(items) -> dict[str, str]:
    """Each grouped test's unit, by node id: ``scripted-<game>`` for a test marked ``scripted_game``."""
    return {item.nodeid: f"scripted-{game}" for item in items if (game := scripted_game(item))}


def unit_of(nodeid: str, grouped: dict[str, str]) -> str:
    """The unit ``nodeid`` is handed out in: its group, else its module or class (the node id up to its
    last ``::``, as loadscope has it)."""
    return grouped.get(nodeid) or nodeid.rsplit("::", 1)[0]


def write_units(path: str, grouped: dict[str, str]) -> None:
    """``grouped`` written whole to ``path`` (under a name of its own, renamed into place: every worker
    writes the same)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    Path(tmp).write_text(json.dumps(grouped, sort_keys=True))
    os.replace(tmp, path)


def grouped_scope(config, path: str, log=None):
    """xdist's ``--dist loadscope`` scheduler, its units those of :func:`unit_of` with the groups the
    workers wrote to ``path`` (read at the first unit asked for: after every worker has collected)."""
    from xdist.scheduler import LoadScopeScheduling

    class GroupedScope(LoadScopeScheduling):
        grouped: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.grouped is None:
                p = Path(path)
                self.grouped = json.loads(p.read_text()) if p.exists() else {}
            return unit_of(nodeid, self.grouped)

    return GroupedScope(config, log)
