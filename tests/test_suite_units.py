"""Issue 43 (a suite with margin): each scripted game is drawn once in a run, for every test that reads the
drawing (tests/scripted_helpers.py's ``drawn``: the golden output, the PNG bound, the phone preview). That
holds only if xdist hands all of one game's readers to one worker: they are one unit (tests/xdist_units.py,
tests/conftest.py's hooks), and the scheduler hands a unit out whole."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from tests.e2e.test_golden import SCRIPTED
from tests.xdist_units import grouped_scope, unit_of, write_units

ROOT = Path(__file__).resolve().parents[1]
READERS = ["tests/e2e/test_golden.py", "tests/render/test_png.py", "tests/render/test_preview_maps.py",
           "tests/render/test_map_preview.py", "tests/e2e/test_gondor_console.py"]
SHOW = """
import json
import pytest
from tests.xdist_units import groups


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    print("UNITS " + json.dumps({"order": [i.nodeid for i in items], "groups": groups(items)}))
"""


def collected_on_a_worker(tmp_path: Path, *paths: str) -> tuple[list[str], dict[str, str]]:
    """The node ids an xdist worker collects from ``paths``, in its order (tests/conftest.py's
    ``pytest_collection_modifyitems`` orders them on a worker only: the worker's name is set, one process
    runs), and the units of the grouped ones."""
    (tmp_path / "show_units.py").write_text(SHOW)
    env = dict(os.environ, PYTEST_XDIST_WORKER="gw0", PYTHONPATH=os.pathsep.join((str(ROOT), str(tmp_path))))
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-n", "0",
                          "-p", "show_units", *paths], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    got = json.loads(next(ln for ln in res.stdout.splitlines() if ln.startswith("UNITS "))[6:])
    return got["order"], got["groups"]


def test_each_scripted_games_readers_are_one_unit_handed_out_together(tmp_path):
    """Issue 43: on a worker, the golden test of each scripted game, its PNG bound, its preview tests and
    (Gondor) its whole game in the terminal are one unit, ``scripted-<game>``, one per game, their tests side by side in the worker's order; every other
    test stays in its module's (or class's) unit."""
    ids, grouped = collected_on_a_worker(tmp_path, *READERS)
    games = [s[0] for s in SCRIPTED]
    for game in games:
        readers = [i for i in ids if unit_of(i, grouped) == f"scripted-{game}"]
        assert f"tests/e2e/test_golden.py::test_scripted_game_output_is_unchanged[{game}]" in readers
        assert f"tests/render/test_map_preview.py::test_busiest_phase_map_reads_at_preview_width[{game}]" in readers
        at = [ids.index(i) for i in readers]
        assert at == list(range(at[0], at[0] + len(at))), f"{game}: its readers are not side by side"
    for game, cls in (("gondor", "TestGondorMaps"), ("celebrant", "TestCelebrantMaps"), ("sauron", "TestSauronMaps")):
        in_class = [i for i in ids if f"::{cls}::" in i]
        assert in_class and {unit_of(i, grouped) for i in in_class} == {f"scripted-{game}"}, in_class
    assert grouped["tests/e2e/test_gondor_console.py::test_scripted_complete_gondor_game_ends_in_a_victory_decision"] \
        == "scripted-gondor"
    for game in ("gondor", "sauron"):
        assert grouped[f"tests/render/test_png.py::test_the_scripted_games_maps_stay_within_the_bound[{game}]"] == \
            f"scripted-{game}"
    others = [i for i in ids if i not in grouped]
    assert others and all(unit_of(i, grouped) == i.rsplit("::", 1)[0] for i in others)
    assert set(grouped.values()) == {f"scripted-{g}" for g in games}


class Node:
    """A worker as xdist's scheduler sees it: it is sent test indices, and shut down."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.sent: list[int] = []

    def send_runtest_some(self, indices) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_the_scheduler_hands_each_unit_to_one_worker(request, tmp_path):
    """Issue 43: tests/conftest.py's scheduler (``--dist loadscope`` with the groups the workers wrote) gives
    every test of a ``scripted-<game>`` unit to the same worker, whichever modules they come from, and each
    module's unit whole, as loadscope does."""
    ids, grouped = collected_on_a_worker(tmp_path, *READERS)
    write_units(str(tmp_path / "units.json"), grouped)
    # the run's own options (pyproject.toml: --no-loadscope-reorder), on two workers as `-n auto` gives here
    config = SimpleNamespace(option=request.config.option, hook=request.config.hook,
                             getvalue=lambda name: ["popen"] * 2 if name == "tx" else request.config.getvalue(name))
    sched = grouped_scope(config, str(tmp_path / "units.json"))
    nodes = [Node("gw0"), Node("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, list(ids))
    sched.schedule()
    for _ in range(len(ids) + 1):  # each worker runs what it was sent, then asks for more
        if all(n.shutting_down for n in nodes):
            break
        for node in nodes:
            for index in [i for i in node.sent if not sched.assigned_work[node][unit_of(ids[i], grouped)][ids[i]]]:
                sched.mark_test_complete(node, index)
    assert all(n.shutting_down for n in nodes)
    where: dict[str, set[str]] = {}
    for node in nodes:
        assert node.sent
        for i in node.sent:
            where.setdefault(unit_of(ids[i], grouped), set()).add(node.gateway.id)
    assert sorted(i for n in nodes for i in n.sent) == list(range(len(ids)))
    assert all(len(w) == 1 for w in where.values()), {u: w for u, w in where.items() if len(w) > 1}
    assert {f"scripted-{s[0]}" for s in SCRIPTED} <= set(where)
