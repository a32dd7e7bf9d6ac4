"""The dice of a game: a stream kept in the state and derived from the game's secret seed
(HMAC-SHA256(seed, counter)); the counter only ever goes up, so a die once drawn is never drawn
again. ``commitment`` is what is published at a game's start (the seed's SHA-256), so a finished
game's every roll can be verified."""
from __future__ import annotations

import hashlib
import hmac


def new_dice(seed: str) -> dict:
    """The dice record kept inside a game state."""
    return {"seed": seed, "counter": 0}


def commitment(seed: str) -> str:
    """What is published at game start: SHA-256 of the seed."""
    return hashlib.sha256(seed.encode()).hexdigest()


def draw_word(seed: str, counter: int) -> int:
    mac = hmac.new(seed.encode(), f"palantir-die:{counter}".encode(), hashlib.sha256)
    return int.from_bytes(mac.digest()[:8], "big")


class Dice:
    """Draws from the stream in ``state['dice']``; every value drawn is kept
    in ``rolls`` so the action's events can show (and the log can keep) every
    die. Uniform by rejection sampling, so no face is favoured."""

    def __init__(self, record: dict):
        self.record = record
        self.rolls: list[dict] = []

    def randint(self, lo: int, hi: int, label: str = "") -> int:
        span = hi - lo + 1
        limit = (1 << 64) - ((1 << 64) % span)
        while True:
            n = self.record["counter"]
            self.record["counter"] = n + 1
            w = draw_word(self.record["seed"], n)
            if w < limit:
                value = lo + (w % span)
                self.rolls.append({"n": n, "sides": span, "value": value, "label": label})
                return value

    def d6(self, label: str = "") -> int:
        return self.randint(1, 6, label)

    def roll(self, count: int, sides: int = 6, label: str = "") -> list[int]:
        return [self.randint(1, sides, label) for _ in range(count)]

    def shuffle(self, items: list, label: str = "shuffle") -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i, label)
            items[i], items[j] = items[j], items[i]
        return items
