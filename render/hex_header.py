"""The header band over a map (title, turn, phase or result, who acts, every track, set-up zone, notes),
the band under a crop naming what it leaves out, and the whole map's side panel."""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.display import track_value
from render import style as S
from render.geometry import Layout
from render.hex_common import (Frame, HEADER_MIN_W, HEADER_TARGET_PX, PAD, PREVIEW_W, RESULT_SCALE, _Stamper,
    _as_dict, _as_list, _memo, _parse_hex, _side_color, _side_title)


_ARROW = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0), "north-east": (1, -1),
          "south-east": (1, 1), "south-west": (-1, 1), "north-west": (-1, -1)}


def _arrow(d: ImageDraw.ImageDraw, x: float, y: float, r: float, direction: str, fill) -> None:
    dx, dy = _ARROW[direction]
    n = math.hypot(dx, dy)
    dx, dy = dx / n, dy / n
    px, py = -dy, dx
    d.polygon([(x + dx * r, y + dy * r), (x - dx * r * 0.7 + px * r * 0.8, y - dy * r * 0.7 + py * r * 0.8),
               (x - dx * r * 0.7 - px * r * 0.8, y - dy * r * 0.7 - py * r * 0.8)], fill=fill, outline=S.HEADER_INK)


def _beyond_text(view: dict, g: _Beyond) -> str:
    sides = _as_dict(view.get("sides"))
    counts: dict = {}
    for u in g.units:
        counts[u.get("side")] = counts.get(u.get("side"), 0) + 1
    n = len(g.units)
    who = " and ".join(f"{k} {_side_title(sides, sd)}" for sd, k in counts.items()) if len(counts) > 1 else \
        f"{n} {_side_title(sides, next(iter(counts)))}"
    one = n == 1 and g.units[0].get("id")
    what = f"{who} counter{'s' if n > 1 else ''}" + (f" ({g.units[0]['id']})" if one else "")
    return f"{g.direction}: {what}, nearest {g.nearest} (/game map around:{g.nearest})"


def footer_height(px: int, beyond: list[_Beyond]) -> int:
    """The height of :func:`_footer`'s band (0: nothing off the crop)."""
    return _header_height(px, len(beyond)) if beyond else 0


def _tall(base: Image.Image, fh: int) -> Image.Image:
    """A copy of ``base`` with room under it for a footer ``fh`` high (black: :func:`_footer` fills it;
    a crop past the edge copies the picture once, where a new image and a paste went over it twice)."""
    return base.crop((0, 0, base.width, base.height + fh))


def header_px(width: int) -> int:
    """The header's font size (px) on an image ``width`` wide: HEADER_TARGET_PX once shown PREVIEW_W wide."""
    return max(12, math.ceil(HEADER_TARGET_PX * width / PREVIEW_W))


def _line_h(px: int) -> int:
    return round(px * 1.34)


def _header_height(px: int, n: int) -> int:
    return 2 * round(px * 0.45) + n * _line_h(px)


def _turn_text(view: dict) -> str:
    turn, turns = view.get("turn"), view.get("turns")
    if turn == 0:
        return "Set-up"
    if isinstance(turn, int) and not isinstance(turn, bool):
        if isinstance(turns, int) and not isinstance(turns, bool) and turns > 0:
            return f"Turn {min(turn, turns)} of {turns}"  # a game over after its last turn: never past it
        return f"Turn {turn}"
    return ""


def _over_text(view: dict) -> str:
    """The end of the game in one short line, the winner first (the view's ``result``; the full
    reasoning is in the log)."""
    over = view.get("over")
    if not over:
        return ""
    res = view.get("result")
    if isinstance(res, str) and res:
        return f"Game over: {res}"
    return "Game over"


