import pytest

from bot.storage import Store


@pytest.fixture
async def store(tmp_path):
    """A SQLite store in a file of the test's own (a test module may define its own ``store``, e.g. on both
    backends)."""
    s = await Store.open(str(tmp_path / "t.db"))
    yield s
    await s.close()
