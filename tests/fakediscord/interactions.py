"""One interaction as the fake dispatched it, and what the bot did with it."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model import Message
    from .server import FakeDiscord

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# Callback types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL},
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE},
}


@dataclass(frozen=True)
class Rejection:
    """A callback the fake refused (e.g. 40060 already acknowledged, 10062 unknown interaction)."""

    status: int
    code: int
    message: str
    callback_type: int | None


class InteractionTimeout(AssertionError):
    """The bot did not do what a test waited for in time."""


class FakeInteraction:
    """Handle returned by ``slash``/``click``/``select``/``submit_modal``/``dispatch_autocomplete``.

    ``response`` is the body of the accepted callback (``{"type": ..., "data": ...}``) or None;
    ``message`` the current state of the ``@original`` message (a created response, or the
    component's message after a type 6/7 update); ``followups`` the followup messages;
    ``rejections`` every refused callback; ``modal`` the modal the bot opened, if any.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: int,
        token: str,
        type: int,
        user_id: int,
        channel_id: int,
        guild_id: int | None,
        payload: dict[str, Any],
        component_message_id: int | None = None,
        focused_type: int | None = None,
    ) -> None:
        self._fake = fake
        self.id = id
        self.token = token
        self.type = type
        self.user_id = user_id
        self.channel_id = channel_id
        self.guild_id = guild_id
        self.payload = payload
        self.component_message_id = component_message_id
        self.focused_type = focused_type
        self.dispatched_at: float | None = None
        self.response: dict[str, Any] | None = None
        self.claimed = False  # a callback is being applied: a concurrent second one must get 40060
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self.rejections: list[Rejection] = []
        self.modal: dict[str, Any] | None = None
        self._changed = asyncio.Event()

    def __repr__(self) -> str:
        return f"<FakeInteraction id={self.id} type={self.type} acked={self.acked}>"

    # state -------------------------------------------------------------------------------------

    @property
    def acked(self) -> bool:
        return self.response is not None

    @property
    def response_type(self) -> int | None:
        return None if self.response is None else self.response["type"]

    @property
    def ephemeral(self) -> bool:
        message = self.message
        return bool(message and message.ephemeral)

    @property
    def message(self) -> Message | None:
        if self.original_message_id is None:
            return None
        return self._fake.message(self.original_message_id)

    @property
    def followups(self) -> list[Message]:
        return [self._fake.message(mid) for mid in self.followup_ids]

    @property
    def choices(self) -> list[dict[str, Any]]:
        """The autocomplete choices the bot answered (type 8)."""
        if self.response is None or self.response["type"] != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"interaction {self.id} has no autocomplete result: {self.response}")
        return list(self.response.get("data", {}).get("choices", []))

    def deadline(self) -> float:
        assert self.dispatched_at is not None
        return self.dispatched_at + self._fake.ack_timeout

    def expired(self, now: float) -> bool:
        return not self.acked and self.dispatched_at is not None and now > self.deadline()

    def token_expired(self, now: float) -> bool:
        return self.dispatched_at is not None and now > self.dispatched_at + self._fake.token_lifetime

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # waiting -----------------------------------------------------------------------------------

    async def _wait(self, done, timeout: float, what: str) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not done():
            remaining = end - loop.time()
            if remaining <= 0:
                raise InteractionTimeout(
                    f"interaction {self.id} (type {self.type}): gave up waiting for {what} after {timeout}s; "
                    f"response={self.response} rejections={self.rejections}\n{self._fake.describe_recent()}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def wait_acked(self, timeout: float = 5.0) -> dict[str, Any]:
        """Waits for the bot's first accepted callback and returns it (``{"type", "data"}``).

        Fails as soon as the ack window has closed without an ack, since none can succeed after.
        """
        loop = asyncio.get_running_loop()
        if self.dispatched_at is not None:
            timeout = min(timeout, max(0.0, self.deadline() - loop.time()) + 0.05)
        await self._wait(lambda: self.acked, timeout, "an acknowledgement")
        assert self.response is not None
        return self.response

    async def wait_rejected(self, code: int | None = None, timeout: float = 5.0) -> Rejection:
        """Waits for a refused callback (optionally with this error code) and returns it."""

        def found() -> Rejection | None:
            return next((r for r in self.rejections if code is None or r.code == code), None)

        await self._wait(lambda: found() is not None, timeout, f"a rejected callback (code {code})")
        rejection = found()
        assert rejection is not None
        return rejection

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[Message]:
        await self._wait(lambda: len(self.followup_ids) >= count, timeout, f"{count} followup(s)")
        return self.followups

    async def wait_done(self, timeout: float = 5.0) -> Message:
        """Waits until the @original message exists and is no longer a "thinking" placeholder."""

        def done() -> bool:
            message = self.message
            return message is not None and not message.loading

        await self._wait(done, timeout, "a non-loading original response")
        assert self.message is not None
        return self.message