def _zone_text(view: dict) -> str:
    """A set-up map's line: the acting side's zone (shaded on the map) by its hex range, and how many
    counters it has still to place (the view's ``zone``, ``zone_title`` and ``pool``)."""
    hexes = [h for h in (_parse_hex(z) for z in _as_list(view.get("zone"))) if h is not None]
    if not hexes or view.get("over"):
        return ""
    cols, rows = [h.col for h in hexes], [h.row for h in hexes]
    title = str(view.get("zone_title") or "Set-up zone")
    text = f"{title}: columns {min(cols):02d}-{max(cols):02d}, rows {min(rows):02d}-{max(rows):02d}"
    pool = _as_dict(view.get("pool"))
    sides = _as_dict(view.get("sides"))
    left = [(a, pool.get(a)) for a in _as_list(view.get("active")) if isinstance(pool.get(a), int)]
    if left:
        text += " · to place: " + ", ".join(f"{n} {_side_title(sides, a)}" for a, n in left)
    return text


def _track_items(view: dict) -> list[tuple[dict, str]]:
    out = []
    for t in _as_list(view.get("tracks")):
        if isinstance(t, dict):
            val = track_value(t)
            out.append((t, f"{t.get('name') or ''} {val}".strip()))
    return out


def _track_rows(view: dict, px: int, width: float) -> list[list[tuple[dict, str]]]:
    """Every track, wrapped into rows that fit ``width`` at font size ``px`` (a track never dropped)."""
    rows: list[list] = []
    x = width + 1
    for t, item in _track_items(view):
        # (remembered on disk: frame_for counts these rows before a render's pack is open)
        w = px * 0.8 + _memo.get(("w", item, px), lambda: S.text_length(item, px))
        if rows and x + w <= width:
            rows[-1].append((t, item))
        else:
            rows.append([(t, item)])
            x = 0
        x += w + px * 1.4
    return rows


def _header_lines(view: dict, fr: Frame | None, width: int = HEADER_MIN_W) -> list[tuple[str, object]]:
    """The header's lines, (kind, text): title, phase (or the result), the rules in force (the view's
    ``rules``), who acts, the tracks (as many rows as they take on an image ``width`` px wide), what is in
    effect."""
    title = str(view.get("title") or view.get("ruleset") or "")
    bits = [b for b in (title, _turn_text(view)) if b]
    if "night" in view and view.get("board") != "area":
        bits.append("Night" if view.get("night") else "Day")
    if fr is not None and fr.mode == "around" and fr.focus is not None:
        bits.append(f"around {fr.focus}")
    lines = [("title", " · ".join(bits)), ("phase", _over_text(view) or str(view.get("phase_title") or view.get("phase") or ""))]
    if view.get("over") and view.get("result"):
        lines.append(("gap", ""))  # the result is drawn larger, over two lines' height: right after its line
    if view.get("rules"):  # the rules in force, when the game's options change them (issue 42)
        lines.append(("rules", str(view["rules"])))
    zone = _zone_text(view)
    if zone:
        lines.append(("zone", zone))
    if not view.get("over") or view.get("deadline"):
        lines.append(("act", ""))
    if fr is not None and not fr.panel:
        px = header_px(width)
        for row in _track_rows(view, px, width - 2 * round(px * 0.6)):
            lines.append(("tracks", row))
        for n in [str(n) for n in _as_list(view.get("notes")) if n][:2]:
            lines.append(("note", n))
    return lines


def _clip_px(text: str, px: int, width: float) -> str:
    """``text`` cut (with an ellipsis) to ``width`` px at font size ``px``: never a smaller font."""
    if S.text_length(text, px) <= width:
        return text

    def fits(n: int) -> bool:
        return S.text_length(text[:n] + "…", px) <= width

    # the longest prefix that fits with its ellipsis: a halving search for where it stops fitting, then
    # a step back over the last two characters (a prefix two characters longer is always wider: only
    # one kerning pair changes), not one text measured per character cut (each new header's first map)
    lo, hi = 1, len(text)  # fits(lo) or lo == 1; not fits(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    n = min(len(text), lo + 2)
    while n > 1 and not fits(n):
        n -= 1
    return text[:n].rstrip() + "…"


