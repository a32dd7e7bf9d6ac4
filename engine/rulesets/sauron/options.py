"""Sauron's options and the expanded game's (issue 39), declared as data: `/game new options:` reads
them with the one typed reader of ``engine/options.py``; every refusal names the game (`sauron` or
`sauron-expanded`) and its own list."""
from __future__ import annotations

from engine.options import Choice, Items, OnOff, Option, Text
from engine.spi.standard import CHARTS_OPTION

from .c14_reinforcements import EXTRA_TAKES, parse_extra

ERRATA = ("1978", "none")  # data/errata_1978*.toml

OPTIONS = (
    Option("variant", OnOff(), about="Heli's variant (on, the default) or the original leader rules (off)"),
    Option("errata", Choice(ERRATA, aliases=(("off", "none"),)),
           about="the 1978 player errata (the default with variant=off)"),
    Option("extra", Text("all|none|<0-6>|<ids joined by +>", EXTRA_TAKES), check=lambda rs, v: parse_extra(v),
           about="the spare counters of 14.3"),
    CHARTS_OPTION,
)


def _units(leaders: bool):
    """``lost=`` names combat units, ``dead=`` leaders, of this game: sorted, each once."""
    def check(rs, ids: tuple[str, ...]) -> list[str]:
        bad = [x for x in ids if x not in rs.units or rs.units[x].is_leader != leaders]
        if bad:
            raise ValueError(f"names {'leaders' if leaders else 'combat units'}; not {', '.join(bad[:5])}")
        return sorted(set(ids))
    return check


def _leader(rs, uid: str) -> str:
    u = rs.units.get(uid.upper())
    if u is None or not u.is_leader:
        raise ValueError(f"names the leader who has the One Ring; `{uid[:10]}` is not a leader")
    return uid.upper()


# the expanded game (expanded.py): the first part carried over, the siege rule and the victory ruled
EXPANDED_OPTIONS = OPTIONS + (
    Option("lost", Items("combat unit ids"), check=_units(False), about="units destroyed in the first part (each returns on a die of 3-6)"),
    Option("dead", Items("leader ids"), check=_units(True), about="leaders who died in the first part (each replaced by a successor)"),
    Option("narsil", Choice(("whole", "shards", "gone")), about="Narsil as the first part left it"),
    Option("ring", Text("<leader id>", "a leader's id"), check=_leader, about="who has the One Ring after the first part"),
    Option("siege", OnOff(), about="the siege rule: defenders in the fortifications and Barad-dur (ruling)"),
    Option("victory", Choice(("decisive", "points")), about="the victory conditions (ruling)"),
)
