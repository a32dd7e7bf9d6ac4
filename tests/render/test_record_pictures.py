"""Issue 40 (the record's pictures, render/record.py): the page paints a step's map as its under-layer's chain
(the first picture of its size, then each change's bands in order) under its chunks. Each under-layer is
kept as what differs from the last one of its own view (a seat's, the full one) or from the last one drawn,
whichever differs less: here every picture of a whole game's record, painted as the page paints it, is the
picture of its view (as far as the PNG's 256 colours allow), for every view the record holds."""
from __future__ import annotations

import copy
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot import archive
from engine.core import Game
from engine.rulesets import get_ruleset
from render import png
from render import record as R

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _orders(script: Path, first_seat: str) -> list[tuple[str, str]]:
    out, seat = [], first_seat
    for line in script.read_text().splitlines():
        line = line.strip()
        if line.startswith("as "):
            seat = line[3:].strip()
        elif line.startswith("/order "):
            out.append((seat, line[len("/order "):].strip()))
        elif line == "/done":
            out.append((seat, "done"))
    return out


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
    """Risk: Minas Tirith's scripted game's record, over (the full view and each seat's), with every view
    the pictures were asked for, the line it was asked on and the picture's number."""
    rs = get_ruleset("risk-minas-tirith")
    g = Game.new(rs, {}, "local-11")
    first = copy.deepcopy(g.state)
    entries, log = [], []
    for seat, text in _orders(SCRIPTS / "risk_minas_tirith_game.txt", rs.seats[0]):
        before = g.dice_drawn()
        try:
            applied, _ = g.play(seat, text)
        except Exception:  # (a line the script expects to be refused)
            continue
        canon = rs.format(applied)
        entries.append({"seq": len(entries) + 1, "seat": seat, "kind": "order", "text": canon, "ref_seq": None,
                        "dice_before": before, "dice_after": g.dice_drawn()})
        log.append({"seq": len(log) + 1, "seat": seat, "kind": "order", "order": canon, "rolls": [], "public": []})
    asked, made_ = [], []
    add = R.Pictures.add

    def spy(self, view, line=None):
        n = add(self, view, line)
        asked.append((view, line, n))
        made_.append(self)
        return n

    R.Pictures.add = spy
    try:
        archive.build_record(rs, first, entries, {"log": log, "orders": [e["text"] for e in entries], "status": "over",
                                                  "seat_history": []}, None, True)
    finally:
        R.Pictures.add = add
    return rs, made_[0], asked


def test_every_picture_painted_as_the_page_paints_it_is_its_views_map(made):
    rs, p, asked = made
    assert len({line for _, line, _ in asked}) == 1 + len(rs.seats)  # the full view and each seat's
    assert len(p.firsts) >= 2  # (two sizes of picture met: each one's first kept whole)
    checked = {}
    for view, line, n in asked:
        ground = p.pictures[n][0]
        if ground in checked:
            continue
        want = R._whole_picture(view, p.hexmap).convert("RGB")
        d = ImageChops.difference(_painted(p, ground), want)
        # the bands are PNGs of at most 256 colours (render/png.py): a pixel a shade off, never another colour
        assert max(hi for _, hi in d.getextrema()) <= png.WRONG, (line, n)
        checked[ground] = True
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
