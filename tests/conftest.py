import os
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
    import shutil
    import tempfile

    os.environ["PALANTIR_RENDER_CACHE"] = tempfile.mkdtemp(prefix="palantir-maps-")
    atexit.register(shutil.rmtree, os.environ["PALANTIR_RENDER_CACHE"], ignore_errors=True)

# No per-example deadline: CI machines are shared and timing is not what these tests check.
settings.register_profile("palantir", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "palantir"))


# ----------------------------------------------------------------------------- PostgreSQL (issue 16)
import pytest  # noqa: E402


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
