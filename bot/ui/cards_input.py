"""Cards as a player types them: ``AS AS KS``, ``♠A ♠A ♠K``, or the numbers under the
cards of their hand picture (``3 4 9``)."""

from __future__ import annotations

import re

from bot.errors import BotError
from engine.cards import Card, parse_cards, typed
from engine.errors import EngineError
from engine.views import SeatView
from images import display_order

_NUMBERS = re.compile(r"^[\d\s,，、]+$")
_NUMBER_SPLIT = re.compile(r"[\s,，、]+")


def hand_order(view: SeatView) -> list[Card]:
    """The order of the numbers under the cards of the seat's hand picture."""
    return display_order(view.hand, view.ctx)


def parse_play(text: str, view: SeatView) -> list[Card]:
    """Cards typed as ``AS AS KS``, ``♠A ♠A ♠K`` or the numbers under the hand picture."""
    text = typed(text).strip()
    if not text:
        raise BotError("cards_none")
    if _NUMBERS.match(text):
        order = hand_order(view)
        if not order:  # (not "numbered 1 to 0")
            raise BotError("cards_no_hand")
        parts = [n for n in _NUMBER_SPLIT.split(text) if n]
        if any(len(n) > 4 for n in parts):  # (and no int() of thousands of digits)
            raise BotError("cards_numbered", count=len(order))
        numbers = [int(n) for n in parts]
        if len(set(numbers)) != len(numbers):
            raise BotError("cards_twice")
        bad = [n for n in numbers if not 1 <= n <= len(order)]
        if bad:
            raise BotError("cards_numbered", count=len(order))
        return [order[n - 1] for n in numbers]
    return _by_name(text)


def parse_kitty_cards(text: str) -> list[Card]:
    """Kitty cards (changzhu's swap), typed by name: the numbers under the hand picture
    are the hand's cards, so a number here would name a card of the hand."""
    text = typed(text).strip()
    if _NUMBERS.match(text):
        raise BotError("cards_kitty_by_name")
    return _by_name(text)


def _by_name(text: str) -> list[Card]:
    """Cards written by name (``AS``, ``♠A``); a card the rules cannot read is refused."""
    try:
        return parse_cards(text)
    except EngineError as exc:
        raise BotError.refused("bad_cards", exc) from None
