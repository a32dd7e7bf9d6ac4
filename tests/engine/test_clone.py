"""engine/core.py: clone, the copy of a state an order is applied to (Game.play: a refused order leaves
the live state untouched). A JSON round trip: what it gives is what the stored state gives back."""
from __future__ import annotations

import json

from engine import core
from engine.core import Game, clone
from engine.rulesets import get_ruleset


def test_a_clone_is_equal_deep_and_independent():
    g = Game.new(get_ruleset("gondor"), seed="clone")
    copy = clone(g.state)
    assert copy == g.state and copy is not g.state
    unit = next(iter(copy["units"].values()))
    assert unit is not next(iter(g.state["units"].values()))
    unit["hex"] = "9999"
    assert next(iter(g.state["units"].values()))["hex"] != "9999"  # the live state is untouched


def test_a_clone_keeps_what_json_keeps_ints_floats_and_nesting():
    state = {"a": 1, "b": 1.0, "c": -0.5, "d": [1, [2.5, {"e": None, "f": True}]], "g": "é", "h": 2 ** 62}
    copy = clone(state)
    assert copy == json.loads(json.dumps(state))
    assert type(copy["a"]) is int and type(copy["b"]) is float and type(copy["h"]) is int


def test_what_json_cannot_hold_is_copied_as_it_is_not_lost():
    # orjson refuses an integer past 64 bits and a non-string key: clone then copies by marshal, as before
    state = {"big": 2 ** 70, "n": {1: "one"}}
    assert clone(state) == state
    if core._orjson is not None:
        core_orjson = core._orjson
        try:
            core._orjson = None  # without orjson (the engine used as a library without it): the same copy
            assert clone({"a": [1, 2.0, {"b": "c"}]}) == {"a": [1, 2.0, {"b": "c"}]}
        finally:
            core._orjson = core_orjson
