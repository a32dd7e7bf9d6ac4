"""A game's record as pictures a page can draw (issue 40): every step's map from a few images.

The PNG map of a step is the under-layer (the base map, with what lies under the counters and the side
panel) and the pieces over it (render.hexmap.pieces: pastes in layers, a chunk a hex). A record of a
thousand steps draws each distinct under-layer once (the first of its size whole, each other one as the
bands that differ from the last one of its own view, a seat's or the full one, or from the last one drawn,
whichever differs less), each distinct paste source once (counters, chits, texts: one sprite sheet), and each
step as a list of chunks (a chunk: sprites at places), each chunk worked out once for what it is drawn
from. The page (render/templates/record.html.j2) paints a step on a canvas: the under-layer, then its
chunks in order, as :func:`render.hexmap.compose` pastes them, so a step looks like the PNG map of that
step (the whole map; the header is the page's own text). An area board has no pieces layer: each distinct
picture is drawn whole (the picture its PNG is written from, not the PNG) and kept as the bands that
differ, the same way.

Nothing here knows a game: the views come already redacted for whoever the record is for."""
from __future__ import annotations

import base64
import io
import json
import re

from PIL import Image, ImageChops

from render import png

BAND = 64              # rows a patch band covers (an under-layer kept as what differs from the first, by band)
SHEET_W = 1024         # the sprite sheet's width


