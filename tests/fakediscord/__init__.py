"""An in-process fake Discord (REST + gateway) for end-to-end tests.

See :mod:`tests.fakediscord.server` for the full documentation.
"""

from . import server
from .server import *  # noqa: F401,F403  (the names in server.__all__)

__all__ = list(server.__all__)
