"""A phase's map read at Discord's preview size (issue 20).

Discord shows an attached image inline about 550 px wide. For the busiest phase of each scripted
whole game (the games of tests/e2e/test_golden.py, played through the console, so through the same
service and renderer as on Discord), the map the phase notice carries is drawn, scaled to 550 px
wide, and its counter ids and header must be at least 9 px high there: measured from the font
sizes and the scale the renderer reports having used (``render.hexmap.RenderInfo``), not assumed.

``PALANTIR_DOCS_WRITE=1 pytest tests/render/test_map_preview.py`` writes those maps to
``docs/map-<ruleset>.png`` (shown in the README)."""
from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import pytest
from PIL import Image

from bot.service import GameService
from bot.storage import Store
from bot.table import default_renderer
from bot.transports.console import Console
from engine.rulesets import get_ruleset
from render import areamap
from render.hexmap import LEGIBLE_PX, PREVIEW_W, render_view_info
from tests.e2e.test_golden import ROOT, SCRIPTED
from tests.scripted_helpers import drawn

DOCS = ROOT / "docs"
MAX_BYTES = 1_500_000


class Quiet(Console):
    def _save(self, data, label, ext="png"):
        return "(image)"


async def _notice_maps(ruleset: str, seed: str, script: str, db: Path) -> list[tuple[dict, object, dict]]:
    """Every map the service asked for while the scripted game was played: (view, board, options)."""
    calls = []

    def record(view, board, around=None, **kw):
        calls.append((view, board, dict(kw, around=around)))
        return b"png"

    store = await Store.open(str(db))
    try:
        service = GameService(store, seed_source=lambda: f"local-{seed}", clock=lambda: 1_750_000_000.0,
                              renderer=record)
        console = Quiet(service, ruleset, None, io.StringIO())
        await console.setup()
        assert await console.run_script(str(ROOT / "tests" / "scripts" / script)) == 0
    finally:
        await store.close()
    return calls


def _on_map(view: dict) -> tuple[int, int]:
    units = [u for u in view.get("units") or [] if isinstance(u, dict) and (u.get("hex") or u.get("area"))]
    active = set(view.get("active") or [])
    return len(units), sum(1 for u in units if u.get("side") in active)


def busiest(ruleset: str) -> tuple[dict, object, dict]:
    """``ruleset``'s phase notice's map with the most counters on the board (then: of the acting seats)."""
    spec = next(s for s in SCRIPTED if s[0] == ruleset)
    calls = drawn(*spec).calls  # played once per process, with its drawing (tests/scripted_helpers.py)
    notices = [c for c in calls if c[2] == {"around": None}]  # the default: where the action is
    assert notices, f"{ruleset}: no phase map with the default options"
    return max(notices, key=lambda c: _on_map(c[0]))


@pytest.mark.scripted_game  # its game drawn once per worker, shared (tests/scripted_helpers.py: drawn)
@pytest.mark.parametrize("ruleset", [s[0] for s in SCRIPTED])
def test_busiest_phase_map_reads_at_preview_width(ruleset):
    view, board, _ = busiest(ruleset)
    png = default_renderer(view, board)  # exactly what the phase notice carries
    if view.get("board") == "area":
        img, header = areamap.compose_info(view, board)
        label = None
        assert areamap.render_view(view, board) == png
    else:
        again, info = render_view_info(view, board, focus=True)
        assert again == png
        assert info.mode == "focus"
        img = Image.open(io.BytesIO(png))
        assert (img.width, img.height) == (info.width, info.height)
        header, label = info.header_px, info.label_px
        assert label is not None
    assert len(png) < MAX_BYTES
    scale = PREVIEW_W / img.width
    shown = img.resize((PREVIEW_W, round(img.height * scale)))
    assert shown.width == PREVIEW_W
    assert header * scale >= LEGIBLE_PX, f"header {header * scale:.1f} px at {PREVIEW_W} px"
    if label is not None:
        assert label * scale >= LEGIBLE_PX, f"counter ids {label * scale:.1f} px at {PREVIEW_W} px"
        counters, acting = _on_map(view)
        assert counters > 0 and acting >= 0
    if os.environ.get("PALANTIR_DOCS_WRITE") == "1":  # what a phone shows: the map scaled to 550 px wide
        write_preview(img, DOCS / f"map-{ruleset}.png")
        print(f"{ruleset}: {img.width}x{img.height}, {len(png) / 1024:.0f} KiB, header {header * scale:.1f} px, "
              f"ids {'-' if label is None else f'{label * scale:.1f}'} px at {PREVIEW_W} px")


def write_preview(img: Image.Image, path: Path) -> None:
    """``img`` as a phone shows it (scaled to PREVIEW_W wide), saved as a PNG for docs/."""
    from render.hexmap import encode
    from tests.preview_helpers import scaled

    path.write_bytes(encode(scaled(img.convert("RGB"))[0]))


