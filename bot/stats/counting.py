"""Counting every scored hand into the players' totals and (for ranked matches) their
openskill ratings (``bot/ratings.py``), exactly once: the store marks how many hands of a
match are counted (``matches.stats_hands``), and the counter counts the rest after each
hand and at start-up.

**Ranked.** A match is ranked unless the server's settings forbid computer players at
ranked tables (``computers_ranked`` off) and the table has a computer in a seat when the
match starts; a user in two seats also makes it casual. Only humans are rated, and a
human partnered with computers is rated too.

**Sides.** Every count reads the hand's actual sides (``bot/stats/hands.py``): the
dealer and the friends found defend, the rest attack, in every preset. The totals and
the ratings are per player; ``docs/stats.md`` says what counts in each preset.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.ratings import Member, rate_hand
from bot.stats.hands import seat_outcomes
from bot.stats.seating import match_seating
from bot.stats.settings import ServerSettingsService
from bot.store import (
    FORMER_PLAYER,
    HandRecord,
    HandStats,
    MatchRecord,
    SeatRecord,
    Store,
    StoreError,
)
from engine.errors import EngineError
from engine.teams import Seating

log = logging.getLogger(__name__)


def hand_stats(match: MatchRecord, hand: HandRecord, seating: Seating | None = None
               ) -> list[HandStats]:
    """What a hand adds to each human's totals (a user in two seats counts once, by their
    first seat; a former player, never); ``seating``: the match's, when the caller has read
    it already."""
    out: list[HandStats] = []
    seen: set[int] = set()
    outcomes = seat_outcomes(seating or match_seating(match), hand)
    for outcome in outcomes:
        record = match.seats[outcome.seat] if outcome.seat < len(match.seats) else None
        if record is None or record.user_id in (None, FORMER_PLAYER) or record.user_id in seen:
            continue
        seen.add(record.user_id)
        out.append(HandStats(
            user_id=record.user_id, defending=outcome.defending, won=outcome.won,
            levels_gained=outcome.gained,
            kitty_captured=hand.kitty_multiplier > 0 and not outcome.defending
            and hand.last_trick_seat == outcome.seat))
    return out


def sides_of(match: MatchRecord, hand: HandRecord, seating: Seating
             ) -> tuple[list[list[Member]], int | None]:
    """The hand's actual sides as rating teams, [defenders, attackers] (the dealer and
    the friends found against the rest: 2 v 2, 3 v 3, 1 v 4, 2 v 3, 1 v 2), and the index
    of the side that went up (None: nobody)."""
    teams: list[list[Member]] = [[], []]
    winner: int | None = None
    for outcome in seat_outcomes(seating, hand):
        if outcome.seat >= len(match.seats):  # (a damaged row: fewer seats than its rules)
            continue
        record = match.seats[outcome.seat]
        teams[0 if outcome.defending else 1].append(Member(record.user_id, record.ai_level))
        if outcome.won:
            winner = 0 if outcome.defending else 1
    return teams, winner


class StatsCounter:
    """The TableService's stats hooks: is a match ranked; count a stored hand."""

    def __init__(self, store: Store, settings: ServerSettingsService) -> None:
        self.store = store
        self.settings = settings
        self._lock = asyncio.Lock()  # one counter at a time: ratings are read-modify-write

    async def ranked(self, guild_id: int, seats: Sequence[SeatRecord]) -> bool:
        """Is a match with these seats ranked in this server? (See the module docstring.)"""
        users = [s.user_id for s in seats if s.user_id is not None]
        if len(users) != len(set(users)):
            return False
        if any(s.kind == "ai" for s in seats):
            return (await self.settings.get(guild_id)).computers_ranked
        return True

    async def hand_recorded(self, match_id: int) -> None:
        """Count the match's uncounted hands. Never raises: a failure is logged and the
        hands are counted later (the next hand, or at start-up)."""
        try:
            await self.count_match(match_id)
        except (StoreError, EngineError, ValueError):
            log.exception("could not count the hands of match %s", match_id)

    async def count_match(self, match_id: int) -> int:
        """Count every stored, uncounted hand of one match; how many were counted."""
        async with self._lock:
            match = await self.store.load_match(match_id)
            if match is None:
                return 0
            done = await self.store.stats_progress(match_id)
            if done >= match.hands_played:
                return 0
            hands = (await self.store.match_hands(match_id))[done:]
            seating = match_seating(match)  # once a match, not once a hand
            for hand in hands:
                ratings = []
                if match.ranked:
                    teams, winner = sides_of(match, hand, seating)
                    users = [m.user_id for team in teams for m in team if m.user_id]
                    current = await self.store.load_ratings(match.guild_id, users)
                    ratings = [r for r in rate_hand(teams, winner, current)
                               if r.user_id != FORMER_PLAYER]  # (a newcomer, not kept)
                await self.store.count_hand(match_id, hand.hand_no,
                                            hand_stats(match, hand, seating), ratings)
            return len(hands)

    async def catch_up(self) -> int:
        """At start-up: count the hands a crash left uncounted (and, after an upgrade,
        the hands stored before migration 002)."""
        counted = 0
        for match_id in await self.store.pending_stats():
            try:
                counted += await self.count_match(match_id)
            except StoreError:
                log.exception("could not count the hands of match %s", match_id)
        return counted
