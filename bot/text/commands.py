"""Chinese names and descriptions for the slash commands (discord.py's translator)."""

from __future__ import annotations

from discord import Locale, app_commands

ZH: dict[str, str] = {
    # names
    "shengji": "升级", "create": "开桌", "join": "加入", "leave": "离开", "addbot": "加电脑",
    "removebot": "移除电脑", "start": "开始", "end": "结束", "status": "状态", "rules": "规则",
    "hand": "手牌", "play": "出牌", "declare": "亮主", "bury": "扣底", "swap": "换底",
    "return": "回牌", "preset": "玩法", "options": "选项", "timer": "限时", "seat": "座位",
    "level": "级别", "cards": "牌", "give": "给出", "take": "拿回",
    "remove": "移除",
    # descriptions
    "Shengji (升级 / Tractor) tables": "升级（拖拉机）牌桌",
    "Open a table in this channel": "在这个频道开一桌",
    "Sit at this channel's table": "坐到这个频道的牌桌",
    "Leave the table (a computer takes over)": "离开牌桌（由电脑接替）",
    "Seat a computer player": "加一个电脑玩家",
    "Free a computer player's seat": "移除电脑玩家",
    "Start the match (empty seats get computers)": "开始比赛（空座位由电脑补上）",
    "Close the table (host or Manage Server)": "关闭牌桌（桌主或管理员）",
    "Show the table": "查看牌桌",
    "Free a seat before the start (host or Manage Server)": "开始前空出一个座位（桌主或管理员）",
    "Seat number": "座位号",
    "The options of a preset": "查看玩法的规则选项",
    "Show your hand (only you see it)": "查看手牌（只有你能看到）",
    "Play cards: AS AS KS, ♠A ♠A ♠K, or card numbers": "出牌：AS AS KS、♠A ♠A ♠K 或牌的编号",
    "Declare trump with cards of your hand": "用手里的牌亮主",
    "Bury the kitty (cards or numbers)": "扣底（牌或编号）",
    "changzhu: swap side cards for kitty trumps": "常主：用副牌换底牌中的主牌",
    "changzhu 回牌: give cards back after a stick": "常主回牌：粘牌后回牌",
    "Which rules (default: classic)": "哪种玩法（默认 classic）",
    "Option overrides, e.g. decks=3 throw_penalty=10": "修改选项，例如 decks=3 throw_penalty=10",
    "Seconds per turn before a computer plays for you": "每轮限时（秒），超时由电脑代打",
    "Seat number (default: the first free one)": "座位号（默认第一个空位）",
    "How strong": "强度",
    "Which preset (default: classic)": "哪种玩法（默认 classic）",
    "The cards, or the numbers under your hand picture": "牌，或手牌图下的编号",
    "The cards to show, e.g. 2H 2H or SJ 7H 7H": "亮出的牌，例如 2H 2H 或 SJ 7H 7H",
    "Your side cards (empty: no swap)": "你的副牌（留空：不换）",
    "Kitty trumps of the same ranks": "同点数的底牌主牌",
}


class ShengjiTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale in (Locale.chinese, Locale.taiwan_chinese):
            return ZH.get(string.message)
        return None
