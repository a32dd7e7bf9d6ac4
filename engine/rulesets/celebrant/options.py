"""Field of Celebrant's options (issue 39), declared as data: the optional swaps and the balance
deployment of 21.0, the printed set-up and a group's charts. `/game new options:` reads them with the
one typed reader of ``engine/options.py``; every refusal names `celebrant` and this list."""
from __future__ import annotations

from engine.options import Choice, OnOff, Option, Whole
from engine.spi.c13_setup import SETUP_OPTION
from engine.spi.standard import CHARTS_OPTION

from .common import SEATS

OPTIONS = (
    Option("swap.gondor", OnOff(), about="GS9 in for GB4 (21.0)"),
    Option("swap.eotheod", OnOff(), about="ER10 in for EA3 (21.0)"),
    Option("swap.orcs", Whole(0, 4, "Orc Archers that become Orcs"), about="21.0"),
    Option("swap.balchoth", OnOff(), about="BI6 in for BL4 (21.0)"),
    Option("balance", Choice(tuple(SEATS)), about="the extra counters for one side (21.0)"),
    SETUP_OPTION,
    CHARTS_OPTION,
)
