"""Player ratings with openskill (Weng-Lin, Plackett-Luce model), one update per hand.

Why per hand and not per match: a Shengji match is long (a dozen hands or more, often
over several sittings) and on Discord many matches are never finished. Rating each scored
hand uses every contest that was actually played, lets no one escape a rating by
abandoning a losing match, and gives ~10× more evidence per evening than match results.
Each hand is a clean team contest between its actual sides (``bot/stats/counting.py``
``sides_of``): the defenders (the dealer and every friend found; the dealer alone in
three-bid or without a friend) against the attackers, in teams of any size (2 v 2, 3 v 3,
1 v 4, 2 v 3, 1 v 2), and the side that goes up wins it (nobody going up is a draw).
Partners change between matches (and in find-friends between hands), and openskill
credits each player of a team according to their own uncertainty.

Computer players are never rated or listed. A human partnered with computers is rated
all the same: each computer enters the update as a fixed, well-known rating for its
level (:data:`COMPUTER`), and whatever openskill computes for it is thrown away.

The number players see is ``1000 + 40 × (μ − 3σ)``: 1000 for a newcomer, rising as the
player wins and as the system becomes sure of them (σ shrinks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.store import Rating

#: openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (tau keeps sigma from
#: shrinking to nothing over many hands, so a rating can still move).
MODEL = PlackettLuce()
NEW_MU = MODEL.mu
NEW_SIGMA = MODEL.sigma

#: Fixed stand-in ratings for computer players by level (mu, sigma). A small sigma says
#: "known strength": the human's update then depends on their own rating only.
COMPUTER: dict[str, tuple[float, float]] = {
    "easy": (15.0, 2.0),
    "normal": (20.0, 2.0),
    "hard": (25.0, 2.0),
}


@dataclass(frozen=True, slots=True)
class Member:
    """A seat in a rated hand: a human (``user_id``) or a computer (``ai_level``)."""

    user_id: int | None
    ai_level: str | None = None


def display(rating: Rating | None) -> int:
    """The number shown to players (a newcomer's: 1000)."""
    if rating is None:
        return 1000
    return round(1000 + 40 * rating.score)


def new_rating(user_id: int) -> Rating:
    return Rating(user_id, NEW_MU, NEW_SIGMA, 0)


def rate_hand(teams: Sequence[Sequence[Member]], winner: int | None,
              current: Mapping[int, Rating]) -> list[Rating]:
    """New ratings of the humans after one hand. ``teams[i]`` are team ``i``'s seats;
    ``winner`` the team that went up (None: a draw); ``current`` the humans' ratings so far
    (a human missing from it starts as a newcomer). Computers are not returned.

    A user sitting on both teams, or a hand without a human, changes nothing."""
    humans = [[m.user_id for m in team if m.user_id is not None] for team in teams]
    everyone = [u for team in humans for u in team]
    if not everyone or any(set(a) & set(b) for i, a in enumerate(humans)
                           for b in humans[i + 1:]):
        return []
    model_teams = []
    for team in teams:
        seen: set[int] = set()
        members = []
        for m in team:
            if m.user_id is None:
                mu, sigma = COMPUTER.get(m.ai_level or "easy", COMPUTER["easy"])
                members.append(MODEL.rating(mu=mu, sigma=sigma))
            elif m.user_id not in seen:  # one person in two seats of a team counts once
                seen.add(m.user_id)
                r = current.get(m.user_id) or new_rating(m.user_id)
                members.append(MODEL.rating(mu=r.mu, sigma=r.sigma, name=str(m.user_id)))
        model_teams.append(members)
    ranks = [0.0 if winner is None or i == winner else 1.0 for i in range(len(teams))]
    out = []
    for rated_team in MODEL.rate(model_teams, ranks=ranks):
        for player in rated_team:
            if player.name is not None:
                user = int(player.name)
                before = current.get(user)
                out.append(Rating(user, float(player.mu), float(player.sigma),
                                  (before.hands if before else 0) + 1))
    return out
