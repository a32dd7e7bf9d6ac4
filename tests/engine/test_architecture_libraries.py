"""Issue 43: no hand-written replacement for a maintained library in the bot. Discord's API is spoken through
discord.py (and aiohttp under it): nothing in ``bot/`` writes an HTTP/1.x request or status line by hand, opens a
socket or a TLS context of its own, or implements a raw asyncio protocol (the hand-written client
``bot/transports/lean_http.py`` had all four). Checked from the source, so that it stays true."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.source_trees import tree as source_tree

ROOT = Path(__file__).resolve().parents[2]
BOT = sorted((ROOT / "bot").rglob("*.py"))

RAW_MODULES = {"socket", "ssl", "http.client", "urllib.request", "h11", "httptools"}  # an HTTP client's parts
RAW_PROTOCOLS = {"Protocol", "BaseProtocol", "BufferedProtocol"}  # asyncio's, for a connection read by hand
RAW_CALLS = {"create_connection", "open_connection", "create_default_context", "wrap_socket", "SSLContext"}


def raw_http(tree: ast.AST) -> list[str]:
    """What in ``tree`` is a hand-written HTTP client's: an HTTP/1.x line in a literal, an import of a socket,
    TLS or low-level HTTP module, a connection or TLS context made by hand, a class built on ``asyncio.Protocol``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
            text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            if "HTTP/1." in text:
                found.append(f"line {node.lineno}: an HTTP/1.x line written by hand: {text[:40]!r}")
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if a.name in RAW_MODULES or a.name.split(".")[0] in {"socket", "ssl"}]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (
                node.module in RAW_MODULES
                or node.module == "asyncio" and {a.name for a in node.names} & RAW_PROTOCOLS):
            found.append(f"line {node.lineno}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
            if name in RAW_CALLS:
                found.append(f"line {node.lineno}: {name}(...)")
        elif isinstance(node, ast.ClassDef):
            found += [f"line {node.lineno}: class {node.name}({ast.unparse(b)})" for b in node.bases
                      if ast.unparse(b) in {f"asyncio.{p}" for p in RAW_PROTOCOLS}]
    return found


def test_the_bot_has_no_hand_written_http_client():
    """Issue 43: no ``HTTP/1.1`` (nor a raw socket, TLS or asyncio-protocol HTTP client) in ``bot/``: interaction
    answers go through discord.py."""
    offenders = {str(p.relative_to(ROOT)): hits for p in BOT if (hits := raw_http(source_tree(p)))}
    assert offenders == {}


@pytest.mark.parametrize("source", [
    'REQUEST = b"POST %s HTTP/1.1\\r\\n"',
    "import ssl",
    "import socket",
    "from http.client import HTTPConnection",
    "async def f(loop):\n    await loop.create_connection(P, 'discord.com', 443)",
    "import asyncio\nclass Conn(asyncio.Protocol):\n    pass",
    "from asyncio import BufferedProtocol",
])
def test_each_part_of_a_hand_written_client_is_seen(source):
    """Issue 43: the check sees each part of a hand-written client (the lean client had them all)."""
    assert raw_http(ast.parse(source))


def test_what_the_bot_may_say_of_http_is_not_taken_for_a_client():
    """Issue 43: a typing ``Protocol``, aiohttp and discord.py's names are not a hand-written client."""
    assert raw_http(ast.parse("from typing import Protocol\nimport aiohttp\nclass Store(Protocol):\n    pass\n"
                              "async def f(s):\n    await s.post('https://discord.com/api')")) == []
