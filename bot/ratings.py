"""Ratings of rated games (issue 41): openskill's Plackett-Luce model, sides as teams, so a game of any number of
seats is one rating (War of the Ring's four and five). Pure: no storage, no Discord.

The policy (README, docs/architecture.md):
- only games created with ``rated=on`` count, and of those not a tabletop game, not one where a person held two
  sides at the start, and not one ended by ``/game end`` (it has no result);
- per server and per ruleset (its level of play aside);
- each side is a team of the player(s) who held it when the game started; winners rank first, a draw ranks
  every side first together, the others rank after the winners;
- a player who left their seat before the end (left, taken over, handed on) is rated as a loser of the game
  (a team of their own, ranked with the losing sides); whoever held the seat after them is not rated for it;
- provisional until ``PROVISIONAL_GAMES`` rated games;
- derived, never the truth: the ratings are a function of the stored results taken in the order they were kept
  (``compute``). The bot keeps that function's value as a cache and carries it forward one game at a time
  (``rate_game`` on the cached table: the same steps, so the same numbers).
"""
from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 5
MODEL = PlackettLuce()
WIN, LOSS, DRAW, LEFT = "win", "loss", "draw", "left"


@dataclass
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating a table is ordered by (openskill's ``ordinal``: mu - 3 sigma)."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def teams_of(players: list[tuple[str, int, str]]) -> tuple[list[list[int]], list[int]]:
    """A game's rated players, ``(seat, user, outcome)``, as openskill's teams and ranks: each side a team of
    its players ranked 1 if it won or drew and 2 if it lost; each player who left a team of their own, ranked 2
    (a loss). Fewer than two teams: nothing to rate."""
    sides: dict[str, list[int]] = {}
    rank_of: dict[str, int] = {}
    teams: list[list[int]] = []
    ranks: list[int] = []
    for seat, uid, outcome in sorted(players):
        if outcome == LEFT:
            teams.append([uid])
            ranks.append(2)
            continue
        sides.setdefault(seat, []).append(uid)
        rank_of[seat] = 1 if outcome in (WIN, DRAW) else 2
    side_teams = [(sides[s], rank_of[s]) for s in sorted(sides)]
    teams = [t for t, _ in side_teams] + teams
    ranks = [r for _, r in side_teams] + ranks
    return teams, ranks


def rate_game(table: dict[int, Rating], players: list[tuple[str, int, str]]) -> None:
    """One rated game applied to ``table`` (user -> Rating), in place."""
    teams, ranks = teams_of(players)
    if len(teams) < 2:
        return
    before = [[MODEL.rating(mu=table[u].mu, sigma=table[u].sigma) if u in table else MODEL.rating() for u in t]
              for t in teams]
    after = MODEL.rate(before, ranks=ranks)
    for t, rated in zip(teams, after):
        for u, r in zip(t, rated):
            old = table.get(u)
            table[u] = Rating(r.mu, r.sigma, (old.games if old else 0) + 1)


def compute(games: list[list[tuple[str, int, str]]]) -> dict[int, Rating]:
    """The ratings of a server's ruleset from its rated games, in the order their results were kept."""
    table: dict[int, Rating] = {}
    for players in games:
        rate_game(table, players)
    return table


def ranked(table: dict[int, Rating]) -> list[tuple[int, Rating]]:
    """Established players first, each group by ordinal, best first (ties: the user id, for a stable order)."""
    return sorted(table.items(), key=lambda kv: (kv[1].provisional, -kv[1].ordinal, kv[0]))
