"""Renderers a worker process can run (module-level, so they pickle by reference)."""
import os
import time


def pid_renderer(view, board, around, **opts) -> bytes:
    """Which process drew it, and what it was handed."""
    time.sleep(0.2)
    return f"{os.getpid()}|{type(board).__name__}|{around}|{sorted(opts.items())}".encode()
