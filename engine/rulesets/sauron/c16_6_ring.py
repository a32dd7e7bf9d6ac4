"""16.6 The One Ring (variant, seed 004: 16.6-16.643, 16.632, 16.69).

- 16.6: Sauron starts wearing it; whoever carries it is drawn on the map (below the leader if carried,
  atop if worn: the view's `ring` entry on the bearer, drawn on his counter by the renderer).
- 16.61/16.62: Sauron losing it (7.251, 22.0): +20 to his side's Demoralization, -4 Morale, -10 magic
  points; recovering it undoes each.
- 16.641: the Ringwraith or Gorgol who recovers it "returns it to Sauron as quickly as possible by moving
  both counters into the same hex": in each movement phase of his (until he gives it back) his move ends as
  near to Sauron as he can reach that phase, and `done` is refused while he has not moved and could come
  nearer (``ring_return_check``, ``ring_return_pending``; the same reach as 22.1's approach); entering
  Sauron's hex gives it back, worn. **Ruling:** a carrier bound by an accepted challenge (22.1) closes
  with his opponent first (the two duties could not both be met). With Sauron dead the highest-ranking
  Sauron leader wears it (+2 Morale).
- 16.642: a Westernesse leader wearing it tries to take it off in the Joint Rally Phase: a die at or under
  his Ring Rating (the order `ring <leader> off`).
- 16.643/16.69 (the seed's 16.643 is cut off mid-sentence; 16.69 says what follows): after three failed
  attempts the leader becomes evil: +2 Morale, and he and the combat units stacked with him come under the
  Sauron player's control (``state["turned"]``, read through the Standard Rules' hook ``side_of``: Sauron's
  seat moves them, fights with them, and the map draws them in his colour). If he enters Sauron's hex,
  Sauron takes the Ring back and wears it.
- 16.632 (expanded game): a Westernesse leader in an Orodruin hex, not wearing it, destroys it.
"""
from __future__ import annotations

from typing import Iterator

from engine.core import Action, Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import distance
from engine.orders import Order

from engine.spi.common import _phrase

from .common import ITEM_TITLES
from engine.spi import c04_movement
from engine.spi import hooks
from engine.rulesets.sauron import c07_22_leader_combat
from engine.rulesets.sauron import c19_21_narsil
from engine.rulesets.sauron import c22_mortal_combat
from engine.spi import c02_units
from engine.spi import c03_sequence


def ring_holder(rs, state: State) -> str | None:
    return state["sau"]["ring"]["holder"]


def _set_ring(rs, state: State, holder: str | None, worn: bool) -> list[str]:
    """Move the Ring; 16.61/16.62 when Sauron loses or recovers it."""
    ring = state["sau"]["ring"]
    before = ring["holder"]
    ring["holder"], ring["worn"] = holder, bool(worn and holder)
    out = []
    ch = rs.raw(state)["ring"]
    if before == "SAU" and holder != "SAU":
        state["sau"]["ring_dem"] += ch["dem"]
        rec = state["units"]["SAU"]
        lost = min(ch["magic"], rec.get("magic", 0))
        rec["magic"] = rec.get("magic", 0) - lost
        ring["magic_lost"] = lost
        out.append(f"Sauron has lost the Ring: +{ch['dem']} demoralization, Morale -{ch['morale']}, "
                   f"-{lost} magic points (16.61)")
    elif holder == "SAU" and before != "SAU":
        state["sau"]["ring_dem"] -= ch["dem"]
        rec = state["units"]["SAU"]
        rec["magic"] = rec.get("magic", 0) + ring.pop("magic_lost", ch["magic"])
        out.append(f"Sauron has recovered the Ring: -{ch['dem']} demoralization, Morale +{ch['morale']}, "
                   f"magic points restored (16.62)")
    return out


def _take_items(rs, state: State, winner: str, loser: str) -> list[str]:
    """7.251: the winner takes the loser's items; a captured Ring is put on."""
    out = []
    items = state["sau"]["items"]
    for item, who in sorted(items.items()):
        if who == loser:
            items[item] = winner
            out.append(f"{winner} takes {ITEM_TITLES[item]} from {loser} (7.251)")
    if ring_holder(rs, state) == loser:
        out.append(f"{winner} takes the One Ring from {loser} and puts it on (7.251)")
        out += _set_ring(rs, state, winner, True)
        out += _ring_home(rs, state)
    return out


