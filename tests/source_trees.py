"""The project's source files parsed once per test module (issue 43: a suite with margin).

The architecture tests (tests/engine/test_architecture*.py) read the same two hundred files, each parsed and
walked by several of them: :func:`tree` parses a file once and :func:`nodes` walks a tree once. Both are read
only: a test that would change a tree parses its own (``ast.parse``). They are kept for one test module
(tests/engine/conftest.py lets them go at its end: held for the run, their nodes were scanned by every full
garbage collection)."""
from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def tree(path: Path | str) -> ast.Module:
    """``path``'s syntax tree (parsed once while kept)."""
    return ast.parse(Path(path).read_text(), filename=str(path))


@functools.cache
def nodes(t: ast.AST) -> tuple[ast.AST, ...]:
    """Every node of ``t``, in ``ast.walk``'s order (walked once per tree)."""
    return tuple(ast.walk(t))
