"""Issue 43, an explicit order path, checked from the source so that it stays true: the cogs and transports call
the service's typed parts (``svc.orders.order(...)``), never a method named by a string: no computed ``getattr`` in
``cogs/``, no table of method names and no ``__getattr__`` forwarding in ``bot/service.py``; and a part's method (or
helper) that another part uses is public."""
from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

from tests.source_trees import tree as source_tree

ROOT = Path(__file__).resolve().parents[2]


def _tree(path: Path) -> ast.Module:
    return source_tree(path)  # (parsed once per process: tests/source_trees.py)


def computed_getattrs(tree: ast.AST) -> list[str]:
    """Every ``getattr(obj, name)`` (and ``hasattr``/``setattr``) whose name is not a constant string."""
    return [ast.unparse(n) for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr", "setattr")
            and len(n.args) >= 2 and not (isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str))]


def test_computed_getattr_is_found():
    """Issue 43: the check below finds a method reached by a name string (and lets a constant name pass)."""
    assert computed_getattrs(ast.parse("out = getattr(svc, method)(ctx)\nx = getattr(i, 'namespace', None)")) == [
        "getattr(svc, method)"]


@pytest.mark.parametrize("path", sorted((ROOT / "cogs").rglob("*.py")), ids=lambda p: p.name)
def test_no_cog_reaches_the_service_by_a_name_string(path):
    """Issue 43: a cog calls a typed part of the service (``svc.orders.order``), handing a helper the bound method;
    no ``getattr(svc, "order")`` with a name computed at run time."""
    assert computed_getattrs(_tree(path)) == [], path


SERVICE_WORDS = re.compile(r"\b(self|svc\w*|service|table|parts?|interaction)\b")


def test_nothing_in_bot_reaches_the_service_or_a_part_by_a_name_string():
    """Issue 43: in ``bot/`` a name computed at run time reads data (a config key, a dataclass's field, a
    permission flag), never a method of the service, its table or one of its parts (the old facade's
    ``getattr(parts[part], name)``, ``getattr(self.table, name)``)."""
    bad = {str(path.relative_to(ROOT)): calls for path in sorted((ROOT / "bot").rglob("*.py"))
           if (calls := [c for c in computed_getattrs(_tree(path))
                         if SERVICE_WORDS.search(ast.unparse(ast.parse(c).body[0].value.args[0]))])}
    assert bad == {}


def _service_class() -> ast.ClassDef:
    return next(n for n in _tree(ROOT / "bot" / "service.py").body
                if isinstance(n, ast.ClassDef) and n.name == "GameService")