def _drop_items(rs, state: State, uid: str, here: str | None) -> list[str]:
    """A leader dead other than by a rival's hand (or before the rival could take them): each item
        passes to the nearest leader on the map, his own side first (ruling); 16.641 if Sauron is dead."""
    out = []
    items = state["sau"]["items"]
    side = hooks.side_of(rs, state, uid)
    for item in sorted(items):
        if items[item] != uid:
            continue
        if item == "narsil":
            out.append(c19_21_narsil._break_narsil(rs, state, f"{uid} fell", here))
            continue
        if item == "shards":
            items["shards"] = None
            state["sau"]["dem_extra"]["westernesse"] += rs.raw(state)["narsil"]["disintegrate_dem"]
            out.append(f"the shards of Narsil disintegrate with {uid}: +"
                       f"{rs.raw(state)['narsil']['disintegrate_dem']} Westernesse demoralization (20.21)")
            continue
        nxt = _nearest_leader(rs, state, here, side)
        items[item] = nxt
        out.append(f"{ITEM_TITLES[item]} passes to {nxt}" if nxt else f"{ITEM_TITLES[item]} is lost")
    if ring_holder(rs, state) == uid:
        if uid == "SAU":
            nxt = _highest_sauron_leader(rs, state)
            out.append(f"Sauron is dissipated; {nxt} wears the Ring (+2 Morale, 16.641)" if nxt
                       else "the Ring lies on the field")
            out += _set_ring(rs, state, nxt, True)
        else:
            nxt = _nearest_leader(rs, state, here, side)
            out.append(f"the One Ring passes to {nxt}, carried, not worn (ruling)" if nxt else "the Ring is lost")
            out += _set_ring(rs, state, nxt, False)
            out += _ring_home(rs, state)
    return out


def _nearest_leader(rs, state: State, here: str | None, side: str) -> str | None:
    best = None
    for x in sorted(state["units"]):
        u = rs.units[x]
        if not u.is_leader or not c02_units.on_map(rs, state, x):
            continue
        d = distance(here, state["units"][x]["hex"]) if here else 0
        key = (hooks.side_of(rs, state, x) != side, d, x)
        if best is None or key < best:
            best = key
    return best[2] if best else None


def _highest_sauron_leader(rs, state: State) -> str | None:
    rank = rs.raw(state)["leaders"]["rank"]
    alive = [x for x in rank if c02_units.on_map(rs, state, x) or state["units"][x]["status"] == "reinforcement"]
    alive = [x for x in alive if x != "SAU" or c02_units.on_map(rs, state, "SAU")]
    return max(alive, key=lambda x: rank[x]) if alive else None


def _ring_home(rs, state: State) -> list[str]:
    """16.641/16.69: the Ring in Sauron's hex goes back to him, worn."""
    h = ring_holder(rs, state)
    if not h or h == "SAU" or not c02_units.on_map(rs, state, "SAU") or not c02_units.on_map(rs, state, h):
        return []
    if state["units"][h]["hex"] != state["units"]["SAU"]["hex"]:
        return []
    if hooks.side_of(rs, state, h) == "sauron" or h in state["sau"]["evil"]:
        out = [f"{h} returns the One Ring to Sauron, who puts it on (16.641, 16.69)"]
        return out + _set_ring(rs, state, "SAU", True)
    return []


def after_move(rs, state: State, seat: str, uids: list[str], trail: list[str]) -> list[Event]:
    events: list[Event] = []
    text = _ring_home(rs, state)
    if text:
        events.append(Event(public="; ".join(text) + ".", section="16.641"))
    return events


# ------------------------------------------------------------ 16.641 the way home
def ring_return_duty(rs, state: State, seat: str) -> tuple[str, str] | None:
    """(carrier, "SAU") when a Sauron leader holding the Ring must bring it to Sauron in this phase
        (16.641): Sauron's side's phase in which the carrier moves, the carrier not yet moved, the two
        on the map and apart; not an evil leader (16.69: he gives it back only if he enters Sauron's
        hex), nor one closing with a challenger (22.1, ruling)."""
    h = ring_holder(rs, state)
    k = c03_sequence.kind(rs, state)
    if (not h or h == "SAU" or seat != "sauron" or state["turn"] == 0 or k not in ("move", "magic")
            or c03_sequence.phasing(rs, state) != seat or hooks.side_of(rs, state, h) != "sauron" or h in state["sau"]["evil"]
            or not c02_units.on_map(rs, state, h) or not c02_units.on_map(rs, state, "SAU")
            or state["units"][h]["hex"] == state["units"]["SAU"]["hex"]
            or h in state["ph"]["moved"] or c04_movement._mover_kind(rs, state, seat, h) != k):
        return None
    if any(me == h for me, _ in c22_mortal_combat.approach_duties(rs, state, seat)):
        return None
    return (h, "SAU")


def ring_return_check(rs, state: State, seat: str, uids: list[str], dest: str) -> None:
    """16.641: the carrier's move ends as near to Sauron as he can reach this phase."""
    duty = ring_return_duty(rs, state, seat)
    if duty is None or duty[0] not in uids:
        return
    h, sau = duty
    now, best = c22_mortal_combat.approach_reach(rs, state, seat, h, sau)
    if distance(dest, state["units"][sau]["hex"]) > best:
        where = "into Sauron's hex" if best == 0 else f"to {best} hex{'es' if best > 1 else ''} from Sauron"
        raise IllegalOrder(f"{h} carries the One Ring: he takes it back to Sauron as quickly as possible, "
                           f"{where} (move him alone if his companions are slower)", "16.641")


