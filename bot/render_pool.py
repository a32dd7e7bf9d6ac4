"""Map renders off the bot's process (issue 16): a pool of worker processes sized by
``[render] workers``, so a busy shard's event loop (and its GIL) stays free while Pillow draws.

A worker is handed the view (a JSON-shaped dict), the ruleset's *name* (it builds the board from
its own copy of the ruleset registry, so the map data is not pickled for every render) and the
renderer, which must be a module-level function (``bot.table.default_renderer``). With
``workers = 0``, or a renderer that cannot be sent to another process (a closure, a lambda), the
render runs in a thread of the bot's process as before. The pool starts its workers with
``spawn`` (no fork of a process holding an event loop and threads), lazily, on first use."""
from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import pickle
from concurrent.futures import ProcessPoolExecutor


def _render_in_worker(renderer, view: dict, ruleset: str, around, opts: dict) -> bytes:
    from engine.rulesets import get_ruleset

    return renderer(view, get_ruleset(ruleset).game_board().drawable, around, **opts)


def _worker_pid() -> int:
    return os.getpid()


class RenderPool:
    def __init__(self, workers: int):
        if workers < 1:
            raise ValueError("a render pool needs at least one worker")
        self.workers = workers
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        self._sendable: dict[object, bool] = {}

    def sendable(self, renderer) -> bool:
        """Can this renderer be run by a worker (pickled by reference)?"""
        key = id(renderer)
        if key not in self._sendable:
            try:
                pickle.dumps(renderer)
                ok = True
            except Exception:  # noqa: BLE001 - a lambda or a closure: drawn in a thread instead
                ok = False
            self._sendable[key] = ok
        return self._sendable[key]

    async def render(self, renderer, view: dict, ruleset: str, drawable, around, **opts) -> bytes:
        loop = asyncio.get_running_loop()
        if self.sendable(renderer):
            try:
                return await loop.run_in_executor(self._pool, _render_in_worker, renderer, view, ruleset, around, opts)
            except (pickle.PicklingError, KeyError) as e:  # a ruleset only this process knows
                if isinstance(e, KeyError) and "ruleset" not in str(e).lower():
                    raise
        return await asyncio.to_thread(functools.partial(renderer, **opts), view, drawable, around)

    async def pids(self) -> set[int]:
        """The workers' process ids (for tests and the log)."""
        loop = asyncio.get_running_loop()
        return set(await asyncio.gather(*(loop.run_in_executor(self._pool, _worker_pid) for _ in range(self.workers))))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
