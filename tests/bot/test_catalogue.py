"""The catalogue (bot/text/locales/*.po): every text in every language, placeholders that
exist, plural forms, which language a Discord locale gets, and engine refusals, events and
results worded here from the engine's codes and data (the engine writes no prose)."""

from __future__ import annotations

import ast
import string
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest
from babel.messages.catalog import Message

from bot.table_data import AI_LEVELS
from bot.text import catalogue
from bot.text.catalogue import LANGUAGES, SOURCE, has, language, read_catalogue, say
from bot.text.events import engine_reason, reason_key, result_lines, rules_text
from engine.bidding import CHANGZHU_TIERS
from engine.cards import Rank, parse_card, parse_cards
from engine.errors import EngineError
from engine.game import (
    ACTION_CODES,
    Bidding,
    Burying,
    CallingFriends,
    Dealing,
    HandOver,
    MatchOver,
    NamingTrump,
    Playing,
    Swapping,
    Transferring,
    Where,
)
from engine.rules import ruleset
from engine.scoring import (
    ATTACKERS,
    DEFENDERS,
    NOTES,
    REASONS,
    HandResult,
    LevelChange,
    Note,
    Row,
)

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


# Sample values for an engine refusal's parameters, by name (what the engine gives).
_SAMPLE: dict[str, object] = {
    "turn": 2, "seat": 1, "seats": [0, 2], "cards": tuple(parse_cards("AS AS")),
    "shown": tuple(parse_cards("BJ")), "choices": ("S", "H"), "presets": ("classic", "six"),
    "suit": "trump", "phase": "play", "action": "bury", "declaration": "plain", "size": 3,
    "pattern": "刮风", "text": "1S", "option": "players", "value": "7", "preset": "nine",
}


#: The cases a refusal takes from a variable, by parameter: every value it may have.
_VARIABLE_CASES = {"where": get_args(Where)}


def _engine_refusals() -> list[tuple[str, dict[str, object]]]:
    """Every ``EngineError`` the engine raises: its code and keyword parameters, the
    values of literal cases (``rule``, ``task``, ``where``) kept, others sampled."""
    out = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "EngineError"):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            assert len(node.args) == 1 and isinstance(node.args[0], ast.Constant), \
                f"{where}: an EngineError is one literal code and keyword parameters, no text"
            params: dict[str, object] = {}
            variable = None
            for keyword in node.keywords:
                assert keyword.arg, f"{where}: parameters are named"
                literal = isinstance(keyword.value, ast.Constant)
                if keyword.arg in ("rule", "task", "where") and not literal:
                    assert keyword.arg in _VARIABLE_CASES, f"{where}: a case is a literal"
                    variable = keyword.arg
                params[keyword.arg] = (keyword.value.value if literal  # type: ignore[attr-defined]
                                       else _SAMPLE.get(keyword.arg, 1))
            code = node.args[0].value
            if variable is None:
                out.append((code, params))
            else:
                out += [(code, params | {variable: v}) for v in _VARIABLE_CASES[variable]]
    return out


_REFUSALS = _engine_refusals()


def test_the_engine_raises_refusals() -> None:
    assert len(_REFUSALS) > 80  # the scan above finds them (a rename would hide them)


@pytest.mark.parametrize(("code", "params"), _REFUSALS,
                         ids=[f"{c}-{p.get('rule') or p.get('task') or p.get('where') or ''}"
                              for c, p in _REFUSALS])
@pytest.mark.parametrize("locale", ["en-US", "zh-CN", "zh-TW"])
def test_every_engine_refusal_is_worded_in_every_language(locale: str, code: str,
                                                          params: dict[str, object]) -> None:
    key = reason_key(code, params)
    assert has(key), f"no text for {code} {params}"
    case = next((params[c] for c in ("rule", "task", "where") if c in params), None)
    if case is not None and has(f"engine_{code}_{case}"):
        assert key == f"engine_{code}_{case}"
    for form in _forms(_messages(language(locale))[(None, key)]):
        assert _fields(form) <= set(params) | {"declaration"}, f"{key} names a missing parameter"
    reason = engine_reason(locale, code, params)
    assert "{" not in reason and reason != say(locale, "engine_refused", code=code)


def test_a_refusal_of_a_cases_code_without_its_own_text_takes_the_codes() -> None:
    assert reason_key("not_your_turn", {"turn": 1, "task": "play"}) == "engine_not_your_turn"
    assert engine_reason("en", "not_your_turn", {"turn": 1, "task": "play"}) == \
        "It is not your turn: seat 2 plays now."


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "That is not allowed here (no_such_code)."),
    ("zh-CN", "这样不行（no_such_code）。"),
])
def test_an_unknown_code_is_named_never_worded_from_the_engine(locale: str,
                                                             expected: str) -> None:
    assert engine_reason(locale, "no_such_code", {"x": 1}) == expected


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "The lead was 1 card: play exactly 1."),
    ("zh-CN", "首家出了 1 张：必须出 1 张。"),
    ("zh-TW", "首家出了 1 張：必須出 1 張。"),
])
def test_an_engine_refusal_is_worded_from_its_code_and_params(locale: str,
                                                              expected: str) -> None:
    assert engine_reason(locale, "wrong_count", {"count": 1}) == expected


