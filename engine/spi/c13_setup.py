"""13.0 Set-up: ``deploy <unit> <hex>`` during the set-up steps, the order of the sides, the
hook a ruleset gives to check a hex (``_check_deploy``).
"""
from __future__ import annotations

from engine.core import Action, IllegalOrder, InvalidOrder, State
from engine.orders import Order


# a game with a set-up lists it in its ORDERS and gives ``_check_deploy`` and ``_apply_deploy``
DEPLOY = Order("deploy", ("13.0",), "`deploy <unit> <hex>`", parse="_parse_deploy",
               check="_check_deploy_action", apply="_apply_deploy", dice=False)


class SetUp:
    def _setup_order_hint(self) -> str:
        sides = [s.get("side") for s in self.sequence.get("setup", [])]
        if len(sides) < 2 or None in sides:
            return ""
        return f"{self.title_of(sides[0])} places first, then {self.title_of(sides[1])}"

    # --- set-up (13.0): `deploy <unit> <hex>`; a ruleset checks the hex in `_check_deploy`
    deploy_example = "GS1 1905"

    def _parse_deploy(self, state: State, seat: str, words: list[str]) -> Action:
        if len(words) != 2:
            raise InvalidOrder(f"usage: `deploy <unit> <hex>`, e.g. `deploy {self.deploy_example}`")
        return Action("deploy", (self.resolve_unit(words[0]), self._hex_token(words[1])))

    def _check_deploy_action(self, state: State, seat: str, *args: str) -> None:
        if len(args) != 2:
            raise InvalidOrder("usage: `deploy <unit> <hex>`")
        self._check_deploy(state, seat, *args)

    def _check_deploy(self, state: State, seat: str, uid: str, hx: str, occ=None) -> None:
        raise IllegalOrder("this game has no set-up orders", "13.0")


