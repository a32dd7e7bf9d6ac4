"""The shape of the code (issue 19), checked from the source so that it stays true:
no import circle; the core imports no ruleset; the application never probes a ruleset with
getattr/hasattr; no SQL outside bot/storage/; render/ imports nothing of engine.rulesets; and a
new game is one folder plus one registry line."""
from __future__ import annotations

import ast
import re
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "bot", "cogs", "render")


def modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            rel = p.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = p
    return out


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """Project modules ``path`` imports anywhere in it (top level and inside functions)."""
    tree = ast.parse(path.read_text())
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {m: imports_of(p, m, known) for m, p in mods.items()}


def test_no_import_circle():
    g = graph()
    # a package's __init__ importing its own submodules is not a circle of concern; drop those edges
    for m in g:
        g[m] = {t for t in g[m] if not t.startswith(m + ".")}
    state: dict[str, int] = {}
    cycles = []

    def visit(m, path):
        state[m] = 1
        for t in sorted(g.get(m, ())):
            if state.get(t) == 1:
                cycles.append(path[path.index(t):] + [t] if t in path else [m, t])
            elif not state.get(t):
                visit(t, path + [t])
        state[m] = 2

    for m in sorted(g):
        if not state.get(m):
            visit(m, [m])
    assert not cycles, cycles[:5]


def test_the_core_imports_no_ruleset_and_render_no_ruleset():
    g = graph()
    assert not {t for t in g["engine.core"] if t.startswith("engine.rulesets")}
    for m, targets in g.items():
        if m.startswith("render"):
            assert not {t for t in targets if t.startswith("engine.rulesets")}, m


PROBE = re.compile(r"\b(getattr|hasattr)\(\s*(rs|ruleset|game\.ruleset|self\.rs|[a-z_]*ruleset[a-z_]*)\b")


def test_the_application_never_probes_a_ruleset():
    hits = []
    for pkg in ("bot", "cogs"):
        for p in (ROOT / pkg).rglob("*.py"):
            for i, line in enumerate(p.read_text().splitlines(), 1):
                if PROBE.search(line):
                    hits.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not hits, hits


SQL = re.compile(r"\b(SELECT\s+\S+.*\bFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b")


def test_no_sql_outside_storage():
    hits = []
    for pkg in PACKAGES:
        for p in (ROOT / pkg).rglob("*.py"):
            if p.is_relative_to(ROOT / "bot" / "storage"):
                continue
            for i, line in enumerate(p.read_text().splitlines(), 1):
                if SQL.search(line):
                    hits.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not hits, hits


def test_nothing_opens_a_store_by_class():
    hits = []
    for pkg in ("bot", "cogs", "benchmarks"):
        for p in (ROOT / pkg).rglob("*.py"):
            if p.is_relative_to(ROOT / "bot" / "storage"):
                continue
            if re.search(r"\b(Sqlite)?Store\.open\(", p.read_text()):
                hits.append(str(p.relative_to(ROOT)))
    assert not hits, hits


TINY_GAME = '''
"""A counting game: two seats add 1 or 2 in turn; reaching 5 wins."""
from engine.core import Action, IllegalOrder, InvalidOrder, Event, Result, RulesetBase, new_dice


class Count(RulesetBase):
    name = "count-to-five"
    title = "Count to Five"
    seats = ("odd", "even")

    def new_game(self, options, seed, fixture=None):
        if options:
            raise InvalidOrder("no options")
        return {"dice": new_dice(seed), "total": 0, "turn": "odd"}

    def active_seats(self, st):
        return [] if st["total"] >= 5 else [st["turn"]]

    def legal_actions(self, st, seat):
        if seat == st["turn"] and st["total"] < 5:
            yield from (Action("add", (n,)) for n in (1, 2) if st["total"] + n <= 5)

    def parse(self, st, seat, text):
        w = text.split()
        if len(w) != 2 or w[0] != "add" or w[1] not in ("1", "2"):
            raise InvalidOrder("`add 1` or `add 2`")
        a = Action("add", (int(w[1]),))
        self.check(st, seat, a)
        return a

    def format(self, a):
        return f"add {a.args[0]}"

    def check(self, st, seat, a):
        if seat != st["turn"]:
            raise IllegalOrder("not your turn")
        if st["total"] + a.args[0] > 5:
            raise IllegalOrder("past five")

    def apply(self, st, seat, a):
        st["total"] += a.args[0]
        st["turn"] = "even" if seat == "odd" else "odd"
        return [Event(public=f"{seat} adds {a.args[0]}: {st['total']}", new_phase=True)]

    def view(self, st, seat):
        return {"ruleset": self.name, "title": self.title, "seat": seat, "phase_title": f"total {st['total']}",
                "units": []}

    def result(self, st):
        return Result(winner=None if st["total"] < 5 else ("even" if st["turn"] == "odd" else "odd"),
                      summary=f"{'even' if st['turn'] == 'odd' else 'odd'} reaches five") if st["total"] >= 5 else None

    def help(self, topic=None):
        return "add 1 or add 2"


COUNT = Count()
'''


