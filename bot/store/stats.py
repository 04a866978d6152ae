"""The stats queries: counting a hand into players' totals and ratings (exactly once), the
server leaderboards, and one player's totals. Written once for both SQL backends."""

from __future__ import annotations

from collections.abc import Sequence

from bot.store.records import (
    LEADERBOARD_ORDERS,
    HandStats,
    LeaderboardOrder,
    LeaderboardRow,
    PlayerStats,
    Rating,
    StoreError,
    check,
    is_int,
)
from bot.store.sql import SqlBackend

# order: (FROM ..., ORDER BY ...); every query is confined to one guild
_LEADERBOARDS: dict[str, tuple[str, str]] = {
    "rating": ("player_ratings r JOIN players p ON p.guild_id = r.guild_id "
               "AND p.user_id = r.user_id LEFT JOIN player_stats s ON s.guild_id = "
               "r.guild_id AND s.user_id = r.user_id AND s.ranked = 1 "
               "WHERE r.guild_id = ?", "r.score DESC, r.user_id"),
    "wins": ("player_stats s JOIN players p ON p.guild_id = s.guild_id "
             "AND p.user_id = s.user_id LEFT JOIN player_ratings r ON r.guild_id = "
             "s.guild_id AND r.user_id = s.user_id WHERE s.guild_id = ? AND s.ranked = 1",
             "s.won DESC, s.played, s.user_id"),
    "levels": ("player_stats s JOIN players p ON p.guild_id = s.guild_id "
               "AND p.user_id = s.user_id LEFT JOIN player_ratings r ON r.guild_id = "
               "s.guild_id AND r.user_id = s.user_id WHERE s.guild_id = ? "
               "AND s.ranked = 1", "s.levels_gained DESC, s.user_id"),
}


