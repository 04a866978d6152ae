"""A scored hand as the store keeps it, in every preset (RULES §2-§6): built from the
engine's ``HandResult`` (:func:`hand_record`), and read back seat by seat
(:func:`seat_outcomes`) for the stats, the ratings, the history and the export.

The sides of a hand are the engine's: ``HandResult.defenders`` (the dealer and every friend
found; the dealer alone when none was, or in three-bid), the rest attack. Levels are per
level holder (``Seating.holder``: a fixed team, or each player where levels are
individual). What a hand gives a seat (``gained``):

* fixed teams: the level table's levels (``HandResult.levels``) to every seat of the team
  that went up, even where the top rank stops the move (as before migration 004);
* individual levels: the engine's ``LevelChange.earned`` for each seat of the side that
  went up (the dealer and a friend may get different levels in find-friends); the player
  who wins the match by passing the top (which moves no rank, so ``earned`` is 0) gets
  the level table's levels of the hand (``HandResult.levels``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.store import HandRecord, SeatChange, StoreError, WinnerSide
from bot.text.catalogue import SOURCE
from bot.text.events import result_lines
from engine.cards import format_cards
from engine.game import Game, HandOver, MatchOver, Transferring
from engine.scoring import ATTACKERS, DEFENDERS, HandResult
from engine.teams import Formation, Seating


def _winner_side(result: HandResult) -> WinnerSide:
    if result.side == DEFENDERS:
        return "defenders"
    if result.side == ATTACKERS:
        return "attackers"
    return "none"


def hand_record(match_id: int, game: Game, result: HandResult, last_trick_seat: int | None
                ) -> HandRecord:
    """The record of the hand ``game`` has just scored (its phase: the hand's end)."""
    phase = game.phase
    assert isinstance(phase, (HandOver, Transferring, MatchOver))
    trump = phase.ctx.trump
    seating = game.rules.seating
    side = _winner_side(result)
    defenders = tuple(sorted(result.defenders or (result.dealer,)))
    changes = tuple(
        SeatChange(c.old.label, c.new.label,
                   _gained(seating, result, side, c.seat, c.seat in defenders, c.earned),
                   c.reasons)
        for c in sorted(result.changes, key=lambda c: c.seat))
    before = ["" for _ in range(seating.level_holders)]
    after = list(before)
    for seat, change in enumerate(changes):
        before[seating.holder(seat)] = change.before
        after[seating.holder(seat)] = change.after
    team = fixed_team_of(seating, result.dealer)
    winner_team = last_trick_team = None
    if team is not None:
        other = _other_team(seating, team)
        winner_team = {"defenders": team, "attackers": other}.get(side)
        last_trick_team = team if result.last_trick_side == DEFENDERS else other
    return HandRecord(
        match_id=match_id, hand_no=game.hand_number, dealer=result.dealer,
        level=result.old_levels[0].label, trump=None if trump is None else trump.value,
        defenders_team=team, attacker_points=result.attacker_points,
        kitty_multiplier=result.multiplier, last_trick_team=last_trick_team,
        winner_team=winner_team, levels_gained=result.levels if side != "none" else 0,
        levels_before=before, levels_after=after,
        result={"lines": result_lines(SOURCE, result), "side": result.side,
                "levels": result.levels, "kitty": format_cards(result.kitty),
                "kitty_points": result.kitty_points, "trick_points": result.trick_points,
                "next_dealer": result.next_dealer, "match_winner": result.winner_team},
        last_trick_seat=last_trick_seat, defenders=defenders, winner_side=side,
        bid=result.bid, seat_changes=changes)


def _gained(seating: Seating, result: HandResult, side: WinnerSide, seat: int,
            defending: bool, earned: int) -> int:
    if side == "none" or defending != (side == "defenders"):
        return 0
    if seating.formation is Formation.FIXED:
        return result.levels
    if result.winner_team == seat:  # passing the top moves no rank: ``earned`` misses it
        return max(earned, result.levels)
    return max(earned, 0)


def fixed_team_of(seating: Seating, seat: int) -> int | None:
    """``seat``'s fixed team, or None where the match has no fixed teams."""
    return seating.fixed_team(seat) if seating.formation is Formation.FIXED else None


def _other_team(seating: Seating, team: int) -> int:
    return next(seating.fixed_team(s) for s in range(seating.players)
                if seating.fixed_team(s) != team)


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat in one stored hand."""

    seat: int
    defending: bool  # on the dealer's side
    won: bool  # its side went up
    gained: int  # levels the hand gave it
    before: str  # its level before the hand, after it
    after: str


def seat_outcomes(seating: Seating, hand: HandRecord) -> list[SeatOutcome]:
    """Every seat of a stored hand, by seat. A hand stored before migration 004 has only
    its fixed teams' fields (fixed partnerships were all the bot hosted then); its seats
    are read from those."""
    players = seating.players
    if hand.defenders is not None and hand.seat_changes is not None:
        defenders = set(hand.defenders)
        side = hand.winner_side
        return [SeatOutcome(seat, seat in defenders,
                            side == ("defenders" if seat in defenders else "attackers"),
                            change.gained, change.before, change.after)
                for seat, change in enumerate(hand.seat_changes[:players])]
    if seating.formation is not Formation.FIXED:
        raise StoreError(f"hand {hand.hand_no} of match {hand.match_id} has no seats' "
                         "record, and its match no fixed teams to read them from")
    out = []
    for seat in range(players):
        team = seating.fixed_team(seat)
        won = hand.winner_team == team
        out.append(SeatOutcome(seat, team == hand.defenders_team, won,
                               hand.levels_gained if won else 0,
                               _label(hand.levels_before, team), _label(hand.levels_after, team)))
    return out


def _label(levels: Sequence[str], index: int) -> str:
    return levels[index] if 0 <= index < len(levels) else ""
