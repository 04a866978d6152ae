"""A game as data: seed + ruleset + action log, as versioned JSON; ``replay`` rebuilds it.

Format (version 1)::

    {"format": "shengji-record", "version": 1, "seed": 123,
     "rules": {...Ruleset.to_dict()...},
     "actions": [{"type": "Deal", "count": 4}, {"type": "Play", "seat": 0, "cards": "AS AS"}]}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, action_from_dict, action_to_dict
from engine.errors import EngineError
from engine.game import Game
from engine.rules import Ruleset

FORMAT = "shengji-record"
VERSION = 1


@dataclass(frozen=True)
class GameRecord:
    seed: int
    rules: Ruleset
    actions: tuple[Action, ...]

    @classmethod
    def of(cls, game: Game) -> GameRecord:
        return cls(game.seed, game.rules, tuple(game.log))

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "seed": self.seed,
                "rules": self.rules.to_dict(),
                "actions": [action_to_dict(a) for a in self.actions]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        if data.get("format") != FORMAT or data.get("version") != VERSION:
            raise EngineError("bad_record", rule="version", version=VERSION)
        try:
            return cls(int(data["seed"]), Ruleset.from_dict(data["rules"]),
                       tuple(action_from_dict(a) for a in data["actions"]))
        except (KeyError, TypeError, ValueError):
            raise EngineError("bad_record", rule="malformed") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError:
            raise EngineError("bad_record", rule="not_json") from None


def replay(record: GameRecord) -> Game:
    """The game the record describes; raises EngineError if an action is refused."""
    game = Game(record.rules, record.seed)
    for action in record.actions:
        game.apply(action)
    return game
