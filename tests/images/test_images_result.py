"""The result picture: kitty, multiplier, points, level changes, lines (images/result.py)."""

from __future__ import annotations

from engine.cards import parse_cards
from images import LevelChange, ResultScene, Side, render_result

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


PER_PLAYER = [
    LevelChange("1. Zoë", "5", "7", ("defended",), Side.DEFENDING, is_dealer=True),
    LevelChange("2. Bob", "9", "9", ("no change",), Side.ATTACKING),
    LevelChange("3. 小明", "J", "J", ("defended", "stopped at a must-play level"), Side.DEFENDING),
    LevelChange("4. Ann", "2", "2", ("no change",), Side.ATTACKING),
    LevelChange("5. Li", "A", "A", ("no change",), Side.ATTACKING),
]


def test_levels_by_player_are_one_row_per_seat_with_side_and_reasons() -> None:
    rendered = render_result(result(level_changes=PER_PLAYER, next_dealer="",
                                    next_declarers=["1. Zoë", "3. 小明"], lines=[]))
    assert rendered.alt_text == (
        "Hand 4. Kitty: ♥5 ♠10 ♦K ♣3 ♣4 ♥J ♠5 ♦7 (30 points, ×4). Attackers' points: 145. "
        "Levels: 1. Zoë (Dealer, defending) 5 → 7 (defended); "
        "2. Bob (attacking) 9 → 9 (no change); "
        "3. 小明 (defending) J → J (defended, stopped at a must-play level); "
        "4. Ann (attacking) 2 → 2 (no change); 5. Li (attacking) A → A (no change). "
        "Declare next: 1. Zoë, 3. 小明."
    )
    two_rows = render_result(result(lines=[]))
    assert rendered.height > two_rows.height


def test_a_long_reason_wraps_and_makes_its_row_taller() -> None:
    short = render_result(result(level_changes=PER_PLAYER[:1]))
    long = render_result(result(level_changes=[PER_PLAYER[0]._replace(
        reasons=("defended", "stopped at a must-play level", "a jack in the last trick (扣J)"))]))
    assert long.height > short.height


def test_three_bid_results_show_the_bid() -> None:
    rendered = render_result(result(bid=85, level_changes=PER_PLAYER[:3], next_dealer=""))
    assert "Attackers' points: 145 (Bid: 85)." in rendered.alt_text
    assert rendered.png != render_result(result(bid=90, level_changes=PER_PLAYER[:3],
                                                next_dealer="")).png
