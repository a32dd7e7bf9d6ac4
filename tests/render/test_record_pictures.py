"""Issue 40 (the record's pictures, render/record.py): the page paints a step's map as its under-layer's chain
(the first picture of its size, then each change's bands in order) under its chunks. Each under-layer is
kept as what differs from the last one of its own view (a seat's, the full one) or from the last one drawn,
whichever differs less: here every picture of a whole game's record, painted as the page paints it, is the
picture of its view (as far as the PNG's 256 colours allow), for every view the record holds."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine.rulesets import get_ruleset
from render import png
from render import record as R

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _painted(p: R.Pictures, ground: int) -> Image.Image:
    """The under-layer ``ground`` as the page paints it (render/templates/record.html.j2: ``paint``)."""
    chain = []
    while ground >= 0:
        chain.insert(0, ground)
        ground = p.grounds[ground][1]
    img = p.firsts[p.grounds[chain[0]][0]].copy()
    for g in chain:
        for x, y, data in p.grounds[g][2]:
            img.paste(Image.open(io.BytesIO(data)).convert("RGB"), (x, y))
    return img


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Risk: Minas Tirith's scripted game played to its end in the console (`palantir local`'s own
    ``local_ruleset`` and ``run_local``, no map drawn), then `/game export format:html`: the record holds the
    full view and each seat's; with every view its pictures were asked for, the line it was asked on and the
    picture's number."""
    import asyncio

    from bot.transports.console import local_ruleset, run_local

    d = tmp_path_factory.mktemp("risk-record")
    (d / "script.txt").write_text((SCRIPTS / "risk_minas_tirith_game.txt").read_text() + "\n/game export format:html\n")
    asked, made_ = [], []
    add = R.Pictures.add

    def spy(self, view, line=None):
        n = add(self, view, line)
        asked.append((view, line, n))
        made_.append(self)
        return n

    R.Pictures.add = spy
    try:
        said = io.StringIO()
        rc = asyncio.run(run_local(local_ruleset("risk-minas-tirith", None, None), "11", str(d / "script.txt"),
                                   str(d / "out"), stream=said, images=False, options=None))
    finally:
        R.Pictures.add = add
    assert rc == 0 and [f.suffix for f in (d / "out").iterdir()] == [".html"], said.getvalue()[-2000:]
    return get_ruleset("risk-minas-tirith"), made_[0], asked


def test_every_picture_painted_as_the_page_paints_it_is_its_views_map(made):
    rs, p, asked = made
    assert len({line for _, line, _ in asked}) == 1 + len(rs.seats)  # the full view and each seat's
    assert len(p.firsts) >= 2  # (two sizes of picture met: each one's first kept whole)
    checked = set()
    for view, line, n in asked:
        ground = p.pictures[n][0]
        if ground in checked:
            continue
        want = R._whole_picture(view, p.hexmap).convert("RGB")
        d = ImageChops.difference(_painted(p, ground), want)
        # the bands are PNGs of at most 256 colours (render/png.py): a pixel a shade off, never another colour
        assert max(hi for _, hi in d.getextrema()) <= png.WRONG, (line, n)
        checked.add(ground)
    assert len(checked) == len(p.grounds)  # every under-layer the record holds was painted and checked


def test_a_picture_is_kept_as_a_change_of_its_own_views_last_or_the_last_drawn(made):
    """Each new under-layer (not the first of its size) is kept as a change of the last one of its own view or
    of the last one drawn: never of an older one (whose chain the page would paint through every other view's
    steps)."""
    rs, p, asked = made
    last_of, latest, seen = {}, None, set()
    for view, line, n in asked:
        ground = p.pictures[n][0]
        first, parent, _ = p.grounds[ground]
        if ground not in seen:
            seen.add(ground)
            assert first >= 0 or parent in (last_of.get(line), latest), (line, n, parent, last_of.get(line), latest)
        last_of[line] = latest = ground
