"""Issue 39: text that comes in is made valid Unicode at the way in (`bot/transports/inbound.py`), discord.py's
JSON never fails on a string (`bot/transports/gateway.py`), and a flood of unreadable frames is one log line."""
from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from bot.transports.gateway import DropLog, dumps
from bot.transports.inbound import REPLACEMENT, loads, valid_text
from engine.core import clone

LONE = "\ud800"


def test_a_lone_surrogate_anywhere_in_a_frame_reads_as_the_replacement_character():
    """Issue 39: a lone surrogate's escape (valid JSON, which orjson refuses) in an option value, a button's
    custom_id, a member's name, a message's content and a key is read as U+FFFD, and nothing read can fail
    to be written as UTF-8 (SQLite, PostgreSQL, a terminal); an escaped pair stays the character it makes."""
    frame = json.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": 7, "d": {
        "data": {"options": [{"name": "reason", "value": "a" + LONE + "b"}], "custom_id": LONE + "x"},
        "member": {"user": {"username": "al\udfffice", "global_name": "\U0001F600"}},
        "message": {"content": ["\udc80", LONE * 2]},
        "key" + LONE: 1}})
    assert "\\ud800" in frame and "\\ud83d\\ude00" in frame  # (the escapes Discord sends)
    d = loads(frame)["d"]
    assert d["data"]["options"][0]["value"] == "a" + REPLACEMENT + "b"
    assert d["data"]["custom_id"] == REPLACEMENT + "x"
    assert d["member"]["user"]["username"] == "al" + REPLACEMENT + "ice"
    assert d["member"]["user"]["global_name"] == "\U0001F600"  # a pair is one character, kept
    assert d["message"]["content"] == [REPLACEMENT, REPLACEMENT * 2]
    assert "key" + REPLACEMENT in d
    sqlite3.connect(":memory:").execute("SELECT ?", (json.dumps(d, ensure_ascii=False),))  # writes as UTF-8
    assert loads(frame.encode()) == loads(frame)  # bytes too (REST bodies)


def test_bytes_that_are_not_utf8_are_read_with_the_replacement_character():
    """Issue 39: a body of invalid UTF-8 (orjson refuses it) is read with U+FFFD in place of the bad bytes;
    a text that is not JSON at all is a ValueError (the gateway drops its frame)."""
    assert loads(b'{"a": "x\xffy", "b": "\xed\xa0\x80"}') == {"a": "x" + REPLACEMENT + "y", "b": REPLACEMENT * 3}
    with pytest.raises(ValueError):
        loads("{not json")


def test_valid_text_keeps_valid_text_and_replaces_each_lone_surrogate():
    """Issue 39: the console's lines (a C locale reads an undecodable byte as a lone surrogate)."""
    text = "deploy OA1 2325 \U0001F600 é"
    assert valid_text(text) is text
    assert valid_text("/roll dice:1d6 reason:\udcff" + LONE) == "/roll dice:1d6 reason:" + REPLACEMENT * 2


def test_what_discord_py_writes_cannot_fail_on_a_string():
    """Issue 39: discord.py writes its JSON by `gateway.dumps`; orjson refuses a lone surrogate, and the
    standard library writes it (as its escape) instead of raising."""
    assert json.loads(dumps({"content": "ok \U0001F600"})) == {"content": "ok \U0001F600"}
    text = dumps({"content": "a" + LONE})
    assert text.isascii() and json.loads(text) == {"content": "a" + LONE}


def test_clone_copies_a_state_that_holds_a_lone_surrogate():
    """Issue 39: orjson stays in `engine/core.py: clone` (41-45 µs for a Gondor state against marshal's
    63-69, benchmarks/bench_json.py), since what it refuses there is copied by marshal: a state can hold no
    lone surrogate (text is made valid where it comes in), and would be copied if it did."""
    state = {"log": ["a" + LONE], "units": {"OA1": {"hex": "2325"}}}
    copy = clone(state)
    assert copy == state and copy is not state and copy["units"] is not state["units"]


def test_a_flood_of_unreadable_frames_is_one_log_line_with_how_many_more(caplog):
    """Issue 39: each dropped frame counts; at most one line every `every` seconds, the next one saying how
    many were dropped in between; a line names the event and the error (at most 160 characters of its text),
    not the frame itself, and carries no traceback."""
    now = [100.0]
    drops = DropLog(every=60.0, clock=lambda: now[0])
    frame = '{"op":0,"t":"INTERACTION_CREATE","s":3,"d":{"id":"abc","secret":"the real cauldrons"}}'
    with caplog.at_level(logging.WARNING, logger="palantir"):
        for _ in range(50):
            drops.dropped(frame, ValueError("invalid literal for int() with base 10: 'abc'"))
            now[0] += 0.5
        assert drops.count == 50 and len(caplog.records) == 1
        now[0] += 60
        drops.dropped("[1, 2]", AttributeError("'list' object has no attribute 'get'"))
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 2 and drops.count == 51
    assert "INTERACTION_CREATE" in lines[0] and "ValueError" in lines[0] and "more dropped" not in lines[0]
    assert "49 more dropped" in lines[1] and "AttributeError" in lines[1]
    assert not any("cauldrons" in line for line in lines) and all(r.exc_info is None for r in caplog.records)
