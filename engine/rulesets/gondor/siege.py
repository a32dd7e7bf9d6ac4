"""Gondor's siege rules (16.x): the Siege Phase, breaching, siege towers and
ladders, fireballs, severed heads, catapult fire and boiling oil.

A mixin for :class:`engine.rulesets.gondor.Gondor`; every hook calls
``super()`` so the other mixins see it too.
"""
from __future__ import annotations


class SiegeRules:
    pass
