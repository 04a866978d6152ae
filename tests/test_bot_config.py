"""The bot's entry point: configuration from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[1]


def test_missing_token_says_how_to_get_one_and_exits_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env | {
        "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "DISCORD_TOKEN is not set" in run.stderr
    assert "applications.commands" in run.stderr


def test_settings_from_environment_and_env_file(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_TOKEN", "SHENGJI_DB", "SHENGJI_GUILD_ID"):
        monkeypatch.setenv(name, "")  # so that teardown restores the original state
        monkeypatch.delenv(name)
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nSHENGJI_GUILD_ID=42\n")
    settings = Settings.from_env(str(env_file))
    assert settings.token == "abc" and settings.guild_id == 42
    assert settings.database == "shengji.sqlite3"
    for wrong in ("not-a-number", "²"):  # (² is a digit to isdigit(), none to int())
        monkeypatch.setenv("SHENGJI_GUILD_ID", wrong)
        with pytest.raises(ConfigError, match="must be a number"):
            Settings.from_env(None)


@pytest.mark.parametrize(("variable", "value", "meaning"), [
    ("SHENGJI_TURN_TIMER", "abc", "a number of seconds above 0"),
    ("SHENGJI_TURN_TIMER", "-5", "a number of seconds above 0"),
    ("SHENGJI_TURN_TIMER", "0", "a number of seconds above 0"),
    ("SHENGJI_TURN_TIMER", "nan", "a number of seconds above 0"),
    ("SHENGJI_PAUSE_SCALE", "-1", "a number, 0 or more (how many times each pause)"),
    ("SHENGJI_PAUSE_SCALE", "inf", "a number, 0 or more (how many times each pause)"),
    ("SHENGJI_EDIT_INTERVAL", "-0.5", "a number of seconds, 0 or more"),
    ("SHENGJI_LOBBY_HOURS", "-1", "a number of hours, 0 or more (0: never)"),
    ("SHENGJI_NUDGE_AFTER", "soon", "a number of seconds, 0 or more (0: never)"),
    ("SHENGJI_PAUSED_HOURS", "a week", "a number of hours, 0 or more (0: never)"),
])
def test_a_number_setting_out_of_range_is_refused_saying_what_it_must_be(
        monkeypatch: pytest.MonkeyPatch, variable: str, value: str, meaning: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as info:
        Settings.from_env(None)
    assert str(info.value) == f"{variable} must be {meaning}, not {value!r}"


def test_number_settings_in_range_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    defaults = Settings.from_env(None)
    assert (defaults.lobby_hours, defaults.paused_hours, defaults.nudge_after) == (24, 168, 20)
    for variable, value in (("SHENGJI_TURN_TIMER", "0.3"), ("SHENGJI_PAUSE_SCALE", "0"),
                            ("SHENGJI_EDIT_INTERVAL", "0"), ("SHENGJI_LOBBY_HOURS", "0"),
                            ("SHENGJI_PAUSED_HOURS", "0.5"), ("SHENGJI_NUDGE_AFTER", "0")):
        monkeypatch.setenv(variable, value)
    settings = Settings.from_env(None)
    assert (settings.turn_timer, settings.pause_scale, settings.edit_interval,
            settings.lobby_hours, settings.paused_hours, settings.nudge_after) \
        == (0.3, 0, 0, 0, 0.5, 0)
