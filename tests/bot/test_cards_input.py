"""What a player types for cards (``/shengji play``, ``bury``, ``return``, ``swap``):
card names in any keyboard's spelling, or the numbers under their hand picture."""

from __future__ import annotations

import random

import pytest

from bot.errors import BotError
from bot.ui.cards_input import hand_order, parse_play
from engine.game import Game, Playing
from engine.rules import ruleset
from engine.simulate import random_action
from engine.views import seat_view


def _playing() -> Game:
    game = Game(ruleset("classic"), 7)
    rng = random.Random(7)
    while not isinstance(game.phase, Playing):
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
    return game


@pytest.mark.parametrize("text", ["1、2、3", "1，2，3", "1 2, 3", "１、２、３"])
def test_hand_numbers_in_any_separator_a_keyboard_types(text: str) -> None:
    """Was: ``1、2、3`` (the Chinese list comma, which card names already took) was read
    as a card name and refused as "“1” is not a card"."""
    view = seat_view(_playing(), 0)
    assert parse_play(text, view) == hand_order(view)[:3]


def test_cards_typed_with_a_phone_emoji_keyboard_are_read() -> None:
    view = seat_view(_playing(), 0)
    assert [str(c) for c in parse_play("♠\ufe0fA ＫＨ", view)] == ["AS", "KH"]


def test_hand_numbers_without_a_hand_say_so() -> None:
    """Was: "your cards are numbered 1 to 0" before the deal reached the player."""
    view = seat_view(Game(ruleset("classic"), 7), 0)
    assert not view.hand
    with pytest.raises(BotError) as refused:
        parse_play("3", view)
    assert refused.value.key == "cards_no_hand"


def test_what_a_player_typed_is_repeated_back_as_typed() -> None:
    """Was: a refusal repeating ``**AS**`` showed it bold, and ``<@id>`` as a mention."""
    from bot.tree import _echoes_clipped
    shown = _echoes_clipped({"text": "**AS** <@123456789012345678>", "code": "bad_card",
                             "value": "x" * 500})
    assert shown["text"] == "\\*\\*AS\\*\\* <@\u200b123456789012345678>"
    assert shown["code"] == "bad_card"  # (the rules' own words are left alone)
    assert len(shown["value"]) < 300 and shown["value"].endswith("…")


def test_kitty_cards_are_named_not_numbered() -> None:
    """Was: ``/shengji swap take:1`` read 1 as the first card of the hand picture, though
    ``take`` names cards of the kitty."""
    from bot.ui.cards_input import parse_kitty_cards
    assert [str(c) for c in parse_kitty_cards("2H ♥️3")] == ["2H", "3H"]
    with pytest.raises(BotError) as refused:
        parse_kitty_cards("1 2")
    assert refused.value.key == "cards_kitty_by_name"