def _header(img: Image.Image, width: int, view: dict, lines: list[tuple[str, object]], px: int) -> list:
    """Draws the header's ``lines`` (see :func:`_header_lines`) at font size ``px`` across the top
    ``width`` px of ``img`` (on the band the base drew)."""
    d = ImageDraw.Draw(img)
    txt = _Stamper(img)
    f = S.font(px)
    sides = _as_dict(view.get("sides"))
    lh = _line_h(px)
    x0, x1 = round(px * 0.6), width - round(px * 0.6)
    y = round(px * 0.45)
    drawn: list = []
    for kind, text in lines:
        mid = y + lh / 2
        if kind == "title":
            seat = view.get("seat")
            label = f"{_side_title(sides, seat)}'s view - PRIVATE" if seat else "Public view"
            col = _side_color(sides, seat) if seat else (88, 84, 76)
            w = S.text_length(label, px) + px
            d.rounded_rectangle([x1 - w, y + 1, x1, y + lh - 1], round(lh / 3), fill=col)
            txt.text((x1 - w / 2, mid), label, font=f, fill=S.ink_on(col), anchor="mm")
            txt.text((x0, mid), _clip_px(text, px, x1 - w - x0 - px), font=f, fill=S.HEADER_INK, anchor="lm",
                     stroke_width=1, stroke_fill=S.HEADER_INK)
        elif kind == "act":
            active = [a for a in _as_list(view.get("active")) if isinstance(a, str)]
            x = x0
            if not view.get("over"):
                txt.text((x, mid), "To act:", font=f, fill=S.HEADER_MUTED, anchor="lm")
                x += S.text_length("To act:", px) + px * 0.5
                if not active:
                    txt.text((x, mid), "nobody", font=f, fill=S.HEADER_MUTED, anchor="lm")
                    x += S.text_length("nobody", px) + px
                for a in active:
                    t = _side_title(sides, a)
                    col = _side_color(sides, a)
                    w = S.text_length(t, px) + px
                    if x + w > x1:
                        break
                    d.rounded_rectangle([x, y + 1, x + w, y + lh - 1], round(lh / 2) - 1, fill=col,
                                        outline=S.HEADER_INK, width=1)
                    txt.text((x + w / 2, mid), t, font=f, fill=S.ink_on(col), anchor="mm")
                    x += w + px * 0.4
            deadline = view.get("deadline")
            if isinstance(deadline, str) and deadline:
                t = _clip_px(deadline, px, max(px, x1 - x - px))
                txt.text((x1, mid), t, font=f, fill=S.HEADER_INK, anchor="rm")
        elif kind == "tracks":
            x = x0
            for t, item in text:
                w = S.text_length(item, px)
                over = _demoralized(t)
                col = _side_color(sides, t.get("side"))
                d.rounded_rectangle([x, y + lh * 0.3, x + px * 0.5, y + lh * 0.7], 2, fill=col)
                txt.text((x + px * 0.8, mid), item, font=f, fill=(255, 120, 100) if over else S.HEADER_INK,
                         anchor="lm")
                x += w + px * 2.2
        elif kind == "phase" and view.get("over") and view.get("result"):
            big = round(px * RESULT_SCALE)
            line = _clip_px(str(text), big, x1 - x0)
            txt.text((x0, y + lh), line, font=S.font(big), fill=(255, 214, 120), anchor="lm")
            drawn.append(("result", line, (x0 - 2, y + lh * 0.15, x0 + S.text_length(line, big) + 4, y + lh * 1.85)))
        elif kind == "gap":
            pass
        else:
            ink = S.HEADER_MUTED if kind in ("note", "off", "rules") else S.HEADER_INK
            txt.text((x0, mid), _clip_px(text, px, x1 - x0), font=f, fill=ink, anchor="lm")
        y += lh
    return drawn


# --------------------------------------------------------------------------
# Panel (dynamic part)
# --------------------------------------------------------------------------
def _wrap(text: str, f, width: float) -> list[str]:
    out, line = [], ""
    for word in text.split():
        cand = f"{line} {word}".strip()
        if S.text_length(cand, f.size) <= width or not line:
            line = cand
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    return out


