"""Standard Rules 3.0: the sequence of play is data. Gondor's order (magic,
siege, Sauron move and combat, magic, Westernesse move and combat, joint
rally) and Field of Celebrant's own order (3.0 amendment) both run on the
same engine; each phase says who may act, `done` ends a seat's part."""
import tomllib
from functools import cached_property
from pathlib import Path

from engine.core import Game
from engine.rulesets.gondor import Gondor
from tests.spi_helpers import position
from engine.spi import c03_sequence

FOC_SEQ = Path(__file__).resolve().parents[2] / "engine/rulesets/celebrant/data/sequence.toml"


class FocOrder(Gondor):
    """Gondor's units and map, Field of Celebrant's order of play (test only)."""
    name = "foc-order-test"
    seats = ("sauron", "westernesse")

    @cached_property
    def sequence(self):
        seq = tomllib.loads(FOC_SEQ.read_text())
        # same seat names as the Gondor data the units come from
        for s in seq["setup"] + seq["step"]:
            s["seats"] = ["sauron" if x == "shadow" else x for x in s["seats"]]
            if s.get("side") == "shadow":
                s["side"] = "sauron"
        return seq


def walk(g: Game, steps: int) -> list[tuple[int, str, tuple[str, ...], bool]]:
    out = []
    for _ in range(steps):
        seats = tuple(g.active_seats())
        out.append((g.state["turn"], g.state["step"], seats, c03_sequence.is_night(g.ruleset, g.state)))
        g.play(seats[0], "done")
    return out


def test_3_0_gondor_order_of_a_game_turn():
    # a Sauron catapult on the map, so the Siege Phase has something to do
    # (Westernesse, with no catapult near Sauron's siege kit, is done at once)
    g = position({"GS1": "1516", "OI1": "2020", "SC1": "2020"}, step="A-westernesse", turn=1)
    seen = walk(g, 10)
    order = [(s, a) for _, s, a, _ in seen]
    assert order[:10] == [
        ("A-westernesse", ("westernesse",)), ("A-sauron", ("sauron",)), ("B", ("sauron",)), ("C", ("sauron",)),
        ("D", ("sauron",)), ("E-sauron", ("sauron",)), ("E-westernesse", ("westernesse",)), ("F", ("westernesse",)),
        ("G", ("westernesse",)), ("H", ("sauron", "westernesse")),
    ]
    # the joint rally phase needs both seats done before turn 2 begins
    assert g.active_seats() == ["westernesse"] and g.state["step"] == "H"
    g.play("westernesse", "done")
    assert (g.state["turn"], g.state["step"]) == (2, "A-westernesse") and c03_sequence.is_night(g.ruleset, g.state)  # 12.0


def test_3_0_field_of_celebrant_order_runs_on_the_same_engine():
    rs = FocOrder()
    g = position({"GS1": "1516", "OI1": "2020"}, step="A-shadow", turn=14, ruleset=rs)
    seen = walk(g, 9)
    assert [s for _, s, _, _ in seen[:8]] == ["A-shadow", "A-westernesse", "B", "C", "D", "E", "F-shadow",
                                             "F-westernesse"]
    assert [a for _, _, a, _ in seen[:8]] == [("sauron",), ("westernesse",), ("westernesse",), ("westernesse",),
                                             ("sauron",), ("sauron",), ("sauron",), ("westernesse",)]
    # turn 15 is the first FoC night turn (12.0)
    assert seen[8][:2] == (15, "A-shadow") and seen[8][3] is True
    assert not seen[7][3]


def test_8_38_foc_rally_phase_leader_moves_up_to_three_mp_before_rallying():
    rs = FocOrder()
    g = position({"IMR": "1516", "GS1": "1516", "GS3": "1518", "GS2": "1519"}, step="F-westernesse", turn=3,
                 ruleset=rs)
    g.state["units"]["GS2"]["disrupted"] = True
    # 4 hexes away: beyond 3 MP
    assert "move IMR 1520" not in [rs.format(a) for a in rs.legal_actions_for(g.state, "westernesse", "IMR")]
    g.play("westernesse", "move IMR 1518")
    assert g.state["units"]["IMR"]["hex"] == "1518"
    g.play("westernesse", "rally IMR GS2")
    # having rallied, the leader may not move again (8.38: move, then rally)
    import pytest
    from engine.core import IllegalOrder
    with pytest.raises(IllegalOrder) as e:
        g.play("westernesse", "move IMR 1517")
    assert e.value.section in ("4.0", "8.38")


def test_3_0_wrong_seat_is_refused_with_the_phase_section():
    import pytest
    from engine.core import IllegalOrder, state_digest
    g = position({"GS1": "1516", "OI1": "2020"}, step="C", turn=1)
    before = state_digest(g.state)
    with pytest.raises(IllegalOrder) as e:
        g.play("westernesse", "move GS1 1517")
    assert e.value.section == "4.0" and "Sauron" in e.value.message
    assert state_digest(g.state) == before
