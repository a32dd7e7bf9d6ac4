"""Rule cases looked up (issue 42, `/rule case:<number or word>`): the index of a ruleset's cases, built from
the code's own registry so that it cannot drift from what the engine enforces.

**The registry is the code.** ``cited(rs)`` walks the ruleset's class (its methods, its hook lists, its
``Order`` records' functions) to the modules whose code it runs, and reads in each the cases it cites: the
section of an ``IllegalOrder`` / ``InvalidOrder`` / ``AmbiguousOrder``, an ``Event`` or a ``Result``
(``section=``), an ``Order``'s ``cases``, a ``"section"`` entry of a table, a case number written as a
string (``"16.71"``), with the module's named constants resolved (Risk's ``S_GROUND``); and, in the
ruleset's data files, every ``section`` (an order of battle's, a spell's, a step's). Whatever refuses an
order with a case, that case is in the index.

**The words are data.** Beside the Standard Rules (``engine/spi/data/cases.toml``) and each game
(``engine/rulesets/<game>/data/cases.toml``), one table per case: ``title``, ``summary`` (this project's own
words, never the publisher's text), ``keywords``, and where they apply ``charts`` (the chart tables whose
values the case reads: their ``reconstructed`` flag and reason are shown) and ``options`` (a game option
that changes the case: what it does). A game on the Standard Rules reads the Standard Rules' file, then its
own (a game's case of the same number amends the standard one). ``tests/engine/test_cases.py`` holds every
cited case to a summary.

**What a lookup answers** (``explain``): the summary; the orders that govern the case (an ``Order`` whose
``cases`` hold it, or its parent or child case, or whose own functions cite it), each with its notation and
an example; the reconstructed chart values; whether the game's options change it. ``find`` takes a number
(``16.71``, ``7`` for ``7.0``) or words (``oil``, ``fireball``); an unknown case answers with the nearest.
"""
from __future__ import annotations

import ast
import difflib
import importlib
import inspect
import json
import re
import sys
import textwrap
import tomllib
import types
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.orders import Order

SPI_DATA = Path(__file__).parent / "spi" / "data"
# a case number as the rules print it: SPI's ``16.71``, War of the Ring's ``AA.2``
NUMBER = re.compile(r"(?:\d{1,2}\.\d{1,4}|[A-Z]{1,2}\.\d{1,3})")
# the calls whose section a refusal, an event or a result cites (the section: ``section=`` or, for an
# order's refusal, its second argument; an ambiguous order's third)
CITING = {"IllegalOrder": 1, "InvalidOrder": 1, "OrderError": 1, "AmbiguousOrder": 2, "Event": None,
          "Result": None}
MAX_CHOICES = 25  # Discord's autocomplete


@dataclass(frozen=True)
class Case:
    number: str
    title: str
    summary: str
    keywords: tuple[str, ...] = ()
    charts: tuple[str, ...] = ()
    options: dict = field(default_factory=dict, hash=False, compare=False)
    source: str = ""

    @property
    def label(self) -> str:
        """``16.71 Cauldrons``; a heading the engine cites by name (Risk's ``Ground Attack``) once."""
        if NUMBER.fullmatch(self.number):
            return f"{self.number} {self.title}"
        return self.number if self.title.lower() in self.number.lower() else f"{self.number}: {self.title}"


# ---------------------------------------------------------------------------------- the code's registry
def sort_key(number: str):
    """16.7 < 16.71 < 16.72 < 16.8 < 17.0, then named sections (Risk's headings) by name."""
    m = re.fullmatch(r"(\d+)\.(\d+)", number)
    return (0, int(m.group(1)), m.group(2), "") if m else (1, 0, "", number.lower())


