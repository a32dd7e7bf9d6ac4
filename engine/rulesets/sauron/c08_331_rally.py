"""8.3 Rally as the variant changes it (seed 004): the Rally Rating is Combat + Morale, less the
wounds beyond the Combat rating (8.331, 8.3311; ``printed_rally`` in c07_22_leader_combat.py); the
Leader Rally Table continues to 9 (3-11), 10-12 (3-12) and 13 (automatic) (8.37; data in the
Standard Rules' [rally] table, which already carries Heli's rows); a leader who lost every unit of his
nationality may not rally (8.25), nor one who declined a challenge this turn (22.3). A leader turned evil (16.69) rallies for Sauron.
"""
from __future__ import annotations

from engine.core import IllegalOrder, State
from engine.spi.standard import StandardRules
from engine.rulesets.sauron import c07_22_leader_combat
from engine.rulesets.sauron import c08_1_stacking
from engine.rulesets.sauron import c22_mortal_combat


def check_rally_extra(rs, state: State, seat: str, leader: str, uid: str) -> None:
    StandardRules.hooks.check_rally_extra(rs, state, seat, leader, uid)
    if not c07_22_leader_combat.variant(rs, state):
        return
    if c08_1_stacking.orphaned(rs, state, leader):
        raise IllegalOrder(f"{leader} has lost every unit of his nationality and may not rally", "8.25")
    if leader in c22_mortal_combat.ph_declined(rs, state):
        raise IllegalOrder(f"{leader} declined a challenge to Mortal Combat this turn and may not rally", "22.3")
