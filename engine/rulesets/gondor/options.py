"""Gondor's options (issue 39), declared as data: `/game new options:` reads them with the one typed
reader of ``engine/options.py``, and every refusal names `gondor` and this list."""
from __future__ import annotations

from engine.options import Option, Whole
from engine.spi.c13_setup import SETUP_OPTION
from engine.spi.standard import CHARTS_OPTION


def _leader(rs, uid: str, rating: int) -> int:
    """``rally.<LEADER>``: a leader of this game (its printed rally rating replaced)."""
    leaders = rs.gondor_charts["leaders"]["rally"]
    if uid.upper() not in leaders:
        raise ValueError(f"names no leader: `{uid.upper()[:10]}` is not one (leaders: {', '.join(sorted(leaders))})")
    return rating


OPTIONS = (
    Option("rally.", Whole(1, 13, "rally rating"), check=_leader, member="<LEADER>",
           about="a leader's rally rating in place of the printed one"),
    SETUP_OPTION,
    CHARTS_OPTION,
)
