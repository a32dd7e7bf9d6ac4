"""Storage behind one interface (``base.Store``), a backend chosen by configuration.

``open_store(config)`` is the only way the application opens a store; today's
backend is SQLite (``[storage] backend = "sqlite"``, ``path``). ``Store`` names
the SQLite backend for the tests and tools that open a file directly."""
from __future__ import annotations

from bot.storage.base import (ActionRow, Clock, Effect, FireTimer, GameRow, OutboxPost, PauseClock, Prefs,
                              Timer)
from bot.storage.base import Store as StoreProtocol
from bot.storage.sqlite import MIGRATIONS, SCHEMA_VERSION, SqliteStore

Store = SqliteStore

BACKENDS = {"sqlite": SqliteStore}


async def open_store(storage) -> StoreProtocol:
    """The store ``storage`` (a ``[storage]`` config section, or a SQLite path) names."""
    if isinstance(storage, str):
        return await SqliteStore.open(storage)
    backend = getattr(storage, "backend", "sqlite") or "sqlite"
    try:
        cls = BACKENDS[backend]
    except KeyError:
        raise ValueError(f"unknown storage backend `{backend}`; known: {', '.join(sorted(BACKENDS))}") from None
    return await cls.open(storage.path)


__all__ = ["ActionRow", "BACKENDS", "Clock", "Effect", "FireTimer", "GameRow", "MIGRATIONS", "OutboxPost",
           "PauseClock", "Prefs", "SCHEMA_VERSION", "SqliteStore", "Store", "StoreProtocol", "Timer", "open_store"]