def ring_return_move_end(rs, state: State, seat: str, uids: list[str], dest: str, occ) -> None:
    """16.641, a step of Sauron's ``MOVE_END`` (``ring_return_check``)."""
    ring_return_check(rs, state, seat, uids, dest)


def ring_return_pending(rs, state: State, seat: str) -> str | None:
    duty = ring_return_duty(rs, state, seat)
    if duty is None:
        return None
    h, sau = duty
    now, best = c22_mortal_combat.approach_reach(rs, state, seat, h, sau)
    if best < now:
        return f"{h} carries the One Ring and must move toward Sauron ({now} hexes away; he can reach {best})"
    return None


def ring_return_default(rs, state: State, seat: str) -> Action | None:
    """At a deadline: the carrier's first move toward Sauron (16.641)."""
    if ring_return_pending(rs, state, seat) is None:
        return None
    h, _ = ring_return_duty(rs, state, seat)
    for a in c04_movement._legal_moves(rs, state, seat, c03_sequence.kind(rs, state), only=h):
        if c03_sequence._ok(rs, state, seat, a):
            return a
    return None


# ------------------------------------------------------------ 16.642
def _parse_ring(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if len(words) != 2 or words[1].lower() != "off":
        raise InvalidOrder(f"usage: {RING_ORDER.usage}")
    return (c02_units.resolve_unit(rs, words[0]), "off")


def _check_ring(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    leader, off = args
    c03_sequence._need_kind(rs, state, ("rally",), "taking off the Ring", "16.642")
    u = c02_units._own_on_map(rs, state, seat, leader)
    if seat != "westernesse" or not u.is_leader:
        raise IllegalOrder("only a Westernesse leader wearing the Ring tries to take it off", "16.642")
    r = state["sau"]["ring"]
    if r["holder"] != leader or not r["worn"]:
        raise IllegalOrder(f"{leader} is not wearing the Ring", "16.642")
    if leader in state["sau"]["evil"]:
        raise IllegalOrder(f"{leader} has turned to Sauron", "16.69")
    if leader in state["ph"].get("ring_tried", []):
        raise IllegalOrder(f"{leader} has already tried this Joint Rally Phase", "16.642")


def _apply_ring(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    leader, off = args
    state["ph"].setdefault("ring_tried", []).append(leader)
    rating = c07_22_leader_combat.ring_rating(rs, state, leader)
    roll = dice.d6("take off the Ring")
    tries = state["sau"]["ring_tries"]
    if roll <= rating:
        state["sau"]["ring"]["worn"] = False
        tries.pop(leader, None)
        return [Event(public=f"Westernesse: {leader} (Ring Rating {rating}) rolls {roll} and takes off the One "
                             "Ring; he carries it (16.642).", section="16.642")]
    tries[leader] = tries.get(leader, 0) + 1
    n = rs.raw(state)["ring"]["attempts"]
    if tries[leader] < n:
        return [Event(public=f"Westernesse: {leader} (Ring Rating {rating}) rolls {roll}: the Ring stays on "
                             f"({tries[leader]} of {n} attempts failed, 16.642).", section="16.642")]
    state["sau"]["evil"].append(leader)
    stack = _turn_evil(rs, state, leader)
    with_him = f"; {_phrase(stack)} stacked with him pass{'es' if len(stack) == 1 else ''} too" if stack else ""
    return [Event(public=f"Westernesse: {leader} (Ring Rating {rating}) rolls {roll}: a third failure. {leader} "
                         f"becomes evil, Morale +{rs.raw(state)['ring']['evil_morale']}, a servant of Sauron "
                         f"under the Sauron player's control{with_him} (16.643, 16.69).", section="16.69")]


def _turn_evil(rs, state: State, leader: str) -> list[str]:
    """16.69: the leader and every combat unit stacked with him come under the Sauron player's
        control (``state["turned"]``, read by the Standard Rules' ``side_of``). Returns the units."""
    turned = state.setdefault("turned", {})
    turned[leader] = "sauron"
    here = state["units"][leader]["hex"]
    stack = sorted(x for x in state["units"] if x != leader and c02_units.on_map(rs, state, x)
                   and state["units"][x]["hex"] == here and rs.units[x].is_combat)
    for x in stack:
        turned[x] = "sauron"
    return stack


def _legal_ring(rs, state: State, seat: str) -> Iterator[Action]:
    h = ring_holder(rs, state)
    if h and c03_sequence.kind(rs, state) == "rally" and hooks.side_of(rs, state, h) == seat:
        a = Action("ring", (h, "off"))
        if c03_sequence._ok(rs, state, seat, a):
            yield a


# the orders of this file (engine/orders.py), each naming its functions above
RING_ORDER = Order("ring", "`ring <leader> off`, e.g. `ring ISI off`",
              parse=_parse_ring,
              check=_check_ring,
              apply=_apply_ring,
              legal=_legal_ring,
              cases=("16.642", "16.643", "16.69"))