async def test_a_new_game_is_one_folder_plus_one_registry_line(tmp_path, monkeypatch):
    """Adding a game: a package with its ruleset object, and one line in BUILTIN; the bot plays it."""
    import engine.rulesets as registry
    from bot.service import Ctx, GameService
    from bot.storage import open_store

    pkg = tmp_path / "count_to_five"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(TINY_GAME))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.BUILTIN, "count-to-five", ("count_to_five", "COUNT"))  # the one line
    monkeypatch.delitem(registry.RULESETS, "count-to-five", raising=False)
    try:
        assert "count-to-five" in registry.ruleset_names()
        store = await open_store(str(tmp_path / "c.db"))
        svc = GameService(store, renderer=None, seed_source=lambda: "s")
        n = iter(range(100))

        def ctx(u):
            return Ctx(channel_id=1, user_id=u, guild_id=1, interaction_id=f"c{next(n)}")

        assert (await svc.new_game(ctx(1), "count-to-five")).ok
        assert (await svc.join(ctx(1), "odd")).ok and (await svc.join(ctx(2), "even")).ok
        assert (await svc.start(ctx(1))).ok
        assert not (await svc.order(ctx(2), "add 1")).ok  # not even's turn
        for u, t in ((1, "add 2"), (2, "add 2"), (1, "add 1")):
            out = await svc.order(ctx(u), t)
            assert out.ok, out.reply.text
        assert "The game is over" in out.reply.text and "odd reaches five" in out.reply.text
        await store.close()
    finally:
        registry.RULESETS.pop("count-to-five", None)
        sys.modules.pop("count_to_five", None)


@pytest.mark.parametrize("module", ["bot.service", "bot.table", "bot.lobby", "bot.orders", "bot.views",
                                    "bot.clocks", "bot.undo", "bot.archive", "bot.recovery"])
def test_each_part_of_the_service_is_its_own_file_without_overlap(module):
    import importlib

    from bot.service import GameService

    mod = importlib.import_module(module)
    assert mod.__doc__ and len(mod.__doc__) > 40
    parts = [c for c in GameService.__mro__ if c.__module__.startswith("bot.") and c is not GameService]
    seen: dict[str, str] = {}
    for c in parts:
        for name, v in vars(c).items():
            if callable(v) or isinstance(v, (staticmethod, classmethod)):
                assert name not in seen, f"{name} in both {seen.get(name)} and {c.__name__}"
                seen[name] = c.__name__


def test_a_standard_rules_game_overrides_only_hooks_or_listed_steps():
    """The contract of engine/spi/hooks.py: whatever a ruleset built on the Standard Rules redefines
    is a hook (``Hooks``, with its default) or a step listed in ``REPLACEABLE`` with its case."""
    from engine.rulesets import get_ruleset, ruleset_names
    from engine.spi.hooks import REPLACEABLE, Hooks
    from engine.spi.standard import StandardRules

    std_names = {n for k in StandardRules.__mro__ for n in vars(k)}
    hooks = {n for n in vars(Hooks) if not n.startswith("__")}
    allowed = hooks | set(REPLACEABLE) | {"ORDERS", "name", "title", "seats", "side_titles", "side_colors",
                                          "state_version", "deploy_example", "spells", "hexmap", "map_data", "units",
                                          "sequence", "ruleset_charts_text", "has_odds", "takes_charts",
                                          "board_kind", "new_game", "view", "secret_text", "full_view", "hidden_information"}
    seen = 0
    for name in ruleset_names():
        rs = get_ruleset(name)
        if not isinstance(rs, StandardRules):
            continue
        for k in type(rs).__mro__:
            if k.__module__.startswith(("engine.spi.", "engine.core")) or k is object:
                continue
            for n in vars(k):
                if n.startswith("__") or n not in std_names:
                    continue
                seen += 1
                assert n in allowed, f"{k.__name__}.{n} redefines a Standard Rules step not in hooks.py"
    assert seen > 40  # Gondor and Field of Celebrant give many hooks: the walk saw them


def _newcomer_rows():
    text = (ROOT / "docs" / "architecture.md").read_text()
    head = text.index("### A newcomer's map")
    rows = []
    for line in text[head:].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[3].startswith("`engine/"):
            rows.append((cells[0], cells[1], cells[2], cells[3].strip("`")))
    return rows


def test_a_newcomer_finds_each_case_in_the_file_its_name_says():
    """docs/architecture.md's table of ten or more cases across the games: each symbol is defined in
    the file named, and the file's name carries the case number."""
    import inspect

    from engine.orders import order_table
    from engine.rulesets import get_ruleset
    from engine.spi.standard import StandardRules

    games = {"Gondor": "gondor", "Field of Celebrant": "celebrant",
             "Risk": "risk-minas-tirith", "Sauron": "sauron"}
    rows = _newcomer_rows()
    assert len(rows) >= 10 and len({r[1] for r in rows}) >= 3
    for case, game, symbol, path in rows:
        cls = StandardRules if game == "Standard" else type(get_ruleset(games[game]))
        if symbol.startswith("order:"):
            order = order_table(cls.ORDERS)[symbol[6:]]
            names = [order.check, order.apply, order.parse]
        else:
            names = [symbol]
        for n in names:
            fn = inspect.unwrap(getattr(cls, n))
            where = Path(inspect.getsourcefile(fn)).resolve().relative_to(ROOT).as_posix()
            assert where == path, f"{case}: {n} is in {where}, not {path}"
        number = case.split()[0]
        stem = Path(path).stem
        if game != "Risk":
            # c08_3_rally.py holds 8.3; c16_7_oil.py holds 16.74 (its case within 16.7)
            assert stem.startswith("c"), path
            digits = stem[1:].split("_")
            file_case = ".".join(str(int(d)) for d in digits if d.isdigit())
            assert number.startswith(file_case.split(".")[0]), (case, path)
            assert number in Path(ROOT / path).read_text(), f"{path} never names {number}"
