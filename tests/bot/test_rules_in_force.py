"""Issue 42: the rules in force on every screen. With `variant=off` or `errata=none`, Sauron's `/help` still
introduced "Sauron (SPI 1977, with Heli's variant)", and neither `/game status` nor the map's header said which
variant or errata a game plays. Now `/help` (in the game's channel), `/game status` and the map header name the
scenario, variant, errata and every option that changes the rules, for every ruleset."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core import Game
from engine.rulesets import BUILTIN, get_ruleset
from render.hex_header import _header_lines

ROOT = Path(__file__).resolve().parents[2]

# per ruleset: options that change the rules, and a phrase each must put in the rules line
CASES = {
    "gondor": ({"rally.GAN": "7"}, ["Rally Ratings GAN 7"]),
    "celebrant": ({"swap.gondor": "on", "balance": "shadow"}, ["GS9 in for GB4 (21.0)", "balance counters for Shadow"]),
    "sauron": ({"variant": "off", "extra": "all"}, ["the original leader rules", "the 1978 player errata",
                                                    "6 spare Westernesse counters (14.3)"]),
    "sauron-expanded": ({"siege": "off", "victory": "points", "narsil": "shards"},
                        ["Heli's variant", "no siege rule", "victory by points", "Narsil in shards"]),
    "risk-minas-tirith": ({"mt_cards": "leaders-only"}, ["Minas Tirith cards: leaders-only"]),
    "wotr": ({"players": "4", "scenario": "all-out-war", "magic": "historical", "turns": "8"},
             ["4 players", "All Out War", "the magic cards dealt to their owners", "8 game-turns"]),
}


def test_every_ruleset_is_covered():
    assert set(CASES) == set(BUILTIN)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_view_and_the_map_header_name_the_rules_in_force(name):
    opts, phrases = CASES[name]
    g = Game.new(get_ruleset(name), options=opts, seed="r")
    for seat in (None, get_ruleset(name).seats[0]):
        v = g.view(seat)
        assert all(p in v["rules"] for p in phrases), (v.get("rules"), phrases)
        assert ("rules", v["rules"]) in _header_lines(v, None)
    plain = Game.new(get_ruleset(name), options={}, seed="r").view(None).get("rules") or ""
    assert not any(p in plain for p in phrases if p not in ("Heli's variant", "4 players")), plain


def test_sauron_names_its_variant_and_errata_even_by_default_and_help_claims_neither():
    assert Game.new(get_ruleset("sauron"), options={}, seed="r").view(None)["rules"] == \
        "Rules: Heli's variant; no errata"
    assert Game.new(get_ruleset("sauron"), options={"variant": "off"}, seed="r").view(None)["rules"] == \
        "Rules: the original leader rules; the 1978 player errata"
    assert "with Heli's variant)" not in get_ruleset("sauron").help()


def test_a_level_of_play_keeps_the_games_rules_line():
    g = Game.new(get_ruleset("sauron@assist"), options={"variant": "off"}, seed="r")
    assert "the original leader rules" in g.view(None)["rules"]


def test_status_and_help_in_the_games_channel_say_the_rules_in_force(tmp_path):
    """Through the console (the same service as on Discord)."""
    script = tmp_path / "s.txt"
    script.write_text("/game status\n/help\n")
    res = subprocess.run([sys.executable, "-m", "bot.cli", "local", "sauron", "--seed", "3", "--options",
                          "variant=off", "--no-images", "--script", str(script)], cwd=tmp_path,
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    assert "Rules: the original leader rules; the 1978 player errata." in res.stdout  # /game status
    assert "**This game** (sauron): Rules: the original leader rules; the 1978 player errata." in res.stdout


def test_no_jargon_in_what_a_player_reads():
    """Issue 42: "seed 004's expanded game" and "(point 2)" are not a player's words."""
    texts = []
    for name in BUILTIN:
        rs = get_ruleset(name)
        texts.append(rs.help())
        texts += [rs.help(t) for t in rs.help_topics()]
        texts += [o.about for o in rs.options]
    g = Game.new(get_ruleset("sauron-expanded"), options={"dead": "ELE+GOR", "lost": "MI1"}, seed="r")
    texts += [str(n) for n in g.view(None).get("notes", [])]
    for t in texts:
        assert "seed 0" not in t and "(point " not in t and "(points " not in t, t


def test_gondor_names_a_chart_file_and_the_rules_it_turns():
    g = Game.new(get_ruleset("gondor"), options={"charts": '[siege]\nzoc_through_walls = "both-ways"\n'}, seed="r")
    assert g.view(None)["rules"] == ("Rules: the group's own charts; zones of control both ways through a scaled "
                                     "wall (16.44)")