def parent(number: str) -> str | None:
    """The case a case belongs to: 16.71 -> 16.7 -> 16.0; None for a section (16.0) or a named one."""
    m = re.fullmatch(r"(\d+)\.(\d+)", number)
    if not m or m.group(2) == "0":
        return None
    return f"{m.group(1)}.{m.group(2)[:-1] or '0'}" if len(m.group(2)) > 1 else f"{m.group(1)}.0"


def related(a: str, b: str) -> bool:
    """One case is the other, or holds it (16.7 and 16.71; 7.0 and 7.31)."""
    def line(n):
        out = []
        while n:
            out.append(n)
            n = parent(n)
        return out
    return a in line(b) or b in line(a)


def _modules(rs) -> list[str]:
    """The engine modules whose code the ruleset runs: its class's, its methods', its hook lists' and its
    order records' functions', and the rest of its own package (a game defined in another module of the
    package, Sauron's expanded game, excepted)."""
    from engine.rulesets import BUILTIN

    mods: set[str] = set()

    def add(v):
        if isinstance(v, (staticmethod, classmethod)):
            v = v.__func__
        if isinstance(v, property):
            v = v.fget
        m = getattr(v, "__module__", None) if callable(v) else None
        if isinstance(m, str) and m.startswith("engine."):
            mods.add(m)

    for klass in type(rs).__mro__[:-1]:
        mods.add(klass.__module__)
        for v in vars(klass).values():
            for x in (v if isinstance(v, (tuple, list)) else (v,)):
                add(x)
                if isinstance(x, Order):  # an order record: its functions
                    for f in vars(x).values():
                        add(f)
    home = type(rs).__module__
    pkg = home if hasattr(sys.modules[home], "__path__") else home.rpartition(".")[0]
    others = {m for m, _ in BUILTIN.values()} - {home}
    for p in Path(sys.modules[pkg].__file__).parent.glob("*.py"):
        name = pkg if p.stem == "__init__" else f"{pkg}.{p.stem}"
        if name not in others:
            mods.add(name)
    return sorted(m for m in mods if m.startswith(("engine.spi", "engine.rulesets")))


def _value(node, mod) -> list[str]:
    """The strings an expression can be, as far as the source says (a literal, a named constant, either
    branch of a condition); [] for what only a run knows."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    names = vars(mod)
    if isinstance(node, ast.Name) and isinstance(names.get(node.id), str):
        return [names[node.id]]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and isinstance(names.get(node.value.id),
                                                                                            types.ModuleType):
        v = vars(names[node.value.id]).get(node.attr)  # a constant of an imported module (``common.S_MOB``)
        return [v] if isinstance(v, str) else []
    if isinstance(node, ast.IfExp):
        return _value(node.body, mod) + _value(node.orelse, mod)
    if isinstance(node, ast.BoolOp):
        return [s for v in node.values for s in _value(v, mod)]
    return []


@lru_cache(maxsize=1)
def _helpers() -> dict[str, int]:
    """The engine's own functions that take a case as a parameter named ``section`` (``refuse(message,
    section)``, ``c16_0_siege_phase._siege_step(rs, state, seat, what, section)``): name -> that argument's position
    in a call by its module (a ruleset's bound method, ``rs.f(...)``, gives one argument fewer)."""
    out: dict[str, int] = {}
    root = Path(__file__).parent
    for p in (*root.glob("spi/*.py"), *root.glob("rulesets/**/*.py")):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.args]
                if "section" in names:
                    out[node.name] = names.index("section")
    return out


def cited_in(tree: ast.AST, mod) -> set[str]:
    """The cases a piece of source cites (see the module's docstring)."""
    out: set[str] = set()
    helpers = _helpers()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            fn = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            at = CITING.get(fn)
            if at is None and fn in helpers:
                bound = isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", "") in ("self", "rs")
                at = helpers[fn] - (1 if bound else 0)
            if at is not None and len(node.args) > at:
                out.update(_value(node.args[at], mod))
            for kw in node.keywords:
                if kw.arg == "section" and fn:
                    out.update(_value(kw.value, mod))
                if kw.arg == "cases" and isinstance(kw.value, (ast.Tuple, ast.List)):
                    for e in kw.value.elts:
                        out.update(_value(e, mod))
        elif isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and k.value == "section" and v is not None:
                    out.update(_value(v, mod))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and NUMBER.fullmatch(node.value):
            out.add(node.value)
        elif (isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Name)
              and node.value.id.startswith("S_")):  # a named section written into a message: f"... ({S_MOB})"
            out.update(_value(node.value, mod))
    return {s for s in out if s and len(s) <= 60}


