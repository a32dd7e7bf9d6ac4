"""Where orjson earns its place (issue 39): ``python -m benchmarks.bench_json``.

Prints figures, asserts nothing (medians of many runs, microseconds):

* reading one INTERACTION_CREATE frame of `/order` as the fake Discord sends it (the whole payload:
  member, channel, guild; about 1.5 KB): orjson, the standard library's ``json``, and
  ``bot/transports/inbound.py: loads`` (what discord.py reads with now: orjson, and ``json`` for what
  orjson refuses), without and with a lone surrogate's escape in the option;
* writing an interaction's answer: orjson, ``json`` as discord.py writes without orjson, and
  ``bot/transports/gateway.py: dumps`` (orjson, ``json`` for what orjson refuses);
* ``engine/core.py: clone`` of a Gondor game's state after its set-up and of one late in a game (what
  every order copies): orjson's round trip (the clone), ``marshal``, ``json``, ``copy.deepcopy``.
"""
from __future__ import annotations

import copy
import json
import marshal
import random
import statistics
import sys
import time

sys.path.insert(0, "tests")

import orjson  # noqa: E402

from bot.transports.gateway import dumps  # noqa: E402
from bot.transports.inbound import loads  # noqa: E402
from engine.core import Game, clone  # noqa: E402
from engine.rulesets import get_ruleset  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402
from tests.fuzz.test_fuzz_gondor import play_out  # noqa: E402


def us(f, n: int = 2000) -> float:
    """The median of ``n`` runs of ``f``, in microseconds (in batches of 10, for the clock's grain)."""
    out = []
    for _ in range(n // 10):
        t = time.perf_counter()
        for _ in range(10):
            f()
        out.append((time.perf_counter() - t) * 1e5)
    return statistics.median(out)


def frame(text: str) -> str:
    s = FakeDiscord()
    gid = s.add_guild("wargamers")
    cid = s.add_channel(gid, "gondor")
    alice = s.add_user("alice", guild_id=gid)
    data = {"id": "1", "name": "order", "type": 1, "options": [{"name": "text", "type": 3, "value": text}]}
    return json.dumps({"op": 0, "t": "INTERACTION_CREATE", "s": 42, "d": s.interaction_payload(alice, cid, 2, data)})


def main() -> None:
    clean, lone = frame("deploy OA1 2325"), frame("deploy OA1 2325 \ud800")
    print(f"INTERACTION_CREATE frame, {len(clean)} bytes:")
    print(f"  orjson.loads {us(lambda: orjson.loads(clean)):.1f} us, json.loads {us(lambda: json.loads(clean)):.1f} us, "
          f"inbound.loads {us(lambda: loads(clean)):.1f} us")
    print(f"  with a lone surrogate: orjson refuses it; inbound.loads {us(lambda: loads(lone)):.1f} us")
    answer = {"type": 4, "data": {"content": "**alice** (Sauron): deploy OA1 2325 " + "x" * 300, "flags": 0,
                                  "allowed_mentions": {"parse": []}}}
    print(f"an answer's JSON: orjson.dumps {us(lambda: orjson.dumps(answer).decode()):.1f} us, "
          f"json.dumps {us(lambda: json.dumps(answer, separators=(',', ':'), ensure_ascii=True)):.1f} us, "
          f"gateway.dumps {us(lambda: dumps(answer)):.1f} us")
    g = Game.new(get_ruleset("gondor"), seed="bench-json")
    states = {"new game": g.state}
    log = play_out(Game.new(get_ruleset("gondor"), seed="bench-json"), random.Random(3), junk=False)
    for seat, text in log:
        g.play(seat, text)
        if g.state["turn"] >= 10:
            states["turn 10"] = g.state
            break
    for name, st in states.items():
        size = len(json.dumps(st))
        print(f"clone of a Gondor state ({name}, {size} bytes of JSON): clone (orjson) {us(lambda: clone(st), 400):.0f} us, "
              f"marshal {us(lambda: marshal.loads(marshal.dumps(st)), 400):.0f} us, "
              f"json {us(lambda: json.loads(json.dumps(st)), 400):.0f} us, "
              f"deepcopy {us(lambda: copy.deepcopy(st), 100):.0f} us")


if __name__ == "__main__":
    main()
