"""Leaderboards, player stats and match history. Every query takes the server (guild)
id, so a server's data is never shown in another server. Leaderboards show ranked play
only; ``stats`` shows all play and the ranked part."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.errors import BotError
from bot.stats.seating import match_seating, teammates
from bot.store import (
    LEADERBOARD_ORDERS,
    LeaderboardOrder,
    LeaderboardRow,
    PlayerStats,
    Store,
)

PAGE_SIZE = 10


@dataclass(frozen=True)
class LeaderboardPage:
    guild_id: int
    order: LeaderboardOrder
    page: int  # 0-based
    pages: int
    total: int
    rows: list[LeaderboardRow]


@dataclass(frozen=True)
class HistoryEntry:
    """One ended match seen from one player."""

    match_id: int
    finished_at: datetime | None
    partners: list[str]
    opponents: list[str]
    outcome: str  # won, lost, abandoned
    hands: int
    ranked: bool
    levels: tuple[str, str] | None  # (the player's team, the other team) at the end


class StatsQueries:
    """Every query behind the leaderboard, stats and history commands."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def leaderboard(self, guild_id: int, order: str, page: int) -> LeaderboardPage:
        if order not in LEADERBOARD_ORDERS:
            raise BotError("lb_bad_order", orders=", ".join(LEADERBOARD_ORDERS))
        kind: LeaderboardOrder = order  # (narrowed by the check above)
        page = max(0, page)
        rows, total = await self.store.leaderboard(guild_id, kind, offset=page * PAGE_SIZE,
                                                   limit=PAGE_SIZE)
        pages = max(1, -(-total // PAGE_SIZE))
        if page >= pages and total:  # the board shrank under an old button: last page
            return await self.leaderboard(guild_id, order, pages - 1)
        return LeaderboardPage(guild_id, kind, page, pages, total, rows)

    async def leaderboard_click(self, viewer_guild: int | None, guild_id: int, order: str,
                                page: int) -> LeaderboardPage:
        """A paging button: refused outside the server the board belongs to."""
        if viewer_guild != guild_id:
            raise BotError("lb_other_server")
        return await self.leaderboard(guild_id, order, page)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        return await self.store.player_stats(guild_id, user_id)

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10
                      ) -> list[HistoryEntry]:
        out = []
        for match in await self.store.match_history(guild_id, user_id=user_id, limit=limit):
            seat = next((i for i, s in enumerate(match.seats) if s.user_id == user_id), None)
            if seat is None:
                continue
            seating = match_seating(match)
            team = seating.fixed_team(seat)
            mates, others = teammates(seating, seat, len(match.seats))
            partners = [match.seats[i].name for i in mates]
            opponents = [match.seats[i].name for i in others]
            outcome = "abandoned" if match.status == "abandoned" else \
                "won" if match.winner_team == team else "lost"
            levels = None
            if match.hands_played:
                last = (await self.store.match_hands(match.id))[-1]
                levels = (last.levels_after[team], last.levels_after[1 - team])
            out.append(HistoryEntry(match.id, match.finished_at, partners, opponents, outcome,
                                    match.hands_played, match.ranked, levels))
        return out
