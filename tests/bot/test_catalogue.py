"""The catalogue (bot/text/locales/*.po): every text in every language, placeholders that
exist, plural forms, which language a Discord locale gets, and engine results worded here."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Message

from bot.text import catalogue
from bot.text.catalogue import LANGUAGES, SOURCE, engine_reason, has, language, read_catalogue, say
from bot.text.events import result_lines, rules_text
from engine.cards import Rank
from engine.rules import ruleset
from engine.scoring import ATTACKERS, DEFENDERS, HandResult, Row

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = [lang for lang in LANGUAGES if lang != SOURCE]


def _messages(lang: str) -> dict[tuple[str | None, str], Message]:
    out = {}
    for message in read_catalogue(lang):
        if message.id:
            key = message.id[0] if message.pluralizable else message.id
            out[(message.context, key)] = message
    return out


def _forms(message: Message) -> list[str]:
    return list(message.string) if message.pluralizable else [message.string]


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


SOURCE_MESSAGES = _messages(SOURCE)


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_every_text_is_translated_in_every_language(lang: str) -> None:
    translated = _messages(lang)
    missing = sorted(str(key) for key in SOURCE_MESSAGES
                     if key not in translated or translated[key].fuzzy
                     or not all(_forms(translated[key])))
    assert missing == [], f"{lang} lacks {missing}"
    stale = sorted(str(key) for key in translated if key not in SOURCE_MESSAGES)
    assert stale == [], f"{lang} has texts English no longer has: {stale}"


@pytest.mark.parametrize("lang", TRANSLATIONS)
def test_a_translation_names_only_placeholders_of_the_english_text(lang: str) -> None:
    wrong = []
    for key, message in _messages(lang).items():
        english = set().union(*map(_fields, _forms(SOURCE_MESSAGES[key])))
        for form in _forms(message):
            if not _fields(form) <= english:
                wrong.append((key, sorted(_fields(form) - english)))
    assert wrong == []


def test_no_text_is_left_in_code_outside_the_catalogue() -> None:
    # texts added to catalogue.EN / ZH by older branches belong in the .po files
    assert catalogue.EN == {} and catalogue.ZH == {}


@pytest.mark.parametrize(("locale", "expected"), [
    ("zh-TW", "zh_TW"), ("zh-HK", "zh_TW"), ("zh-CN", "zh_CN"), ("zh", "zh_CN"),
    ("en-US", "en"), ("en-GB", "en"), ("fr", "en"), ("ja", "en"), ("", "en"), (None, "en"),
], ids=lambda v: str(v))
def test_a_discord_locale_gets_its_language_or_english(locale: str | None,
                                                       expected: str) -> None:
    assert language(locale) == expected


@pytest.mark.parametrize(("locale", "count", "expected"), [
    ("en-US", 1, "A swapped 1 card with the kitty."),
    ("en-US", 2, "A swapped 2 cards with the kitty."),
    ("en-US", 0, "A swapped 0 cards with the kitty."),
    ("zh-CN", 1, "A 与底牌交换了 1 张。"),
    ("zh-TW", 3, "A 與底牌交換了 3 張。"),
])
def test_a_count_picks_the_plural_form(locale: str, count: int, expected: str) -> None:
    assert say(locale, "ev_swapped", name="A", count=count) == expected


def test_a_plural_text_may_count_with_another_parameter() -> None:
    assert say("en", "status_deal", left=1) == "Dealing… 1 card to go."
    assert say("en", "status_deal", left=25) == "Dealing… 25 cards to go."


def _engine_codes() -> dict[str, set[str]]:
    """Each literal EngineError code, with the parameters every raise of it gives."""
    codes: dict[str, set[str]] = {}
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "EngineError"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                given = {k.arg for k in node.keywords if k.arg}
                codes[node.args[0].value] = codes.get(node.args[0].value, given) & given
    return codes


@pytest.mark.parametrize(("code", "params"), sorted(_engine_codes().items()),
                         ids=sorted(_engine_codes()))
def test_every_engine_refusal_is_worded_in_the_catalogue(code: str, params: set[str]) -> None:
    assert has(f"engine_{code}") or has(f"engine_{code}_plain")
    for locale in ("zh-CN", "zh-TW"):
        reason = engine_reason(locale, code, "ENGLISH FROM THE ENGINE", dict.fromkeys(params, 1))
        assert reason != "ENGLISH FROM THE ENGINE"


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "The lead was 1 card: play exactly 1."),
    ("zh-CN", "首家出了 1 张：必须出 1 张。"),
    ("zh-TW", "首家出了 1 張：必須出 1 張。"),
])
def test_an_engine_refusal_is_worded_from_its_code_and_params(locale: str,
                                                              expected: str) -> None:
    assert engine_reason(locale, "wrong_count", "the lead was 1 card(s)", {"count": 1}) \
        == expected


def _result(side: str, levels: int) -> HandResult:
    return HandResult(trick_points=85, kitty=(), kitty_points=10, last_trick_side=ATTACKERS,
                      multiplier=2, kitty_delta=20, attacker_points=105,
                      row=Row(80, 120, side, levels, side == ATTACKERS), side=side,
                      levels=levels, old_levels=(Rank.TWO, Rank.TWO),
                      new_levels=(Rank.TWO, Rank.THREE), dealer=0, next_dealer=1,
                      winner_team=None)


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", ["Attackers took 85 points in tricks.",
               "Attackers won the last trick: kitty 10 × 2 = 20.", "Attackers' total: 105.",
               "Attackers go up 1 level: 2→2 (defenders), 2→3 (attackers)."]),
    ("zh-CN", ["抓分方在牌墩中得了 85 分。", "抓分方赢了最后一轮：底牌 10 分 × 2 = 20。",
               "抓分方总分：105。", "抓分方升 1 级：2→2（坐庄方），2→3（抓分方）。"]),
])
def test_the_hand_result_is_worded_from_its_data(locale: str, expected: list[str]) -> None:
    assert result_lines(locale, _result(ATTACKERS, 1)) == expected


def test_levels_gained_take_a_plural() -> None:
    assert result_lines("en", _result(DEFENDERS, 2))[-1].startswith("Defenders go up 2 levels")


@pytest.mark.parametrize("locale", ["zh-CN", "zh-TW"])
def test_the_rules_of_a_preset_are_named_in_chinese(locale: str) -> None:
    text = rules_text(locale, "changzhu", ruleset("changzhu").describe())
    assert "`permanent_trumps` 常主 = 2, 3, 5" in text
    assert "= 否" in text and "False" not in text


def _keys_in_code() -> set[str]:
    """Keys the code names literally: BotError(key, …) and say(locale, key, …)."""
    keys = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None)
                index = {"BotError": 0, "say": 1}.get(name or "")
                if index is not None and len(node.args) > index and isinstance(
                        node.args[index], ast.Constant):
                    keys.add(node.args[index].value)
    return keys


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    assert sorted(key for key in _keys_in_code() if not has(key)) == []


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "That is not possible now: the hand is being played."),
    ("zh-TW", "現在不能這樣做：正在出牌。"),
])
def test_a_wrong_phase_names_the_phase(locale: str, expected: str) -> None:
    assert engine_reason(locale, "wrong_phase", "bury is not possible now", {"phase": "play"}) \
        == expected


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "seat 3 buries the kitty"),  # the engine's sentence says whose turn it is
    ("zh-CN", "还没轮到你。"),
    ("zh-TW", "還沒輪到你。"),
])
def test_a_refusal_without_its_params_says_what_it_can(locale: str, expected: str) -> None:
    assert engine_reason(locale, "not_your_turn", "seat 3 buries the kitty", {}) == expected
