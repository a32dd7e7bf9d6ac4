"""`resolve <chart> <column> [<die modifier>]` (seed:001 with the base game's charts, facts.md 6, 9.1): a chart
in force (the group's own, ``charts=``, or the shipped reconstruction, ``charts.py``) rolled with the game's
seeded stream, logged with the order; in assist play the result is advice."""
from __future__ import annotations

from engine.core import Event
from engine.dice import Dice
from engine.rulesets.wotr import group_file, lookup
from engine.rulesets.wotr.charts import DICE_RE, MOD_RE, shipped
from engine.rulesets.wotr.common import refuse, title


def _charts(rs, st) -> dict:
    """The game's charts: the reconstructed ones, each replaced by the group's where its file gives one."""
    out = dict(shipped())
    group = group_file._group(rs, st)
    if group is not None:
        out.update(group.charts)
    return out


def _chart_label(rs, ch: dict, group: bool) -> str:
    if ch["reconstructed"]:
        return f"{ch['name']} (reconstructed)"
    return f"{ch['name']} (the group's)" if group else ch["name"]


def _p_resolve(rs, st, seat, w):
    if len(w) not in (2, 3):
        raise lookup._usage(rs, "resolve")
    charts = _charts(rs, st)
    if w[0] not in charts:
        raise refuse(f"no chart `{w[0][:20]}`; charts: {', '.join(charts)}")
    ch = charts[w[0]]
    word = w[1].replace(":", "-")
    cols = {c.lower(): c for c in ch["columns"]}
    col = cols.get(word) or (cols.get("+" + word) if word.isdigit() else None)
    if col is None:
        raise refuse(f"the {ch['name']} has no column `{w[1][:12]}`; columns: {' '.join(ch['columns'])}")
    args = [w[0], col]
    if len(w) == 3:
        if not MOD_RE.match(w[2]) or abs(int(w[2])) > 12:
            raise refuse("a die modifier is a number from -12 to +12 (`+1`, `-2`)")
        if int(w[2]):
            args.append(f"{int(w[2]):+d}")
    return tuple(args)


def _a_resolve(rs, st, seat, args, dice):
    cid, col = args[0], args[1]
    mod = int(args[2]) if len(args) > 2 else 0
    ch = _charts(rs, st)[cid]
    n, sides = (int(x) for x in DICE_RE.match(ch["dice"]).groups())
    d = Dice(st["dice"])
    faces = [d.randint(1, sides, f"{ch['name']}, column {col}") for _ in range(n)]
    total = sum(faces) + mod
    lo, hi = min(ch["rows"]), max(ch["rows"])
    row = ch["rows"][min(hi, max(lo, total))]
    result = row[ch["columns"].index(col)]
    meaning = " ".join(ch["legend"].get(x, "") for x in result.split()).strip()
    group = group_file._group(rs, st) is not None and cid in group_file._group(rs, st).charts
    rolled = "+".join(str(f) for f in faces) + (f" {mod:+d}" if mod else "") + \
        (f" = {total}" if n > 1 or mod else "")
    text = (f"{title(seat)} rolls on the {_chart_label(rs, ch, group)}, column {col}: {rolled} -> **{result}**"
            + (f" ({meaning})" if meaning else "") + ". The table records what it means (`lose`, `kill`, `move`).")
    return [Event(public=text, section=ch["name"], rolls=d.rolls)]
