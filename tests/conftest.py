import os
import shutil
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The renderer's disk cache of base layers (issue 26): one folder per test session, so no run leans on
# what an earlier one (or another checkout) left in ~/.cache
if "PALANTIR_RENDER_CACHE" not in os.environ:
    import atexit
    import tempfile

    os.environ["PALANTIR_RENDER_CACHE"] = tempfile.mkdtemp(prefix="palantir-maps-")
    atexit.register(shutil.rmtree, os.environ["PALANTIR_RENDER_CACHE"], ignore_errors=True)

# A game from outside engine/rulesets/ taken as built in for this run (issue 43):
# PALANTIR_EXTRA_BUILTIN=<module>:<attribute holding the ruleset object>. Every test that covers the games
# reads them from the registry (`sorted(BUILTIN)`), so it plays this one too (tests/engine/test_registry_games.py).
if os.environ.get("PALANTIR_EXTRA_BUILTIN"):
    import importlib

    from engine.rulesets import BUILTIN

    _module, _, _attr = os.environ["PALANTIR_EXTRA_BUILTIN"].partition(":")
    BUILTIN[getattr(importlib.import_module(_module), _attr).name] = (_module, _attr)

# No per-example deadline: CI machines are shared and timing is not what these tests check.
settings.register_profile("palantir", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "palantir"))


# ----------------------------------------------------------------------------- PostgreSQL (issue 16)
import pytest  # noqa: E402


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Before any worker starts (this process only, not the workers): the project's modules compiled to
    bytecode once, in their ``__pycache__`` (as pip does for a package it installs, which an editable install
    is not), so that neither a worker nor any of the run's Python subprocesses (bots, runners, the CLI)
    compiles them again, as each would where bytecode is not written (``PYTHONDONTWRITEBYTECODE``): 1 s here,
    and the suite in a fresh clone took 279 s instead of 287."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import compileall

    for folder in ("engine", "bot", "render", "cogs", "tests"):
        compileall.compile_dir(str(ROOT / folder), quiet=2)


# ----------------------------------------------------------------------------- the order of the units (issue 29)
from tests.xdist_units import UNITS, groups, grouped_scope, unit_of, write_units  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """On an xdist worker: the tests that read one scripted game's single drawing (marked ``scripted_game``:
    the golden output, the PNG bound, the phone preview) made one unit, ``scripted-<game>``, written for the
    controller's scheduler (tests/xdist_units.py), so that one worker draws the game once for them all
    (issue 43); then the units that ``--dist loadscope`` hands out whole (a group, else a module or a class)
    ordered as xdist would order them itself (most tests first), except that the units marked ``heavy``
    (``pytestmark = pytest.mark.heavy``: 5 s or more on one worker) come first. A long unit with few tests
    (a whole scripted game, the kill test) would otherwise be handed out last and run alone while the other
    worker stands idle. pyproject.toml turns xdist's own reordering off (``--no-loadscope-reorder``) so that
    it keeps this order; every worker computes the same one. Without xdist the order is pytest's own."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    grouped = groups(items)
    if UNITS in getattr(config, "workerinput", {}):
        write_units(config.workerinput[UNITS], grouped)
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(unit_of(item.nodeid, grouped), []).append(item)
    order = sorted(units.values(), key=lambda u: (not any(i.get_closest_marker("heavy") for i in u), -len(u)))
    items[:] = [i for unit in order for i in unit]


_UNITS_FILE = pytest.StashKey[str]()


def _units_file(config) -> str:
    """The file (one per run, on the controller) where the workers write the grouped tests' units."""
    if _UNITS_FILE not in config.stash:
        import atexit
        import tempfile

        folder = tempfile.mkdtemp(prefix="palantir-units-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        config.stash[_UNITS_FILE] = os.path.join(folder, "units.json")
    return config.stash[_UNITS_FILE]


def pytest_collection(session):
    """(On an xdist worker, the whole suite asked for) the test modules imported before pytest collects them,
    each worker starting at its own share of them (worker i of n at the i/n-th module, wrapping round), with
    pytest's rewritten modules written to their ``__pycache__`` even where bytecode is not written
    (``PYTHONDONTWRITEBYTECODE``): a module another worker has rewritten already is read from there, not
    rewritten again. Every worker rewrote every test module's asserts: 5 of a worker's 7 s of collection in a
    fresh clone, the same work done once per worker. Pytest then collects as ever (a module imported here is
    the one it finds; one that fails to import here is imported again there, and its error reported)."""
    import importlib

    worker, count = os.environ.get("PYTEST_XDIST_WORKER"), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    config = session.config
    if not worker or count < 2 or config.getoption("assertmode") != "rewrite":
        return
    folders = [Path(a) for a in config.args]
    if not folders or not all(f.is_dir() for f in folders):
        return  # (a file or a test named: no share worth it)
    files = sorted({p for f in folders for p in f.resolve().rglob("test_*.py")})
    start = len(files) * int(worker.removeprefix("gw") or 0) // count
    sys.dont_write_bytecode = False
    for path in files[start:] + files[:start]:
        if path.stem in sys.modules:
            continue
        if str(path.parent) not in sys.path:
            sys.path.insert(0, str(path.parent))  # (as pytest's `prepend` import mode does)
        try:
            importlib.import_module(path.stem)
        except Exception:  # noqa: BLE001 (pytest imports it again and reports what is wrong)
            sys.modules.pop(path.stem, None)


def pytest_collection_finish(session):
    """(On an xdist worker) what the worker holds once it has collected (the project's and the libraries' modules,
    the maps and charts loaded, some 2,500 test items) set aside from the garbage collector (``gc.freeze``): it
    lives to the end of the run, and each full collection scanned all of it again. The workers' collections took
    26 s of the suite's CPU, 17 s of it in some 100 full collections."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        import gc

        gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker more than the cores this process may run on. Some tests wait (a deadline's real
    seconds, a bot in its own process, a browser, a PostgreSQL server): 83 s of the two workers' 504 s went
    to waiting on a 2-core machine, which a third worker fills (the suite: 244 s with two, 233 s with three)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return cores + 1


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """(xdist, on the controller) each worker told where to write the grouped tests' units."""
    node.workerinput[UNITS] = _units_file(node.config)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadscope`` with the groups the workers wrote (tests/xdist_units.py)."""
    if config.getvalue("dist") != "loadscope":
        return None
    return grouped_scope(config, _units_file(config), log)


@pytest.fixture(scope="session")
def pg_server():
    """A real PostgreSQL on loopback, started once per test session (tests/pg_server.py); the
    tests that need it are skipped, with the reason, where none can be started."""
    from tests import pg_server as pgs

    try:
        server = pgs.start()
    except pgs.NoServer as e:
        pytest.skip(f"PostgreSQL not available: {e}")
    yield server
    server.stop()


@pytest.fixture
async def pg_url(pg_server):
    """The url of a fresh, empty database on the test server."""
    return await pg_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store_url(request, tmp_path):
    """A url for each backend: a SQLite file, and a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    server = request.getfixturevalue("pg_server")
    return await server.new_database()