@lru_cache(maxsize=256)
def _module_cites(name: str) -> frozenset[str]:
    mod = importlib.import_module(name)
    return frozenset(cited_in(ast.parse(inspect.getsource(mod)), mod))


def _data_dirs(rs) -> list[Path]:
    home = sys.modules[type(rs).__module__]
    d = Path(home.__file__).parent / "data"
    return ([SPI_DATA] if is_spi(rs) else []) + ([d] if d.is_dir() else [])


def _data_sections(data, out: set[str]) -> None:
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, str) and (k == "section" or k.endswith("_section")):
                out.add(v)
            else:
                _data_sections(v, out)
    elif isinstance(data, list):
        for v in data:
            _data_sections(v, out)


def _data_files(rs):
    for d in _data_dirs(rs):
        for p in sorted(d.glob("*.toml")):
            if p.name != "cases.toml":
                yield p, tomllib.loads(p.read_text())
        for p in sorted(d.glob("*.json")):
            yield p, json.loads(p.read_text())


def is_spi(rs) -> bool:
    """A game on SPI's Standard Rules (it runs their code): it reads their cases too."""
    return any(k.__module__ == "engine.spi.standard" for k in type(rs).__mro__)


@lru_cache(maxsize=32)
def _cited(rs) -> frozenset[str]:
    out: set[str] = set()
    for m in _modules(rs):
        out |= _module_cites(m)
    for _, data in _data_files(rs):
        _data_sections(data, out)
    return frozenset(out)


def cited(rs) -> frozenset[str]:
    """Every case the engine cites for this ruleset (the code's registry)."""
    return _cited(base_ruleset(rs))


def base_ruleset(rs):
    """The registry's ruleset object of a game's (a game at a level of play, ``gondor@assist``, or with the
    lobby's moderator seat is a wrapper around it)."""
    from engine.modes import split_name
    from engine.rulesets import get_ruleset

    try:
        return get_ruleset(split_name(rs.name)[0])
    except KeyError:  # a ruleset nobody registered (a test's): itself
        return rs


# ---------------------------------------------------------------------------------- the words
def _load_book(path: Path, source: str) -> dict[str, Case]:
    if not path.is_file():
        return {}
    data = tomllib.loads(path.read_text())
    return {n: Case(n, c["title"], " ".join(c["summary"].split()), tuple(c.get("keywords", ())),
                    tuple(c.get("charts", ())), dict(c.get("options", {})), c.get("source", source))
            for n, c in data.get("cases", {}).items()}


def book_path(rs) -> Path:
    return Path(sys.modules[type(base_ruleset(rs)).__module__].__file__).parent / "data" / "cases.toml"


@lru_cache(maxsize=32)
def _book(rs) -> dict[str, Case]:
    out = _load_book(SPI_DATA / "cases.toml", "Standard Rules") if is_spi(rs) else {}
    out.update(_load_book(book_path(rs), rs.title))
    return out


def book(rs) -> dict[str, Case]:
    """The ruleset's case summaries, by number."""
    return _book(base_ruleset(rs))


