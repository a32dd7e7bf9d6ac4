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
def variant(self, state: State) -> bool:
    return state["options"].get("variant", True)


def _lr(self, state: State, table: str, uid: str) -> int:
    return int(self.raw(state)["leaders"][table].get(uid, 0))


def combat_rating(self, state: State, uid: str) -> int:
    return self._lr(state, "combat", uid)


def morale_rating(self, state: State, uid: str) -> int:
    """Morale for all purposes: 16.61 (Sauron without the Ring: -4), 16.641 (a Sauron leader
        wearing it once Sauron is dead: +2), 16.69 (a leader turned evil: +2)."""
    m = self._lr(state, "morale", uid)
    ring = self.raw(state)["ring"]
    holder = self.ring_holder(state)
    if uid == "SAU" and holder != "SAU":
        m -= ring["morale"]
    if uid in state["sau"]["evil"]:
        m += ring["evil_morale"]
    elif (holder == uid and uid != "SAU" and hooks.side_of(self, state, uid) == "sauron" and state["sau"]["ring"]["worn"]
          and not self.on_map(state, "SAU") and state["units"]["SAU"]["status"] == "eliminated"):
        m += ring["wearer_morale"]
    return m


def endurance(self, state: State, uid: str) -> int:
    return self._lr(state, "endurance", uid)


def ring_rating(self, state: State, uid: str) -> int:
    return self._lr(state, "ring", uid)


def wounds(self, state: State, uid: str) -> int:
    return state["units"][uid].get("wounds", 0)


def leader_total(self, state: State, uid: str) -> int:
    """7.221: Combat + Morale less wounds (+1 Combat for the shards of Narsil, 19.212; the Beast's
        Combat Rating, 17.11; Wrath of the Ringwraith +3, 8.5 ruling)."""
    if uid == "BEA":
        return self.beast_total(state)
    c = self.combat_rating(state, uid)
    if uid == "RW" and self.has_effect(state, "wrath-of-the-ringwraith"):
        c += 3
    if uid in NUMENOREANS and state["sau"]["items"].get("shards") == uid:
        c += self.raw(state)["leader_bonus"]["shards_combat"]
    return c + self.morale_rating(state, uid) - self.wounds(state, uid)


def printed_rally(self, state: State, uid: str) -> int:
    """8.331: Combat + Morale, less the wounds beyond the Combat rating; +3 with an intact magic
        weapon, Sauron +3 at night (the overview's 12, 10 and 13; reconstructed)."""
    c, m, w = self.combat_rating(state, uid), self.morale_rating(state, uid), self.wounds(state, uid)
    r = c + m - max(0, w - c)
    bonus = self.raw(state)["leader_bonus"]
    items = state["sau"]["items"]
    if items.get("narsil") == uid or items.get("aiglos") == uid:
        r += bonus["weapon_rally"]
    if self.is_night(state) or self.has_effect(state, "total-eclipse"):
        r += bonus["night_rally"].get(uid, 0)
    return r


@staticmethod
def rally_from(combat: int, morale: int, wounds: int) -> int:
    """8.331 alone (the 8.3311 example: Baldrim 3 + 3 with 5 wounds -> 4)."""
    return combat + morale - max(0, wounds - combat)


# ------------------------------------------------------------------ 7.25
def lcrt_cell(self, state: State, diff: int, roll: int) -> tuple[str, str]:
    t = self.raw(state)["lcrt"]
    cols = sorted(int(k) for k in t if re.fullmatch(r"[+-]?\d+", k))
    col = min(max(diff, cols[0]), cols[-1])
    a, d = t[str(col)][roll - 1].split("/")
    return a, d


def duel_distribution(self, state: State, a: str, b: str) -> dict[tuple[str, str], Fraction]:
    """7.25 exactly: each (result for ``a``, result for ``b``) of one leader combat and its chance
        (one die: each of the column's six cells is 1/6; equal cells add up)."""
    diff = self.leader_total(state, a) - self.leader_total(state, b)
    out: dict[tuple[str, str], Fraction] = {}
    for roll in range(1, 7):
        cell = self.lcrt_cell(state, diff, roll)
        out[cell] = out.get(cell, Fraction(0)) + Fraction(1, 6)
    return out


