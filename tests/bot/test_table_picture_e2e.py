"""The table picture tells the game at a glance (issue 14, "Missing" 3), end to end: the
real bot against the fake Discord, read from the public table message's picture and its
alt text, in English and in Chinese (the table's locale decides)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.harness import (
    create_and_start,
    has_table,
    running_bot,
    table_message,
    wait_until,
)
from tests.bot.test_bot_e2e import play_until


def picture(world):  # type: ignore[no-untyped-def]
    """The table message's picture (the fake keeps its bytes and description)."""
    attachments = table_message(world).attachments
    assert attachments, "the table message has no picture"
    return attachments[0]


def alt_text(world) -> str:  # type: ignore[no-untyped-def]
    try:
        return picture(world).description or ""
    except (LookupError, AssertionError):
        return ""


async def test_the_picture_names_trump_levels_points_and_the_previous_trick(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path) as world:
        alice = world.fake.add_user("Alice")
        await create_and_start(world, alice)
        await play_until(world, lambda: "Last trick: " in alt_text(world), [(alice, "1. Alice")])
        message = table_message(world)  # one edit: its text and its picture agree
        text, alt = message.content, picture(world).description or ""
        assert picture(world).image_size()[0] == 800
        assert alt.startswith("Shengji table · classic. Hand 1. Trump: ")

        # the trump, as the table's text says it
        # (the trump may be two words: "no trump")
        trump = re.search(r"trump: (.+?) · ", text)
        assert trump, text
        assert f"Trump: {trump.group(1)}, Level: " in alt

        # both teams' levels, one defending and one attacking
        levels = re.search(r"\): (\S+) / (\S+) ·", text)
        teams = re.search(r"Team 1\+3 \((\w+)\): Level (\S+); Team 2\+4 \((\w+)\): Level (\S+)\.",
                          alt)
        assert levels and teams, (text, alt)
        assert (teams.group(2), teams.group(4)) == levels.groups()
        assert {teams.group(1), teams.group(3)} == {"defending", "attacking"}

        # the attackers' points, as the table's text says them, with the point cards won
        points = re.search(r"Attackers' points: (\d+)", text)
        assert points and f"Attackers' points: {points.group(1)}" in alt
        won = re.search(r"Attackers' points: \d+ \(point cards: ([^)]*)\)", alt)
        assert (won is None) == (points.group(1) == "0")

        # the previous trick: every seat once, and its winner
        last = re.search(r"Last trick: (.*?)\. won by: (\d)\. ", alt)
        assert last, alt
        plays = last.group(1).split("; ")
        assert sorted(play[0] for play in plays) == ["1", "2", "3", "4"]
        assert any(play.startswith(last.group(2)) for play in plays)
    world.fake.assert_clean()


async def test_a_chinese_table_draws_its_picture_in_chinese(tmp_path: Path) -> None:
    # a short turn timer: computer players play for the host, who only watches
    async with running_bot(tmp_path, env={"SHENGJI_TURN_TIMER": "0.3"}) as world:
        fake = world.fake
        host = fake.add_user("小明", locale="zh-CN")
        created = await fake.slash(host, world.channel, "shengji", "create", preset="classic")
        await created.wait_acked()
        await wait_until(lambda: has_table(world))
        start = table_message(world).button("开始")
        await (await fake.click(host, table_message(world), start["custom_id"])).wait_acked()
        await wait_until(lambda: "上一轮: " in alt_text(world), timeout=150)
        alt = alt_text(world)
        assert re.search(r"主: (♠|♥|♦|♣|无主), 级别: \w+\.", alt), alt
        assert re.search(r"队 1\+3 \((坐庄|抓分)\): 级别 \w+; 队 2\+4 \((坐庄|抓分)\): 级别 \w+\.",
                         alt), alt
        assert re.search(r"抓分方得分: \d+", alt), alt
        assert re.search(r"上一轮: .*\. 赢家: \d\. ", alt), alt
        assert "Trump" not in alt and "Last trick" not in alt
    world.fake.assert_clean()