class CaseIndex:
    """A ruleset's cases: every cited case and every summarized one, by number."""

    def __init__(self, rs):
        self.rs = base_ruleset(rs)
        words = book(self.rs)
        numbers = sorted(set(words) | cited(self.rs), key=sort_key)
        self.cases = {n: words.get(n) or Case(n, n, "", source=self.rs.title) for n in numbers}
        self._by_lower = {n.lower(): n for n in numbers}

    def normal(self, text: str) -> str:
        t = " ".join((text or "").split()).strip().strip(".").lower()
        for lead in ("rule ", "case ", "section "):
            if t.startswith(lead):
                t = t[len(lead):].strip()
        if re.fullmatch(r"\d{1,2}", t):
            t += ".0"
        return t

    def get(self, text: str) -> Case | None:
        n = self._by_lower.get(self.normal(text))
        return self.cases[n] if n else None

    def search(self, text: str) -> list[Case]:
        """Cases whose number, title, keywords or summary hold every word typed, best first."""
        t = self.normal(text)
        words = re.findall(r"[\w.'-]+", t)
        if not words:
            return []
        scored = []
        for c in self.cases.values():
            title, keys, body = c.title.lower(), " ".join(c.keywords).lower(), c.summary.lower()
            score = 0
            for w in words:
                if c.number.lower().startswith(w):
                    score += 8
                elif re.search(rf"\b{re.escape(w)}", title):
                    score += 4
                elif re.search(rf"\b{re.escape(w)}", keys):
                    score += 3
                elif re.search(rf"\b{re.escape(w)}", body):
                    score += 1
                else:
                    score = 0
                    break
            if score:
                scored.append((-score, sort_key(c.number), c))
        return [c for *_, c in sorted(scored, key=lambda x: x[:2])]

    def nearest(self, text: str, n: int = 5) -> list[Case]:
        """The cases closest to an unknown one: by number (the same section first), else by spelling."""
        t = self.normal(text)
        m = re.fullmatch(r"(\d+)\.(\d+)", t)
        if m:
            def dist(c: Case):
                k = re.fullmatch(r"(\d+)\.(\d+)", c.number)
                if not k:
                    return (9, 0.0)
                same = sum(1 for a, b in zip(k.group(1) + "." + k.group(2), t) if a == b)
                return (-same, abs(float(c.number) - float(t)))
            return sorted(self.cases.values(), key=dist)[:n]
        names = {}
        for c in self.cases.values():
            for s in (c.title.lower(), *(k.lower() for k in c.keywords)):
                names.setdefault(s, c)
        close = difflib.get_close_matches(t, list(names), n=n * 2, cutoff=0.5)
        out: list[Case] = []
        for s in close:
            if names[s] not in out:
                out.append(names[s])
        return out[:n]

    def choices(self, current: str) -> list[tuple[str, str]]:
        """Autocomplete: (label, number) pairs, at most 25: numbers that start with what is typed first,
        then the cases its words find."""
        t = self.normal(current) if current.strip() else ""
        if t.endswith(".0") and not current.strip().endswith(".0"):
            t = t[:-2]
        starts = [c for c in self.cases.values() if c.number.lower().startswith(t)]
        rest = [c for c in self.search(current) if c not in starts] if t else []
        return [(clip_label(c.label), c.number) for c in (starts + rest)[:MAX_CHOICES]]


def clip_label(text: str, n: int = 100) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


@lru_cache(maxsize=32)
def _index(rs) -> CaseIndex:
    return CaseIndex(rs)


def index(rs) -> CaseIndex:
    return _index(base_ruleset(rs))


# ---------------------------------------------------------------------------------- the answer
def orders_for(rs, number: str) -> list:
    """The order records that govern a case: its ``cases`` hold it (or its parent or child case), or its
    own functions cite it."""
    rs = base_ruleset(rs)
    out = []
    for o in getattr(rs, "orders", {}).values():
        if o.verb == "done":
            continue
        if any(related(number, c) for c in o.cases) or number in _order_cites(o):
            out.append(o)
    return out


