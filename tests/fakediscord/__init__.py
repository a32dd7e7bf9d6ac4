"""An in-process fake Discord (REST + gateway) for end-to-end tests.

See :mod:`tests.fakediscord.server` for the full documentation.
"""

from .server import (
    Attachment,
    FakeDiscord,
    FakeMessage,
    InteractionResult,
    InteractionTimeout,
    Violation,
)

__all__ = [
    "Attachment",
    "FakeDiscord",
    "FakeMessage",
    "InteractionResult",
    "InteractionTimeout",
    "Violation",
]
