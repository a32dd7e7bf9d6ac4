"""The Standard Rules charts as data, validated.

``Charts.load(base, *overrides)`` merges TOML tables (a ruleset's own file,
then a group's ``options:charts=<TOML>``) over ``data/standard.toml`` and
checks every value. A malformed chart is refused with the line and the reason
(``ChartError``), so a group loading its own printed chart learns exactly what
to fix.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

STANDARD = Path(__file__).parent / "data" / "standard.toml"
LETTERS = "ABCDE"
MORALES = "WXYZ"
RESULT_TOKENS = {"-", "D", "r1", "r2", "1/2E", "E"}
# severity of a CRT result for the defender: used for ordering and tests
SEVERITY = {"-": 0, "D": 1, "r1": 2, "r2": 3, "1/2E": 4, "1/2E r1": 5, "1/2E r2": 6, "E": 7}


class ChartError(ValueError):
    def __init__(self, reason: str, line: int | None = None):
        self.reason = reason
        self.line = line
        super().__init__(f"charts line {line}: {reason}" if line else f"charts: {reason}")


def parse_totals(spec: str, lo: int, hi: int) -> frozenset[int]:
    """``"2-9"``, ``"2,3,12"``, ``"9"``, ``"-"`` (none) -> a set of totals."""
    spec = str(spec).strip()
    if spec in ("-", ""):
        return frozenset()
    out: set[int] = set()
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise ValueError(f"`{spec}` is not a list of totals like 2-9 or 2,3,12")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if a > b or a < lo or b > hi:
            raise ValueError(f"`{spec}`: totals must lie within {lo}-{hi}")
        out.update(range(a, b + 1))
    return frozenset(out)


def parse_result(text: str) -> tuple[str, ...]:
    """``"1/2E r1"`` -> ("1/2E", "r1"); ``"-"`` -> ()."""
    toks = tuple(t for t in str(text).split() if t != "-")
    for t in toks:
        if t not in RESULT_TOKENS:
            raise ValueError(f"`{text}`: unknown result `{t}` (known: -, D, r1, r2, 1/2E, E)")
    if sum(t in ("r1", "r2") for t in toks) > 1 or sum(t in ("1/2E", "E") for t in toks) > 1:
        raise ValueError(f"`{text}`: at most one retreat and one loss")
    return toks


def result_text(toks: tuple[str, ...]) -> str:
    return " ".join(toks) if toks else "no effect"


def severity(toks: tuple[str, ...]) -> int:
    """How bad a result is for the defender (0 none .. 7 eliminated)."""
    if "E" in toks:
        return SEVERITY["E"]
    key = " ".join(t for t in toks if t != "D") or ("D" if "D" in toks else "-")
    return SEVERITY.get(key, 0)


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


def _kind(v) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a text"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a table"
    return type(v).__name__


def _same_kinds(base: dict, over: dict, text: str | None, path: tuple[str, ...] = ()) -> None:
    """A value a chart file replaces must be of the same kind (a number for a
    number, a list for a list...): caught when the game is created, not at
    the first die roll that reads it. Values the base does not have are the
    ruleset's or the group's own and pass."""
    for k, v in over.items():
        if k not in base or k in ("reason", "reconstructed"):
            continue
        b = base[k]
        where = ".".join(path + (str(k),))
        if isinstance(b, dict) and isinstance(v, dict):
            _same_kinds(b, v, text, path + (str(k),))
        elif _kind(b) != _kind(v) and not (isinstance(b, (int, float)) and v == "auto"):
            raise ChartError(f"`{where}` must be {_kind(b)} (like `{b!r}`), not `{v!r}`"[:300],
                             _line_of(text, *(path + (str(k),))) if path else _line_of(text, str(k)))


def _line_of(text: str | None, *keys: str) -> int | None:
    """Best effort: the line of a table/key in the TOML text that set it."""
    if not text:
        return None
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


@dataclass(frozen=True)
class Charts:
    raw: dict
    cpt: dict[str, tuple[frozenset[int], ...]]
    crt: dict[str, tuple[tuple[str, ...], ...]]
    rally: dict[int, frozenset[int] | str]
    leader_combat: dict[int, tuple[tuple[str, str], ...]]
    magic_shortfall: dict[int, int]

    # ------------------------------------------------------------ loading
    @classmethod
    def load(cls, *layers: dict | str | Path, texts: tuple[str | None, ...] = ()) -> "Charts":
        data: dict = {}
        sources: list[str | None] = []
        for layer in (STANDARD, *layers):
            if isinstance(layer, Path):
                text = layer.read_text()
                layer_d = _toml(text)
                sources.append(text)
            elif isinstance(layer, str):
                layer_d = _toml(layer)
                sources.append(layer)
            else:
                layer_d = layer
                sources.append(None)
            if data:  # a later layer replaces values: of the same kind as the ones it replaces
                _same_kinds(data, layer_d, sources[-1])
            data = _deep_merge(data, layer_d)
        return cls.from_dict(data, sources[-1] if len(layers) else None)

    @classmethod
    def from_dict(cls, d: dict, text: str | None = None) -> "Charts":
        def fail(reason: str, *keys: str):
            raise ChartError(reason, _line_of(text, *keys))

        for table in ("movement", "stacking", "tec", "missile", "cpt", "crt", "rally", "magic",
                      "demoralization", "leader_combat", "formations", "zoc", "disrupted", "fanatic",
                      "night", "advance"):
            if not isinstance(d.get(table), dict):
                fail(f"missing table [{table}]", table)
        cpt = {}
        for letter in LETTERS:
            row = d["cpt"].get(letter)
            if not isinstance(row, list) or len(row) != 4:
                fail(f"[cpt] {letter} must list four cells, for Armor Protection 1 to 4", "cpt", letter)
            try:
                cpt[letter] = tuple(parse_totals(c, 2, 12) for c in row)
            except ValueError as e:
                fail(f"[cpt] {letter}: {e}", "cpt", letter)
        crt = {}
        for m in MORALES:
            row = d["crt"].get(m)
            if not isinstance(row, list) or len(row) != 6:
                fail(f"[crt] {m} must list six results, for die rolls 1 to 6", "crt", m)
            try:
                crt[m] = tuple(parse_result(c) for c in row)
            except ValueError as e:
                fail(f"[crt] {m}: {e}", "crt", m)
        rally: dict[int, frozenset[int] | str] = {}
        table = d["rally"].get("table")
        if not isinstance(table, dict) or not table:
            fail("[rally] table must map ratings to 2d6 totals", "rally", "table")
        for k, v in table.items():
            if not str(k).isdigit():
                fail(f"[rally] rating `{k}` is not a number", "rally", "table")
            try:
                rally[int(k)] = "auto" if v == "auto" else parse_totals(v, 2, 12)
            except ValueError as e:
                fail(f"[rally] rating {k}: {e}", "rally", "table")
        lc = {}
        for k, row in d["leader_combat"].items():
            if k in ("reconstructed", "reason", "caught"):
                continue
            try:
                diff = int(k)
            except ValueError:
                fail(f"[leader_combat] column `{k}` is not a differential like -1 or 2", "leader_combat", k)
            if not isinstance(row, list) or len(row) != 6:
                fail(f"[leader_combat] {k} must list six results, for die rolls 1 to 6", "leader_combat", k)
            cells = []
            for c in row:
                m = re.fullmatch(r"(-|k|\d+)/(-|k|\d+)", str(c))
                if not m:
                    fail(f"[leader_combat] {k}: `{c}` is not attacker/defender like 1/- or -/k", "leader_combat", k)
                cells.append((m.group(1), m.group(2)))
            lc[diff] = tuple(cells)
        if not lc:
            fail("[leader_combat] needs at least one column", "leader_combat")
        ms = {}
        for k, v in d["magic"].get("shortfall", {}).items():
            if not str(k).isdigit() or not isinstance(v, int) or not 0 <= v <= 6:
                fail(f"[magic] shortfall {k} = {v}: expected a shortfall number and a die roll 0-6", "magic", "shortfall")
            ms[int(k)] = v
        for key in ("infantry", "cavalry", "leader"):
            v = d["movement"].get(key)
            if not isinstance(v, int) or v < 0:
                fail(f"[movement] {key} must be a whole number of Movement Points", "movement", key)
        for name, t in d["tec"].items():
            if isinstance(t, dict):
                if not isinstance(t.get("cost", 1), (int, float)) or not isinstance(t.get("armor", 0), int):
                    fail(f"[tec] {name}: cost must be a number and armor a whole number", "tec", name)
        mode = d["fanatic"].get("mode")
        if mode not in ("bypass_cpt", "modifiers"):
            fail("[fanatic] mode must be `bypass_cpt` or `modifiers`", "fanatic", "mode")
        return cls(raw=d, cpt=cpt, crt=crt, rally=rally, leader_combat=lc, magic_shortfall=ms)

    # ------------------------------------------------------------ queries
    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    def cpt_hits(self, letter: str, armor: int) -> frozenset[int]:
        """2d6 totals that cause a casualty (7.33). Letters are clamped to A-E,
        armor to 1-4 (modifiers may push them past the table)."""
        i = min(max(LETTERS.index(letter.upper()), 0), 4)
        return self.cpt[LETTERS[i]][min(max(armor, 1), 4) - 1]

    def crt_result(self, morale: str, roll: int) -> tuple[str, ...]:
        """7.42: a modified roll above 6 is no effect; below 1 reads as 1."""
        if roll > 6:
            return ()
        return self.crt[morale][max(roll, 1) - 1]

    def rally_totals(self, rating: int) -> frozenset[int] | str:
        if rating <= 0:
            return frozenset()
        top = max(self.rally)
        return self.rally[min(rating, top)] if min(rating, top) in self.rally else frozenset()

    def leader_combat_cell(self, diff: int, roll: int) -> tuple[str, str]:
        lo, hi = min(self.leader_combat), max(self.leader_combat)
        return self.leader_combat[min(max(diff, lo), hi)][roll - 1]

    def magic_success_max(self, shortfall: int) -> int:
        """Highest die roll that succeeds for a spell short by ``shortfall`` points."""
        if shortfall <= 0:
            return 6
        return self.magic_shortfall.get(shortfall, self.raw["magic"].get("beyond", 0))

    def demoralization_value(self, ratings) -> int:
        d = self.raw["demoralization"]
        letters = [x.upper() for x in (ratings.melee, ratings.missile) if x]
        attack = max((d["letter"].get(x, 0) for x in letters), default=0)
        return attack + ratings.armor + d["morale"].get(ratings.morale, 0)


def _toml(text: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise ChartError(f"not valid TOML: {str(e).split(' (at')[0]}", int(m.group(1)) if m else None) from None


@lru_cache(maxsize=64)
def cached(*layers: str) -> Charts:
    """Charts for a tuple of TOML texts (ruleset file text, group override)."""
    return Charts.load(*layers)


def shift_letter(letter: str, n: int) -> str:
    """A letter ``n`` grades better (n > 0) or worse; A is the ceiling, E the floor."""
    i = LETTERS.index(letter.upper()) - n
    out = LETTERS[min(max(i, 0), 4)]
    return out if letter.isupper() else out.lower()


def shift_morale(m: str, n: int) -> str:
    """Morale ``n`` grades better (n > 0) or worse; W the ceiling, Z the floor (FoC 7.37)."""
    i = MORALES.index(m) - n
    return MORALES[min(max(i, 0), 3)]
