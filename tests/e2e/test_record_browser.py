"""Issue 40: each scripted game's HTML record opened in a real browser (Debian's chromium, driven by
Playwright), at a phone's 390x844 and a desktop's 1280x800: keys step forward and back, a `#t` link opens
at its turn, the map changes and the log's highlight follows; no network request, no console error; a step
looks like the PNG map of that step. Screenshots are saved beside the records (look at them:
`PALANTIR_RECORD_SHOTS=<dir>` keeps them)."""
from __future__ import annotations

import functools
import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

pytestmark = pytest.mark.heavy  # whole scripted games and a browser: handed out first under xdist

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
# the scripted games of the registry (a game's ``golden_script``): their records made from the game the golden
# test played (tests/scripted_helpers.py: record), in its unit; and two scripted games without a golden script,
# played here in the console
PLAYED = [("sauron-expanded", "5", "sauron_expanded_game.txt", None), ("wotr", "7", "wotr_game.txt", "turns=4")]


def _scripted() -> list:
    from tests.e2e.test_golden import SCRIPTED

    return SCRIPTED


GAMES = [pytest.param(name, marks=pytest.mark.scripted_game(name)) for name, _, _ in _scripted()] + \
    [name for name, *_ in PLAYED if name not in {n for n, _, _ in _scripted()}]


def _browser_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return "no /usr/bin/chromium (apt-get install chromium; .ci/run does it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "no Playwright for Python (pip install -e '.[test]')"
    return None


@functools.cache
def _played(name: str) -> tuple[bytes, bytes | None]:
    """A scripted game without a golden script, played once in the console (`palantir local`'s own
    ``local_ruleset`` and ``run_local``, in this process: no map drawn, as `--no-images`), then
    `/game export format:html`."""
    import asyncio
    import tempfile

    from bot.transports.console import local_ruleset, run_local

    name, seed, script, options = next(g for g in PLAYED if g[0] == name)
    with tempfile.TemporaryDirectory(prefix="palantir-record-") as d:
        (Path(d) / "script.txt").write_text((SCRIPTS / script).read_text() + "\n/game export format:html\n")
        said = io.StringIO()
        rc = asyncio.run(run_local(local_ruleset(name, None, options), seed, str(Path(d) / "script.txt"),
                                   str(Path(d) / "out"), stream=said, images=False, options=options))
        assert rc == 0, said.getvalue()[-2000:]
        return next(f for f in (Path(d) / "out").iterdir() if f.suffix == ".html").read_bytes(), None


def record_files(name: str, folder: Path) -> tuple[Path, Path | None]:
    """``name``'s scripted game's record (and its JSON export, for a game with a golden script) in ``folder``:
    from the game the golden test played (tests/scripted_helpers.py: record), else played here."""
    from concurrent.futures import ThreadPoolExecutor

    from tests.scripted_helpers import record

    def made() -> tuple[bytes, bytes | None]:
        return next((record(*g) for g in _scripted() if g[0] == name), None) or _played(name)
    with ThreadPoolExecutor(1) as pool:  # (off this thread, where the browser's Playwright loop is running)
        got = pool.submit(made).result()
    html = folder / f"{name}.html"
    html.write_bytes(got[0])
    if got[1] is None:
        return html, None
    (folder / f"{name}.json").write_bytes(got[1])
    return html, folder / f"{name}.json"


@pytest.fixture(scope="module")
def browser():
    why = _browser_missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _canvas(page) -> Image.Image:
    url = page.evaluate("document.getElementById('map').toDataURL('image/png')")
    import base64

    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def _wait_step(page, n: int) -> None:
    page.wait_for_function(f"document.body.dataset.step === '{n}'", timeout=120_000)