@lru_cache(maxsize=512)
def _order_cites(order) -> frozenset[str]:
    out: set[str] = set()
    for f in (order.parse, order.check, order.apply, order.legal, order.listed_in):
        f = getattr(f, "listing", f)
        if not isinstance(f, types.FunctionType) or not f.__module__.startswith("engine."):
            continue
        try:
            src = inspect.getsource(f)
        except (OSError, TypeError):
            continue
        out |= cited_in(ast.parse(textwrap.dedent(src)), sys.modules[f.__module__])
    return frozenset(out)


def order_example(rs, order) -> str:
    """An order's notation and an example: its record's usage, and the example its record or the game's own
    `/help topic:orders` gives (each game writes one there for every order, with its own counters)."""
    usage = order.usage.split(", e.g.")[0].split(" (")[0].strip()
    form = usage if "`" in usage else f"`{usage}`"
    m = re.search(r"e\.g\. `([^`]+)`", order.usage)
    ex = m.group(1) if m else _help_examples(base_ruleset(rs)).get(order.verb, "")
    return form + (f", e.g. `{ex}`" if ex and f"`{ex}`" != form else "")


@lru_cache(maxsize=32)
def _help_examples(rs) -> dict[str, str]:
    """verb -> the first concrete order (no ``<placeholder>``) the game's orders help shows for it."""
    out: dict[str, str] = {}
    for span in re.findall(r"`([^`]+)`", rs.help("orders")):
        verb = span.split(" ")[0]
        if " " in span and not re.search(r"[<>|\[]", span):
            out.setdefault(verb, span)
    return out


def chart_data(rs, state: dict | None = None) -> dict:
    """The ruleset's chart tables as the case reads them: a game on the Standard Rules, its charts (in a
    game, with its errata and its group's own file); another game, its data files by name
    (``charts.combat``, ``cards.reinforcement``)."""
    rs = base_ruleset(rs)
    if rs.takes_charts:
        return (rs.charts_for(state) if state is not None else rs.charts).raw
    out = {}
    for p, data in _data_files(rs):
        if p.suffix == ".toml":
            out[p.stem] = data
    return out


def table_at(data: dict, path: str):
    cur = data
    for k in path.split("."):
        if not isinstance(cur, dict) or k not in cur:
            return None
        cur = cur[k]
    return cur if isinstance(cur, dict) else None


def reconstructed(rs, case: Case, state: dict | None = None) -> list[tuple[str, str]]:
    """(table, reason) of the chart tables the case reads whose values are reconstructed."""
    data = chart_data(rs, state)
    out = []
    for path in case.charts:
        t = table_at(data, path)
        if t is not None and t.get("reconstructed"):
            out.append((path, " ".join(str(t.get("reason", "no reason given")).split())))
    return out


def explain(rs, number: str, options: dict | None = None, state: dict | None = None) -> list[tuple[str, str]]:
    """The answer to `/rule` as ``(kind, line)`` pairs for ``bot.outcome.fit_lines`` (``keep``: always whole;
    ``trim``: cut from the end to fit; ``opt``: dropped first): the case, the orders that govern it, the
    reconstructed values, the options (``options``: the game's, in a game)."""
    rs = base_ruleset(rs)
    ix = index(rs)
    c = ix.cases[number]
    where = f" ({c.source})" if c.source else ""
    lines = [("keep", f"**{c.label}**{where}"),
             ("keep", c.summary or "This case is cited by the engine; its summary is not written yet.")]
    orders = orders_for(rs, c.number)
    if orders:
        lines.append(("trim", "Orders: " + "; ".join(order_example(rs, o) for o in orders) + "."))
    recon = reconstructed(rs, c, state)
    for table, why in recon:
        lines.append(("trim", f"Reconstructed [{table}]: {why}"))
    data = chart_data(rs, state)
    confirmed = [p for p in c.charts if table_at(data, p) is not None and p not in {t for t, _ in recon}]
    if confirmed:
        lines.append(("trim", "Chart values: " + ", ".join(f"[{p}]" for p in confirmed)
                      + " (not reconstructed)."))
    lines += option_lines(rs, c, options)
    kids = [k for k in ix.cases.values() if k.number != c.number and parent(k.number) == c.number]
    up = ix.cases.get(parent(c.number) or "")
    see = ([up] if up else []) + kids
    if see:
        lines.append(("opt", "See also: " + ", ".join(k.label for k in see[:8]) + "."))
    lines.append(("keep", "_This project's own summary, not the publisher's text._"))
    return lines


