"""The base game's charts the table adjudicates (army combat, individual combat, the ordinary Search Table):
their values are not available (facts.md 6, 9.1), so data/charts.toml ships reconstructed ones, each marked
``reconstructed = true`` with its reason, and a group's own file replaces any of them (`[charts.<id>]`, the
same keys; it may add charts of its own).

`resolve <chart> <column> [<die modifier>]` (``resolve.py``) rolls the chart's dice from the game's seeded
stream (logged with the order), adds the modifier, reads the row (a total beyond the chart's rows reads its first or last
row) and prints the result with the chart's name, in public. In assist play the result is advice: the
seats (or the moderator's ruling) record what it means with `lose`, `kill`, `move`, `capture`."""
from __future__ import annotations

import re
from functools import lru_cache

from engine.rulesets.wotr.common import load_toml

DICE_RE = re.compile(r"^([1-3])d(6|10)$")
ID_RE = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
MOD_RE = re.compile(r"^[+-]?\d{1,2}$")
KEYS = ("name", "dice", "columns", "rows", "legend", "reconstructed", "reason")


def check_chart(cid: str, ch) -> dict:
    """A group's `[charts.<id>]`, checked (ValueError with a short reason); returned in the shape the game
    reads."""
    w = f"[charts.{str(cid)[:20]}]"
    if not ID_RE.match(str(cid)):
        raise ValueError(f"{w}: a chart id is lower-case letters, digits and -")
    if not isinstance(ch, dict):
        raise ValueError(f"{w} is a table (name, dice, columns, rows)")
    bad = [k for k in ch if k not in KEYS]
    if bad:
        raise ValueError(f"{w}: unknown key `{str(bad[0])[:20]}`; keys: {', '.join(KEYS)}")
    name = ch.get("name", f"{cid} chart")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 60:
        raise ValueError(f"{w} name: a text of 1 to 60 characters")
    dice = ch.get("dice", "1d6")
    if not isinstance(dice, str) or not DICE_RE.match(dice):
        raise ValueError(f"{w} dice: 1d6, 2d6, 3d6, 1d10 or 2d10, not `{str(dice)[:10]}`")
    cols = ch.get("columns")
    if not isinstance(cols, list) or not 1 <= len(cols) <= 20 or \
            not all(isinstance(c, str) and 0 < len(c) <= 12 and " " not in c for c in cols):
        raise ValueError(f"{w} columns: a list of 1 to 20 labels (no spaces, 12 characters at most)")
    if len({c.lower() for c in cols}) != len(cols):
        raise ValueError(f"{w} columns: a label is given twice")
    rows = ch.get("rows")
    if not isinstance(rows, dict) or not rows:
        raise ValueError(f"{w} rows: a table of die totals, each a list of results")
    out_rows = {}
    for k, r in rows.items():
        if not re.match(r"^-?\d{1,3}$", str(k)):
            raise ValueError(f"{w} rows: `{str(k)[:10]}` is not a die total")
        if not isinstance(r, list) or len(r) != len(cols) or \
                not all(isinstance(x, str) and 0 < len(x) <= 24 for x in r):
            raise ValueError(f"{w} rows.{k}: {len(cols)} results, one a column (texts of 24 characters at most)")
        out_rows[int(k)] = list(r)
    totals = sorted(out_rows)
    if totals != list(range(totals[0], totals[-1] + 1)):
        raise ValueError(f"{w} rows: the die totals run without a gap (from {totals[0]} to {totals[-1]})")
    n, sides = (int(x) for x in DICE_RE.match(dice).groups())
    if totals[0] > n or totals[-1] < n * sides:
        raise ValueError(f"{w} rows: every total of {dice} ({n} to {n * sides}) needs its row")
    legend = ch.get("legend", {})
    if not isinstance(legend, dict) or not all(isinstance(v, str) and len(v) <= 80 for v in legend.values()):
        raise ValueError(f"{w} legend: a table of result = meaning (80 characters at most)")
    if not isinstance(ch.get("reconstructed", False), bool):
        raise ValueError(f"{w} reconstructed: true or false")
    return {"name": name.strip(), "dice": dice, "columns": list(cols), "rows": out_rows, "legend": dict(legend),
            "reconstructed": bool(ch.get("reconstructed", False)), "reason": str(ch.get("reason", ""))[:200]}


@lru_cache(maxsize=1)
def shipped() -> dict:
    """The reconstructed charts of data/charts.toml, in the shape the game reads."""
    data = load_toml("charts.toml")
    return {cid: check_chart(cid, ch) for cid, ch in data.items() if isinstance(ch, dict)}


