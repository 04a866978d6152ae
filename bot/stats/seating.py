"""Who played with whom in a stored match, from the match's own rules (``engine.teams``):
the stats never work a team out of a seat number themselves."""

from __future__ import annotations

import logging

from bot.store import MatchRecord
from engine.errors import EngineError
from engine.rules import Ruleset
from engine.teams import Seating

log = logging.getLogger(__name__)


def match_seating(match: MatchRecord) -> Seating:
    """The seating the match was played with. A stored rules dict that no longer reads (a
    damaged row) falls back to fixed partnerships of its seats, with a warning: one bad row
    must not stop a player's stats."""
    try:
        return Ruleset.from_dict(match.rules).seating
    except (EngineError, TypeError, ValueError, KeyError, AttributeError):
        log.warning("match %s: its stored rules do not read; teams taken as fixed partners",
                    match.id)
        return Seating(len(match.seats))


def teammates(seating: Seating, seat: int, players: int) -> tuple[list[int], list[int]]:
    """``seat``'s partners and opponents among ``players`` seats (fixed partnerships)."""
    team = seating.fixed_team(seat)
    partners = [s for s in range(players) if s != seat and seating.fixed_team(s) == team]
    opponents = [s for s in range(players) if seating.fixed_team(s) != team]
    return partners, opponents
