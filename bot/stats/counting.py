"""Counting every scored hand into the players' totals and (for ranked matches) their
openskill ratings (``bot/ratings.py``), exactly once: the store marks how many hands of a
match are counted (``matches.stats_hands``), and the counter counts the rest after each
hand and at start-up.

**Ranked.** A match is ranked unless the server's settings forbid computer players at
ranked tables (``computers_ranked`` off) and the table has a computer in a seat when the
match starts; a user in two seats also makes it casual. Only humans are rated, and a
human partnered with computers is rated too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.ratings import Member, rate_hand
from bot.stats.seating import match_seating
from bot.stats.settings import ServerSettingsService
from bot.store import HandRecord, HandStats, MatchRecord, SeatRecord, Store, StoreError
from engine.errors import EngineError
from engine.teams import Seating

log = logging.getLogger(__name__)


def hand_stats(match: MatchRecord, hand: HandRecord, seating: Seating | None = None
               ) -> list[HandStats]:
    """What a hand adds to each human's totals (a user in two seats counts once);
    ``seating``: the match's, when the caller has read it already."""
    out: list[HandStats] = []
    seen: set[int] = set()
    seating = seating or match_seating(match)
    for seat, record in enumerate(match.seats):
        if record.user_id is None or record.user_id in seen:
            continue
        seen.add(record.user_id)
        team = seating.fixed_team(seat)
        won = hand.winner_team == team
        out.append(HandStats(
            user_id=record.user_id, defending=team == hand.defenders_team, won=won,
            levels_gained=hand.levels_gained if won else 0,
            kitty_captured=hand.kitty_multiplier > 0 and hand.last_trick_seat == seat))
    return out


def teams_of(match: MatchRecord, seating: Seating) -> list[list[Member]]:
    """The match's two fixed teams, as rating members."""
    teams: list[list[Member]] = [[], []]
    for seat, record in enumerate(match.seats):
        teams[seating.fixed_team(seat)].append(Member(record.user_id, record.ai_level))
    return teams


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
            teams = teams_of(match, seating)
            for hand in hands:
                ratings = []
                if match.ranked:
                    users = [m.user_id for team in teams for m in team if m.user_id]
                    current = await self.store.load_ratings(match.guild_id, users)
                    ratings = rate_hand(teams, hand.winner_team, current)
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
