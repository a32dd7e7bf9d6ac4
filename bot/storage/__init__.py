"""Storage behind one interface (``base.Store``), a backend chosen by configuration.

``open_store(config)`` is the only way the application opens a store. ``[storage] url``
chooses the backend: ``sqlite:///palantir.db`` (the default; with no url, ``[storage] path``
names the SQLite file) or ``postgresql://user@host/db`` (asyncpg, shared by several
processes). ``Store`` names the SQLite backend for the tests and tools that open a file
directly."""
from __future__ import annotations

from bot.storage.base import (ActionRow, Clock, Effect, FireTimer, GameResult, GameRow, OutboxPost, PauseClock, PlayerRecord,
                              Prefs, SeatState, ShardFilter, StaleWriter, StorageError, Timer)
from bot.storage.base import Store as StoreProtocol
from bot.storage.sqlite import MIGRATIONS, SCHEMA_VERSION, SqliteStore

Store = SqliteStore

BACKENDS = ("sqlite", "postgresql")


def parse_url(url: str) -> tuple[str, str]:
    """``(backend, target)``: ``sqlite:///x.db`` → ("sqlite", "x.db"), ``sqlite:////abs/x.db`` →
    ("sqlite", "/abs/x.db"); ``postgresql://…`` (or ``postgres://…``) → ("postgresql", the url)."""
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///"):]
        if not path:
            raise ValueError("sqlite url names no file: sqlite:///palantir.db")
        return "sqlite", path
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql", url
    raise ValueError(f"unknown storage url `{url}`: use sqlite:///file.db or postgresql://user@host/db")


def storage_url(storage) -> str:
    """The url a ``[storage]`` section (or a bare SQLite path, or a url) stands for."""
    if isinstance(storage, str):
        return storage if "://" in storage else f"sqlite:///{storage}"
    url = getattr(storage, "url", "") or ""
    return url or f"sqlite:///{getattr(storage, 'path', 'palantir.db') or 'palantir.db'}"


async def open_store(storage, *, create: bool = True) -> StoreProtocol:
    """The store ``storage`` names: a ``[storage]`` config section, a url, or a SQLite path (a new
    database where no file is, unless ``create`` is false). One that cannot be used raises
    :class:`StorageError`: one line, the exit status its ``status`` (issue 39)."""
    try:
        backend, target = parse_url(storage_url(storage))
    except ValueError as e:
        raise StorageError(str(e), 2) from None
    if backend == "postgresql":
        from bot.storage.postgres import PostgresStore

        return await PostgresStore.open(target, whole_pool=True)
    return await SqliteStore.open(target, create=create)


__all__ = ["ActionRow", "BACKENDS", "Clock", "Effect", "FireTimer", "GameResult", "GameRow", "MIGRATIONS", "OutboxPost",
           "PauseClock", "PlayerRecord", "Prefs", "SeatState", "SCHEMA_VERSION", "ShardFilter", "SqliteStore", "StaleWriter", "StorageError", "Store", "StoreProtocol", "Timer",
           "open_store", "parse_url", "storage_url"]