def test_the_service_has_no_table_of_names_and_no_forwarding():
    """Issue 43: ``bot/service.py`` names no method by a string (no ``API`` table of the parts' method names) and
    forwards nothing (no ``__getattr__``, no ``__setattr__``): what a caller reaches is an attribute it can read."""
    from bot.service import GameService

    tree = _tree(ROOT / "bot" / "service.py")
    public = {name for part in _parts().values() for name, _ in inspect.getmembers(part, inspect.isfunction)
              if not name.startswith("_")}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            names = [t.id for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                     if isinstance(t, ast.Name)]
            assert "API" not in names
            strings = {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)} if node.value else set()
            if names != ["__all__"]:
                assert not strings & public, f"{names}: a table naming the parts' methods {sorted(strings & public)}"
    cls = _service_class()
    defined = {n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    assert not defined & {"__getattr__", "__getattribute__", "__setattr__"}, defined
    assert computed_getattrs(tree) == []
    assert not hasattr(GameService, "__getattr__")


def _parts() -> dict[str, type]:
    """The service's parts as it declares them (``lobby: Lobby``...), resolved to their classes."""
    import typing

    from bot.service import GameService

    return {k: v for k, v in typing.get_type_hints(GameService).items()}


def test_each_part_is_a_typed_attribute_and_the_facade_takes_no_stray_setting(tmp_path):
    """Issue 43: ``GameService`` holds each part as a typed attribute (``svc.orders`` is an ``Orders``) and has no
    method of a part on itself (``svc.order`` is gone: a caller names the part); a setting of the table written
    on the facade (``svc.renderer = None``) is refused, not silently kept beside the table's."""
    import asyncio

    from bot.service import GameService
    from bot.storage import open_store

    async def main():
        store = await open_store(str(tmp_path / "a.db"))
        try:
            svc = GameService(store, renderer=None)
            hints = _parts()
            assert {"table", "lobby", "orders", "views", "clocks", "undo", "archive", "recovery", "seats",
                    "templates", "rematch", "digest", "results"} <= set(hints)
            for name, cls in hints.items():
                assert isinstance(getattr(svc, name), cls), name
            assert svc.store is svc.table.store is store
            for gone in ("order", "join", "status", "fire_due", "games", "renderer", "clock"):
                assert not hasattr(svc, gone), gone
            with pytest.raises(AttributeError):
                svc.renderer = lambda *a, **k: b""
            assert svc.table.renderer is None
        finally:
            await store.close()

    asyncio.run(main())


def _part_modules() -> dict[str, Path]:
    """Every module holding a part of the service (read from ``GameService``'s declared parts, so a new part is
    checked without a list edited here), with the table's own helpers (delivery, timekeeper)."""
    mods = {cls.__module__ for cls in _parts().values()} | {"bot.delivery", "bot.timekeeper"}
    return {m: Path(importlib.import_module(m).__file__) for m in sorted(mods)}


def test_every_part_is_checked():
    """Issue 43: the parts below come from the service itself: the five of issue 41 as well as the first seven."""
    assert {"bot.table", "bot.lobby", "bot.orders", "bot.views", "bot.clocks", "bot.undo", "bot.archive",
            "bot.recovery", "bot.seats", "bot.templates", "bot.rematch", "bot.digest", "bot.results"} <= set(_part_modules())


PART_NAMES = ("table", "part", "lobby", "orders", "views", "clocks", "undo", "archive", "recovery", "seats", "templates",
              "rematch", "digest", "results", "delivery", "timekeeper")


def private_uses(module: str, path: Path, others: set[str]) -> list[str]:
    """What ``module`` uses of another module's private names: ``self.<part>._x``, ``self._x`` it does not define
    itself, ``<anything but self>._x``, and ``from bot.<other> import _x``."""
    src = path.read_text()
    tree = ast.parse(src)
    own = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    own |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    own |= set(re.findall(r"self\.(_[a-z_]+)\s*(?::[^=\n]*)?=[^=]", src))  # its own private state
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in others:
            bad += [f"from {node.module} import {a.name}" for a in node.names if a.name.startswith("_")]
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id == "self":
            if node.attr not in own:
                bad.append(f"self.{node.attr} is not its own")
        elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "self":
            bad.append(f"self.{base.attr}.{node.attr}")
        elif isinstance(base, ast.Name) and base.id in PART_NAMES and node.attr not in own:
            bad.append(ast.unparse(node))
    return bad


def test_private_use_is_found():
    """Issue 43: the check below sees each way one part could reach another's private name."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "x.py"
        p.write_text("from bot.table import _locked\nclass X:\n    def f(self):\n"
                     "        self._mine = 1\n        self.table._load()\n        self._theirs()\n        table._x\n")
        assert sorted(private_uses("bot.x", p, {"bot.table"})) == [
            "from bot.table import _locked", "self._theirs is not its own", "self.table._load", "table._x"]


@pytest.mark.parametrize("module", sorted(_part_modules()))
def test_a_part_uses_only_what_another_part_made_public(module):
    """Issue 43 (extending issue 29's check to every part and to imports): a part's method, decorator or helper
    that another part uses is public (``Table``'s ``locked``, not ``_locked``); no part reaches another's
    private name."""
    mods = _part_modules()
    assert private_uses(module, mods[module], set(mods) - {module}) == []


@pytest.mark.parametrize("path", sorted([*(ROOT / "cogs").rglob("*.py"), *(ROOT / "bot" / "transports").rglob("*.py")]),
                         ids=lambda p: p.name)
def test_a_transport_calls_only_public_methods_of_the_parts(path):
    """Issue 43: a cog or a transport calls a part's public method (``svc.orders.order``), never
    ``svc.<part>._private``."""
    parts = set(_parts())
    bad = [ast.unparse(n) for n in ast.walk(_tree(path)) if isinstance(n, ast.Attribute) and n.attr.startswith("_")
           and not n.attr.startswith("__") and isinstance(n.value, ast.Attribute) and n.value.attr in parts]
    assert bad == [], path
