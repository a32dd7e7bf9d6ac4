"""A group's chart file, made safe before and after ``tomllib`` reads it.

A chart file (``options:charts=<TOML>``, at most 64 KB) comes from players, so
nothing in it may hang the bot, crash it or make the engine loop:

1. ``check_text`` runs before the TOML parser sees the text: UTF-8 without NUL,
   at most ``MAX_BYTES`` bytes, ``MAX_LINES`` lines of ``MAX_LINE`` characters,
   brackets and braces nested at most ``MAX_DEPTH`` deep, dotted keys of at
   most ``MAX_KEY_PARTS`` parts (``tomllib`` is quadratic in them), number
   literals of at most ``MAX_DIGITS`` digits.
2. ``parse`` then parses, turning every failure (``TOMLDecodeError``,
   ``RecursionError``, ``ValueError``, anything) into a ``ChartError``, and
   bounds the tree: finite numbers within ±``MAX_NUMBER``, lists of at most
   ``MAX_LIST`` items, tables of at most ``MAX_TABLE`` keys, texts of at most
   ``MAX_STRING`` characters, no dates.
3. ``check_values`` bounds the values the rules read (``SCHEMA``): terrain
   costs at least 1 or impassable, allowances 0-30, ranges 0-20, and so on:
   numbers a printed game could have.

Every refusal is a ``ChartError`` with a short message (under 300 characters,
the line where it can be found), which reaches the player as a private reply.
``check_chart_file(ruleset, data)`` is the one call that checks a chart file
for a ruleset, exactly as ``/game new`` would.
"""
from __future__ import annotations

import datetime
import math
import re
import tomllib
from typing import Any, Callable

MAX_BYTES = 64 * 1024
MAX_LINES = 2000
MAX_LINE = 1000
MAX_DEPTH = 16
MAX_KEY_PARTS = 8
MAX_DIGITS = 12
MAX_NUMBER = 10 ** 6
MAX_LIST = 100
MAX_TABLE = 200
MAX_STRING = 1000
MAX_KEY = 100
MAX_REASON = 240


class ChartError(ValueError):
    """A chart file refused: ``reason`` (short) and the ``line`` if known."""

    def __init__(self, reason: str, line: int | None = None):
        reason = str(reason)
        if len(reason) > MAX_REASON:
            reason = reason[:MAX_REASON - 1] + "…"
        self.reason = reason
        self.line = line
        super().__init__(f"charts line {line}: {reason}" if line else f"charts: {reason}")


def show(v: Any, n: int = 40) -> str:
    """A value as the player wrote it, clipped."""
    if isinstance(v, bool):
        s = "true" if v else "false"
    elif isinstance(v, float) and not math.isfinite(v):
        s = "nan" if v != v else ("inf" if v > 0 else "-inf")
    elif isinstance(v, int) and abs(v) > 10 ** 30:  # str() of a huge int is slow; never show it whole
        s = "a huge number"
    elif isinstance(v, (datetime.date, datetime.time)):
        s = v.isoformat()
    else:
        try:
            s = repr(v) if not isinstance(v, str) else f'"{v}"'
        except (ValueError, RecursionError):
            s = type(v).__name__
    return s if len(s) <= n else s[:n - 1] + "…"


# ------------------------------------------------------------ 1. the text
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+")
_SPACE = frozenset(" \t")
_DIGIT_RUN = re.compile(r"[0-9_]+")
_HEX_RUN = re.compile(r"[0-9A-Fa-f_]+")