class PlayerStatsStore(SqlBackend):
    """Player stats and ratings (kept by ``bot/stats.py``), leaderboards."""

    async def stats_progress(self, match_id: int) -> int:
        """How many hands of the match are counted in player stats and ratings."""
        rows = await self._fetch(f"loading the stats progress of match {match_id}",
                                 "SELECT stats_hands FROM matches WHERE id = ?", (match_id,))
        if not rows:
            raise StoreError(f"there is no match {match_id}")
        return int(rows[0][0])

    async def pending_stats(self) -> list[int]:
        """Matches (of the claimed shards' servers) with stored hands not yet counted, oldest
        first."""
        shards, params = self._shard_filter()
        rows = await self._fetch("loading the matches with uncounted hands",
                                 "SELECT id FROM matches WHERE stats_hands < hands_played"
                                 f"{shards} ORDER BY id", params)
        return [int(r[0]) for r in rows]

    async def load_ratings(self, guild_id: int, user_ids: Sequence[int]
                           ) -> dict[int, Rating]:
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        marks = ", ".join("?" * len(wanted))
        rows = await self._fetch(
            f"loading ratings in server {guild_id}",
            f"SELECT user_id, mu, sigma, hands FROM player_ratings WHERE guild_id = ? "
            f"AND user_id IN ({marks})", (guild_id, *wanted))
        return {int(r[0]): Rating(int(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows}

    async def count_hand(self, match_id: int, hand_no: int, stats: Sequence[HandStats],
                         ratings: Sequence[Rating]) -> None:
        """Add one stored hand to the players' totals and store their new ratings, once.

        ``hand_no`` must be the next uncounted hand of the match (the first stored after
        the ``stats_hands`` counted ones, in hand order); ``ratings`` are the new values
        (their ``hands`` is ignored: each counts one more hand)."""
        check(all(isinstance(h, HandStats) for h in stats), "stats must be HandStats")
        check(all(isinstance(r, Rating) and r.sigma > 0 for r in ratings),
              "ratings must be Ratings with a positive sigma")
        now = self._now()
        async with self._transaction(f"counting hand {hand_no} of match {match_id}") as tx:
            rows = await tx.fetch(
                "SELECT guild_id, ranked, stats_hands FROM matches WHERE id = ?"
                f"{self.FOR_UPDATE}", (match_id,))
            if not rows:
                raise StoreError(f"there is no match {match_id}")
            guild_id, ranked, counted = rows[0]
            following = await tx.fetch(
                "SELECT hand_no FROM hands WHERE match_id = ? ORDER BY hand_no "
                "LIMIT 1 OFFSET ?", (match_id, counted))
            if not following:
                raise StoreError(f"hand {hand_no} of match {match_id} cannot be counted: "
                                 "every stored hand is counted")
            if hand_no != following[0][0]:
                raise StoreError(f"hand {hand_no} of match {match_id} cannot be counted: "
                                 f"the next to count is {following[0][0]}")
            # in user order, so two hands counted at once lock shared rows in the same order
            for h in sorted(stats, key=lambda h: h.user_id):
                await tx.execute(
                    "INSERT INTO player_stats (guild_id, user_id, ranked, hands_defending, "
                    "won_defending, hands_attacking, won_attacking, levels_gained, "
                    "kitties_captured) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, user_id, ranked) DO UPDATE SET "
                    "hands_defending = player_stats.hands_defending + excluded.hands_defending, "
                    "won_defending = player_stats.won_defending + excluded.won_defending, "
                    "hands_attacking = player_stats.hands_attacking + excluded.hands_attacking, "
                    "won_attacking = player_stats.won_attacking + excluded.won_attacking, "
                    "levels_gained = player_stats.levels_gained + excluded.levels_gained, "
                    "kitties_captured = player_stats.kitties_captured "
                    "+ excluded.kitties_captured",
                    (guild_id, h.user_id, ranked, int(h.defending), int(h.defending and h.won),
                     int(not h.defending), int(not h.defending and h.won), h.levels_gained,
                     int(h.kitty_captured)))
            for r in sorted(ratings, key=lambda r: r.user_id):
                await tx.execute(
                    "INSERT INTO player_ratings (guild_id, user_id, mu, sigma, score, hands, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, 1, ?) "
                    "ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, score = excluded.score, "
                    "hands = player_ratings.hands + 1, updated_at = excluded.updated_at",
                    (guild_id, r.user_id, float(r.mu), float(r.sigma), float(r.score), now))
            await tx.execute("UPDATE matches SET stats_hands = stats_hands + 1 WHERE id = ?",
                             (match_id,))

    async def leaderboard(self, guild_id: int, order: LeaderboardOrder, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[LeaderboardRow], int]:
        """One page of the server's ranked leaderboard, and how many players it has."""
        check(order in _LEADERBOARDS, f"order must be one of {LEADERBOARD_ORDERS}")
        check(is_int(offset) and offset >= 0 and is_int(limit) and limit > 0,
              "offset and limit must be whole numbers")
        source, sort = _LEADERBOARDS[order]
        doing = f"loading the {order} leaderboard of server {guild_id}"
        rows = await self._fetch(
            doing, "SELECT p.user_id, p.name, r.mu, r.sigma, r.hands, COALESCE(s.played, 0), "
            f"COALESCE(s.won, 0), COALESCE(s.levels_gained, 0) FROM {source} "
            f"ORDER BY {sort} LIMIT ? OFFSET ?", (guild_id, limit, offset))
        total = await self._fetch(doing, f"SELECT COUNT(*) FROM {source}", (guild_id,))
        out = []
        for i, r in enumerate(rows):
            rating = None if r[2] is None else Rating(int(r[0]), float(r[2]), float(r[3]),
                                                      int(r[4]))
            out.append(LeaderboardRow(offset + i + 1, int(r[0]), str(r[1]), rating,
                                      int(r[5]), int(r[6]), int(r[7])))
        return out, int(total[0][0])

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        """One user's totals in one server (None: never seen there)."""
        doing = f"loading the stats of user {user_id} in server {guild_id}"
        rows = await self._fetch(
            doing, "SELECT p.name, COALESCE(SUM(s.played), 0), COALESCE(SUM(s.won), 0), "
            "COALESCE(SUM(s.abandoned), 0), COALESCE(SUM(s.played * s.ranked), 0), "
            "COALESCE(SUM(s.won * s.ranked), 0), COALESCE(SUM(s.hands_defending), 0), "
            "COALESCE(SUM(s.won_defending), 0), COALESCE(SUM(s.hands_attacking), 0), "
            "COALESCE(SUM(s.won_attacking), 0), COALESCE(SUM(s.levels_gained), 0), "
            "COALESCE(SUM(s.kitties_captured), 0) FROM players p LEFT JOIN player_stats s "
            "ON s.guild_id = p.guild_id AND s.user_id = p.user_id "
            "WHERE p.guild_id = ? AND p.user_id = ? GROUP BY p.guild_id, p.user_id, p.name",
            (guild_id, user_id))
        if not rows:
            return None
        row = rows[0]
        rating = (await self.load_ratings(guild_id, [user_id])).get(user_id)
        position = None
        if rating is not None:
            ahead = await self._fetch(
                doing, "SELECT COUNT(*) FROM player_ratings WHERE guild_id = ? AND "
                "(score > ? OR (score = ? AND user_id < ?))",
                (guild_id, rating.score, rating.score, user_id))
            position = int(ahead[0][0]) + 1
        (played, won, abandoned, ranked_played, ranked_won, hands_defending, won_defending,
         hands_attacking, won_attacking, levels_gained, kitties) = (int(v) for v in row[1:])
        return PlayerStats(
            user_id=user_id, name=str(row[0]), played=played, won=won, abandoned=abandoned,
            ranked_played=ranked_played, ranked_won=ranked_won,
            hands_defending=hands_defending, won_defending=won_defending,
            hands_attacking=hands_attacking, won_attacking=won_attacking,
            levels_gained=levels_gained, kitties_captured=kitties, rating=rating,
            position=position)
