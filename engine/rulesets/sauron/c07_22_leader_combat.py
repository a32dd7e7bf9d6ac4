"""7.2 Leader combat as the variant changes it (seed 004):

- 7.22: each leader has Combat, Morale, Endurance and Ring ratings (data/charts.toml [leaders]);
- 7.221: a leader's total is Combat + Morale less his wounds; the phasing leader's total less the
  defender's is the Combat Differential, read on the Leader Combat Results Table (7.25, [lcrt]) with
  one die; beyond -4 and +5 the edge column is read (ruling, docs/sauron.md);
- 7.222: results are lost Endurance points (wounds), applied at once; a leader whose wounds equal his
  Endurance is dead and removed;
- 7.251: a `k`, or a `1w`/`2w` on a die of 5-6, takes the loser's items; a captured Ring is put on;
- 19.212: a Numenorean bearing the shards of Narsil adds 1 to his Combat in leader combat; 17.11: the
  Beast without Horn Attack or Death Breath fights at Combat 9.

The order keeps the Standard Rules' notation, ``duel <leader> <enemy leader>``, with the variant's
resolution (`options: variant=off` resolves it on the Standard Rules' reconstructed table instead).
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Iterator

from engine.core import Action, Event, IllegalOrder, State
from engine.dice import Dice
from engine.hexgrid import distance
from engine.orders import Order
from engine.spi.c07_2_leaders import _parse_duel
from engine.spi.common import pct
from engine.spi.standard import StandardRules

from .common import NUMENOREANS
from engine.spi import c07_2_leaders
from engine.spi import c07_combat
from engine.spi import c08_3_rally
from engine.spi import hooks
from engine.rulesets.sauron import c16_6_ring
from engine.rulesets.sauron import c17_11_beast
from engine.rulesets.sauron import c19_21_narsil
from engine.rulesets.sauron import c22_mortal_combat
from engine.spi import c02_units
from engine.spi import c03_sequence


_CELL = re.compile(r"^(k|-|[1-9]w)$")


def cell_wounds(part: str) -> int | str:
    """`k` -> "k", `-` -> 0, `2w` -> 2."""
    if part == "k":
        return "k"
    if part == "-":
        return 0
    if not _CELL.match(part):
        raise ValueError(f"`{part}` is not k, - or a number of wounds like 2w")
    return int(part[:-1])


# ------------------------------------------------------------ ratings (7.22)
def variant(rs, state: State) -> bool:
    return state["options"].get("variant", True)


def _lr(rs, state: State, table: str, uid: str) -> int:
    return int(rs.raw(state)["leaders"][table].get(uid, 0))


def combat_rating(rs, state: State, uid: str) -> int:
    return rs._lr(state, "combat", uid)


def morale_rating(rs, state: State, uid: str) -> int:
    """Morale for all purposes: 16.61 (Sauron without the Ring: -4), 16.641 (a Sauron leader
        wearing it once Sauron is dead: +2), 16.69 (a leader turned evil: +2)."""
    m = rs._lr(state, "morale", uid)
    ring = rs.raw(state)["ring"]
    holder = c16_6_ring.ring_holder(rs, state)
    if uid == "SAU" and holder != "SAU":
        m -= ring["morale"]
    if uid in state["sau"]["evil"]:
        m += ring["evil_morale"]
    elif (holder == uid and uid != "SAU" and hooks.side_of(rs, state, uid) == "sauron" and state["sau"]["ring"]["worn"]
          and not c02_units.on_map(rs, state, "SAU") and state["units"]["SAU"]["status"] == "eliminated"):
        m += ring["wearer_morale"]
    return m


def endurance(rs, state: State, uid: str) -> int:
    return rs._lr(state, "endurance", uid)


def ring_rating(rs, state: State, uid: str) -> int:
    return rs._lr(state, "ring", uid)


def wounds(rs, state: State, uid: str) -> int:
    return state["units"][uid].get("wounds", 0)


def leader_total(rs, state: State, uid: str) -> int:
    """7.221: Combat + Morale less wounds (+1 Combat for the shards of Narsil, 19.212; the Beast's
        Combat Rating, 17.11; Wrath of the Ringwraith +3, 8.5 ruling)."""
    if uid == "BEA":
        return c17_11_beast.beast_total(rs, state)
    c = combat_rating(rs, state, uid)
    if uid == "RW" and c17_11_beast.has_effect(rs, state, "wrath-of-the-ringwraith"):
        c += 3
    if uid in NUMENOREANS and state["sau"]["items"].get("shards") == uid:
        c += rs.raw(state)["leader_bonus"]["shards_combat"]
    return c + morale_rating(rs, state, uid) - wounds(rs, state, uid)


def printed_rally(rs, state: State, uid: str) -> int:
    """8.331: Combat + Morale, less the wounds beyond the Combat rating; +3 with an intact magic
        weapon, Sauron +3 at night (the overview's 12, 10 and 13; reconstructed)."""
    c, m, w = combat_rating(rs, state, uid), morale_rating(rs, state, uid), wounds(rs, state, uid)
    r = c + m - max(0, w - c)
    bonus = rs.raw(state)["leader_bonus"]
    items = state["sau"]["items"]
    if items.get("narsil") == uid or items.get("aiglos") == uid:
        r += bonus["weapon_rally"]
    if c03_sequence.is_night(rs, state) or c17_11_beast.has_effect(rs, state, "total-eclipse"):
        r += bonus["night_rally"].get(uid, 0)
    return r


@staticmethod
def rally_from(combat: int, morale: int, wounds: int) -> int:
    """8.331 alone (the 8.3311 example: Baldrim 3 + 3 with 5 wounds -> 4)."""
    return combat + morale - max(0, wounds - combat)


# ------------------------------------------------------------------ 7.25
def lcrt_cell(rs, state: State, diff: int, roll: int) -> tuple[str, str]:
    t = rs.raw(state)["lcrt"]
    cols = sorted(int(k) for k in t if re.fullmatch(r"[+-]?\d+", k))
    col = min(max(diff, cols[0]), cols[-1])
    a, d = t[str(col)][roll - 1].split("/")
    return a, d


def duel_distribution(rs, state: State, a: str, b: str) -> dict[tuple[str, str], Fraction]:
    """7.25 exactly: each (result for ``a``, result for ``b``) of one leader combat and its chance
        (one die: each of the column's six cells is 1/6; equal cells add up)."""
    diff = leader_total(rs, state, a) - leader_total(rs, state, b)
    out: dict[tuple[str, str], Fraction] = {}
    for roll in range(1, 7):
        cell = lcrt_cell(rs, state, diff, roll)
        out[cell] = out.get(cell, Fraction(0)) + Fraction(1, 6)
    return out


def duel_odds(rs, state: State, a: str, b: str) -> str:
    """/odds for leader combat: the exact chance of each result (one die, six cells)."""
    ta, tb = leader_total(rs, state, a), leader_total(rs, state, b)
    diff = ta - tb
    clamp = " (read at the table's edge)" if not -4 <= diff <= 5 else ""
    rows = [f"**Leader combat: {a} ({ta}) against {b} ({tb})**, differential {diff:+d}{clamp} (7.221, 7.25):"]
    for roll in range(1, 7):
        x, y = lcrt_cell(rs, state, diff, roll)
        rows.append(f"  die {roll} (1/6): {a} {x}, {b} {y}")
    rows.append("  in all: " + "; ".join(f"{a} {x}, {b} {y}: {pct(p)} ({p.numerator}/{p.denominator})"
                                        for (x, y), p in sorted(duel_distribution(rs, state, a, b).items(),
                                                                key=lambda kv: -kv[1])))
    return "\n".join(rows)


# ---------------------------------------------------------------- orders
def _check_sduel(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    a, b = args
    mc = c22_mortal_combat.mortal_pair(rs, state, a, b)
    if "BEA" in (a, b):
        _check_beast_duel(rs, state, seat, a, b)
    elif mc is None:
        c07_2_leaders._check_duel(rs, state, seat, (a, b))
    else:  # 7.241: in Mortal Combat, any number of attacks
        c07_combat._combat_phase_check(rs, state, seat, "duel", "7.2")
        c02_units._own_on_map(rs, state, seat, a)
    if not variant(rs, state):
        return
    if rs.units[a].is_leader and not rs.units[a].magic and a in c22_mortal_combat.ph_declined(rs, state):
        raise IllegalOrder(f"{a} declined a challenge this turn", "22.3")


def _check_beast_duel(rs, state: State, seat: str, a: str, b: str) -> None:
    """17.11: the Beast fights in leader combat at Combat 9 (or 11); Magic Armor: only a bearer of
        Narsil or Aiglos may fight it."""
    c07_combat._combat_phase_check(rs, state, seat, "duel", "7.2")
    if not variant(rs, state):
        raise IllegalOrder("the Beast fights in leader combat under the variant (17.11)", "17.11")
    if c03_sequence.phasing(rs, state) != seat:
        raise IllegalOrder("only the phasing side starts leader combat", "7.2")
    ua = c02_units._own_on_map(rs, state, seat, a)
    if not (ua.is_leader or a == "BEA"):
        raise IllegalOrder(f"{a} is not a leader", "7.2")
    ub = rs.units.get(b)
    if ub is None or hooks.side_of(rs, state, b) == seat or not c02_units.on_map(rs, state, b) or not (ub.is_leader or b == "BEA"):
        raise IllegalOrder(f"{b} is not an enemy leader or the Beast on the map", "7.2")
    if a in state["ph"]["dueled"]:
        raise IllegalOrder(f"{a} has already fought a leader combat this phase", "7.24")
    if distance(state["units"][a]["hex"], state["units"][b]["hex"]) > 1:
        raise IllegalOrder(f"{b} must be in {a}'s hex or adjacent to it", "7.2")
    hero = b if a == "BEA" else a
    items = state["sau"]["items"]
    if c17_11_beast.beast(rs, state)["armor"] and hero not in (items.get("narsil"), items.get("aiglos")):
        raise IllegalOrder("the Beast has Magic Armor: only a leader bearing a magic weapon (Narsil, Aiglos) "
                           "may fight it", "17.1")


def _apply_sduel(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    a, b = args
    if not variant(rs, state):
        return c07_2_leaders._apply_duel(rs, state, seat, (a, b), dice)
    m = c22_mortal_combat.mortal_pair(rs, state, a, b)
    if m is not None:  # 22.2, 7.241: in the same hex, fought to the end now
        state["sau"]["mortal"].remove(m)
        return [c22_mortal_combat._mortal_combat(rs, state, a, b)]
    state["ph"]["segment"] = "duel"
    state["ph"]["dueled"].append(a)
    ta, tb = leader_total(rs, state, a), leader_total(rs, state, b)
    diff = ta - tb
    roll = dice.d6("leader combat")
    ra, rb = lcrt_cell(rs, state, diff, roll)
    res = _resolve_pair(rs, state, a, b, ra, rb, roll)
    clamp = " (read at the table's edge)" if not -4 <= diff <= 5 else ""
    return [Event(public=f"{c02_units.title_of(rs, seat)}: leader combat, {a} ({ta}) against {b} ({tb}), differential "
                         f"{diff:+d}{clamp}, die {roll}: {a} {ra}, {b} {rb}; {res} (7.25).", section="7.25")]


def _resolve_pair(rs, state: State, a: str, b: str, ra: str, rb: str, roll: int) -> str:
    """Apply both results (7.222), then 7.251: the leader who achieved a k, or a 1w/2w on 5-6,
        takes the other's items; when both did, the one who suffered less (ruling)."""
    wa, wb = cell_wounds(ra), cell_wounds(rb)
    take = rs.raw(state)["lcrt"].get("take_rolls", [5, 6])

    def achieved(w) -> bool:
        return w == "k" or (w in (1, 2) and roll in take)

    sev = {"k": 99}
    winner = None
    if achieved(wb) and not (achieved(wa) and sev.get(wa, wa) >= sev.get(wb, wb)):
        winner, loser = a, b
    elif achieved(wa) and not achieved(wb):
        winner, loser = b, a
    parts = []
    for who, w in ((a, wa), (b, wb)):
        if w:
            other = b if who == a else a
            parts.append(_wound(rs, state, who, w, killer=other if other == winner else None))
    if winner and c02_units.on_map(rs, state, winner) and c02_units.on_map(rs, state, loser):
        parts += c16_6_ring._take_items(rs, state, winner, loser)
    return "; ".join(p for p in parts if p) or "no effect"


def _wound(rs, state: State, uid: str, w, killer: str | None = None) -> str:
    """7.222: lost Endurance points; equal to the Endurance, the leader is dead."""
    if not c02_units.on_map(rs, state, uid):
        return ""
    if uid == "BEA":
        b = c17_11_beast.beast(rs, state)
        end = rs.raw(state)["beast"]["endurance"]
        b["wounds"] = end if w == "k" else min(end, b["wounds"] + int(w))
        if b["wounds"] >= end:
            c07_combat.eliminate(rs, state, uid)
            return f"the Beast is slain (+{rs.hooks.unit_dem_value(rs, state, uid)} demoralization)"
        return f"the Beast takes {w} wound(s) ({b['wounds']} of {end})"
    rec = state["units"][uid]
    end = endurance(rs, state, uid)
    if w == "k":
        rec["wounds"] = end
    else:
        rec["wounds"] = min(end, rec.get("wounds", 0) + int(w))
    if rec["wounds"] >= end:
        return _kill_leader(rs, state, uid, "killed" if w == "k" else f"{w} wound(s): Endurance {end} spent",
                                 killer)
    return f"{uid} takes {w} wound{'s' if w != 1 else ''} ({rec['wounds']} of Endurance {end}, 7.222)"


def _kill_leader(rs, state: State, uid: str, how: str, killer: str | None = None) -> str:
    """7.222 dead; 20.2: a dead leader adds his original Rally Points to his side's total."""
    rec = state["units"][uid]
    here = rec["hex"]
    taken = c16_6_ring._take_items(rs, state, killer, uid) if killer and c02_units.on_map(rs, state, killer) else []
    rec["status"], rec["hex"] = "eliminated", None
    pts = rs._lr(state, "combat", uid) + rs._lr(state, "morale", uid)
    rs.hooks.on_unit_lost(rs, state, uid, pts)
    text = f"{uid} is dead ({how}; +{pts} demoralization, 7.222, 20.2)"
    more = taken + c16_6_ring._drop_items(rs, state, uid, here)
    return "; ".join([text] + more)

# --- losses from combat results (7.23): the Standard Rules' caught leader becomes wounds
def _leader_loss(rs, state: State, ldr: str, points: int) -> str:
    """A leader caught in his unit's 1/2E takes 1 wound, in its E 2 wounds (ruling); Narsil's bearer
        caught breaks it (19.211 ruling)."""
    if not variant(rs, state):
        return StandardRules.hooks._leader_loss(rs, state, ldr, points)
    full = points >= c08_3_rally.leader_rating(rs, state, ldr, for_rally=False)
    text = [_wound(rs, state, ldr, 2 if full else 1)]
    if c02_units.on_map(rs, state, ldr) and state["sau"]["items"].get("narsil") == ldr:
        text.append(c19_21_narsil._break_narsil(rs, state, "its bearer caught in combat"))
    return "; ".join(t for t in text if t)


def _displace_leader(rs, state: State, ldr: str) -> list[str]:
    """8.11 (variant): no effect if a leader is alone in a hex: he stays."""
    if not variant(rs, state):
        return StandardRules.hooks._displace_leader(rs, state, ldr)
    return []


def _legal_sduels(rs, state: State, seat: str) -> Iterator[Action]:
    yield from c07_2_leaders._legal_duels(rs, state, seat)
    if c02_units.on_map(rs, state, "BEA") and c03_sequence.kind(rs, state) == "combat" and c03_sequence.phasing(rs, state) == seat:
        bh = state["units"]["BEA"]["hex"]
        for x in sorted(state["units"]):
            if rs.units[x].is_leader and c02_units.on_map(rs, state, x) and distance(bh, state["units"][x]["hex"]) <= 1:
                act = Action("duel", ("BEA", x) if seat == "sauron" else (x, "BEA"))
                if hooks.side_of(rs, state, act.args[0]) == seat and c03_sequence._ok(rs, state, seat, act):
                    yield act


# the orders of this file (engine/orders.py), each naming its functions above
SDUEL = Order("duel", "`duel <leader> <enemy leader>`, e.g. `duel ISI GOR`",
              parse=_parse_duel,
              check=_check_sduel,
              apply=_apply_sduel,
              legal=_legal_sduels,
              cases=("7.2", "7.221", "7.222", "7.25", "7.251"))
