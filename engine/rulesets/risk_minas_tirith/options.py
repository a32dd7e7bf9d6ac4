"""LOTR Risk: Minas Tirith's options (issue 39), declared as data: `/game new options:` reads them with
the one typed reader of ``engine/options.py``; every refusal names `risk-minas-tirith` and this list."""
from __future__ import annotations

from engine.options import Option, Text
from engine.rulesets.risk_minas_tirith import setup


def _deck(rs, spec: str) -> str:
    """``mt_cards=``: a named list or cards joined by `+` that make a deck (``setup.mt_list`` checks it)."""
    setup.mt_list(rs, spec)
    return spec.strip().lower()


OPTIONS = (
    Option("mt_cards", Text("<list name>|<cards joined by +>",
                            "a named list (default, leaders-only) or cards joined by `+` (theoden+mordor*2+ladders)"),
           check=_deck, about="the Minas Tirith deck"),
)