def duel_odds(self, state: State, a: str, b: str) -> str:
    """/odds for leader combat: the exact chance of each result (one die, six cells)."""
    ta, tb = self.leader_total(state, a), self.leader_total(state, b)
    diff = ta - tb
    clamp = " (read at the table's edge)" if not -4 <= diff <= 5 else ""
    rows = [f"**Leader combat: {a} ({ta}) against {b} ({tb})**, differential {diff:+d}{clamp} (7.221, 7.25):"]
    for roll in range(1, 7):
        x, y = self.lcrt_cell(state, diff, roll)
        rows.append(f"  die {roll} (1/6): {a} {x}, {b} {y}")
    rows.append("  in all: " + "; ".join(f"{a} {x}, {b} {y}: {pct(p)} ({p.numerator}/{p.denominator})"
                                        for (x, y), p in sorted(self.duel_distribution(state, a, b).items(),
                                                                key=lambda kv: -kv[1])))
    return "\n".join(rows)


# ---------------------------------------------------------------- orders
def _check_sduel(self, state: State, seat: str, args: tuple[str, ...]) -> None:
    a, b = args
    mc = self.mortal_pair(state, a, b)
    if "BEA" in (a, b):
        self._check_beast_duel(state, seat, a, b)
    elif mc is None:
        c07_2_leaders._check_duel(self, state, seat, (a, b))
    else:  # 7.241: in Mortal Combat, any number of attacks
        c07_combat._combat_phase_check(self, state, seat, "duel", "7.2")
        self._own_on_map(state, seat, a)
    if not self.variant(state):
        return
    if self.units[a].is_leader and not self.units[a].magic and a in self.ph_declined(state):
        raise IllegalOrder(f"{a} declined a challenge this turn", "22.3")


def _check_beast_duel(self, state: State, seat: str, a: str, b: str) -> None:
    """17.11: the Beast fights in leader combat at Combat 9 (or 11); Magic Armor: only a bearer of
        Narsil or Aiglos may fight it."""
    c07_combat._combat_phase_check(self, state, seat, "duel", "7.2")
    if not self.variant(state):
        raise IllegalOrder("the Beast fights in leader combat under the variant (17.11)", "17.11")
    if self.phasing(state) != seat:
        raise IllegalOrder("only the phasing side starts leader combat", "7.2")
    ua = self._own_on_map(state, seat, a)
    if not (ua.is_leader or a == "BEA"):
        raise IllegalOrder(f"{a} is not a leader", "7.2")
    ub = self.units.get(b)
    if ub is None or hooks.side_of(self, state, b) == seat or not self.on_map(state, b) or not (ub.is_leader or b == "BEA"):
        raise IllegalOrder(f"{b} is not an enemy leader or the Beast on the map", "7.2")
    if a in state["ph"]["dueled"]:
        raise IllegalOrder(f"{a} has already fought a leader combat this phase", "7.24")
    if distance(state["units"][a]["hex"], state["units"][b]["hex"]) > 1:
        raise IllegalOrder(f"{b} must be in {a}'s hex or adjacent to it", "7.2")
    hero = b if a == "BEA" else a
    items = state["sau"]["items"]
    if self.beast(state)["armor"] and hero not in (items.get("narsil"), items.get("aiglos")):
        raise IllegalOrder("the Beast has Magic Armor: only a leader bearing a magic weapon (Narsil, Aiglos) "
                           "may fight it", "17.1")


