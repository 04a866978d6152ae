"""What cogs and the UI may ask of the services: small protocols, and the one object
that carries them (``Services``), reached from a command or a button through
:func:`services_of`. Nothing here knows the Bot: cogs and controls are built and tested
with any object that has these methods.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.stats.queries import HistoryEntry, LeaderboardPage
from bot.stats.settings import ServerSettings
from bot.store import GuildData, PlayerData, PlayerStats
from bot.table_data import Seat, Table, TableSettings
from engine.actions import Action
from engine.cards import Card
from engine.views import SeatView
from images import Rendered


class TableDesk(Protocol):
    """The table service as commands and buttons use it (``bot.tables.TableService``)."""

    def get(self, channel_id: int) -> Table: ...

    def view_for(self, channel_id: int, user_id: int) -> tuple[Table, int, SeatView]: ...

    async def create(self, *, channel_id: int, guild_id: int, user_id: int, name: str,
                     preset: str, options: dict[str, Any], locale: str = "en-US",
                     settings: TableSettings | None = None) -> Table: ...

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None
                   ) -> int: ...

    async def leave(self, channel_id: int, user_id: int) -> None: ...

    async def back(self, channel_id: int, user_id: int) -> bool: ...

    async def add_ai(self, channel_id: int, user_id: int, seat: int | None = None,
                     level: str = "easy") -> int: ...

    async def remove_ai(self, channel_id: int, user_id: int, seat: int) -> None: ...

    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False
                    ) -> Table: ...

    async def remove(self, channel_id: int, user_id: int, seat: int, *,
                     can_manage: bool = False) -> Seat: ...

    async def play_again(self, channel_id: int, user_id: int, *, can_manage: bool = False
                         ) -> Table: ...

    async def let_in(self, channel_id: int, user_id: int, seat: int, newcomer_id: int,
                     name: str, *, can_manage: bool = False) -> None: ...

    async def end(self, channel_id: int, user_id: int, *, can_manage: bool) -> None: ...

    async def act(self, channel_id: int, user_id: int, make: Callable[[int], Action]
                  ) -> object: ...

    async def declare(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> object: ...

    async def give_back(self, channel_id: int, user_id: int, cards: Sequence[Card]
                        ) -> object: ...

    async def bury(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> object: ...

    async def swap(self, channel_id: int, user_id: int, give: Sequence[Card],
                   take: Sequence[Card]) -> object: ...

    async def play(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> object: ...


class TableNotes(Protocol):
    """What the publisher knows beyond the table itself (``bot.ui.publisher``)."""

    def summary(self, table: Table) -> str:
        """The table as text, with its recent public events."""
        ...

    def take_private(self, channel_id: int, user_id: int) -> list[str]:
        """Private notes kept for a player (e.g. a refused DM), once."""
        ...


class HandPanels(Protocol):
    """The open hand panels (``bot.ui.panel_registry``)."""

    def keep(self, channel_id: int, user_id: int, redraw: Callable[[], Awaitable[bool]]
             ) -> None:
        """Redraw ``user_id``'s panel with the table; ``redraw`` says if it lives on."""
        ...

    def is_current(self, channel_id: int, user_id: int,
                   redraw: Callable[[], Awaitable[bool]]) -> bool:
        """``redraw`` is still the way to draw the user's panel (not replaced since)."""
        ...


class ServerSettingsDesk(Protocol):
    """A server's defaults for new tables (``bot.stats.settings``)."""

    async def get(self, guild_id: int) -> ServerSettings: ...

    async def update(self, guild_id: int, *, preset: str | None = None,
                     options: str | None = None, turn_timer: float | None = None,
                     nudge_after: float | None = None,
                     computers_ranked: bool | None = None, reset: bool = False
                     ) -> ServerSettings: ...


class StatsDesk(Protocol):
    """Leaderboards, stats and history of one server (``bot.stats.queries``)."""

    async def leaderboard(self, guild_id: int, order: str, page: int) -> LeaderboardPage: ...

    async def leaderboard_click(self, viewer_guild: int | None, guild_id: int, order: str,
                                page: int) -> LeaderboardPage: ...

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None: ...

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10
                      ) -> list[HistoryEntry]: ...


class Pictures(Protocol):
    """Where pictures are drawn (``bot.ui.render``: worker processes in the bot, a thread
    in tests and scripts); a player's own pictures are ``urgent``."""

    @property
    def waiting(self) -> int:
        """Pictures waiting to be drawn: how far behind the drawing is."""
        ...

    async def draw(self, urgent: bool, render: Callable[..., Rendered], *args: Any,
                   **kwargs: Any) -> Rendered: ...


class ExportDesk(Protocol):
    """Finished matches as documents (``bot.stats.export``)."""

    async def export(self, guild_id: int, match_id: int) -> dict[str, Any]: ...


class ServerDataDesk(Protocol):
    """What is stored of a server, or of one player in it, counted and erased (the store:
    ``bot.store``)."""

    async def guild_data(self, guild_id: int) -> GuildData: ...

    async def erase_guild(self, guild_id: int) -> GuildData: ...

    async def player_data(self, guild_id: int, user_id: int) -> PlayerData: ...

    async def erase_player(self, guild_id: int, user_id: int) -> PlayerData: ...


@dataclass(frozen=True)
class Services:
    """Everything a command handler or a control may use."""

    tables: TableDesk
    notes: TableNotes
    panels: HandPanels
    server_settings: ServerSettingsDesk
    stats: StatsDesk
    exports: ExportDesk
    default_table_settings: TableSettings
    pictures: Pictures
    server_data: ServerDataDesk


def services_of(client: object) -> Services:
    """The services of the client an interaction came to (a ``ShengjiBot``)."""
    services = getattr(client, "services", None)
    if not isinstance(services, Services):
        raise TypeError(f"{type(client).__name__} carries no shengji services")
    return services