def data_uri(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64," + base64.b64encode(data).decode()


def _bands(img: Image.Image, diff: Image.Image, box: tuple[int, int, int, int]) -> list[tuple[int, int, Image.Image]]:
    """The parts of ``img`` that differ from the picture before it (``diff``: their difference, the same
    size; ``box``: the box of all the differences): per band of rows, the box of the differences, cut out
    (only the bands the box crosses are looked at, and only across the box)."""
    out = []
    left, top, right, bottom = box
    for y in range(top - top % BAND, bottom, BAND):
        part = diff.crop((left, y, right, min(img.height, y + BAND))).getbbox()
        if part:
            x0, y0, x1, y1 = part
            out.append((left + x0, y + y0, img.crop((left + x0, y + y0, left + x1, y + y1))))
    return out


def _whole_picture(view: dict, board) -> Image.Image:
    """The whole map of a board without a pieces layer, in full colour (an area board's PNG is reduced to
    256 colours on a palette of its own: the picture before that, so that two steps differ only where
    they do)."""
    if view.get("board") == "area":
        from render.areamap import compose

        return compose(view, board, focus=False)
    from render.provinces import compose

    return compose(view, board)  # (a board of provinces: the picture its full-colour PNG is written from)


class Pictures:
    """Every step's picture of a game, for one or several views (:meth:`add` a view, get its picture's
    number), and what the page needs to draw them (:meth:`data`)."""

    def __init__(self, hexmap):
        self.hexmap = hexmap
        self.firsts: list[Image.Image] = []       # the first under-layer of each size, whole
        self.grounds: list[tuple[int, int, list]] = []  # (first, parent, bands) of each distinct under-layer
        self._last: dict = {}                      # (line, size) -> (ground, image): a line's last under-layer
        self._latest: dict = {}                    # size -> (ground, image): the last under-layer of any line
        self._ground_ids: dict = {}
        self.sprites: list[Image.Image] = []
        self._sprite_ids: dict = {}
        self._keep: list = []                     # what the sprite keys name by id(), kept alive
        self.chunks: list[list[int]] = []
        self._chunk_ids: dict = {}
        self.pictures: list[list[int]] = []
        self._picture_ids: dict = {}
        self._line_last: dict = {}                 # line -> (its last view, that view's picture)
        self.memo: dict = {}
        self.size = (0, 0)

    # ---- the under-layer
    def _ground(self, key, draw, line=None, fresh: bool = False) -> int:
        """The number of the under-layer ``key`` (``draw()`` makes it the first time; ``fresh``: a new picture
        each time, kept as it is, not copied): the first of its size kept whole, every other one as the bands
        that differ from the last one of its size drawn for the same ``line`` (the view it is a step of) or from
        the last one drawn, whichever differs less (a chain the page paints from its start: kept to its own
        view's steps where the views differ much, the full view's step where a seat's differs from it only a
        little). A picture that is either of those again is that one; one met before them is kept again (a
        SHA-256 of every picture to find it cost a five-seat area game's record a second of its four)."""
        got = self._ground_ids.get(key)
        if got is not None:
            return got
        img = draw()
        if not fresh or img.mode != "RGB":
            img = img.convert("RGB")  # (a copy: a picture from a cache may be handed out again)
        best = None  # (area, ground, bands): the picture it differs least from, and where
        mine, latest = self._last.get((line, img.size)), self._latest.get(img.size)
        for other in (mine,) if latest is mine else (mine, latest):
            if other is None:
                continue
            diff = ImageChops.difference(img, other[1])
            box = diff.getbbox()
            if box is None:  # the last picture of this line, or the last one drawn, again
                self._ground_ids[key] = other[0]
                self._last[(line, img.size)] = self._latest[img.size] = other
                return other[0]
            bands = _bands(img, diff, box)
            area = sum(b.width * b.height for _, _, b in bands)
            if best is None or area < best[0]:
                best = (area, other[0], bands)
        if best is None:
            self.firsts.append(img)
            self.grounds.append((len(self.firsts) - 1, -1, []))
        else:
            self.grounds.append((-1, best[1], [(x, y, png.encode(b)) for x, y, b in best[2]]))
        self.size = (max(self.size[0], img.width), max(self.size[1], img.height))
        self._ground_ids[key] = len(self.grounds) - 1
        self._last[(line, img.size)] = self._latest[img.size] = (len(self.grounds) - 1, img)
        return self._ground_ids[key]

    # ---- the pieces
    def _sprite(self, src, mask) -> int:
        key = (src if isinstance(src, tuple) else id(src), id(mask))
        got = self._sprite_ids.get(key)
        if got is not None:
            return got
        self._keep.append((src, mask))
        if isinstance(src, Image.Image):
            spr = src.convert("RGBA") if src is mask else src.convert("RGB").convert("RGBA")
            if src is not mask:
                spr.putalpha(mask.getchannel("A") if mask.mode == "RGBA" else mask.convert("L"))
        else:
            spr = Image.new("RGBA", mask.size, tuple(src)[:3] + (0,))
            spr.putalpha(mask.convert("L") if mask.mode != "RGBA" else mask.getchannel("A"))
        self.sprites.append(spr)
        self._sprite_ids[key] = len(self.sprites) - 1
        return self._sprite_ids[key]

    def _chunk(self, key, ops) -> int | None:
        if not ops:
            return None
        got = self._chunk_ids.get(key)
        if got is None:
            flat: list[int] = []
            for src, (x, y), mask in ops:
                flat += [self._sprite(src, mask), x, y]
            self.chunks.append(flat)
            got = self._chunk_ids[key] = len(self.chunks) - 1
        return got

    def add(self, view: dict, line=None) -> int:
        """The number of ``view``'s picture (drawn the first time it is met); ``line``: the view it is a step of
        (a seat's, the full one), whose last picture its under-layer is kept as a change of. The line's last
        view again (a step that changed nothing it shows: a sixth to a quarter of a game's steps) is its last
        picture, not drawn again: every part of it would be found drawn already."""
        last = self._line_last.get(line)
        if last is not None and last[0] == view:
            return last[1]
        got = self._add(view, line)
        self._line_last[line] = (view, got)
        return got

    def _add(self, view: dict, line=None) -> int:
        if isinstance(view, dict) and view.get("board") in ("area", "provinces"):
            key = json.dumps(view, sort_keys=True, default=str)
            ground = self._ground(("whole", key), lambda: _whole_picture(view, self.hexmap), line, fresh=True)
            parts = (ground,)
        else:
            parts = self._hex(view, line)
        got = self._picture_ids.get(parts)
        if got is None:
            self.pictures.append(list(parts))
            got = self._picture_ids[parts] = len(self.pictures) - 1
        return got

    def _hex(self, view: dict, line=None) -> tuple[int, ...]:
        from render import hex_underlay as UL
        from render.hex_common import _as_dict, _layout
        from render.hex_crop import _whole
        from render.hex_legend import legend_for
        from render.hex_terrain import _hex_number_px
        from render.hexmap import markers, pieces

        hexmap = self.hexmap
        fr = _whole(hexmap)
        leg = legend_for(hexmap, view) if fr.panel else None
        lay = _layout(fr, leg, 0)
        display = _as_dict(view.get("display"))
        hex_markers, cracks, rungs, side_chits = markers(view, display, lay)
        what = UL.plan(view, hexmap, lay, cracks)

        def draw():  # (the side panel's tracks, counters off the map and notes are the page's text)
            return UL.underlay(hexmap, fr, leg, 0, what)[0]
        ground = self._ground((repr(leg), repr(what)), draw, line)
        s = fr.s
        pcs = pieces(view, hexmap, lay, s, _as_dict(view.get("sides")), _as_dict(display.get("shapes")), hex_markers,
                     rungs, side_chits, _hex_number_px(s), memo=self.memo)
        out = [ground]
        for layer in pcs.layers:
            for key, ops in layer:
                c = self._chunk(key, ops)
                if c is not None:
                    out.append(c)
        return tuple(out)

    # ---- what the page reads
    def sheet(self) -> tuple[bytes, list[list[int]]]:
        """Every sprite on one PNG (shelves ``SHEET_W`` wide) and each one's box on it."""
        boxes, x, y, row = [], 0, 0, 0
        for spr in self.sprites:
            w, h = spr.size
            if x + w > SHEET_W and x:
                x, y, row = 0, y + row, 0
            boxes.append([x, y, w, h])
            x, row = x + w, max(row, h)
        sheet = Image.new("RGBA", (SHEET_W, max(1, y + row)), (0, 0, 0, 0))
        for spr, (bx, by, _, _) in zip(self.sprites, boxes):
            sheet.paste(spr, (bx, by))
        buf = io.BytesIO()
        sheet.save(buf, format="PNG", compress_level=6)  # (9: 0.41 s for a 822-sprite sheet, 5 % smaller)
        return buf.getvalue(), boxes

    def data(self) -> dict:
        sheet, boxes = self.sheet()
        return {"width": self.size[0], "height": self.size[1],
                "firsts": [data_uri(png.encode(f)) for f in self.firsts],
                "grounds": [[first, parent, [[x, y, data_uri(b)] for x, y, b in bands]]
                            for first, parent, bands in self.grounds],
                "sheet": data_uri(sheet), "boxes": boxes, "chunks": self.chunks, "pictures": self.pictures}


def header_texts(view: dict) -> tuple[str, str]:
    """A step's header as the page's text, in the map header's words (render/hex_header.py): the turn and
    the phase (or the result), then who acts, the tracks and what is in effect."""
    from render.hex_common import _as_dict, _side_title
    from render.hex_header import _over_text, _track_items, _turn_text

    phase = _over_text(view) or str(view.get("phase_title") or view.get("phase") or "")
    turn = _turn_text(view)
    if re.match(rf"turn {view.get('turn')}\b", phase, re.IGNORECASE):
        turn = ""  # (a phase title that names its turn itself: "Turn 2: Movement Phase", not "Turn 2 · Turn 2: …")
    head = " · ".join(b for b in (turn, phase) if b)
    sides = _as_dict(view.get("sides"))
    acting = [_side_title(sides, s) for s in view.get("active") or [] if isinstance(s, str)]
    bits = ([f"To act: {', '.join(acting)}"] if acting and not view.get("over") else []) + \
        [t for _, t in _track_items(view)] + [str(n) for n in view.get("notes") or [] if n]
    return head, " · ".join(bits)


def page(*, title: str, subtitle: str, whose: str, result: str | None, steps: list[dict], log: list[dict],
         views: list[tuple[str, str]], shown: dict[str, list[int]], pictures: "Pictures",
         seat_history: list[str]) -> bytes:
    """The record's HTML (render/templates/record.html.j2, Jinja2 with autoescaping): ``steps`` (``seq``,
    ``turn``, ``phase``, ``head``, ``sub``, ``alt``), the ``log`` rows (``step``, ``seq``, ``seat``,
    ``text``, ``rolls``, ``public``, and ``phase`` where one begins), the ``views`` (key, title) and each
    one's picture number per step (``shown``)."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("render", "templates"), autoescape=select_autoescape(["j2", "html"]),
                      trim_blocks=False, keep_trailing_newline=True)
    pdata = pictures.data()
    data = {"steps": steps, "views": [k for k, _ in views], "viewTitles": dict(views), "shown": shown,
            "pictures": pdata}
    html = env.get_template("record.html.j2").render(
        title=title, subtitle=subtitle, whose=whose, result=result, steps=steps, log=log,
        views=[{"key": k, "title": t} for k, t in views], width=pdata["width"], height=pdata["height"],
        seat_history=seat_history, data=data)
    return html.encode()
