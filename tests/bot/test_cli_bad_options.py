"""issue 27: `palantir local <ruleset> --options <bad>` is a usage error: one line on stderr, exit
status 2, no traceback, for every ruleset (the console used to print the refusal and then crash in
bot/table.py on the game that was never created)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rulesets import ruleset_names

ROOT = Path(__file__).resolve().parents[2]


def _local(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot.cli", "local", *args, "--no-images"],
                          cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=120)


SIX = ("celebrant", "gondor", "risk-minas-tirith", "sauron", "sauron-expanded", "wotr")  # `palantir local --help`


def test_all_six_rulesets_are_covered():
    # (other tests register rulesets of their own, tests/pbp_helpers.py: the built-in six are these)
    assert set(SIX) <= set(ruleset_names())


@pytest.mark.parametrize("ruleset", SIX)
@pytest.mark.parametrize("bad", ["foo=bar", "setup=sideways"])
def test_bad_option_is_one_line_and_status_2(ruleset, bad):
    r = _local(ruleset, "--options", bad)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Bad options" in lines[0], r.stderr
    assert r.stdout.strip() == ""  # no game was created, nothing else was said


@pytest.mark.parametrize("ruleset", ["gondor", "celebrant"])
def test_readme_setup_printed_example_works(ruleset, tmp_path):
    """The README's `--options setup=printed` (Gondor and Field of Celebrant, the games with a printed
    set-up order) starts the game with both sides placed."""
    script = tmp_path / "s.txt"
    script.write_text("/game status\n")
    r = _local(ruleset, "--seed", "1", "--options", "setup=printed", "--script", str(script))
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr
    assert "still to deploy" not in r.stdout.lower()


# issue 39: the reported cases, in the terminal: one line naming the ruleset and the option, exit status 2
REPORTED = [
    ("sauron-expanded", ["--options", "siege=maybe"], "sauron-expanded: `siege` takes on|off, not `maybe`"),
    ("sauron-expanded", ["--options", "foo=bar"], "sauron-expanded has no option `foo`; its options are: "),
    ("sauron-expanded", ["--options", "dead=ELE,ISI"], "join a list's items with `+`, not a comma: `dead=ELE+ISI`"),
    ("sauron-expanded", ["--options", "siege=on siege=off"], "`siege` is given twice (`on`, then `off`)"),
    ("gondor", ["--mode", "assist", "--options", "mode=tabletop"], "gondor: the level of play is given twice"),
    ("gondor", ["--options", "autopilot=²"], "gondor: `autopilot` takes a whole number from 1 to 20"),
    ("gondor", ["--options", "checkin=1e-9"], "gondor: `checkin` takes a number of hours from 0.25 to 168"),
]


@pytest.mark.parametrize("ruleset,args,says", REPORTED, ids=[" ".join(r[1]) for r in REPORTED])
def test_reported_bad_options_are_one_line_naming_ruleset_and_option(ruleset, args, says):
    """Issue 39 (reported): `siege=maybe` was accepted; the expanded game's refusal named `sauron`; `dead=ELE,ISI`
    was split at the comma; a repeated key took the last; `--mode` and `mode=` disagreed silently;
    `autopilot=²` answered with Python's int() message; `checkin=1e-9` was accepted."""
    r = _local(ruleset, *args)
    assert r.returncode == 2, (r.stdout[-2000:], r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("palantir local: Bad options: ") and says in lines[0], r.stderr
    assert "Traceback" not in r.stderr + r.stdout and "invalid literal" not in r.stderr
    assert r.stdout.strip() == ""


def test_a_list_joined_by_plus_is_taken(tmp_path):
    """Issue 39: `+` is the one list separator (README, docs/sauron.md): `dead=ELE+ISI` starts the game."""
    script = tmp_path / "s.txt"
    script.write_text("/game status\n")
    r = _local("sauron-expanded", "--seed", "1", "--options", "dead=ELE+ISI", "--script", str(script))
    assert r.returncode == 0, (r.stdout[-2000:], r.stderr[-2000:])
    assert "Bad options" not in r.stdout + r.stderr and "Rematch" in r.stdout
