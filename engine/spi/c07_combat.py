"""7.0 Combat: the combat phase's segments (missile fire, then leader combat, then melee: 7.0,
7.31), each attack resolved on the Casualty Probability Table and the Casualty Results Table (7.4),
its result applied (losses, disruption, retreat), units eliminated, leaders caught in their unit's
loss (7.23), and the exact odds of an attack (`/odds`).
"""
from __future__ import annotations

import math
from fractions import Fraction

from engine.core import Event, IllegalOrder, InvalidOrder, State
from engine.dice import Dice
from engine.hexgrid import Hex, distance
from engine.spi.charts import letter_past, morale_note, result_text, severity
from engine.spi.common import _phrase, pct
from engine.spi import c07_1_fire
from engine.spi import c07_5_retreat
from engine.spi import c08_3_rally
from engine.spi import c08_4_formations
from engine.spi import hooks
from engine.spi import c02_units
from engine.spi import c03_sequence
from engine.spi import c05_stacking


# --- combat: missile fire (7.1)
def _combat_phase_check(rs, state: State, seat: str, segment: str, section: str) -> None:
    c03_sequence._need_kind(rs, state, ("combat",), {"fire": "missile fire", "duel": "leader combat",
                                         "melee": "melee"}[segment], section)
    order = ["fire", "duel", "melee"]
    if order.index(state["ph"]["segment"]) > order.index(segment):
        raise IllegalOrder(f"{segment} comes before {state['ph']['segment']}: missile fire first, then leader "
                           "combat, then melee", "7.0")

# --- combat resolution
def attack_profile(rs, state: State, attacker: str, target: str, kind: str) -> dict:
    """Everything that goes into one attack: the letter, the defender's
        Armor Protection and Morale after every modifier, and the notes that
        explain them (for the log and for /odds)."""
    ch = rs.charts_for(state)
    ra, rd = rs.hooks.ratings(rs, state, attacker), rs.hooks.ratings(rs, state, target)
    ua, ud = rs.units[attacker], rs.units[target]
    notes: list[str] = []
    letter = (ra.missile if kind == "fire" else ra.melee) or "e"
    grades = 0  # the attack's grades better (+) or worse (-), all told: its letter is worked out once, below
    prof = {"letter": letter, "armor": rd.armor, "morale": rd.morale, "crt_mod": 0, "bypass_cpt": False,
            "notes": notes, "cpt_mod": 0}
    fanatic = False
    if c03_sequence.is_night(rs, state) and ua.tags & set(ch["night"].get("fanatic_tags", [])):
        fanatic = True
        notes.append(f"{attacker} is fanatical at night (10.0)")
    if rs.hooks.is_fanatic(rs, state, attacker):
        fanatic = True
    if fanatic and ch["fanatic"]["mode"] == "modifiers":
        if kind == "melee":
            grades += 1
            notes.append("fanatic: +1 attack (7.37)")
            morale_note(prof, -1, "fanatic: defender Morale -1 (7.37)")
        fanatic = False
    hd = Hex.parse(state["units"][target]["hex"])
    info = rs.hexmap.hexes.get(hd)
    if kind == "melee" and info is not None:
        t = ch["tec"].get(info.terrain, {})
        if t.get("armor"):
            prof["armor"] += t["armor"]
            notes.append(f"defender in {info.terrain}: Armor Protection +{t['armor']} (4.3)")
    fa = c08_4_formations.formation_of(rs, state, attacker)
    if fa and kind == "melee":
        spec = ch["formations"][state["formations"][fa]["kind"]]
        if spec.get("attack"):
            grades += spec["attack"]
            notes.append(f"{attacker} in a {state['formations'][fa]['kind']}: attack +{spec['attack']} (8.4)")
    fd = c08_4_formations.formation_of(rs, state, target)
    if fd:
        spec = ch["formations"][state["formations"][fd]["kind"]]
        if spec.get("armor"):
            prof["armor"] += spec["armor"]
            notes.append(f"defender in a {state['formations'][fd]['kind']}: Armor Protection +{spec['armor']} (8.4)")
        if spec.get("morale"):
            morale_note(prof, spec["morale"],
                        f"defender in a {state['formations'][fd]['kind']}: Morale +{spec['morale']} (8.4)")
    if state["units"][target].get("disrupted"):
        pen = ch["disrupted"].get("morale_penalty", 0)
        if pen:
            morale_note(prof, -pen, f"defender Disrupted: Morale -{pen} (7.57)")
    if rs.hooks.demoralized(rs, state, c02_units.army_now(rs, state, target)):
        pen = ch["demoralization"].get("morale_penalty", 0)
        if pen:
            morale_note(prof, -pen, f"defender's army demoralized: Morale -{pen} (9.1)")
    for e in state["effects"]:
        if e.get("side") == hooks.side_of(rs, state, attacker) and e.get("attack") and (not e.get("tags") or ua.tags & set(e["tags"])):
            grades += e["attack"]
            notes.append(f"{e['title']}: attack {e['attack']:+d} ({e['section']})")
        if e.get("side") == hooks.side_of(rs, state, target) and e.get("morale") and (not e.get("tags") or ud.tags & set(e["tags"])):
            morale_note(prof, e["morale"], f"{e['title']}: defender Morale {e['morale']:+d} ({e['section']})")
    prof["letter"], past = letter_past(letter, grades)
    if past > 0:  # a grade below E (17.11 Fear on an e bowman, 17.21 Break Darkness on an E orc): the ruling
        prof["cpt_mod"] = past
        notes.append(f"attack below {prof['letter']}, the worst grade: +{past} on the Casualty Probability "
                     "roll (a ruling: docs/reconstructed.md)")
    elif past < 0:
        notes.append(f"attack already {prof['letter']}, the best grade: {-past:+d} has no effect")
    prof["bypass_cpt"] = fanatic
    hooks.modify_attack(rs, state, attacker, target, kind, prof)
    return prof


