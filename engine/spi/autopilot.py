"""The safe default of a seat nobody plays (issue 28, `autopilot=<n>`), as the three games on SPI's
Standard Rules share it (Gondor, Sauron, Field of Celebrant): each phase the seat passes (`done`)
unless the rules refuse that, and then plays only what the rules force, by the cheapest legal choice.

First, a decision it faces whose kind declares the autopilot's answer (issue 42, ``engine.autopilot.decided``):
Sauron's challenge to Mortal Combat (22.3) is accepted or declined by what costs its side less, by the
engine's own odds (``c22_mortal_combat.challenge_answer``), never declined every time. Then, in this
order, for a seat that acts now (None otherwise, and None wherever `done` is legal):
1. a retreat it must choose (7.5): the first hex offered (``legal_actions`` offers nothing else then; a
   retreat with a single hex the engine carries out itself);
2. the set-up (13.0): ``deploy printed`` (the side's printed set-up), else the first legal `deploy`;
3. whatever the game owes at a deadline (its ``deadline_action``: Sauron's 22.1 approach and 16.641
   Ring going home, a missile unit 7.175 obliges to fire; Field of Celebrant's Eotheod entry area,
   14.31), except that
4. in the combat phase, units that began it in an enemy zone of control (7.31) each attack alone the
   unit exerting that zone whose attack risks least (the highest chance of a result on the CRT, the
   first offered on a tie), one order at a time;
5. as a last resort, the first legal action that is not a secret order (one whose public text is
   masked, such as Gondor's `pour`, 16.74).

Never a secret decision: it pours no oil, reads no hidden fact to choose, and nothing it picks depends
on what only the seat knows (tests/engine/test_autopilot_policies.py plays twin games that differ only in a
secret and compares every public word). It reads the game only through the ruleset's methods
(``active_seats``, ``check``, ``legal_actions``, the 7.31 obligations and the combat odds)."""
from __future__ import annotations

from fractions import Fraction

from engine.autopilot import accepted, decided, first_legal, is_secret, may_pass
from engine.core import Action, State, iter_limit
from engine.spi import c07_3_melee
from engine.spi import c07_combat
from engine.spi import c03_sequence
from engine.spi import c05_stacking


def least_risk_attack(rs, state: State, seat: str) -> Action | None:
    """7.31: of the attacks still owed, the one by a single obliged unit whose outcome is likeliest
    to be a result (the least chance of attacking for nothing); the first offered on a tie."""
    best, best_key = None, None
    occ = c05_stacking.occupancy(rs, state)
    for n, uid in enumerate(c07_3_melee._unmet_obligations(rs, state, seat)):
        for m, t in enumerate(rs.hooks._melee_targets(rs, state, uid, occ)):
            a = Action("melee", (uid, "at", state["units"][t]["hex"]))
            if not accepted(rs, state, seat, a):
                continue
            dist, _ = c07_combat.outcome_distribution(rs, state, uid, t, "melee")
            key = (dist.get((), Fraction(0)), n, m)
            if best_key is None or key < best_key:
                best, best_key = a, key
    return best


def autopilot_action(rs, state: State, seat: str) -> Action | None:
    if (a := decided(rs, state, seat)) is not None:  # issue 42: 22.3 weighed, never declined every time
        return a
    if may_pass(rs, state, seat):
        return None
    head = iter_limit(rs.legal_actions(state, seat), 1)
    if head and head[0].verb == "retreat":  # 7.5: a retreat owed is all that is offered
        return head[0]
    if c03_sequence.kind(rs, state) == "setup":
        printed = Action("deploy", ("printed",))
        if rs.printed_setups.get(seat) and accepted(rs, state, seat, printed):
            return printed
        a = first_legal(rs, state, seat, "deploy")
        if a is not None:
            return a
    a = rs.deadline_action(state, seat)  # what the game owes at a deadline (Sauron's 7.175 fire first)
    if a is None or a.verb == "melee":  # 7.31: of the owed attacks, the one that risks least
        a = (least_risk_attack(rs, state, seat) if c03_sequence.kind(rs, state) == "combat" and c03_sequence.phasing(rs, state) == seat
             else None) or a
    if a is not None and not is_secret(rs, a) and accepted(rs, state, seat, a):
        return a
    return first_legal(rs, state, seat)
