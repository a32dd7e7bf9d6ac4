"""13.0 Set-up: ``deploy <unit> [<unit>...] <hex>`` during the set-up steps (several units to one hex in
one order), ``deploy printed`` (a side's whole printed set-up in one order, reconstructed where the seed
gives none; ``options: setup=printed`` places both at ``/game new``), the order of the sides, the hook a
ruleset gives to check a hex (``_check_deploy``).
"""
from __future__ import annotations

import tomllib
from functools import cached_property
from pathlib import Path

from engine.core import Event, IllegalOrder, InvalidOrder, State
from engine.options import Choice, Option
from engine.orders import Order
from engine.spi import c02_units
from engine.spi import c05_stacking
from engine.spi import common

# ``options: setup=printed`` (issue 39: declared once, for the games with a set-up phase)
SETUP_OPTION = Option("setup", Choice(("printed",)), about="both sides start from the printed set-up (13.0)")


def load_printed_setup(path: Path) -> dict[str, dict[str, str]]:
    """A ruleset's ``data/setup_printed.toml``: ``[<seat>]`` tables of ``<unit> = "<hex>"``, with
    ``reconstructed`` and ``reason`` at the top where the seed prints no set-up."""
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text())
    return {seat: {uid: str(hx) for uid, hx in table.items()}
            for seat, table in data.items() if isinstance(table, dict)}


@property
def printed_setup_path(rs) -> Path | None:
    """The game's data/setup_printed.toml, where it has one."""
    return rs.data_dir / "setup_printed.toml" if rs.data_dir else None


@cached_property
def printed_setups(rs) -> dict[str, dict[str, str]]:
    path = rs.printed_setup_path
    return load_printed_setup(path) if path else {}


def _setup_order_hint(rs) -> str:
    sides = [s.get("side") for s in rs.sequence.get("setup", [])]
    if len(sides) < 2 or None in sides:
        return ""
    return f"{c02_units.title_of(rs, sides[0])} places first, then {c02_units.title_of(rs, sides[1])}"

# --- set-up (13.0): `deploy <unit> <hex>`; a ruleset checks the hex in `_check_deploy`
deploy_example = "GS1 1905"


def _parse_deploy(rs, state: State, seat: str, words: list[str]) -> tuple[str, ...]:
    if [w.lower() for w in words] == ["printed"]:
        return ("printed",)
    if len(words) < 2:
        more = " or `deploy printed` (the whole printed set-up)" if rs.printed_setups else ""
        raise InvalidOrder(f"usage: `deploy <unit> [<unit>...] <hex>`, e.g. `deploy {rs.hooks.deploy_example}`{more}")
    uids = [c02_units.resolve_unit(rs, w) for w in words[:-1]]
    if len(set(uids)) != len(uids):
        raise InvalidOrder("a unit is named twice")
    return (*uids, common._hex_token(words[-1]))


def _placements(rs, state: State, seat: str, args: tuple[str, ...]) -> list[tuple[str, str]]:
    """The (unit, hex) pairs an order places: the named units to one hex, or the printed set-up of
        the seat's units still in play."""
    if args == ("printed",):
        table = rs.printed_setups.get(seat)
        if not table:
            raise IllegalOrder("this game has no printed set-up for your side: `deploy <unit> <hex>`", "13.0")
        return [(uid, hx) for uid, hx in table.items() if uid in state["units"]
                and state["units"][uid]["status"] in ("pool", "map")]
    if len(args) < 2:
        raise InvalidOrder("usage: `deploy <unit> [<unit>...] <hex>`")
    return [(uid, args[-1]) for uid in args[:-1]]


def _check_deploy_action(rs, state: State, seat: str, args: tuple[str, ...]) -> None:
    pairs = _placements(rs, state, seat, args)
    occ = {hx: list(us) for hx, us in c05_stacking.occupancy(rs, state).items()}
    moving = {uid for uid, _ in pairs}
    for hx in occ:
        occ[hx] = [u for u in occ[hx] if u not in moving]
    for uid, hx in pairs:  # each unit checked against the ones placed before it in this order
        rs.hooks._check_deploy(rs, state, seat, uid, hx, occ)
        occ.setdefault(hx, []).append(uid)


def _apply_deploy_order(rs, state: State, seat: str, args: tuple[str, ...], dice: Dice | None) -> list[Event]:
    pairs = _placements(rs, state, seat, args)
    events: list[Event] = []
    for uid, hx in pairs:
        events += rs.hooks._apply_deploy(rs, state, seat, uid, hx)
    if len(events) <= 1:
        return events
    if args == ("printed",):
        recon = " (reconstructed: the seed prints none)" if rs.printed_setup_reconstructed else ""
        text = (f"{c02_units.title_of(rs, seat)} deploys the printed set-up{recon}: "
                + ", ".join(f"{uid} {hx}" for uid, hx in pairs)
                + ". Adjust with `deploy <unit> <hex>`, then `/done` (13.0).")
        return [Event(public=text, section="13.0")]
    text = " ".join(e.public for e in events if e.public)
    if len(text) > 1500:
        text = f"{c02_units.title_of(rs, seat)} deploys {', '.join(u for u, _ in pairs)} in {pairs[0][1]} (13.0)."
    return [Event(public=text, section=events[0].section)]


@cached_property
def printed_setup_reconstructed(rs) -> bool:
    if not rs.printed_setup_path or not rs.printed_setup_path.exists():
        return False
    return bool(tomllib.loads(rs.printed_setup_path.read_text()).get("reconstructed", False))


def place_printed_setup(rs, state: State) -> None:
    """``options: setup=printed``: every side's printed set-up placed at the start; the sides may
        still re-place units until each ends its set-up step (13.0)."""
    for seat in rs.seats:
        pairs = _placements(rs, state, seat, ("printed",))
        _check_deploy_action(rs, state, seat, ("printed",))
        for uid, hx in pairs:
            rs.hooks._apply_deploy(rs, state, seat, uid, hx)


def _check_deploy(rs, state: State, seat: str, uid: str, hx: str, occ=None) -> None:
    raise IllegalOrder("this game has no set-up orders", "13.0")


# the orders of this file (engine/orders.py), each naming its functions above
# a game with a set-up lists it in its ORDERS and gives ``_check_deploy`` and ``_apply_deploy``
DEPLOY = Order("deploy", "`deploy <unit> [<unit>...] <hex>` or `deploy printed`",
              parse=_parse_deploy,
              check=_check_deploy_action,
              apply=_apply_deploy_order,
              unlisted=("each game lists its own set-up (13.0: its zones, its `done`): its record names that "
                        "pass (``replace(DEPLOY, listed_in=...)``)"),
              cases=("13.0",),
              dice=False)