def _apply_sduel(self, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    a, b = args
    if not self.variant(state):
        return c07_2_leaders._apply_duel(self, state, seat, (a, b), dice)
    m = self.mortal_pair(state, a, b)
    if m is not None:  # 22.2, 7.241: in the same hex, fought to the end now
        state["sau"]["mortal"].remove(m)
        return [self._mortal_combat(state, a, b)]
    state["ph"]["segment"] = "duel"
    state["ph"]["dueled"].append(a)
    ta, tb = self.leader_total(state, a), self.leader_total(state, b)
    diff = ta - tb
    roll = dice.d6("leader combat")
    ra, rb = self.lcrt_cell(state, diff, roll)
    res = self._resolve_pair(state, a, b, ra, rb, roll)
    clamp = " (read at the table's edge)" if not -4 <= diff <= 5 else ""
    return [Event(public=f"{self.title_of(seat)}: leader combat, {a} ({ta}) against {b} ({tb}), differential "
                         f"{diff:+d}{clamp}, die {roll}: {a} {ra}, {b} {rb}; {res} (7.25).", section="7.25")]


def _resolve_pair(self, state: State, a: str, b: str, ra: str, rb: str, roll: int) -> str:
    """Apply both results (7.222), then 7.251: the leader who achieved a k, or a 1w/2w on 5-6,
        takes the other's items; when both did, the one who suffered less (ruling)."""
    wa, wb = cell_wounds(ra), cell_wounds(rb)
    take = self.raw(state)["lcrt"].get("take_rolls", [5, 6])

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
            parts.append(self._wound(state, who, w, killer=other if other == winner else None))
    if winner and self.on_map(state, winner) and self.on_map(state, loser):
        parts += self._take_items(state, winner, loser)
    return "; ".join(p for p in parts if p) or "no effect"


def _wound(self, state: State, uid: str, w, killer: str | None = None) -> str:
    """7.222: lost Endurance points; equal to the Endurance, the leader is dead."""
    if not self.on_map(state, uid):
        return ""
    if uid == "BEA":
        b = self.beast(state)
        end = self.raw(state)["beast"]["endurance"]
        b["wounds"] = end if w == "k" else min(end, b["wounds"] + int(w))
        if b["wounds"] >= end:
            c07_combat.eliminate(self, state, uid)
            return f"the Beast is slain (+{self.unit_dem_value(state, uid)} demoralization)"
        return f"the Beast takes {w} wound(s) ({b['wounds']} of {end})"
    rec = state["units"][uid]
    end = self.endurance(state, uid)
    if w == "k":
        rec["wounds"] = end
    else:
        rec["wounds"] = min(end, rec.get("wounds", 0) + int(w))
    if rec["wounds"] >= end:
        return self._kill_leader(state, uid, "killed" if w == "k" else f"{w} wound(s): Endurance {end} spent",
                                 killer)
    return f"{uid} takes {w} wound{'s' if w != 1 else ''} ({rec['wounds']} of Endurance {end}, 7.222)"


def _kill_leader(self, state: State, uid: str, how: str, killer: str | None = None) -> str:
    """7.222 dead; 20.2: a dead leader adds his original Rally Points to his side's total."""
    rec = state["units"][uid]
    here = rec["hex"]
    taken = self._take_items(state, killer, uid) if killer and self.on_map(state, killer) else []
    rec["status"], rec["hex"] = "eliminated", None
    pts = self._lr(state, "combat", uid) + self._lr(state, "morale", uid)
    self.on_unit_lost(state, uid, pts)
    text = f"{uid} is dead ({how}; +{pts} demoralization, 7.222, 20.2)"
    more = taken + self._drop_items(state, uid, here)
    return "; ".join([text] + more)

# --- losses from combat results (7.23): the Standard Rules' caught leader becomes wounds
def _leader_loss(self, state: State, ldr: str, points: int) -> str:
    """A leader caught in his unit's 1/2E takes 1 wound, in its E 2 wounds (ruling); Narsil's bearer
        caught breaks it (19.211 ruling)."""
    if not self.variant(state):
        return StandardRules._leader_loss(self, state, ldr, points)
    full = points >= c08_3_rally.leader_rating(self, state, ldr, for_rally=False)
    text = [self._wound(state, ldr, 2 if full else 1)]
    if self.on_map(state, ldr) and state["sau"]["items"].get("narsil") == ldr:
        text.append(self._break_narsil(state, "its bearer caught in combat"))
    return "; ".join(t for t in text if t)


def _displace_leader(self, state: State, ldr: str) -> list[str]:
    """8.11 (variant): no effect if a leader is alone in a hex: he stays."""
    if not self.variant(state):
        return StandardRules._displace_leader(self, state, ldr)
    return []


def _legal_sduels(self, state: State, seat: str) -> Iterator[Action]:
    yield from c07_2_leaders._legal_duels(self, state, seat)
    if self.on_map(state, "BEA") and self.kind(state) == "combat" and self.phasing(state) == seat:
        bh = state["units"]["BEA"]["hex"]
        for x in sorted(state["units"]):
            if self.units[x].is_leader and self.on_map(state, x) and distance(bh, state["units"][x]["hex"]) <= 1:
                act = Action("duel", ("BEA", x) if seat == "sauron" else (x, "BEA"))
                if hooks.side_of(self, state, act.args[0]) == seat and self._ok(state, seat, act):
                    yield act


# the orders of this file (engine/orders.py), each naming its functions above
SDUEL = Order("duel", "`duel <leader> <enemy leader>`, e.g. `duel ISI GOR`",
              parse=_parse_duel,
              check=_check_sduel,
              apply=_apply_sduel,
              legal=_legal_sduels,
              cases=("7.2", "7.221", "7.222", "7.25", "7.251"))
