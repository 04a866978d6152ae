"""Match export: a finished match as a ``shengji-match`` document (seed, rules, action
log, hand results; the format is documented in ``docs/match-export.md``), and its
replay with the engine."""

from __future__ import annotations

from typing import Any

from bot.errors import BotError
from bot.stats.seating import match_seating
from bot.store import HandRecord, Store
from engine.errors import EngineError
from engine.game import Game, HandOver, MatchOver
from engine.record import FORMAT as RECORD_FORMAT
from engine.record import VERSION as RECORD_VERSION
from engine.record import GameRecord
from engine.scoring import HandResult
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
            "seats": [{"seat": i, "team": seating.fixed_team(i), "kind": s.kind, "name": s.name,
                       "ai_level": s.ai_level} for i, s in enumerate(match.seats)],
            "record": {"format": RECORD_FORMAT, "version": RECORD_VERSION, "seed": match.seed,
                       "rules": match.rules, "actions": actions},
            "hands": [hand_summary(h) for h in hands],
        }


def hand_summary(hand: HandRecord) -> dict[str, Any]:
    """The result of a stored hand as written in an export."""
    return {"hand_no": hand.hand_no, "dealer": hand.dealer, "level": hand.level,
            "trump": hand.trump, "defenders_team": hand.defenders_team,
            "attacker_points": hand.attacker_points,
            "kitty_multiplier": hand.kitty_multiplier, "last_trick_seat": hand.last_trick_seat,
            "winner_team": hand.winner_team, "levels_gained": hand.levels_gained,
            "levels_before": list(hand.levels_before), "levels_after": list(hand.levels_after)}


def _replayed_summary(seating: Seating, hand_no: int, result: HandResult, trump: str | None,
                      last_trick_seat: int | None) -> dict[str, Any]:
    defenders = seating.fixed_team(result.dealer)
    winner = {"defenders": defenders, "attackers": 1 - defenders}.get(result.side)

    def by_team(pair: tuple[Any, Any]) -> list[str]:
        out = ["", ""]
        out[defenders], out[1 - defenders] = pair[0].label, pair[1].label
        return out

    return {"hand_no": hand_no, "dealer": result.dealer, "level": result.old_levels[0].label,
            "trump": trump, "defenders_team": defenders,
            "attacker_points": result.attacker_points, "kitty_multiplier": result.multiplier,
            "last_trick_seat": last_trick_seat, "winner_team": winner,
            "levels_gained": result.levels if winner is not None else 0,
            "levels_before": by_team(result.old_levels),
            "levels_after": by_team(result.new_levels)}


def replay_export(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Replay an export's record with the engine; every scored hand's result, in the
    export's ``hands`` format. Raises EngineError if the document or an action is bad."""
    if document.get("format") != EXPORT_FORMAT or document.get("version") != EXPORT_VERSION:
        raise EngineError("bad_record", rule="version", version=EXPORT_VERSION)
    record = GameRecord.from_dict(document["record"])
    game = Game(record.rules, record.seed)
    out: list[dict[str, Any]] = []
    last_winner: int | None = None
    for action in record.actions:
        for ev in game.apply(action):
            if ev.kind == "trick_won":
                last_winner = ev.seat
            elif ev.kind == "hand_scored":
                phase = game.phase
                assert isinstance(phase, (HandOver, MatchOver))
                trump = phase.ctx.trump
                out.append(_replayed_summary(record.rules.seating, game.hand_number,
                                             ev.get("result"),
                                             None if trump is None else trump.value,
                                             last_winner))
    return out
