"""Leaderboards, player stats and match history. Every query takes the server (guild)
id, so a server's data is never shown in another server. Leaderboards show ranked play
only; ``stats`` shows all play and the ranked part."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.errors import BotError
from bot.stats.hands import seat_outcomes
from bot.stats.seating import match_seating, teammates
from bot.store import (
    LEADERBOARD_ORDERS,
    LeaderboardOrder,
    LeaderboardRow,
    PlayerStats,
    Store,
    StoreError,
)
from engine.teams import Formation, Seating

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
    """One ended match seen from one player. With fixed teams: partners and opponents,
    and the levels (the player's team, the other team) at the end; without (find-friends,
    three-bid, where the sides change every hand): the other players, and the player's
    own level at the end."""

    match_id: int
    finished_at: datetime | None
    partners: list[str]
    opponents: list[str]
    outcome: str  # won, lost, abandoned
    hands: int
    ranked: bool
    levels: tuple[str, ...] | None  # fixed teams: (theirs, the others'); else (theirs,)
    fixed_teams: bool = True
    others: list[str] = field(default_factory=list)  # everyone else (no fixed teams)


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
            holder = seating.holder(seat)  # the match winner is a level holder
            outcome = "abandoned" if match.status == "abandoned" else \
                "won" if match.winner_team == holder else "lost"
            levels = await self._final_levels(match.id, seating, seat) \
                if match.hands_played else None
            if seating.formation is Formation.FIXED:
                mates, rivals = teammates(seating, seat, len(match.seats))
                out.append(HistoryEntry(
                    match.id, match.finished_at, [match.seats[i].name for i in mates],
                    [match.seats[i].name for i in rivals], outcome, match.hands_played,
                    match.ranked, levels))
            else:
                others = [s.name for i, s in enumerate(match.seats) if i != seat]
                out.append(HistoryEntry(match.id, match.finished_at, [], [], outcome,
                                        match.hands_played, match.ranked, levels,
                                        fixed_teams=False, others=others))
        return out

    async def _final_levels(self, match_id: int, seating: Seating, seat: int
                            ) -> tuple[str, ...] | None:
        """The levels after the match's last hand: (the seat's team's, the other team's),
        or (the seat's own,) without fixed teams. None if the hand does not read."""
        try:
            last = (await self.store.match_hands(match_id))[-1]
            by_seat = seat_outcomes(seating, last)
        except (StoreError, IndexError):
            return None
        if seat >= len(by_seat):
            return None
        if seating.formation is not Formation.FIXED:
            return (by_seat[seat].after,)
        _, rivals = teammates(seating, seat, seating.players)
        return (by_seat[seat].after, by_seat[rivals[0]].after) if rivals else None
