"""Set up (seed:002, Set up; Minas Tirith cards): the ``mt_cards=`` option that chooses the Minas
Tirith deck, and a new game: the starting forces on the board, the shuffled decks, the first round.
The game's data (the board, cards.toml: forces, leaders, Reinforcement and Minas Tirith cards,
limits, points) is read once by the ruleset's class."""
from __future__ import annotations

from engine.core import InvalidOrder, State
from engine.dice import Dice, new_dice
from engine.options import items, read
from engine.rulesets.risk_minas_tirith import losses, turn
from engine.rulesets.risk_minas_tirith.common import SEATS, STATE_VERSION


# Options and a new game (the data, read once, is the ruleset's: its class).


def mt_list(rs, spec: str | None) -> list[str]:
    """The Minas Tirith deck: a named list from cards.toml, or cards joined by `+`,
        ``kind+kind*2+...`` (``mt_cards=`` option; a refusal is the reason, said after the option)."""
    lists = rs.cards["mt_lists"]
    known = {k: v for k, v in rs.cards["mt"].items()}
    if spec is None or spec == "":
        return list(lists["default"])
    spec = spec.strip().lower()
    if spec in lists and isinstance(lists[spec], list):
        return list(lists[spec])
    out: list[str] = []
    for part in items(spec):  # `+` between cards (a comma is refused)
        name, _, count = part.partition("*")
        name = name.strip()
        if name not in known:
            names = ", ".join(k for k in lists if isinstance(lists[k], list))
            raise InvalidOrder(f"names no card `{name[:30]}`; the cards: {', '.join(known)}; the named lists: {names}")
        if count and (not count.strip().isascii() or not count.strip().isdigit() or not 1 <= int(count) <= 4):
            raise InvalidOrder(f"has `{part[:30]}`: a count is 1 to 4, as in `mordor*2`")
        out.extend([name] * (int(count) if count else 1))
    if not 1 <= len(out) <= 30:
        raise InvalidOrder("makes a deck of 1 to 30 cards")
    for name in out:
        k = known[name]
        if (k["kind"] == "leader" or (k["kind"] == "host" and k.get("leader"))) and out.count(name) > 1:
            raise InvalidOrder(f"has `{name}` twice: a card that brings a leader is in a deck once")
    return out


def _check_options(rs, options: dict[str, str]) -> dict:
    """The typed options (``options.py``, read by ``engine.options``), in the state's layout."""
    given = read(rs.options, options, rs)
    source = given.get("mt_cards", "default")
    return {"mt_cards": mt_list(rs, None if source == "default" else source), "mt_source": source[:60]}


def new_game(rs, options: dict[str, str], seed: str, fixture: dict | None = None) -> State:
    opts = _check_options(rs, options)
    mt_defs: dict[str, str] = {}
    for name in opts["mt_cards"]:
        n = opts["mt_cards"].count(name)
        if n == 1:
            mt_defs[name] = name
        else:
            i = 1
            while f"{name}{i}" in mt_defs:
                i += 1
            mt_defs[f"{name}{i}"] = name
    areas = {a: {"u": {}, "leaders": []} for a in rs.board.ids}
    for side, places in rs.board.start.items():
        for aid, what in places.items():
            rec = areas[aid]
            rec["side"] = side
            for t, n in what.items():
                if t == "leaders":
                    rec["leaders"] = list(n)
                else:
                    rec["u"][t] = n
    for rec in areas.values():
        rec.setdefault("side", None)
    state: State = {
        "ruleset": rs.name, "version": STATE_VERSION, "options": opts, "dice": new_dice(seed),
        "round": 0, "turn": 0, "turn_in_round": 0, "roller": "good", "active": "good",
        "phase": "die", "action_dice": [], "die": None, "actions": 0,
        "areas": areas, "fired": {}, "catapults": [],
        "mt_defs": mt_defs,
        "hands": {s: {"reinf": [], "mt": []} for s in SEATS},
        "hosts": {}, "reinf_discard": [], "mt_discard": [], "mt_used": [],
        "lost": {s: {"leaders": []} for s in SEATS},
        "towers": [], "gate_broken": False,
        "flags": {"special": False, "ladders": False, "courage": False},
        "pending": None, "hidden": {}, "over": None, "log_round": [],
        "loss_priority": {s: losses.default_priority(rs, s) for s in SEATS},
    }
    dice = Dice(state["dice"])
    reinf = dice.shuffle(list(rs.reinforcement_cards), "reinforcement deck")
    mt = dice.shuffle(list(mt_defs), "Minas Tirith deck")
    if fixture:
        if "reinf_deck" in fixture:
            reinf = list(fixture["reinf_deck"])
            if sorted(reinf) != sorted(rs.reinforcement_cards) and not fixture.get("partial"):
                raise ValueError("fixture reinf_deck must list every Reinforcement card")
        if "mt_deck" in fixture:
            mt = list(fixture["mt_deck"])
    state["hidden"] = {"reinf_deck": reinf, "mt_deck": mt}
    turn._new_round(rs, state, Dice(state["dice"]))
    return state
