import pytest


@pytest.fixture(autouse=True, scope="module")
def _source_trees_released():
    """The source files' trees (tests/source_trees.py) kept for one test module, then let go: a quarter of a
    million nodes held to the end of a worker's run were scanned by each of its full garbage collections."""
    yield
    from tests import source_trees

    source_trees.tree.cache_clear()
    source_trees.nodes.cache_clear()
