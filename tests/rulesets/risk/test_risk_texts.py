"""What a player reads of LOTR Risk: Minas Tirith (issue 42: "a Evil card"; tracks with no maximum shown as
"0 / -")."""
import pytest

from engine.core import Game, IllegalOrder
from engine.display import track_value
from engine.rulesets import get_ruleset
from tests.risk_helpers import RS, cards_phase


def test_a_card_of_the_other_side_is_an_evil_card_not_a_evil_card():
    g = Game.new(get_ruleset("risk-minas-tirith"), options={"mt_cards": "sortie+gandalf+nazgul"}, seed="ex")
    ev = [c for c, d in RS.reinforcement_cards.items() if d["type"] == "creature" and d["shield"] == "evil"][:3]
    cards_phase(g, "evil", reinf=ev)
    g.state["mt_discard"] = ["gandalf", "nazgul"]
    with pytest.raises(IllegalOrder) as e:
        g.play("evil", f"exchange {' '.join(ev)} special take gandalf")
    assert e.value.message == "gandalf is not an Evil card"


def test_a_score_track_shows_its_points_alone_on_every_screen():
    """A track with no maximum (Good's and Evil's points) reads "Good points 3", never "3 / -" or "3/-": the
    header, the map's panel, the status board and a phase's notice all print it by ``track_value``."""
    g = Game.new(get_ruleset("risk-minas-tirith"), seed="t")
    tracks = {t["name"]: t for t in g.view(None)["tracks"]}
    assert track_value(tracks["Good points"]) == str(tracks["Good points"]["points"])
    assert track_value(tracks["Good points"], " / ") == str(tracks["Good points"]["points"])
    deck = tracks["Reinforcement cards left"]
    assert track_value(deck) == f"{deck['points']}/66" and track_value(deck, " / ") == f"{deck['points']} / 66"


def test_the_status_and_the_phase_notice_print_no_empty_maximum(tmp_path):
    """Through the console (the same service as on Discord): before, the status read "Good points: 0 / -"."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[3]
    script = tmp_path / "status.txt"
    script.write_text("/game status\n")
    res = subprocess.run([sys.executable, "-m", "bot.cli", "local", "risk-minas-tirith", "--seed", "11",
                          "--no-images", "--script", str(script)], cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(root)), timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "- Good points: 0\n" in res.stdout and "Tracks: Good points 0 · Evil points 0 ·" in res.stdout
    assert " / -" not in res.stdout and "/-" not in res.stdout