def decode_chart(data: bytes) -> str:
    """A chart file's bytes as text: at most 64 KB, UTF-8 (an optional BOM); ChartError saying what
    the file "is" otherwise (the caller names the file)."""
    if len(data) > MAX_BYTES:
        raise ChartError(f"is {len(data) // 1024} KB; at most {MAX_BYTES // 1024} KB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ChartError(f"is not UTF-8 text (byte {e.start})") from None


def check_text(data: str | bytes) -> str:
    """The chart text, checked before any parser reads it; ChartError otherwise.
    ``data`` may be the file's bytes (UTF-8, an optional BOM) or its text."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            text = decode_chart(bytes(data))
        except ChartError as e:
            raise ChartError(f"the file {e}") from None
    elif isinstance(data, str):
        text = data
    else:
        raise ChartError("a chart file is text (TOML)")
    if len(text) > MAX_BYTES:
        raise ChartError(f"the file is over {MAX_BYTES // 1024} KB")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as e:
        raise ChartError(f"not UTF-8 text (character {e.start})") from None
    if size > MAX_BYTES:
        raise ChartError(f"the file is {size // 1024} KB; at most {MAX_BYTES // 1024} KB")
    if text.startswith("\ufeff"):
        text = text[1:]
    nul = text.find("\x00")
    if nul >= 0:
        raise ChartError("the file holds a NUL character", text.count("\n", 0, nul) + 1)
    _scan(text)
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()  # the last line's end
    if len(lines) > MAX_LINES:
        raise ChartError(f"the file has {len(lines)} lines; at most {MAX_LINES}")
    for i, ln in enumerate(lines, 1):
        if len(ln) > MAX_LINE:
            raise ChartError(f"a line of {len(ln)} characters; at most {MAX_LINE}", i)
    return text


def _scan(text: str) -> None:
    """Nesting depth, dotted-key length and number length, outside strings
    and comments (a string's content is skipped as TOML reads it)."""
    n = len(text)
    i = 0
    line = 1
    depth = 0
    dots = 0  # dots in the current run of key parts (``a.b."c".d``)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            dots = 0
            i += 1
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == '"' or c == "'":
            if text.startswith(c * 3, i):  # a multi-line string
                j = i + 3
                while True:
                    k = text.find(c * 3, j)
                    if k < 0:
                        raise ChartError("a multi-line string is never closed", line)
                    bs = 0
                    while c == '"' and k - 1 - bs >= j and text[k - 1 - bs] == "\\":
                        bs += 1
                    if bs % 2 == 0:
                        break
                    j = k + 1  # an escaped quote
                end = k + 3
                while end < n and text[end] == c and end - (k + 3) < 2:  # the content may end in quotes
                    end += 1
                line += text.count("\n", i, end)
                i = end
            else:
                j = i + 1
                while j < n and text[j] != c and text[j] != "\n":
                    j += 2 if (c == '"' and text[j] == "\\") else 1
                i = j + 1 if j < n and text[j] == c else j
        elif c in "[{":
            depth += 1
            dots = 0
            if depth > MAX_DEPTH:
                raise ChartError(f"brackets or braces nested more than {MAX_DEPTH} deep", line)
            i += 1
        elif c in "]}":
            depth = max(depth - 1, 0)
            dots = 0
            i += 1
        elif c == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                raise ChartError(f"a dotted key of more than {MAX_KEY_PARTS} parts", line)
            i += 1
        elif c in _SPACE:
            i += 1
        elif c in _WORD:
            j = i
            while j < n and text[j] in _WORD:
                j += 1
            word = text[i:j]
            if word.lstrip("+-")[:1].isdigit():  # a number (or a date): no run of digits too long
                runs = _HEX_RUN.findall(word[2:]) if word[:2] in ("0x", "0X") else _DIGIT_RUN.findall(word)
                if any(len(r.replace("_", "")) > MAX_DIGITS for r in runs):
                    raise ChartError(f"a number of more than {MAX_DIGITS} digits", line)
            i = j
        else:
            dots = 0
            i += 1


# ------------------------------------------------------------ 2. the tree
def parse(data: str | bytes) -> dict:
    """A chart file's tables, checked before and after parsing; ChartError otherwise."""
    text = check_text(data)
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"line (\d+)", msg)
        raise ChartError(f"not valid TOML: {msg.split(' (at')[0]}", int(m.group(1)) if m else None) from None
    except RecursionError:
        raise ChartError("not valid TOML: nested too deeply") from None
    except MemoryError:
        raise ChartError("not valid TOML: too large") from None
    except Exception as e:  # noqa: BLE001 - nothing the parser raises may escape
        raise ChartError(f"not valid TOML ({type(e).__name__})") from None
    check_tree(d, text)
    return d


def check_tree(d: dict, text: str | None = None) -> None:
    """Bounds on every value, whatever the table: finite numbers within
    ±MAX_NUMBER, short texts, short lists, tables of sane size, no dates."""
    stack: list[tuple[tuple[str, ...], Any]] = [((), d)]
    seen = 0
    while stack:
        path, v = stack.pop()
        seen += 1
        if seen > 20_000:
            raise ChartError("too many values")
        where = ".".join(path) or "the file"

        def fail(reason: str) -> None:
            raise ChartError(reason, line_of(text, *path))

        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            if abs(v) > MAX_NUMBER:
                fail(f"`{where}` = {show(v)}: numbers lie within ±{MAX_NUMBER:,}")
        elif isinstance(v, float):
            if not math.isfinite(v):
                fail(f"`{where}` = {show(v)}: numbers must be finite")
            if abs(v) > MAX_NUMBER:
                fail(f"`{where}` = {show(v)}: numbers lie within ±{MAX_NUMBER:,}")
        elif isinstance(v, str):
            if len(v) > MAX_STRING:
                fail(f"`{where}`: a text of {len(v)} characters; at most {MAX_STRING}")
        elif isinstance(v, list):
            if len(v) > MAX_LIST:
                fail(f"`{where}`: a list of {len(v)} items; at most {MAX_LIST}")
            stack.extend((path + (f"[{i}]",), x) for i, x in enumerate(v))
        elif isinstance(v, dict):
            if len(v) > MAX_TABLE:
                fail(f"`{where}`: a table of {len(v)} keys; at most {MAX_TABLE}")
            for k, x in v.items():
                if len(k) > MAX_KEY:
                    fail(f"a key of {len(k)} characters in `{where}`; at most {MAX_KEY}")
                stack.append((path + (k,), x))
        else:
            fail(f"`{where}` = {show(v)}: dates and times are not chart values")


def line_of(text: str | None, *keys: str) -> int | None:
    """Best effort: the line of a table/key in the TOML text that set it."""
    if not text:
        return None
    keys = tuple(k for k in keys if not k.startswith("["))
    lines = text.splitlines()
    table, key = (keys[0], keys[-1]) if keys else ("", "")
    in_table = False
    for i, ln in enumerate(lines, 1):
        s = ln.strip()
        if s.startswith("["):
            in_table = s.strip("[]").strip() == table
            if in_table and len(keys) == 1:
                return i
            continue
        name = s.split("=", 1)[0].strip().strip('"')
        if (in_table and name == key) or name == ".".join(keys) or s.startswith(f"{table}.{key}"):
            return i
    for i, ln in enumerate(lines, 1):
        if table and table in ln:
            return i
    return None


# ------------------------------------------------------------ 3. the values
Check = Callable[[Any], "str | None"]  # None: fine; else what is wrong


def whole(lo: int, hi: int) -> Check:
    def check(v):
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            return f"must be a whole number from {lo} to {hi}"
        return None
    return check


def number(lo: float, hi: float) -> Check:
    def check(v):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not lo <= v <= hi:
            return f"must be a number from {lo:g} to {hi:g}"
        return None
    return check


def flag(v) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def is_text(v) -> str | None:
    return None if isinstance(v, str) else "must be a text"


def choice(*options: str) -> Check:
    def check(v):
        return None if v in options else f"must be one of {', '.join(options)}"
    return check


def list_of(item: Check, lo: int = 0, hi: int = MAX_LIST) -> Check:
    def check(v):
        if not isinstance(v, list):
            return "must be a list"
        if not lo <= len(v) <= hi:
            return f"must list {lo} to {hi} items"
        for x in v:
            why = item(x)
            if why:
                return f"item {show(x)} {why}"
        return None
    return check


def map_of(item: Check, hi: int = 50) -> Check:
    def check(v):
        if not isinstance(v, dict):
            return "must be a table"
        if len(v) > hi:
            return f"must have at most {hi} entries"
        for k, x in v.items():
            why = item(x)
            if why:
                return f"entry `{k}` = {show(x)} {why}"
        return None
    return check


DIE = whole(1, 6)
ALLOWANCE = whole(0, 30)       # Movement Points (printed games: 2 to 6; Gondor's city 5)
RANGE = whole(0, 20)           # hexes (missiles 2-4, banner 6, stalemate 6)
STRENGTH = whole(0, 50)        # rally ratings, magic points, demoralization values of a unit
LEVEL = whole(0, 1000)         # demoralization levels (30 to 93 printed)
SHIFT = whole(-4, 4)           # armor, morale and attack-letter modifiers (the scales have 4-5 grades)
TURN = whole(1, 40)


def terrain(v) -> str | None:
    """A Terrain Effects Chart row: ``cost`` at least 1 (or the row impassable:
    ``passable = false``); ``cavalry_cost`` likewise."""
    if not isinstance(v, dict):
        return "must be a terrain table like { cost = 1, armor = 0 }"
    impassable = v.get("passable", True) is False
    for k, x in v.items():
        if k in ("passable", "cavalry_passable", "zoc", "ignore_r1", "r2_to_r1"):
            why = flag(x)
        elif k in ("cost", "cavalry_cost"):
            closed = impassable or (k == "cavalry_cost" and v.get("cavalry_passable", True) is False)
            why = number(0 if closed else 1, 30)(x)
            if why and not closed:
                why += " (at least 1 Movement Point; `passable = false` makes terrain impassable)"
        elif k in ("armor", "missile_armor"):
            why = SHIFT(x)
        else:
            continue
        if why:
            return f"`{k}` = {show(x)} {why}"
    if not impassable and "cost" not in v:
        return "needs a `cost` (at least 1), or `passable = false`"
    return None


def formation(v) -> str | None:
    if not isinstance(v, dict):
        return "must be a table"
    for k, chk in (("types", list_of(is_text, 1, 20)), ("armor", SHIFT), ("morale", SHIFT), ("attack", SHIFT),
                   ("movement", ALLOWANCE)):
        if k in v:
            why = chk(v[k])
            if why:
                return f"`{k}` = {show(v[k])} {why}"
    return None


# table -> key -> check; "*" checks the keys not named. `reconstructed` and
# `reason` are allowed everywhere. Tables and keys not listed are the
# ruleset's own and are checked by it (and by check_tree).
SCHEMA: dict[str, dict[str, Check]] = {
    "movement": {"*": ALLOWANCE},
    "stacking": {"combat_units": whole(1, 10), "formation_units": whole(1, 10), "siege_equipment": whole(1, 10),
                 "leaders_alone": flag},
    "tec": {"road_cost": number(0.25, 30), "fire_extra": ALLOWANCE, "*": terrain},
    "zoc": {"zoc_to_zoc": flag, "disrupted_exert": flag},
    "missile": {"range": RANGE, "mounted_range": RANGE},
    "fanatic": {"mode": choice("bypass_cpt", "modifiers")},
    "disrupted": {"may_attack": flag, "may_enter_zoc": flag, "morale_penalty": whole(0, 3)},
    "leader_combat": {"caught": list_of(DIE, 0, 6)},
    "rally": {"range": whole(0, 6), "per_leader": whole(0, 20)},
    "magic": {"min_points": STRENGTH, "beyond": whole(0, 6), "points": map_of(STRENGTH)},
    "demoralization": {"letter": map_of(STRENGTH), "morale": map_of(STRENGTH), "morale_penalty": whole(0, 3),
                       "rally_penalty": whole(0, 13), "*": LEVEL},
    "formations": {"shieldwall": formation, "wedge": formation, "wedge_waits": flag},
    "night": {"fanatic_tags": list_of(is_text, 0, 20), "leader_bonus_tags": list_of(is_text, 0, 20),
              "leader_bonus": whole(0, 13)},
    "advance": {"hexes": whole(0, 6)},
    "leaders": {"rally": map_of(whole(0, 20))},
    # Gondor
    "siege": {"ladders": whole(0, 50), "heads": whole(0, 50), "breach_range": RANGE, "fireball_range": RANGE,
              "catapult_range": RANGE, "scatter_ranges": list_of(RANGE, 0, 20), "scatter_rolls": list_of(DIE, 0, 6),
              "catapult_missile": choice("a", "b", "c", "d", "e"), "tower_cost": ALLOWANCE,
              "ladder_cost": ALLOWANCE},
    "stalemate": {"distance": RANGE},
    "banner": {"turns": TURN, "range": RANGE, "auto_rally": whole(0, 20)},
    "stampede": {"chain": whole(0, 10)},
    "tunnel": {"rule": choice("morale-w", "armor-4", "armor-1", "none")},
    "dem_events": {"*": whole(-1000, 1000)},
    "city": {"westernesse_allowance": ALLOWANCE},
    # Field of Celebrant
    "demoralization_levels": {"*": LEVEL},
    "balchoth": {"automatic": TURN, "rolls": map_of(list_of(DIE, 0, 6), 40)},
    "riverbank": {"rally": whole(0, 20)},
    "abilities": {"whip_factor": number(0, 10), "*": RANGE},
    "disarray": {"may_attack": flag, "morale_penalty": whole(0, 3)},
}


def check_values(d: dict, text: str | None = None) -> None:
    """The values the rules read, within the bounds of ``SCHEMA``; ChartError otherwise."""
    for table, spec in SCHEMA.items():
        t = d.get(table)
        if t is None:
            continue
        if not isinstance(t, dict):
            raise ChartError(f"[{table}] must be a table", line_of(text, table))
        for k, v in t.items():
            if k in ("reconstructed", "reason"):
                why = flag(v) if k == "reconstructed" else is_text(v)
            else:
                chk = spec.get(k, spec.get("*"))
                if chk is None:
                    continue
                why = chk(v)
            if why:
                head = f"[{table}] {k}:" if isinstance(v, (dict, list)) and why.startswith(("`", "entry", "item")) \
                    else f"[{table}] `{k}` = {show(v)}"
                raise ChartError(f"{head} {why}", line_of(text, table, k))



def check_chart_file(ruleset: str, data: str | bytes) -> str:
    """Check a chart file for ``ruleset`` exactly as ``/game new ... charts:``
    would (the text, the parse, every bound, the ruleset's own tables) and
    return its text; ChartError with a short reason otherwise."""
    from engine.rulesets import get_ruleset

    text = check_text(data)
    rs = get_ruleset(ruleset)
    if not rs.takes_charts:
        raise ChartError(f"{ruleset} takes no chart file")
    rs.check_charts(text)
    return text