def _demoralized(track: dict) -> bool:
    """Whether a demoralization track is shown as demoralized: the view's
    ``demoralized`` flag when it has one (the rules decide: in some games the
    points must exceed the level), else points at or over the level."""
    if "demoralized" in track:
        return bool(track["demoralized"])
    pts, lvl = track.get("points"), track.get("level")
    num = (int, float)
    return (isinstance(pts, num) and isinstance(lvl, num) and not isinstance(pts, bool)
            and not isinstance(lvl, bool) and lvl > 0 and pts >= lvl)


def _panel(img: Image.Image, lay: Layout, view: dict, limit: int) -> None:
    d = ImageDraw.Draw(img)
    txt = _Stamper(img)
    x0 = lay.map_w + PAD
    x1 = lay.width - PAD
    width = x1 - x0
    sides = _as_dict(view.get("sides"))
    y = lay.top + PAD  # the title, whose view, the turn, the phase and who acts are in the header

    # tracks
    tracks = [t for t in _as_list(view.get("tracks")) if isinstance(t, dict)]
    if tracks:
        d.line([(x0, y), (x1, y)], fill=S.PANEL_RULE, width=1)
        y += 8
        fv = S.font(14)
        for t in tracks:
            if y + 44 > limit - 12:
                break
            name = str(t.get("name") or "")
            pts, lvl = t.get("points"), t.get("level")
            val = track_value(t, " / ")
            vw = S.text_length(val, fv.size)
            fnt, name = S.fit_font(name, width - vw - 10, 14, 10)
            txt.text((x0, y), name, font=fnt, fill=S.PANEL_INK)
            over = _demoralized(t)
            txt.text((x1, y), val, font=fv, fill=(180, 24, 24) if over else S.PANEL_INK, anchor="ra")
            y += 19
            col = _side_color(sides, t.get("side"))
            d.rounded_rectangle([x0, y, x1, y + 14], 4, fill=(228, 222, 206), outline=S.PANEL_RULE)
            if isinstance(pts, (int, float)) and isinstance(lvl, (int, float)) and lvl > 0 and pts > 0:
                frac = min(1.0, pts / lvl)
                xe = x0 + max(8, round((x1 - x0) * frac))
                d.rounded_rectangle([x0, y, xe, y + 14], 4, fill=col)
            if over:
                txt.text(((x0 + x1) / 2, y + 7), "DEMORALIZED", font=S.font(11), fill=(255, 255, 255), anchor="mm")
            y += 25

    # counters off the map
    pool = _as_dict(view.get("pool"))
    if not pool:
        for u in _as_list(view.get("units")):
            if isinstance(u, dict) and u.get("hex") is None and isinstance(u.get("side"), str):
                pool[u["side"]] = pool.get(u["side"], 0) + 1
    if pool and y + 50 < limit:
        d.line([(x0, y), (x1, y)], fill=S.PANEL_RULE, width=1)
        y += 8
        f = S.font(14)
        txt.text((x0, y), "Off the map (pool)", font=f, fill=S.PANEL_MUTED)
        y += 21
        for side_name, n in pool.items():
            if y + 20 > limit - 10:
                break
            col = _side_color(sides, side_name)
            d.rounded_rectangle([x0, y + 2, x0 + 14, y + 16], 3, fill=col)
            txt.text((x0 + 22, y + 9), _side_title(sides, side_name), font=f, fill=S.PANEL_INK, anchor="lm")
            txt.text((x1, y + 9), str(n), font=f, fill=S.PANEL_INK, anchor="rm")
            y += 21

    # what is in effect now (spells, formations, a retreat awaited): short public lines
    notes = [str(n) for n in _as_list(view.get("notes")) if n]
    if notes and y + 50 < limit:
        d.line([(x0, y), (x1, y)], fill=S.PANEL_RULE, width=1)
        y += 8
        f = S.font(14)
        txt.text((x0, y), "In effect", font=f, fill=S.PANEL_MUTED)
        y += 21
        fn = S.font(12)
        for n in notes:
            if y + 18 > limit - 10:
                break
            fnt, line = S.fit_font(n, width, 12, 9)
            txt.text((x0, y), line, font=fnt or fn, fill=S.PANEL_INK)
            y += 17
