"""The rulings of a hand, in this one place: how strong a play is in its trick and who
wins the trick (``play_key``, ``takes_lead``, ``trick_winner``: written beside the play
rules in ``engine.plays``, whose ``PlayRules.trick_winner`` is the same function), who
is credited with its points, a failed throw's forced play and penalty, and the kitty at
the end of a hand (RULES §2); the level a hand's points reach is ``engine.scoring``'s.
The game (``engine.game``) and the computer players' fast simulator (``engine.ai.table``,
``engine.ai.knowledge``, ``engine.ai.policy``) both call these, so that a rule changed
once changes everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card
from engine.order import TrumpContext
from engine.plays import Lead, PlayRules, play_key, takes_lead, trick_winner
from engine.rules import Ruleset
from engine.scoring import kitty_multiplier, kitty_points
from engine.shapes import holding_of, unit_cards

__all__ = [
    "FailedThrow", "KittyRuling", "attackers_gain", "failed_throw", "kitty_ruling",
    "play_key", "takes_lead", "trick_winner",
]


# -- tricks -----------------------------------------------------------------------------

def attackers_gain(points: int, *, defenders_take: bool) -> int:
    """What a trick's ``points`` add to the attackers' points: all of them when the
    attackers take the trick, nothing when the defenders do."""
    return 0 if defenders_take else points


# -- throws -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FailedThrow:
    kept: tuple[Card, ...]  # what the thrower plays instead
    lead: Lead  # the lead those cards make
    penalty: int  # points credited to the thrower's opponents

    def attackers_gain(self, *, thrower_defends: bool) -> int:
        """What the penalty adds to the attackers' points (a thrower of theirs loses it)."""
        return self.penalty if thrower_defends else -self.penalty


def failed_throw(prules: PlayRules, rules: Ruleset, lead: Lead, cards: Sequence[Card],
                 others: Sequence[Sequence[Card]], ctx: TrumpContext) -> FailedThrow | None:
    """The ruling on a throw against the other seats' hands ``others``: None when it
    stands, else the component it must play and the penalty (RULES §2 throw validation)."""
    suit = lead.suit
    held = [holding_of([c for c in hand if ctx.eff[c.index] == suit], ctx) for hand in others]
    forced = prules.throw_forced(lead, held, ctx)
    if forced is None:
        return None
    kept = tuple(unit_cards(forced, cards, ctx))
    return FailedThrow(kept, prules.lead(kept, ctx),
                       rules.throw_penalty * (len(cards) - len(kept)))


# -- the kitty --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KittyRuling:
    points: int  # the kitty's points (changzhu: jokers count)
    multiplier: int  # 0 when the kitty does not go to the attackers
    delta: int  # added to the attackers' points (negative under 保底)


def kitty_ruling(prules: PlayRules, rules: Ruleset, kitty: Sequence[Card],
                 winning_play: Sequence[Card], ctx: TrumpContext, *, attackers_won: bool
                 ) -> KittyRuling:
    """The kitty at the end of a hand whose last trick ``winning_play`` took."""
    pts = kitty_points(rules, kitty)
    if attackers_won:
        largest = prules.largest_component(winning_play, ctx)
        multiplier = kitty_multiplier(rules, largest, len(winning_play))
        return KittyRuling(pts, multiplier, pts * multiplier)
    return KittyRuling(pts, 0, -pts if rules.keep_kitty_subtracts else 0)