def outcome_distribution(rs, state: State, attacker: str, target: str, kind: str) -> tuple[dict, dict]:
    """Exact distribution of CRT results (tuples) for one attack."""
    ch = rs.charts_for(state)
    prof = attack_profile(rs, state, attacker, target, kind)
    if prof["bypass_cpt"]:
        p_hit = Fraction(1)
    else:
        hits, cm = ch.cpt_hits(prof["letter"], prof["armor"]), prof["cpt_mod"]
        p_hit = Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b + cm in hits), 36)
    dist: dict[tuple, Fraction] = {}
    if p_hit < 1:
        dist[()] = 1 - p_hit
    for roll in range(1, 7):
        res = ch.crt_result(prof["morale"], roll + prof["crt_mod"])
        res = rs.hooks.adjust_result(rs, state, target, res, prof)
        dist[res] = dist.get(res, Fraction(0)) + p_hit / 6
    return dist, prof


def _resolve_attack(rs, state: State, dice: Dice, attacker: str, target: str, kind: str) -> tuple[list[str], tuple, dict]:
    ch = rs.charts_for(state)
    prof = attack_profile(rs, state, attacker, target, kind)
    lines = []
    sec = "7.1" if kind == "fire" else "7.3"
    if prof["bypass_cpt"]:
        hit = True
        lines.append("fanatical: no Casualty Probability roll (9.33)")
    else:
        a, b = dice.d6("CPT"), dice.d6("CPT")
        hits, cm = ch.cpt_hits(prof["letter"], prof["armor"]), prof["cpt_mod"]
        hit = a + b + cm in hits
        total = f"{a}+{b}{cm:+d}={a + b + cm}" if cm else f"{a}+{b}={a + b}"
        lines.append(f"CPT {prof['letter']} vs Armor {prof['armor']}: {total}, "
                     f"{'casualty' if hit else 'no casualty'} (7.33)")
    res: tuple = ()
    if hit:
        roll = dice.d6("CRT")
        mod = prof["crt_mod"]
        res = ch.crt_result(prof["morale"], roll + mod)
        res = rs.hooks.adjust_result(rs, state, target, res, prof)
        m = f"{roll}{mod:+d}={roll + mod}" if mod else str(roll)
        lines.append(f"CRT Morale {prof['morale']}: {m}, {result_text(res)} (7.42)")
    return lines, res, {"section": sec, **prof}


def _attacks(rs, state: State, seat: str, dice: Dice, uids: list[str], hx: str, kind: str) -> list[Event]:
    events: list[Event] = []
    done_key = "fired" if kind == "fire" else "meleed"
    attackers_used = []
    for uid in uids:
        targets = c07_1_fire._target_units(rs, state, seat, hx)
        if not targets or state["pending"]:
            events.append(Event(public=f"{uid} does not {kind}: the target is gone."))
            break
        target = _pick_target(rs, state, targets)
        state["ph"][done_key].append(uid)
        attackers_used.append(uid)
        lines, res, prof = _resolve_attack(rs, state, dice, uid, target, kind)
        verb = "fires at" if kind == "fire" else "attacks"
        head = f"{c02_units.title_of(rs, seat)}: {rs.units[uid].label()} {verb} {rs.units[target].label()} in {hx}"
        if prof["notes"]:
            head += f" [{'; '.join(prof['notes'])}]"
        apply_lines = rs.hooks.apply_result(rs, state, dice, target, res, attacker_hex=state["units"][uid]["hex"],
                                        kind=kind)
        events.append(Event(public=head + ": " + "; ".join(lines + apply_lines) + ".", section=prof["section"]))
    if kind == "melee" and attackers_used and not c07_1_fire._target_units(rs, state, seat, hx) and not state["pending"]:
        rs.hooks._offer_advance(rs, state, seat, attackers_used, hx)
        if state["ph"]["advance"]:
            events.append(Event(public=f"{hx} is empty: {_phrase(state['ph']['advance']['units'])} may advance "
                                       f"into it (`advance <unit> {hx}`, 7.5)."))
    elif kind == "melee" and state["pending"]:
        state["ph"]["advance_after"] = {"seat": seat, "units": attackers_used, "hex": hx}
    if state["pending"] and events:
        events[-1].new_phase = True  # the owner of the retreating unit must act now: post and ping
    return events


