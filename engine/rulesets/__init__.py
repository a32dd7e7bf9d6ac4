"""The registry of rulesets, above the core (python-chess keeps its variants in
`chess/variant.py` the same way): each built-in game is imported here, and
``engine/core.py`` imports none of them.

Adding a game is one folder under ``engine/rulesets/`` (a module that builds its
ruleset object) plus one line in ``BUILTIN`` below. A ruleset from elsewhere
(a test, a plugin) joins with ``register(obj)``."""
from __future__ import annotations

import importlib

from engine.core import Ruleset

# name -> (module, attribute holding the ruleset object)
BUILTIN: dict[str, tuple[str, str]] = {
    "celebrant": ("engine.rulesets.celebrant", "CELEBRANT"),
    "gondor": ("engine.rulesets.gondor", "GONDOR"),
    "risk-minas-tirith": ("engine.rulesets.risk_minas_tirith", "RISK"),
    "sauron": ("engine.rulesets.sauron", "SAURON"),
    "sauron-expanded": ("engine.rulesets.sauron.expanded", "SAURON_EXPANDED"),
    "wotr": ("engine.rulesets.wotr", "WOTR"),
}

RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset not built in (a test's, a plugin's); its ``name`` is its key."""
    RULESETS[ruleset.name] = ruleset
    return ruleset


def _load_builtin() -> None:
    for name, (module, attr) in BUILTIN.items():
        if name not in RULESETS:
            RULESETS[name] = getattr(importlib.import_module(module), attr)


def get_ruleset(name: str) -> Ruleset:
    """A ruleset by name; ``<name>@<mode>`` is that ruleset at a level of play (``engine.modes``)."""
    if "@" in name and name not in RULESETS:
        from engine.modes import split_name, with_mode

        base, mode = split_name(name)
        return with_mode(get_ruleset(base), mode)
    if name not in RULESETS:
        _load_builtin()
    try:
        return RULESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset `{name}`; known: {', '.join(sorted(RULESETS))}") from None


def ruleset_names() -> list[str]:
    """Every ruleset's name (the built-in ones by their registry line, none imported: `palantir local`'s
    choices, `/help`'s topics)."""
    return sorted(set(BUILTIN) | set(RULESETS))
