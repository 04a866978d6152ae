"""Both languages everywhere (issue 14, "Missing" 5), end to end: the real bot against the
fake Discord. Every synced command and option carries Simplified and Traditional names and
descriptions; rules, pictures and the hand's result come in the player's (table's) language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.bot.harness import has_table, running_bot, table_message, wait_until

CHINESE = ("zh-CN", "zh-TW")
SUBCOMMAND_GROUP_TYPES = (1, 2)
NAME = re.compile(r"^[-_\w]{1,32}$")  # Discord's rule for command and option names


def _nodes(commands: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option, with its path, and every choice."""
    stack = [(c["name"], c) for c in commands]
    while stack:
        path, node = stack.pop()
        yield path, node
        for option in node.get("options") or []:
            stack.append((f"{path} {option['name']}", option))
        for choice in node.get("choices") or []:
            yield f"{path}={choice['name']}", {**choice, "choice": True}


async def test_every_command_and_option_is_named_and_described_in_both_chinese(
    tmp_path: Path,
) -> None:
    async with running_bot(tmp_path) as world:
        synced = world.fake.synced_commands(world.guild)
        untranslated = []
        for path, node in _nodes(synced):
            names = node.get("name_localizations") or {}
            descriptions = node.get("description_localizations") or {}
            for locale in CHINESE:
                if not names.get(locale):
                    untranslated.append(f"{path}: name in {locale}")
                elif not node.get("choice") and not NAME.match(names[locale]):
                    untranslated.append(f"{path}: {names[locale]!r} is no Discord name")
                if not node.get("choice") and not descriptions.get(locale):
                    untranslated.append(f"{path}: description in {locale}")
        assert untranslated == [], "\n".join(untranslated)
        (group,) = [c for c in synced if c["name"] == "shengji"]
        assert group["name_localizations"] == {"zh-CN": "升级", "zh-TW": "升級"}
        subcommands = {o["name"]: o for o in group["options"]}
        assert {"leaderboard", "stats", "history", "export", "settings"} <= set(subcommands)
        assert subcommands["leaderboard"]["name_localizations"]["zh-CN"] == "排行榜"
        assert subcommands["settings"]["description_localizations"]["zh-TW"] \
            == "新牌桌的預設設定（管理伺服器）"
    world.fake.assert_clean()


async def test_the_rules_come_in_the_players_language(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        answers = {}
        for locale in ("en-US", "zh-CN", "zh-TW"):
            user = fake.add_user(f"Player {locale}", locale=locale)
            ix = await fake.slash(user, world.channel, "shengji", "rules", preset="changzhu")
            await ix.wait_acked()
            answers[locale] = ix.message.content
        assert "`permanent_trumps` permanent trumps = 2, 3, 5" in answers["en-US"]
        assert "`decks` 副数 = 2" in answers["zh-CN"]
        assert "`decks` 副數 = 2" in answers["zh-TW"]
        assert "`kitty_joker_points` 底牌中的王計分 = 是" in answers["zh-TW"]
        assert "True" not in answers["zh-TW"] and "permanent trumps" not in answers["zh-CN"]
    world.fake.assert_clean()


async def test_a_traditional_table_shows_its_picture_and_result_in_traditional(
    tmp_path: Path,
) -> None:
    # a short turn timer: computer players play for the host, who only watches
    async with running_bot(tmp_path, env={"SHENGJI_TURN_TIMER": "0.3"}) as world:
        fake = world.fake
        host = fake.add_user("小美", locale="zh-TW")
        created = await fake.slash(host, world.channel, "shengji", "create", preset="classic")
        await created.wait_acked()
        await wait_until(lambda: has_table(world))
        start = table_message(world).button("開始")
        await (await fake.click(host, table_message(world), start["custom_id"])).wait_acked()

        def result() -> Any:
            return next((m for m in fake.messages(world.channel)
                         if any(a.filename == "result.png" for a in m.attachments)), None)

        await wait_until(lambda: result() is not None, timeout=150)
        posted = result()
        assert "抓分方總分：" in posted.content and "Attackers" not in posted.content
        assert re.search(r"(坐莊方|抓分方)升 \d 級|誰都不升級", posted.content), posted.content
        alt = posted.attachments[0].description or ""
        assert "底牌" in alt and "Kitty" not in alt, alt
        table_alt = table_message(world).attachments[0].description or ""
        assert "級別" in table_alt and "Trump" not in table_alt, table_alt
    world.fake.assert_clean()


async def test_help_lists_every_command_as_the_players_discord_names_it(tmp_path: Path
                                                                         ) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        (group,) = [c for c in fake.synced_commands(world.guild) if c["name"] == "shengji"]
        guides = {}
        for locale in ("en-US", "zh-CN", "zh-TW"):
            user = fake.add_user(f"Player {locale}", locale=locale)
            ix = await fake.slash(user, world.channel, "shengji", "help")
            await ix.wait_acked()
            assert ix.message.ephemeral
            guide = ix.message.embeds[0]["description"]
            assert len(guide) <= 4096  # (Discord's most for an embed's text)
            for sub in group["options"]:  # every subcommand, in the player's words
                if locale == "en-US":
                    name, description = sub["name"], sub["description"]
                else:
                    name = sub["name_localizations"][locale]
                    description = sub["description_localizations"][locale]
                slash = group["name_localizations"].get(locale, "shengji")
                assert f"`/{slash} {name}` — {description}" in guide, (locale, name)
            guides[locale] = guide
        assert "`/shengji create` opens a table" in guides["en-US"]
        assert "Press **My hand** to see your cards" in guides["en-US"]
        assert "`/升级 开桌` 在这个频道开一桌" in guides["zh-CN"]
        assert "按 **我的牌** 查看你的牌" in guides["zh-CN"]
        assert "**再來一場**" in guides["zh-TW"]
    world.fake.assert_clean()
