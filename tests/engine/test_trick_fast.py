"""The short paths of a trick's end agree with the plain rulings (hypothesis): the winner
with the lead's key worked out first, and a play's key by ``deciding_strength``."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.cards import Card, deck
from engine.errors import EngineError
from engine.game import Game
from engine.order import TRUMP, TrumpContext, trump_context
from engine.plays import ClassicPlay, Lead, PlayKey, PlayRules, play_key, trick_winner
from engine.rules import ruleset
from engine.shapes import deciding_strength, holding_of, unit_candidates
from tests.engine.test_legal_fast import RULESETS as LEGAL_RULESETS

#: test_legal_fast's rulesets, and three-bid's (tricks of three seats)
RULESETS = {**LEGAL_RULESETS, "three-bid": ruleset("three-bid")}


def reference_key(prules: PlayRules, lead: Lead, play: Sequence[Card], ctx: TrumpContext
                  ) -> PlayKey | None:
    """A classic play's key as RULES §2 words it: one suit, the led one or trumps, then
    the strength of its deciding component (``deciding_strength``), nothing skipped."""
    suits = {ctx.eff[card.index] for card in play}
    if len(suits) != 1 or not suits <= {lead.suit, TRUMP}:
        return None
    decided = deciding_strength(holding_of(play, ctx), ctx, lead.units)
    return None if decided is None else (int(TRUMP in suits), *decided)


def reference_winner(prules: PlayRules, lead: Lead, plays: Sequence[Sequence[Card]],
                     ctx: TrumpContext) -> int:
    """Every play's key, the lead's first; the first of the strongest wins."""
    best, best_key = 0, play_key(prules, lead, plays[0], ctx)
    for i in range(1, len(plays)):
        key = play_key(prules, lead, plays[i], ctx)
        if key is not None and (best_key is None or key > best_key):
            best, best_key = i, key
    return best


@st.composite
def tricks(draw: st.DrawFn) -> tuple[PlayRules, Lead, list[tuple[Card, ...]], TrumpContext]:
    """A lead of one suit (any shape the style reads from it) and follows of as many
    cards, mostly of the led suit or trumps, under a random context and ruleset."""
    rules = RULESETS[draw(st.sampled_from(sorted(RULESETS)))]
    prules = Game(rules, 0).play_rules
    ctx = trump_context(draw(st.sampled_from(rules.level_ranks)),
                        draw(st.sampled_from([None, *rules.suits.side_suits])),
                        frozenset(rules.permanent_trumps), rules.suits)
    suit = draw(st.sampled_from(sorted(set(ctx.eff))))
    cards_dealt = deck(rules.decks)
    in_suit = [c for c in cards_dealt if ctx.eff[c.index] == suit]
    trumps = [c for c in cards_dealt if ctx.eff[c.index] == TRUMP]
    cards = draw(st.lists(st.sampled_from(in_suit), min_size=1, max_size=6))
    try:
        lead = prules.lead(cards, ctx)
    except EngineError:  # (changzhu: no throws; too many copies of a card)
        assume(False)
        raise
    plays: list[tuple[Card, ...]] = [lead.cards]
    for _ in range(rules.players - 1):
        pool = draw(st.sampled_from([in_suit, trumps or in_suit, cards_dealt]))
        plays.append(tuple(draw(st.lists(st.sampled_from(pool), min_size=lead.size,
                                         max_size=lead.size))))
    return prules, lead, plays, ctx


@given(tricks())
@settings(max_examples=400, deadline=None)
def test_the_trick_winner_is_the_one_with_every_key_worked_out(
        case: tuple[PlayRules, Lead, list[tuple[Card, ...]], TrumpContext]) -> None:
    """``trick_winner`` works the lead's key out only once a follow may win."""
    prules, lead, plays, ctx = case
    assert trick_winner(prules, lead, plays, ctx) == reference_winner(prules, lead, plays, ctx)


@given(tricks())
@settings(max_examples=400, deadline=None)
def test_a_classic_plays_key_is_its_deciding_strength(
        case: tuple[PlayRules, Lead, list[tuple[Card, ...]], TrumpContext]) -> None:
    """The classic style's key (singles, n-of-a-kind and throws of singles ranked
    directly) is the deciding component's strength, for the lead and every follow."""
    prules, lead, plays, ctx = case
    assume(isinstance(prules, ClassicPlay))
    for play in plays:
        assert prules.play_key(lead, play, ctx) == reference_key(prules, lead, play, ctx)


@given(tricks())
@settings(max_examples=400, deadline=None)
def test_a_play_too_short_of_wide_cards_holds_no_unit_standing_for_the_largest(
        case: tuple[PlayRules, Lead, list[tuple[Card, ...]], TrumpContext]) -> None:
    """``deciding_strength``'s shortcut: a play holding fewer cards ``width`` times or
    more than the lead's largest unit has cards holds no unit that may stand for it (of
    its width and length, or a wider tractor of as many cards), so it cannot win."""
    _, lead, plays, ctx = case
    first = lead.units[0]
    shapes = [(first.width, first.length)] + [
        (width, first.size // width) for width in range(first.width + 1, 5)
        if first.is_tractor and first.size % width == 0 and first.size // width >= 2]
    for play in plays:
        holding = holding_of(play, ctx)
        if sum(count for count in holding.values() if count >= first.width) < first.size:
            assert deciding_strength(holding, ctx, lead.units) is None
            for width, length in shapes:
                assert not unit_candidates(holding, ctx, width, length)
