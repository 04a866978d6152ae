"""Match export: a finished match as a ``shengji-match`` document (seed, rules, action
log, hand results; the format is documented in ``docs/match-export.md``), and its
replay with the engine."""

from __future__ import annotations

from typing import Any

from bot.errors import BotError
from bot.stats.hands import fixed_team_of, hand_record, seat_outcomes
from bot.stats.seating import match_seating
from bot.store import HandRecord, Store
from engine.errors import EngineError
from engine.game import Game
from engine.record import FORMAT as RECORD_FORMAT
from engine.record import VERSION as RECORD_VERSION
from engine.record import GameRecord
from engine.teams import Seating

EXPORT_FORMAT = "shengji-match"
EXPORT_VERSION = 1


class MatchExporter:
    """Exports the ended matches of a server."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def export(self, guild_id: int, match_id: int) -> dict[str, Any]:
        """The match as a ``shengji-match`` document (docs/match-export.md). Only ended
        matches of this server: a match in play would reveal hidden cards."""
        match = await self.store.load_match(match_id)
        if match is None or match.guild_id != guild_id:
            raise BotError("no_match", match=match_id)
        if match.status == "playing":
            raise BotError("match_in_play", match=match_id)
        actions = await self.store.load_actions(match_id)
        hands = await self.store.match_hands(match_id)
        seating = match_seating(match)
        return {
            "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
            "match": {"id": match.id, "status": match.status, "ranked": match.ranked,
                      "winner_team": match.winner_team, "hands_played": match.hands_played,
                      "started_at": match.started_at.isoformat(),
                      "finished_at": None if match.finished_at is None
                      else match.finished_at.isoformat()},
            "seats": [{"seat": i, "team": fixed_team_of(seating, i), "kind": s.kind,
                       "name": s.name, "ai_level": s.ai_level}
                      for i, s in enumerate(match.seats)],
            "record": {"format": RECORD_FORMAT, "version": RECORD_VERSION, "seed": match.seed,
                       "rules": match.rules, "actions": actions},
            "hands": [hand_summary(seating, h) for h in hands],
        }


def hand_summary(seating: Seating, hand: HandRecord) -> dict[str, Any]:
    """The result of a stored hand as written in an export (a hand stored before
    migration 004 has its seats read from its fixed teams: ``bot/stats/hands.py``)."""
    seats = seat_outcomes(seating, hand)
    defenders = [o.seat for o in seats if o.defending]
    won = [o for o in seats if o.won]
    return {"hand_no": hand.hand_no, "dealer": hand.dealer, "level": hand.level,
            "trump": hand.trump, "defenders_team": hand.defenders_team,
            "attacker_points": hand.attacker_points,
            "kitty_multiplier": hand.kitty_multiplier, "last_trick_seat": hand.last_trick_seat,
            "winner_team": hand.winner_team, "levels_gained": hand.levels_gained,
            "levels_before": list(hand.levels_before), "levels_after": list(hand.levels_after),
            "defenders": defenders,
            "winner_side": "none" if not won else "defenders" if won[0].defending
            else "attackers",
            "bid": hand.bid,
            "seats": [{"before": o.before, "after": o.after, "gained": o.gained}
                      for o in seats]}


def replay_export(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Replay an export's record with the engine; every scored hand's result, in the
    export's ``hands`` format. Raises EngineError if the document or an action is bad."""
    if document.get("format") != EXPORT_FORMAT or document.get("version") != EXPORT_VERSION:
        raise EngineError("bad_record", rule="version", version=EXPORT_VERSION)
    record = GameRecord.from_dict(document["record"])
    seating = record.rules.seating
    game = Game(record.rules, record.seed)
    out: list[dict[str, Any]] = []
    last_winner: int | None = None
    for action in record.actions:
        for ev in game.apply(action):
            if ev.kind == "trick_won":
                last_winner = ev.seat
            elif ev.kind == "hand_scored":
                # the same record the table service stores (match id 0: not written)
                hand = hand_record(0, game, ev.get("result"), last_winner)
                out.append(hand_summary(seating, hand))
    return out
