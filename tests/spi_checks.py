"""Assertions shared by the Standard Rules tests."""
import pytest

from engine.core import IllegalOrder, state_digest


def refused(g, seat, order, section, *, contains=None):
    """``order`` is refused with the case ``section`` and changes nothing
    (dice included). Returns the error for further checks."""
    before = state_digest(g.state)
    with pytest.raises(IllegalOrder) as e:
        g.play(seat, order)
    assert e.value.section == section, (order, e.value.message, e.value.section)
    if contains:
        assert contains in e.value.message, e.value.message
    assert state_digest(g.state) == before
    return e.value


def drawn(g, before: int) -> int:
    """Dice drawn since the counter was ``before``."""
    return g.state["dice"]["counter"] - before