def _pick_target(rs, state: State, targets: list[str]) -> str:
    """The unit an attack on a hex is resolved against: a formation's front
        unit (the one that takes the loss, 8.4 ruling), else the first."""
    f = c08_4_formations.formation_of(rs, state, targets[0])
    return state["formations"][f]["units"][0] if f else targets[0]


def apply_result(rs, state: State, dice: Dice, target: str, res: tuple, attacker_hex: str | None,
                 kind: str) -> list[str]:
    """Apply a CRT result to ``target`` (and its formation). Returns log lines."""
    if not res:
        return []
    f = c08_4_formations.formation_of(rs, state, target)
    victims = list(state["formations"][f]["units"]) if f else [target]
    lines: list[str] = []
    hx = state["units"][target]["hex"]
    leaders = [x for x in c05_stacking.occupancy(rs, state).get(hx, ()) if rs.units[x].is_leader]
    loss = "E" if "E" in res else ("1/2E" if "1/2E" in res else None)
    # 8.4 (ruling): a loss falls on the formation's front unit (the first
    # named); if it is eliminated the formation ends. A retreat moves the
    # formation as one, still formed.
    for v in victims[:1]:
        if loss == "E" or (loss == "1/2E" and state["units"][v].get("reduced")):
            eliminate(rs, state, v)
            lines.append(f"{v} eliminated")
        elif loss == "1/2E":
            state["units"][v]["reduced"] = True
            val = rs.hooks.unit_dem_value(rs, state, v)
            pay = math.ceil(val / 2)
            state["units"][v]["dem_paid"] = pay
            rs.hooks.on_unit_lost(rs, state, v, pay)
            lines.append(f"{v} half eliminated (reduced side)")
    if f and f not in state["formations"]:
        lines.append("the formation is broken")
    if loss:
        lines.extend(_leaders_caught(rs, state, dice, leaders, loss))
    survivors = [v for v in victims if c02_units.on_map(rs, state, v)]
    retreat = 2 if "r2" in res else (1 if "r1" in res else 0)
    if retreat and survivors:
        lines.extend(rs.hooks._start_retreat(rs, state, dice, survivors, retreat, attacker_hex, leaders))
    elif "D" in res:
        for v in survivors:
            state["units"][v]["disrupted"] = True
        if survivors:
            lines.append(f"{_phrase(survivors)} Disrupted")
    # leaders left alone after their unit fell (8.1)
    for ldr in leaders:
        if c02_units.on_map(rs, state, ldr) and state["units"][ldr]["hex"] == hx and not c05_stacking.combat_units_in(rs, state, hx):
            lines.extend(rs.hooks._displace_leader(rs, state, ldr))
    return lines


def eliminate(rs, state: State, uid: str) -> None:
    r = state["units"][uid]
    if rs.units[uid].ratings:
        val = rs.hooks.unit_dem_value(rs, state, uid)
        rs.hooks.on_unit_lost(rs, state, uid, max(val - r.get("dem_paid", 0), 0))
        r["dem_paid"] = val
    here = r["hex"]
    r["status"] = "eliminated"
    r["hex"] = None
    f = c08_4_formations.formation_of(rs, state, uid)
    if f:
        del state["formations"][f]
    for step in rs.hooks.ON_ELIMINATE:  # the game's own consequences (Gondor: the Banner falls, the oil is lost)
        step(rs, state, uid, here)


