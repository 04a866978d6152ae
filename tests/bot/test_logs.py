"""The bot's log: a traceback shows where and what went wrong, never a card."""

from __future__ import annotations

import logging
import operator
import os
import sqlite3
import subprocess
import sys
import textwrap
import traceback
from pathlib import Path
from typing import Any

import pytest

from bot.logs import WITHHELD, CardFreeFormatter
from bot.store import StoreError
from engine.ai.pool import end_with_parent, worker_pool
from engine.cards import parse_card
from engine.errors import EngineError

ROOT = Path(__file__).resolve().parents[2]
HAND = "AS KS 10H BJ"


def _logged(exc: BaseException) -> str:
    """The log line of ``log.exception`` for ``exc``, as the bot's formatter writes it."""
    try:
        raise exc
    except BaseException:
        record = logging.LogRecord("bot", logging.ERROR, __file__, 1, "it failed", (),
                                   sys.exc_info())
    return CardFreeFormatter("%(message)s").format(record)


def _hand_lookup() -> None:
    counts = {parse_card("AS"): 1}
    counts[parse_card("10H")] += 1  # a KeyError whose message is the card


def test_a_fault_naming_a_card_is_logged_by_its_type_and_place_not_its_message() -> None:
    try:
        _hand_lookup()
    except KeyError as exc:
        assert "10H" in str(exc)  # (what a plain traceback would print)
        text = _logged(exc)
    assert text.startswith("it failed\nTraceback")
    assert "_hand_lookup" in text and "counts[parse_card" in text  # where it happened
    assert f"KeyError: {WITHHELD}" in text
    assert "10H" not in text.replace('parse_card("10H")', "")  # (the source line names it)


def test_every_exception_of_a_chain_and_a_group_has_its_message_withheld() -> None:
    try:
        try:
            raise AssertionError(f"hand {HAND} is short")
        except AssertionError as inner:
            raise ValueError(f"bad play {HAND}") from inner
    except ValueError as exc:
        chained = exc
    text = _logged(ExceptionGroup("table", [chained, IndexError(HAND)]))
    for card in HAND.split():
        assert card not in text, text
    for name in ("AssertionError", "ValueError", "IndexError"):
        assert f"{name}: {WITHHELD}" in text
    assert "The above exception was the direct cause" in text


def test_a_worker_process_fault_keeps_its_frames_and_withholds_its_message() -> None:
    """The computer players and the pictures run in worker processes: their faults come
    back with the worker's traceback as text, which names the card too."""
    with worker_pool(1, end_with_parent) as pool:
        future = pool.submit(operator.getitem, {parse_card("AS"): 1}, parse_card("10H"))
        try:
            future.result()
        except KeyError as exc:
            assert "10H" in str(exc.__cause__)  # (the worker's traceback, as text)
            text = _logged(exc)
    assert "10H" not in text, text
    assert "in _process_worker" in text  # the worker's frames are kept
    assert text.count(f"KeyError: {WITHHELD}") == 2  # the worker's and the one raised here


def test_without_the_message_attribute_only_the_frames_and_the_type_are_logged(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a Python whose ``TracebackException`` keeps its message elsewhere, nothing of it."""
    original = traceback.TracebackException.__init__

    def without_message(self: traceback.TracebackException, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        del self._str  # type: ignore[attr-defined]

    monkeypatch.setattr(traceback.TracebackException, "__init__", without_message)
    try:
        _hand_lookup()
    except KeyError as exc:
        text = _logged(exc)
    assert "in _hand_lookup" in text and text.endswith(f"KeyError: {WITHHELD}")
    assert "10H" not in text.replace('parse_card("10H")', "")


def test_errors_of_the_outside_world_keep_their_message() -> None:
    assert "ConnectionRefusedError: [Errno 111] refused" in \
        _logged(ConnectionRefusedError(111, "refused"))
    assert "StoreError: the database is locked" in _logged(StoreError("the database is locked"))
    assert "OperationalError: disk I/O error" in _logged(sqlite3.OperationalError("disk I/O error"))
    # the engine's error prints its code alone (its parameters may name cards)
    text = _logged(EngineError("not_your_turn", cards=HAND))
    assert "EngineError: not_your_turn" in text and "AS" not in text


def test_the_bot_process_logs_with_it(tmp_path: Path) -> None:
    """``python -m bot``'s logging, as ``main`` sets it up (here it stops at the missing
    token, after setting up the log), then a fault naming a card logged through it."""
    script = textwrap.dedent("""
        import logging
        from bot.__main__ import main
        print("exit", main([]))
        try:
            {"AS": 1}["10H"]
        except KeyError:
            logging.getLogger("bot.tables").exception("clock of channel 7 failed")
    """)
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    run = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env | {
        "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "exit 2", run.stderr
    assert "ERROR bot.tables: clock of channel 7 failed\nTraceback" in run.stderr
    assert f"KeyError: {WITHHELD}" in run.stderr and "'10H'" not in run.stderr, run.stderr
