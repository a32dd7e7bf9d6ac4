"""The Standard Rules charts as data, validated.

``Charts.load(base, *overrides)`` merges TOML tables (a ruleset's own file,
then a group's ``options:charts=<TOML>``) over ``data/standard.toml`` and
checks every value. A malformed chart is refused with the line and the reason
(``ChartError``), so a group loading its own printed chart learns exactly what
to fix.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.spi import chartguard
from engine.spi.chartguard import ChartError, show  # noqa: F401 - ChartError is this module's error too

STANDARD = Path(__file__).parent / "data" / "standard.toml"
LETTERS = "ABCDE"
MORALES = "WXYZ"
RESULT_TOKENS = {"-", "D", "r1", "r2", "1/2E", "E"}
# severity of a CRT result for the defender: used for ordering and tests
SEVERITY = {"-": 0, "D": 1, "r1": 2, "r2": 3, "1/2E": 4, "1/2E r1": 5, "1/2E r2": 6, "E": 7}


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
            if path and b and not v:  # `table = {}` would keep every row it seems to clear
                raise ChartError(f"`{where}` is empty: give its rows (like `{show(b, 60)}`)",
                                 _line_of(text, *(path + (str(k),))))
            _same_kinds(b, v, text, path + (str(k),))
        elif _kind(b) != _kind(v) and not (isinstance(b, (int, float)) and v == "auto"):
            raise ChartError(f"`{where}` must be {_kind(b)} (like `{b!r}`), not `{v!r}`"[:300],
                             _line_of(text, *(path + (str(k),))) if path else _line_of(text, str(k)))


_line_of = chartguard.line_of


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
        chartguard.check_values(d, text)
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
        if len(table) > 20:
            fail(f"[rally] table has {len(table)} rows; at most 20 (ratings 1-20)", "rally", "table")
        for k, v in table.items():
            if not re.fullmatch(r"[0-9]{1,2}", str(k)) or not 1 <= int(k) <= 20:
                fail(f"[rally] rating `{show(k, 20)}` is not a rating from 1 to 20", "rally", "table")
            if v != "auto" and not isinstance(v, str):
                fail(f"[rally] rating {k}: {show(v)} must be 2d6 totals like \"3-8\" or \"auto\"", "rally", "table")
            try:
                rally[int(k)] = "auto" if v == "auto" else parse_totals(v, 2, 12)
            except ValueError as e:
                fail(f"[rally] rating {k}: {e}", "rally", "table")
        lc = {}
        for k, row in d["leader_combat"].items():
            if k in ("reconstructed", "reason", "caught"):
                continue
            if not re.fullmatch(r"[+-]?[0-9]{1,2}", str(k)) or not -20 <= int(k) <= 20:
                fail(f"[leader_combat] column `{show(k, 20)}` is not a differential from -20 to 20 like -1 or 2",
                     "leader_combat", k)
            diff = int(k)
            if not isinstance(row, list) or len(row) != 6:
                fail(f"[leader_combat] {k} must list six results, for die rolls 1 to 6", "leader_combat", k)
            cells = []
            for c in row:
                m = re.fullmatch(r"(-|k|[0-9]{1,2})/(-|k|[0-9]{1,2})", c) if isinstance(c, str) else None
                if not m:
                    fail(f"[leader_combat] {k}: {show(c)} is not attacker/defender like 1/- or -/k", "leader_combat", k)
                cells.append((m.group(1), m.group(2)))
            lc[diff] = tuple(cells)
        if not lc:
            fail("[leader_combat] needs at least one column", "leader_combat")
        ms = {}
        shortfall = d["magic"].get("shortfall", {})
        if not isinstance(shortfall, dict) or len(shortfall) > 50:
            fail("[magic] shortfall must map shortfalls 1-50 to die rolls 0-6", "magic", "shortfall")
        for k, v in shortfall.items():
            if (not re.fullmatch(r"[0-9]{1,2}", str(k)) or isinstance(v, bool) or not isinstance(v, int)
                    or not 0 <= v <= 6):
                fail(f"[magic] shortfall {show(k, 20)} = {show(v)}: expected a shortfall number and a die roll 0-6",
                     "magic", "shortfall")
            ms[int(k)] = v
        for key in ("infantry", "cavalry", "leader"):
            v = d["movement"].get(key)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                fail(f"[movement] {key} must be a whole number of Movement Points", "movement", key)
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
    """A chart text's tables: checked before and after parsing (engine.spi.chartguard)."""
    return chartguard.parse(text)


@lru_cache(maxsize=64)
def cached(*layers: str) -> Charts:
    """Charts for a tuple of TOML texts (ruleset file text, group override)."""
    return Charts.load(*layers)


def letter_past(letter: str, n: int) -> tuple[str, int]:
    """``shift_letter``, and the grades of the shift that fell past the table's edge: positive for grades
    worse than E (the ruling of docs/reconstructed.md: each is +1 on the Casualty Probability roll), negative for
    grades better than A (none: A is the best, FoC 7.37 "maximum A")."""
    i = LETTERS.index(letter.upper()) - n
    out = LETTERS[min(max(i, 0), 4)]
    return (out if letter.isupper() else out.lower()), (i - 4 if i > 4 else min(i, 0))


def morale_note(prof: dict, n: int, note: str) -> None:
    """Shift a profile's defender Morale ``n`` grades (better if n > 0) and log ``note``, only where it changed the
    Morale: W and Z are the ends (no grade past them: FoC 7.37 "minimum Z"), and a modifier that changed nothing
    is not printed as one (issue 42)."""
    before = prof["morale"]
    prof["morale"] = shift_morale(before, n)
    if prof["morale"] != before:
        prof["notes"].append(note)


def shift_letter(letter: str, n: int) -> str:
    """A letter ``n`` grades better (n > 0) or worse; A is the ceiling, E the floor."""
    i = LETTERS.index(letter.upper()) - n
    out = LETTERS[min(max(i, 0), 4)]
    return out if letter.isupper() else out.lower()


def shift_morale(m: str, n: int) -> str:
    """Morale ``n`` grades better (n > 0) or worse; W the ceiling, Z the floor (FoC 7.37)."""
    i = MORALES.index(m) - n
    return MORALES[min(max(i, 0), 3)]
