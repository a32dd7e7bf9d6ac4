"""Losses (seed:002, How to do Battle): the battalions a side loses, in its standing loss priority
(`losses <type> ...`, either seat at any time; by default the cheapest first), and how they read."""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.rulesets.risk_minas_tirith import common
from engine.rulesets.risk_minas_tirith.common import (
    SEATS, TITLES, CODES, FROM_CODE, ALIASES, ARCHERY, LOSS_ORDER, S_BATTLE,
)


def default_priority(rs, side: str) -> list[str]:
    """Cheapest first (LOSS_ORDER), only the types ``side`` has (seed, Set up)."""
    return [t for t in LOSS_ORDER if t in rs.cards["forces"][side]]


def loss_priority(rs, state: State, side: str) -> list[str]:
    """The owner's standing loss priority (``losses`` order), first lost first."""
    have = (state.get("loss_priority") or {}).get(side) or []
    return list(have) + [t for t in LOSS_ORDER if t not in have]


def _take_losses(rs, state: State, aid: str, n: int) -> dict[str, int]:
    """Remove ``n`` battalions in the owner's standing loss priority (``losses``
        order; default cheapest first) and hand them to the opponent; if the area is
        emptied of battalions its leaders are captured (seed, How to do Battle)."""
    rec = state["areas"][aid]
    side = rec["side"]
    lost: dict[str, int] = {}
    order = loss_priority(rs, state, side) if side in SEATS else list(LOSS_ORDER)
    for _ in range(n):
        for t in order:
            if rec["u"].get(t):
                rec["u"][t] -= 1
                if not rec["u"][t]:
                    del rec["u"][t]
                lost[t] = lost.get(t, 0) + 1
                state["lost"][side][t] = state["lost"][side].get(t, 0) + 1
                break
    arch = sum(rec["u"].get(t, 0) for t in ARCHERY)
    if state["fired"].get(aid, 0) > arch:
        state["fired"][aid] = arch
    if not rec["u"] and rec["leaders"] and side is not None:
        state["lost"][side]["leaders"].extend(rec["leaders"])
        lost["leaders"] = len(rec["leaders"])
        rec["leaders"] = []
    if not rec["u"] and not rec["leaders"]:
        rec["side"] = None
    return lost


def _loss_text(lost: dict[str, int]) -> str:
    many = {"infantry": "infantry", "archer": "archers", "cavalry": "cavalry", "horse-archer": "horse-archers",
            "troll": "trolls", "mumak": "mumakil", "leaders": "leaders"}
    parts = [f"{n} {t if t != 'leaders' else 'leader'}" if n == 1 else f"{n} {many.get(t, t)}"
             for t, n in lost.items() if n]
    return ", ".join(parts) if parts else "nothing"


def _parse_losses(rs, state: State, seat: str, rest: list[str]) -> tuple[str, ...]:
    """``losses cav inf`` -> the full priority: the types named first, in that order,
        then the seat's other types in their current order (canonical: every type)."""
    if not rest:
        raise common._usage(rs, "losses")
    if seat not in SEATS:
        raise IllegalOrder(f"`{seat}` is not a seat in this game (good, evil)")
    mine = default_priority(rs, seat)
    if rest == ["default"]:
        return tuple(CODES[t] for t in mine)
    named: list[str] = []
    for word in rest:
        code = ALIASES.get(word)
        if code is None:
            raise InvalidOrder(f"`{word[:12]}` is not a battalion type (inf, arc, cav, hor, tro, mum); "
                               "e.g. `losses inf arc cav`")
        t = FROM_CODE[code]
        if t not in mine:
            raise IllegalOrder(f"{TITLES[seat]} has no {t} battalions; its types are "
                               f"{' '.join(CODES[x] for x in mine)}", S_BATTLE)
        if t in named:
            raise InvalidOrder(f"`{code}` is named twice; give each type once, first lost first")
        named.append(t)
    cur = [t for t in loss_priority(rs, state, seat) if t in mine]
    return tuple(CODES[t] for t in named + [t for t in cur if t not in named])


def _check_losses(rs, state: State, seat: str, a: tuple[str, ...]) -> None:
    mine = [CODES[t] for t in default_priority(rs, seat)]
    if sorted(a) != sorted(mine):
        raise InvalidOrder(f"name each of your types once: {' '.join(mine)}")


def _loss_suggestions(rs, state: State, seat: str) -> Iterator[Action]:
    """A few sensible standing loss priorities (any seat, any time), offered only
        when the seat has two or more battalion types on the board and they differ from
        the current one: cheapest first (the default), archers kept longest, dearest first.
        Any other order of the types is accepted when typed."""
    mine = default_priority(rs, seat)
    have = {t for r in state["areas"].values() if r["side"] == seat for t, n in r["u"].items() if n}
    if len(have) < 2:
        return
    cur = [t for t in loss_priority(rs, state, seat) if t in mine]
    arch_last = [t for t in mine if t not in ARCHERY] + [t for t in mine if t in ARCHERY]
    seen = [cur]
    for cand in (mine, arch_last, mine[::-1]):
        if cand not in seen:
            seen.append(cand)
            yield Action("losses", tuple(CODES[t] for t in cand))


def _do_losses(rs, state, seat, a, dice):
    old = loss_priority(rs, state, seat)
    new = [FROM_CODE[c] for c in a]
    state.setdefault("loss_priority", {s: default_priority(rs, s) for s in SEATS})[seat] = new
    names = {"infantry": "infantry", "archer": "archers", "cavalry": "cavalry", "horse-archer": "horse archers",
             "troll": "trolls", "mumak": "mumakil"}
    same = " (unchanged)" if [t for t in old if t in new] == new else ""
    return [Event(public=f"{TITLES[seat]}'s standing loss priority{same}, first lost first: "
                         f"{', '.join(names[t] for t in new)} (`losses {' '.join(a)}`).", section=S_BATTLE)]