@pytest.mark.parametrize("ruleset", [s[0] for s in SCRIPTED] + ["wotr"])
def test_docs_show_each_rulesets_map(ruleset):
    path = DOCS / f"map-{ruleset}.png"
    assert path.exists() and 0 < path.stat().st_size < MAX_BYTES
    assert Image.open(path).width == PREVIEW_W  # the preview a phone shows, not the full image
    assert f"docs/map-{ruleset}.png" in (ROOT / "README.md").read_text()
    assert get_ruleset(ruleset)


# ---------------------------------------------------------------------------------------------
# /game map's options, through the service and the console
# ---------------------------------------------------------------------------------------------
async def _gondor_service(tmp_path, calls):
    from tests.bot.test_service_notices_areas import BLUE, RED, ctx, started

    def record(view, board, around=None, **kw):
        calls.append(dict(kw, around=around))
        return default_renderer(view, board, around, **kw)

    store = await Store.open(str(tmp_path / "m.db"))
    svc = GameService(store, seed_source=lambda: "map-options", clock=lambda: 1_750_000_000.0, renderer=record)
    await started(svc, "gondor", ("sauron", "westernesse"))
    return store, svc, ctx, RED, BLUE


def test_map_options_whole_around_radius_and_refusals(tmp_path):
    async def go():
        calls = []
        store, svc, ctx, RED, _ = await _gondor_service(tmp_path, calls)
        try:
            sizes = {}
            for key, kw in (("focus", {}), ("whole", {"whole": True}), ("r3", {"around": "1905", "radius": 3}),
                            ("r5", {"around": "1905"}), ("r12", {"around": "1905", "radius": "12"})):
                calls.clear()
                out = await svc.views.map(ctx(RED), **kw)
                assert out.ok and out.reply.image, (key, out.reply.text)
                sizes[key] = Image.open(io.BytesIO(out.reply.image)).size
                expect = {"around": kw.get("around")}
                if kw.get("whole"):
                    expect["whole"] = True
                if kw.get("radius"):
                    expect["radius"] = int(kw["radius"])
                assert calls == [expect], key
            whole = sizes["whole"]
            assert sizes["focus"][0] < whole[0]          # the action, not the whole map
            # a smaller radius is fewer hexes on about the same width: bigger hexes (a zoom)
            from render.hexmap import frame_for
            board = get_ruleset("gondor").game_board().drawable
            assert frame_for({}, board, around="1905", radius=3).s > frame_for({}, board, around="1905", radius=12).s
            for bad in (1, 13, "x", "-2", "5.5"):
                out = await svc.views.map(ctx(RED), around="1905", radius=bad)
                assert not out.ok and "radius" in out.reply.text and len(out.reply.text) < 80
            out = await svc.views.map(ctx(RED), radius=4)
            assert not out.ok and "around" in out.reply.text
            out = await svc.views.map(ctx(RED), around="1905", whole=True)
            assert not out.ok
        finally:
            await store.close()

    asyncio.run(go())


def test_console_takes_whole_and_radius(tmp_path):
    async def go():
        store = await Store.open(str(tmp_path / "c.db"))
        calls = []

        def record(view, board, around=None, **kw):
            calls.append(dict(kw, around=around))
            return b"png"

        try:
            svc = GameService(store, seed_source=lambda: "c", clock=lambda: 1_750_000_000.0, renderer=record)
            out = io.StringIO()
            console = Quiet(svc, "gondor", None, out)
            await console.setup()
            for line in ("/game map whole:true", "/game map around:1905 radius:3"):
                calls.clear()
                res = await console.run_command(line)
                assert res.ok and calls, (line, out.getvalue()[-500:])
            assert calls[-1] == {"around": "1905", "radius": 3}
            calls.clear()
            res = await console.run_command("/game map around:1905 radius:40")
            assert not res.ok and not calls and "radius" in res.reply.text
        finally:
            await store.close()

    asyncio.run(go())


def test_header_shows_the_deadline_when_there_is_one(tmp_path):
    from tests.bot.test_service_notices_areas import RED, ctx, started

    async def go():
        store = await Store.open(str(tmp_path / "d.db"))
        views = []

        def record(view, board, around=None, **kw):
            views.append(view)
            return default_renderer(view, board, around, **kw)

        try:
            svc = GameService(store, seed_source=lambda: "d", clock=lambda: 1_750_000_000.0, renderer=record)
            await started(svc, "gondor", ("sauron", "westernesse"), options="deadline=24")
            out = await svc.views.map(ctx(RED))
            assert out.ok and out.reply.image
            assert views[-1]["deadline"] == "Deadline: Mon 16 Jun 15:06 UTC"  # 1_750_000_000 + 24 h
        finally:
            await store.close()

    asyncio.run(go())