@pytest.mark.parametrize(("make", "locale", "expected"), [
    (lambda: ruleset("classic", players=7), "en-US", "Option “players”: a table has 3 to 6 seats."),
    (lambda: ruleset("classic", play="fast"), "en-US",
     "The option “play” cannot be “fast”: choose from classic, changzhu."),
    (lambda: ruleset("nine"), "zh-CN", "没有可用的玩法“nine”：可用的玩法有 "),
    (lambda: parse_card("5X"), "zh-TW", "「5X」"),
], ids=["combination", "choice", "preset", "card"])
def test_a_real_refusal_is_worded_with_what_the_engine_gave(make: object, locale: str,
                                                            expected: str) -> None:
    with pytest.raises(EngineError) as info:
        make()  # type: ignore[operator]
    assert expected in engine_reason(locale, info.value.code, info.value.params)


def test_every_phase_action_note_reason_and_declaration_is_worded() -> None:
    phases = {cls.name for cls in (Dealing, Bidding, Burying, CallingFriends, NamingTrump,
                                   Swapping, Playing, HandOver, Transferring, MatchOver)}
    keys = ([f"phase_{p}" for p in phases] + [f"action_{a}" for a in ACTION_CODES.values()]
            + [f"result_{n}" for n in NOTES] + [f"reason_{r}" for r in REASONS]
            + [f"decl_{k}" for k in CHANGZHU_TIERS] + ["decl_hidden_level", "decl_hidden_jokers",
                                                        "action_action"])
    assert sorted(k for k in keys if not has(k)) == []


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


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", ["Seat 2: 5→3 (J到6 / 双J到底, stopped at a must-play level).",
               "J到6, 双J到底: the defenders fall to 6."]),
    ("zh-TW", ["2 號：5→3（J到6／雙J到底、停在必打級）。", "J到6，雙J到底：坐莊方降到 6。"]),
])
def test_a_results_notes_and_level_changes_are_worded_from_their_codes(
        locale: str, expected: list[str]) -> None:
    result = replace(_result(DEFENDERS, 1), bid=80, notes=(Note("j_fall", Rank.SIX),),
                     changes=(LevelChange(1, Rank.FIVE, Rank.THREE, ("j_fall", "must_play")),
                              LevelChange(2, Rank.FIVE, Rank.FIVE, ("none",))))
    assert result_lines(locale, result)[-2:] == expected


@pytest.mark.parametrize("locale", ["zh-CN", "zh-TW"])
def test_the_rules_of_a_preset_are_named_in_chinese(locale: str) -> None:
    text = rules_text(locale, "changzhu", ruleset("changzhu").describe())
    assert "`permanent_trumps` 常主 = 2, 3, 5" in text
    assert "= 否" in text and "False" not in text


@pytest.mark.parametrize("preset", ["find-friends", "three-bid", "classic"])
def test_every_option_the_rules_list_has_a_name_in_every_language(preset: str) -> None:
    """Was: seven options (the ones of find-friends and three-bid among them) were listed
    by ``/shengji rules`` with no name."""
    options = [option for option, _ in ruleset(preset).describe() if option != "preset"]
    assert [o for o in options if not has(f"rule_{o}")] == []  # (translated: a test above)
    assert "`teams` 分队方式 = called" in rules_text("zh-CN", preset, ruleset(
        "find-friends").describe())


def test_every_computer_level_has_a_name_in_every_language() -> None:
    """Was: a Chinese table showed "电脑玩家（hard）"."""
    assert all(has(f"ai_level_{level}") for level in AI_LEVELS)
    assert say("zh-CN", "ai_added", seat=2, level=say("zh-CN", "ai_level_hard")) == \
        "电脑玩家（困难）坐在 2 号座位。"


def _keys_in_code() -> set[str]:
    """Keys the code names literally: BotError(key, …), BotError.refused(key, …) and
    say(locale, key, …)."""
    keys = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None)
                if isinstance(node.func, ast.Attribute) and node.func.attr == "refused" and \
                        getattr(node.func.value, "id", None) == "BotError":
                    name = "BotError"
                index = {"BotError": 0, "say": 1}.get(name or "")
                if index is not None and len(node.args) > index and isinstance(
                        node.args[index], ast.Constant):
                    keys.add(node.args[index].value)
    return keys


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    assert sorted(key for key in _keys_in_code() if not has(key)) == []


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "You cannot bury the kitty now: the hand is being played."),
    ("zh-TW", "現在不能扣底：正在出牌。"),
])
def test_a_wrong_phase_names_the_action_and_the_phase(locale: str, expected: str) -> None:
    assert engine_reason(locale, "wrong_phase", {"phase": "play", "action": "bury"}) == expected


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "Seat 3 buries the kitty, not you."),
    ("zh-CN", "由 3 号扣底，不是你。"),
])
def test_not_your_turn_says_whose_turn_it_is_for_every_task(locale: str, expected: str) -> None:
    assert engine_reason(locale, "not_your_turn", {"turn": 2, "task": "bury"}) == expected


@pytest.mark.parametrize(("locale", "expected"), [
    ("en-US", "A declaration stands (seat 2: 亮 (joker + pair): BJ and 2 cards face down): "
              "only a strictly stronger one overrides it."),
    ("zh-CN", "2 号的亮主（亮（王加一对）：BJ，另 2 张扣着）还在：只有更强的亮主才能反。"),
])
def test_too_weak_names_the_standing_declaration(locale: str, expected: str) -> None:
    joker = parse_cards("BJ")
    assert engine_reason(locale, "too_weak", {"seat": 1, "declaration": "plain", "size": 3,
                                              "shown": tuple(joker)}) \
        == expected.replace("BJ", joker[0].pretty)
