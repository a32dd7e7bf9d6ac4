"""The scripted whole games (tests/scripts/*.txt), played through the console once per test process.

A test that reads every map the service asked for while a scripted game was played (the area maps of
``tests/render/test_preview_maps.py``) has them from :func:`notice_maps`: the game is the same (script, seed,
fixed clock), so it is played once per process and the record shared (issue 29: a suite that fits the
machine). The record is read only: a test that needs to change a view copies it.

Four tests draw every map of a scripted game and look at each picture (issue 43: a suite with margin):
the golden output (tests/e2e/test_golden.py: each PNG's hash), the PNG writer's bound
(tests/render/test_png.py: each map's colours), the phone preview (tests/render/test_preview_maps.py: each
phase map's glyphs, tests/render/test_map_preview.py: the busiest map) and Gondor's whole game in the terminal
(tests/e2e/test_gondor_console.py: each map's size). :func:`drawn` plays the game once with the service's own renderer, each map composed
once and every check's measure taken on it as it is drawn; the tests marked ``scripted_game`` read it, and
tests/conftest.py hands each game's readers to one xdist worker, so that it is drawn once in the run."""
from __future__ import annotations

import asyncio
import functools
import tempfile
import threading
from pathlib import Path
from typing import NamedTuple


@functools.cache
def notice_maps(ruleset: str, seed: str, script: str) -> tuple[tuple[dict, object, dict], ...]:
    """Every map the service asked for while the scripted game was played (``_notice_maps``'s
    (view, board, options) in order), played once per process."""
    from tests.render.test_map_preview import _notice_maps

    with tempfile.TemporaryDirectory(prefix="palantir-scripted-") as d:
        return tuple(asyncio.run(_notice_maps(ruleset, seed, script, Path(d) / "g.db")))


class Drawn(NamedTuple):
    """A scripted game played once with its maps drawn: the golden output (``test_golden.scripted``), each
    PNG the game encoded as ``test_png.measure`` measures it (in order), each phase map of a hex game as
    ``test_preview_maps.survey_row`` surveys it (in order; none for an area game), and each image the console
    saved, as `palantir local --out` saves it: (extension, bytes); every map the service asked for, as
    :func:`notice_maps` has them: (view, board, options); and the game's store (the file, kept for the
    process: :func:`record`)."""
    text: str
    pngs: tuple
    survey: tuple
    saved: tuple
    calls: tuple
    db: Path


MEASURED = ("gondor", "sauron")  # the games whose every PNG tests/render/test_png.py measures (``Drawn.pngs``)


@functools.cache
def drawn(ruleset: str, seed: str, script: str) -> Drawn:
    """``ruleset``'s scripted game (``script``, ``seed``) played and drawn once per process: the service's
    own renderer (``bot.table.default_renderer``), except that a hex game's phase map (the default options:
    where the action is) is composed here (``compose_info``, as ``render_view_info`` does) so that the preview's
    survey reads the very picture that is encoded; every encoded picture is measured (``png.encode``
    wrapped) as it is encoded."""
    from bot.table import default_renderer
    from render import png
    from render.hexmap import compose_info, encode
    from tests.e2e.test_golden import scripted
    from tests.render.test_png import measure
    from tests.render.test_preview_maps import survey_row

    pngs, rows, saved, calls, lock = [], [], [], [], threading.Lock()
    plain = png.encode

    def measured(img):
        data, mapped = png.encode_mapped(img)  # (encode's own bytes, and how it reduced the picture)
        with lock:
            pngs.append(measure(img, data, mapped))
        return data

    def renderer(view, board, around=None, **kw):
        with lock:
            calls.append((view, board, dict(kw, around=around)))
        if around is not None or kw or view.get("board") in ("area", "provinces"):  # not a hex game's phase map
            return default_renderer(view, board, around, **kw)
        img, lay, _, info = compose_info(view, board, focus=True)  # render_view_info's, for a phase map
        data = encode(img)
        with lock:
            rows.append(survey_row(view, board, img, lay, info))
        return data

    if ruleset in MEASURED:
        png.encode = measured
    db = Path(_kept().name) / f"{ruleset}.db"
    try:
        text = asyncio.run(scripted(ruleset, seed, script, db, renderer=renderer, saved=saved))
    finally:
        png.encode = plain
    return Drawn(text, tuple(pngs), tuple(rows), tuple(saved), tuple(calls), db)


@functools.cache
def _kept() -> tempfile.TemporaryDirectory:
    """The folder of the scripted games' stores, for the process (removed when it ends)."""
    return tempfile.TemporaryDirectory(prefix="palantir-drawn-")


@functools.cache
def record(ruleset: str, seed: str, script: str) -> tuple[bytes, bytes]:
    """``ruleset``'s scripted game's record (`/game export format:html`) and its export (`/game export`), as the
    service gives them once the game is over: made from the store of the game :func:`drawn` played, not played
    again (tests/e2e/test_record_browser.py opens the record in a browser)."""
    from bot.outcome import Ctx
    from bot.service import GameService
    from bot.storage import Store
    from bot.transports.console import CHANNEL, GUILD

    game = drawn(ruleset, seed, script)

    async def export() -> tuple[bytes, bytes]:
        store = await Store.open(str(game.db))
        try:
            svc = GameService(store, seed_source=lambda: f"local-{seed}", clock=lambda: 1_750_000_000.0, renderer=None)
            got = []
            for fmt in ("html", "json"):
                out = await svc.archive.export(Ctx(channel_id=CHANNEL, guild_id=GUILD, user_id=1,
                                                   interaction_id=f"record-{fmt}"), fmt)
                assert out.ok and out.reply.attachment, out.reply.text
                got.append(out.reply.attachment)
            return got[0], got[1]
        finally:
            await store.close()
    return asyncio.run(export())
