"""The pictures and text of tables without two fixed teams (RULES §5 find-friends, §6
three-bid) and of six (§4), built from the public view (bot/ui/render.py): each seat's
own level, the dealer, the friends once found and "friend unknown" before, the bid; and
nothing that hints at a friend before play reveals it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from bot.table_data import Seat, Table, TableSettings
from bot.ui.render import result_scene, status_line, table_scene, table_text
from engine.actions import Bid, PassBid, Play
from engine.cards import Rank, Suit, parse_cards
from engine.game import Game, HandOver
from engine.rules import ruleset
from engine.simulate import random_action
from engine.views import public_view
from images import BidInfo, CallInfo, Side, render_result, render_table

ACE = parse_cards("AS")[0]


def table_of(preset: str, game: Game | None, **options: Any) -> Table:
    players = ruleset(preset, **options).players
    seats: list[Seat | None] = [Seat("human", 100 + i, f"P{i + 1}") for i in range(players)]
    return Table(1, 1, 100, preset, dict(options), TableSettings(), seats,
                 status="lobby" if game is None else "playing", game=game)


def five_seats(friend: int, *, levels: tuple[Rank, ...] | None = None) -> Game:
    """find-friends, seat 0 deals and calls the first ♠A, which ``friend`` holds (2 or 3);
    the other of the two holds two clubs instead. Everything public is the same."""
    holder = ["KS 6C", "7C 8C", "", "", "2D 3D"]
    holder[friend] = "AS 9C"
    holder[5 - friend] = "JC 10C"
    return Game.from_position(
        ruleset("find-friends"), level=Rank.TWO, hands=[parse_cards(h) for h in holder],
        trump=Suit.HEARTS, dealer=0, kitty=parse_cards("4D 5D 6D 7D 8D 9D 10D JD"),
        calls=[(ACE, 1)], seat_levels=levels or (Rank.TWO, Rank.FIVE, Rank.NINE, Rank.JACK,
                                                 Rank.ACE))


@pytest.mark.parametrize("played", [0, 2], ids=["before-any-play", "after-two-plays"])
def test_the_table_shows_the_same_whether_the_friend_is_one_seat_or_another(played: int
                                                                           ) -> None:
    scenes, pictures = [], []
    for friend in (2, 3):
        game = five_seats(friend)
        for seat, cards in [(0, "KS"), (1, "7C")][:played]:
            game.apply(Play(seat, parse_cards(cards)))
        table = table_of("find-friends", game)
        scenes.append(table_scene(table))
        pictures.append(render_table(scenes[-1]))
    assert scenes[0] == scenes[1]
    assert pictures[0] == pictures[1]  # the same PNG bytes and alt text
    assert "Calls: 1st ♠A (friend unknown)." in pictures[0].alt_text
    scene = scenes[0]
    assert [info.side for info in scene.seats] == [Side.DEFENDING, None, None, None, None]
    assert not any(info.is_friend for info in scene.seats)


def test_the_friend_is_shown_once_play_reveals_it() -> None:
    game = five_seats(2)
    for seat, cards in [(0, "KS"), (1, "7C"), (2, "AS")]:
        game.apply(Play(seat, parse_cards(cards)))
    scene = table_scene(table_of("find-friends", game))
    assert scene.calls == [CallInfo(ACE, 1, 2)]
    assert [info.is_friend for info in scene.seats] == [False, False, True, False, False]
    # the one call answered: everybody else is known to attack
    assert [info.side for info in scene.seats] == [Side.DEFENDING, Side.ATTACKING,
                                                   Side.DEFENDING, Side.ATTACKING,
                                                   Side.ATTACKING]
    alt = render_table(scene).alt_text
    assert "Calls: 1st ♠A: 3. P3." in alt
    assert "3. P3 (1 card, Level 9, Friend, defending)" in alt


def test_each_seat_shows_its_own_level() -> None:
    levels = (Rank.TWO, Rank.FIVE, Rank.NINE, Rank.JACK, Rank.ACE)
    table = table_of("find-friends", five_seats(2, levels=levels))
    scene = table_scene(table)
    assert [info.level for info in scene.seats] == list(levels)
    assert scene.levels == () and scene.defenders is None
    alt = render_table(scene).alt_text
    for k, level in enumerate(levels):
        assert f"{k + 1}. P{k + 1} (2 cards, Level {level.label}" in alt
    lines = table_text(table, []).splitlines()
    assert [line for line in lines if line.startswith("Seat ")] == [
        "Seat 1: P1 · Level 2 · Dealer · defending", "Seat 2: P2 · Level 5", "Seat 3: P3 · Level 9",
        "Seat 4: P4 · Level J", "Seat 5: P5 · Level A"]


def three_bid() -> Game:
    return Game.from_position(
        ruleset("three-bid"), level=Rank.TWO, stage="bid", dealer=None,
        hands=[parse_cards("AS KS"), parse_cards("QS JS"), parse_cards("10S 9S")],
        kitty=parse_cards("2C 3C 4C 5C 6C 7C"), seat_levels=(Rank.TWO, Rank.SIX, Rank.KING))


def test_three_bid_shows_the_standing_bid_and_who_passed() -> None:
    game = three_bid()
    table = table_of("three-bid", game)
    scene = table_scene(table)
    assert scene.bid == BidInfo(None, None, standing=True)
    assert scene.level is None and not any(info.is_dealer for info in scene.seats)
    game.apply(Bid(0, 85))
    game.apply(PassBid(1))
    scene = table_scene(table)
    assert scene.bid == BidInfo(85, 0, standing=True)
    assert [(info.bid, info.passed) for info in scene.seats] == [(85, False), (None, True),
                                                                 (None, False)]
    assert [info.side for info in scene.seats] == [None, None, None]
    alt = render_table(scene).alt_text
    assert "Lowest bid: 85 (1. P1)." in alt
    assert "2. P2 (2 cards, Level 6, pass)" in alt


@pytest.mark.parametrize(
    ("preset", "teams"),
    [("find-friends", [None] * 5), ("three-bid", [None] * 3), ("six", [0, 1, 0, 1, 0, 1]),
     ("classic", [0, 1, 0, 1])])
def test_the_lobby_colours_fixed_teams_only(preset: str, teams: list[int | None]) -> None:
    scene = table_scene(table_of(preset, None))
    assert [info.team for info in scene.seats] == teams
    individual = teams[0] is None
    assert all((info.level is not None) == individual for info in scene.seats)
    rendered = render_table(scene)
    assert (rendered.width, len(scene.seats)) == (800, len(teams))


def played_out(preset: str, seed: int) -> tuple[Table, HandOver]:
    """A whole hand of ``preset`` played by random legal actions, to its result."""
    game = Game(ruleset(preset), seed=seed)
    table = table_of(preset, game)
    rng = random.Random(seed)
    while not isinstance(game.phase, HandOver):
        action = random_action(game, rng)
        assert action is not None
        game.apply(action)
        render_table(table_scene(table))  # every phase on the way has a picture
    return table, game.phase


@pytest.mark.parametrize("preset", ["find-friends", "three-bid", "six", "classic"])
def test_every_phase_of_a_hand_has_a_picture_and_the_result_a_row_per_level(preset: str
                                                                          ) -> None:
    table, over = played_out(preset, 7)
    result = over.result
    names = [f"{i + 1}. P{i + 1}" for i in range(len(table.seats))]
    seating = table.rules.seating
    scene = result_scene("en", result, names, seating)
    if seating.individual_levels:  # one row per seat: its side, levels and reasons
        assert [c.who for c in scene.level_changes] == names
        for row, change in zip(scene.level_changes, result.changes, strict=True):
            assert (row.old, row.new) == (change.old.label, change.new.label)
            assert row.side is (Side.DEFENDING if change.seat in result.defenders
                                else Side.ATTACKING)
            assert row.reasons
    else:  # the two teams, the defenders first
        assert len(scene.level_changes) == 2
        assert str(result.dealer + 1) in scene.level_changes[0].who.split("+")
    alt = render_result(scene).alt_text
    for row in scene.level_changes:
        assert f"{row.who}" in alt and f"{row.old} → {row.new}" in alt
    if preset == "three-bid":
        assert scene.bid == result.bid and scene.next_dealer == ""
        assert f"(Bid: {result.bid})" in alt
    if preset == "find-friends":
        assert scene.next_dealer == ""
        assert scene.next_declarers == [names[s] for s in result.next_declarers]


def test_a_six_table_names_its_teams_of_three() -> None:
    table, _ = played_out("six", 3)
    text = table_text(table, [])
    assert "Levels (seats 1+3+5 / 2+4+6): " in text


def test_while_the_dealer_buries_and_calls_the_table_says_no_friend_is_called_yet() -> None:
    game = Game.from_position(
        ruleset("find-friends"), level=Rank.TWO, stage="call", dealer=1, trump=Suit.HEARTS,
        hands=[parse_cards(h) for h in ["KS 6C", "7C 8C", "AS 9C", "JC 10C", "2D 3D"]],
        kitty=parse_cards("4D 5D 6D 7D 8D 9D 10D JD"))
    table = table_of("find-friends", game)
    scene = table_scene(table)
    assert scene.calls_pending and not scene.calls
    assert "No friend called yet." in render_table(scene).alt_text


@pytest.mark.parametrize("preset", ["classic", "find-friends", "three-bid", "six"])
def test_one_public_view_makes_the_same_text_and_picture_as_each_its_own(preset: str) -> None:
    """The table message takes ``public_view`` once for its text, status and picture."""
    game = Game(ruleset(preset), seed=5)
    table = table_of(preset, game)
    rng = random.Random(5)
    for _ in range(60):  # the deal, bids or calls, the first tricks
        view = public_view(game)
        assert table_text(table, ["a line"], view) == table_text(table, ["a line"])
        assert status_line(table, view) == status_line(table)
        assert table_scene(table, view) == table_scene(table)
        action = random_action(game, rng)
        if action is None:
            break
        game.apply(action)


def test_a_display_name_is_shown_as_typed_in_text_and_plain_in_pictures() -> None:
    """Was: a player named ``||Ann`` and one named ``Di||`` hid the seats between them
    behind a spoiler in the public table message, and ``<@&id>`` in a name showed as a
    role's badge. In the message's text a name's markdown is escaped; the picture (and
    its alt text) and the buttons, which show no markdown, keep the name as it is."""
    game = five_seats(2)
    table = table_of("find-friends", game)
    typed = ["||Ann", "**Bo**", "Cy_x", "<@&123456789012345678>", "Di||"]
    for seat, name in zip(table.seats, typed, strict=True):
        assert seat is not None
        seat.name = name
    text = table_text(table, [])
    for shown in ("\\|\\|Ann", "\\*\\*Bo\\*\\*", "Cy\\_x", "<@\u200b&123456789012345678>",
                  "Di\\|\\|"):
        assert shown in text
    assert "||" not in text.replace("\\|\\|", "") and "<@&" not in text
    assert "\\|\\|Ann" in status_line(replace(table, status="lobby", host_id=100))
    alt = render_table(table_scene(table)).alt_text
    assert all(f"{k + 1}. {name}" in alt for k, name in enumerate(typed))
