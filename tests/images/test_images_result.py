"""The result picture: kitty, multiplier, points, level changes, lines (images/result.py)."""

from __future__ import annotations

from engine.cards import parse_cards
from images import LevelChange, ResultScene, render_result

LINES = ["Attackers took 25 points in tricks.", "攻方共得 145 分，升两级，下一局由 Bob 坐庄。" * 3]


def result(**changes: object) -> ResultScene:
    base = {
        "kitty": parse_cards("5H 10S KD 3C 4C JH 5S 7D"),
        "multiplier": 4,
        "attacker_points": 145,
        "level_changes": [
            LevelChange("小明 & Alice", "5", "5"),
            LevelChange("Bob & Zoë", "7", "9"),
        ],
        "next_dealer": "Bob",
        "lines": LINES,
        "title": "Hand 4",
    }
    base.update(changes)
    return ResultScene(**base)  # type: ignore[arg-type]


def test_alt_text_tells_kitty_points_levels_and_dealer() -> None:
    text = render_result(result(lines=["One line."])).alt_text
    assert text == (
        "Hand 4. Kitty: ♥5 ♠10 ♦K ♣3 ♣4 ♥J ♠5 ♦7 (30 points, ×4). Attackers' points: 145. "
        "Levels: 小明 & Alice 5 → 5; Bob & Zoë 7 → 9. Next dealer: Bob. One line."
    )


def test_more_explanation_lines_make_a_taller_picture() -> None:
    short = render_result(result(lines=LINES[:1]))
    long = render_result(result(lines=LINES * 3))
    assert long.height > short.height
    assert long.width == short.width


def test_an_empty_kitty_and_no_extras_still_render() -> None:
    rendered = render_result(result(kitty=[], level_changes=[], next_dealer="", lines=[], title=""))
    assert rendered.alt_text == "Kitty: - (0 points, ×4). Attackers' points: 145."


def test_same_result_gives_the_same_bytes() -> None:
    assert render_result(result()) == render_result(result(), four_colour=False)
