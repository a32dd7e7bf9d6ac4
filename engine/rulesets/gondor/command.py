"""Gondor's command rules: Mumakil (14.3), reinforcements in formation
(14.2), the spells of 17.x, the Banner of the King (18.x), demoralization
(19.x), city levels and victory (20.x), tunnels (15.24).

A mixin for :class:`engine.rulesets.gondor.Gondor`; every hook calls
``super()`` so the other mixins see it too.
"""
from __future__ import annotations


class CommandRules:
    pass
