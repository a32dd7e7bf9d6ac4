"""The scripted whole games (tests/scripts/*.txt), played through the console once per test process.

``tests/render/test_map_preview.py`` and ``tests/render/test_preview_maps.py`` each read every map the
service asked for while a scripted game was played; the game is the same (script, seed, fixed clock),
so it is played once per process and the record shared (issue 29: a suite that fits the machine).
The record is read only: a test that needs to change a view copies it."""
from __future__ import annotations

import asyncio
import functools
import tempfile
from pathlib import Path


@functools.cache
def notice_maps(ruleset: str, seed: str, script: str) -> tuple[tuple[dict, object, dict], ...]:
    """Every map the service asked for while the scripted game was played (``_notice_maps``'s
    (view, board, options) in order), played once per process."""
    from tests.render.test_map_preview import _notice_maps

    with tempfile.TemporaryDirectory(prefix="palantir-scripted-") as d:
        return tuple(asyncio.run(_notice_maps(ruleset, seed, script, Path(d) / "g.db")))
