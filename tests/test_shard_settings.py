"""SHENGJI_SHARD_COUNT and SHENGJI_SHARDS (bot/config.py, parse_shards)."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, parse_shards


@pytest.mark.parametrize("count, shards, expected", [
    ("", "", (None, None)),
    ("4", "", (4, (0, 1, 2, 3))),
    ("4", "0,1", (4, (0, 1))),
    ("4", "2-3", (4, (2, 3))),
    ("8", " 5, 0-1 ,1 ", (8, (0, 1, 5))),
    ("1", "0", (1, (0,))),
], ids=["not-sharded", "every-shard", "list", "range", "mixed-and-repeated", "one-of-one"])
def test_shards_are_a_list_of_numbers_and_ranges(count: str, shards: str,
                                                 expected: tuple[object, object]) -> None:
    assert parse_shards(count, shards) == expected


@pytest.mark.parametrize("count, shards, message", [
    ("", "0,1", "needs SHENGJI_SHARD_COUNT"),
    ("0", "", "whole number from 1"),
    ("two", "", "whole number from 1"),
    ("4", "4", "from 0 to 3"),
    ("4", "1-9", "from 0 to 3"),
    ("4", "a,b", "such as 0,1 or 2-3"),
    ("4", "1-", "such as 0,1 or 2-3"),
    ("4", "3-1", "from 0 to 3"),
    ("²", "", "whole number from 1"),  # (a digit to isdigit(), none to int(): was a traceback)
    ("4", "0-1²", "such as 0,1 or 2-3"),
], ids=["shards-without-count", "zero", "not-a-number", "past-the-count", "range-past-count",
        "letters", "open-range", "backwards-range", "superscript-count", "superscript-shard"])
def test_nonsense_shard_settings_say_what_is_wrong(count: str, shards: str,
                                                   message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_shards(count, shards)
