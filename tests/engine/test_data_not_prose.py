"""The engine returns data, never sentences (issue 12 item 6): every event's data and
every hand result of random hands of every preset holds codes, numbers and cards, and
every refusal is a code with parameters. The bot words them (``bot/text``)."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest

from engine.actions import Event
from engine.cards import Card, Rank, parse_cards
from engine.errors import EngineError
from engine.game import Game, HandOver, MatchOver
from engine.rules import PRESETS, ruleset
from engine.scoring import NOTES, REASONS, HandResult
from engine.simulate import random_action

_CODE = re.compile(r"[a-z0-9_]*|[♠♥♦♣]|10|[2-9JQKA]|[SHDC]|[\u4e00-\u9fff]+")


def _prose(value: Any, where: str) -> list[str]:
    """The strings in ``value`` that are not codes (a word or a card list is fine)."""
    if isinstance(value, str):
        if _CODE.fullmatch(value):
            return []
        try:
            parse_cards(value)  # e.g. a failed throw's forced cards, "5S 5S"
            return []
        except EngineError:
            return [f"{where}: {value!r}"]
    if isinstance(value, (Card, Rank, int, float, bool)) or value is None:
        return []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _prose(v, f"{where}.{k}")]
    if isinstance(value, (list, tuple, frozenset, set)):
        return [p for i, v in enumerate(value) for p in _prose(v, f"{where}[{i}]")]
    if dataclasses.is_dataclass(value):
        return [p for f in dataclasses.fields(value)
                for p in _prose(getattr(value, f.name), f"{where}.{f.name}")]
    return [f"{where}: a {type(value).__name__}"]


def _check_result(result: HandResult) -> None:
    assert all(n.code in NOTES for n in result.notes)
    assert all(r in REASONS for c in result.changes for r in c.reasons)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_events_and_results_of_random_hands_are_data(preset: str) -> None:
    rng = random.Random(f"prose:{preset}")
    for seed in range(2):
        game = Game(ruleset(preset), seed)
        prose: list[str] = []
        while not isinstance(game.phase, (HandOver, MatchOver)):
            action = random_action(game, rng)
            assert action is not None
            events: list[Event] = game.apply(action)
            for ev in events:
                prose += _prose(dict(ev.data), ev.kind)
                result = ev.get("result")
                if isinstance(result, HandResult):
                    _check_result(result)
        assert prose == [], prose


def test_a_refusal_is_a_code_with_parameters_and_no_sentence() -> None:
    with pytest.raises(EngineError) as info:
        ruleset("classic", players=9)
    assert (info.value.code, info.value.params) == (
        "bad_option", {"option": "players", "rule": "players_range"})
    assert info.value.args == ("bad_option",)