@pytest.mark.parametrize("name", GAMES)
def test_record_in_a_browser(browser, name, tmp_path):
    """Issue 40: the record of every scripted game, in Chromium at 390x844 and 1280x800: under 10 MiB,
    `#t2` opens at turn 2, the arrow keys step forward and back (the map changes where the step's picture
    does; the log's highlight follows), a log line goes to its step; no request, no console error."""
    html, _ = record_files(name, tmp_path)
    assert html.stat().st_size < 10 * 2**20
    shots = Path(os.environ.get("PALANTIR_RECORD_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    for w, h in ((390, 844), (1280, 800)):
        page = browser.new_page(viewport={"width": w, "height": h})
        requests, errors = [], []
        page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(html.as_uri() + "#t2")
        page.wait_for_function("document.body.dataset.step !== undefined", timeout=120_000)
        start = int(page.evaluate("document.body.dataset.step"))
        steps = page.evaluate("S.map(s => s.turn)")
        assert steps[start] >= 2 and all(t < 2 for t in steps[:start]), "#t2 opens at turn 2's first step"
        view = page.evaluate("view")
        pics = page.evaluate(f"D.shown[{json.dumps(view)}]")
        # a step whose picture differs from the next: the map must change on ArrowRight
        i = next(k for k in range(start, len(pics) - 1) if pics[k] != pics[k + 1])
        page.evaluate(f"go({i})")
        _wait_step(page, i)
        before = _canvas(page)
        page.keyboard.press("ArrowRight")
        _wait_step(page, i + 1)
        assert ImageChops.difference(before, _canvas(page)).getbbox() is not None, "the map changed"
        assert page.evaluate("document.querySelector('#log li.cur').id") == f"l{i + 1}"
        assert page.evaluate("location.hash") == f"#s{page.evaluate(f'S[{i + 1}].seq')}"
        page.keyboard.press("ArrowLeft")
        _wait_step(page, i)
        assert ImageChops.difference(before, _canvas(page)).getbbox() is None, "back to the same picture"
        assert page.evaluate("document.querySelector('#log li.cur').id") == f"l{i}"
        # the log is seen: beside the map on a desktop, below it on a phone (a column's scrolling log once
        # collapsed to nothing there)
        assert page.evaluate("document.querySelector('aside').getBoundingClientRect().height") >= 100
        page.dispatch_event(f"#l{i + 1}", "click")  # a log line goes to its step
        _wait_step(page, i + 1)
        page.screenshot(path=str(shots / f"record-{name}-{w}x{h}.png"))
        assert requests == [] and errors == [], (requests, errors)
        page.close()


@pytest.mark.scripted_game("gondor")
def test_a_step_looks_like_its_png_map(browser, tmp_path):
    """Issue 40: a step of the Gondor record, drawn by the browser, is the PNG map of that step (the
    whole map under its header, the side panel's legend; its tracks are the page's text) within a
    tolerance: the PNG's 256 colours and the browser's blending."""
    from bot.history import walk
    from bot.verify import entries_of, game_of
    from render.hexmap import compose_info

    html, export = record_files("gondor", tmp_path)
    data = json.loads(export.read_text())
    rs, first = game_of(data)
    target = 400
    for e, g, _ in walk(rs, first, entries_of(data)):
        if e["seq"] == target:
            view = rs.full_view(g.state)
            break
    img, lay, _, _ = compose_info(view, rs.game_board().drawable)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(html.as_uri() + f"#s{target}")
    page.wait_for_function("document.body.dataset.step !== undefined", timeout=120_000)
    got = _canvas(page)
    page.close()
    png = Image.open(io.BytesIO(__import__("render").render_view(view, rs.game_board().drawable))).convert("RGB")
    box = (0, 0, lay.map_w, got.height)
    want = png.crop((0, lay.top, lay.map_w, lay.top + got.height))
    diff = ImageChops.difference(got.crop(box), want).convert("L")
    hist = diff.histogram()
    n = sum(hist)
    mean = sum(v * c for v, c in enumerate(hist)) / n
    far = sum(hist[33:]) / n
    assert mean < 2.0 and far < 0.01, (mean, far)