def _leaders_caught(rs, state: State, dice: Dice, leaders: list[str], loss: str) -> list[str]:
    """Leaders stacked with a unit that takes 1/2E or E (7.23, FoC 8.24)."""
    out = []
    caught = rs.charts_for(state)["leader_combat"].get("caught", [5, 6])
    for ldr in leaders:
        if not c02_units.on_map(rs, state, ldr):
            continue
        roll = dice.d6(f"{ldr} caught")
        if roll in caught:
            r = c08_3_rally.leader_rating(rs, state, ldr, for_rally=False)
            lost = r if loss == "E" else max(1, r // 2)
            out.append(f"{ldr} caught in the result (die {roll}): "
                       + rs.hooks._leader_loss(rs, state, ldr, lost))
        else:
            out.append(f"{ldr} unharmed (die {roll})")
    return out


def _leader_loss(rs, state: State, ldr: str, points: int) -> str:
    r = c08_3_rally.leader_rating(rs, state, ldr, for_rally=False)
    points = min(points, r)
    state["units"][ldr]["rally_lost"] = state["units"][ldr].get("rally_lost", 0) + points
    rs.hooks.on_unit_lost(rs, state, ldr, points)
    if c08_3_rally.leader_rating(rs, state, ldr, for_rally=False) <= 0:
        state["units"][ldr]["status"] = "eliminated"
        state["units"][ldr]["hex"] = None
        return f"{ldr} is killed ({points} Rally Points lost, 19.2)"
    return f"{ldr} loses {points} Rally Point{'s' if points != 1 else ''} (19.2)"


def _displace_leader(rs, state: State, ldr: str) -> list[str]:
    """8.1 (inferred): a leader left without a combat unit goes to the
        nearest friendly combat unit (ties: the lowest hex number)."""
    side = hooks.side_of(rs, state, ldr)
    here = state["units"][ldr]["hex"]
    best = None
    for uid in sorted(state["units"]):
        u = rs.units[uid]
        if u.is_combat and hooks.side_of(rs, state, uid) == side and c02_units.on_map(rs, state, uid):
            d = distance(here, state["units"][uid]["hex"])
            key = (d, state["units"][uid]["hex"])
            if best is None or key < best:
                best = key
    if best is None:
        return []
    state["units"][ldr]["hex"] = best[1]
    return [f"{ldr} rejoins the nearest friendly unit in {best[1]} (8.1)"]


# ------------------------------------------------------------------- odds
def odds(rs, state: State, seat: str, text: str) -> str:
    """Exact outcome probabilities of a proposed fire or melee, without
        applying it (``/odds``)."""
    action = rs.parse_text(state, seat, text)
    if action.verb not in ("fire", "melee"):
        other = rs.hooks.order_odds(rs, state, seat, action)
        if other is None:
            raise InvalidOrder("odds are for `fire <unit> at <hex>` or `melee <unit> at <hex>`")
        try:
            rs.check(state, seat, action)
        except IllegalOrder as e:
            other = f"(not legal now: {e}; figures as if it were)\n" + other
        return other[:1900]
    uids, hx = list(action.args[:-2]), action.args[-1]
    targets = c07_1_fire._target_units(rs, state, seat, hx)
    if not targets:
        raise IllegalOrder(f"there is no enemy combat unit in {hx}", "7.0")
    target = _pick_target(rs, state, targets)
    for uid in uids:
        if hooks.side_of(rs, state, uid) != seat or not c02_units.on_map(rs, state, uid):
            raise IllegalOrder(f"{uid} is not one of your units on the map")
    out = []
    try:
        rs.check(state, seat, action)
    except IllegalOrder as e:
        out.append(f"(not legal now: {e}; figures as if it were)")
    for uid in uids:
        dist, prof = outcome_distribution(rs, state, uid, target, action.verb)
        r1 = r2 = None
        lines = []
        for res, p in sorted(dist.items(), key=lambda kv: severity(kv[0])):
            extra = ""
            if "r1" in res or "r2" in res:
                n = 2 if "r2" in res else 1
                key = r2 if n == 2 else r1
                if key is None:
                    key = len(c07_5_retreat.retreat_options(rs, state, [target], n, state["units"][uid]["hex"]))
                    if n == 2:
                        r2 = key
                    else:
                        r1 = key
                extra = " (no legal retreat now: eliminated, 7.55)" if key == 0 else ""
            lines.append(f"  {result_text(res)}: {pct(p)} ({p.numerator}/{p.denominator}){extra}")
        kind = "fires at" if action.verb == "fire" else "attacks"
        head = (f"**{uid} {kind} {target} in {hx}**: letter {prof['letter']} vs Armor {prof['armor']}, "
                f"Morale {prof['morale']}" + (", no CPT (fanatic)" if prof["bypass_cpt"] else ""))
        if prof["notes"]:
            head += "\n  modifiers: " + "; ".join(prof["notes"])
        out.append(head + "\n" + "\n".join(lines))
    return "\n".join(out)[:1900]