def option_lines(rs, c: Case, options: dict | None) -> list[tuple[str, str]]:
    """Whether the game's options change the case: each option the case names, with this game's value;
    a group's chart file that replaces one of its tables."""
    out = []
    for key, what in c.options.items():
        if options is None:
            out.append(("trim", f"Option `{key}`: {what}"))
        else:
            if key.endswith(".*"):  # a family of options (`rally.GAN=7`)
                vals = {k: v for k, v in options.items() if k.startswith(key[:-1])}
                if not vals and isinstance(options.get(key[:-2]), dict):  # as the game stores it
                    vals = {f"{key[:-2]}.{k}": v for k, v in options[key[:-2]].items()}
            else:
                vals = {key: options[key]} if key in options else {}
            shown = ", ".join(f"`{k}={_shown(v)}`" for k, v in vals.items())
            out.append(("trim", f"Option `{key}` (this game: {shown or 'not set'}): {what}"))
    group = (options or {}).get("charts")
    if group and c.charts:
        try:
            mine = tomllib.loads(group)
        except tomllib.TOMLDecodeError:
            mine = {}
        changed = [p for p in c.charts if table_at(mine, p) is not None]
        if changed:
            out.append(("keep", "This game's own chart file replaces " + ", ".join(f"[{p}]" for p in changed)
                        + "."))
    if options is not None and not out:
        out.append(("trim", "This game's options do not change it."))
    return out


def _shown(v) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, (list, tuple)):
        return "+".join(map(str, v)) or "none"
    return str(v)[:40]


def lookup(rs, text: str) -> tuple[Case | None, list[Case]]:
    """A case by its number, or the best of the cases its words find (with the others found); (None, [])
    when nothing matches."""
    ix = index(rs)
    c = ix.get(text)
    if c is not None:
        return c, []
    found = ix.search(text)
    return (found[0], found[1:]) if found else (None, [])


def answer(rs, text: str, options: dict | None = None, state: dict | None = None) -> tuple[bool, list[tuple[str, str]]]:
    """`/rule case:<text>`: (found, the answer's ``(kind, line)`` pairs, see ``explain``); not found, one line
    with the nearest cases."""
    c, others = lookup(rs, text)
    if c is None:
        return False, [("keep", unknown(rs, text))]
    lines = explain(rs, c.number, options, state)
    if others:
        lines.insert(-1, ("opt", "Also found: " + ", ".join(o.label for o in others[:10])
                          + (f" and {len(others) - 10} more" if len(others) > 10 else "") + "."))
    return True, lines


def unknown(rs, text: str) -> str:
    """A clear answer for a case not found, with the nearest ones."""
    ix = index(rs)
    near = ix.nearest(text)
    shown = " ".join((text or "").split())[:30]
    tail = (" Nearest: " + "; ".join(c.label for c in near) + ".") if near else ""
    return f"No case `{shown}` in {base_ruleset(rs).title}.{tail}"


def reconstructed_tables(rs, state: dict | None = None) -> list[str]:
    """Every chart table of the ruleset marked ``reconstructed = true`` (dotted paths, as ``Case.charts``
    names them)."""
    out = []

    def walk(d, path):
        if isinstance(d, dict):
            if d.get("reconstructed") is True and path:
                out.append(".".join(path))
            for k, v in d.items():
                walk(v, (*path, k))
    walk(chart_data(rs, state), ())
    return out
