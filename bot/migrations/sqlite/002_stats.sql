-- 002: per-hand player statistics, ratings (openskill), and a marker of which hands
-- have been counted, so stats and ratings are applied exactly once per hand even if the
-- bot dies between storing a hand and counting it (bot/stats.py catches up at start-up).

-- Hands counted into player_stats and player_ratings; a match is pending while
-- stats_hands < hands_played.
ALTER TABLE matches ADD COLUMN stats_hands INTEGER NOT NULL DEFAULT 0
    CHECK (stats_hands >= 0);
CREATE INDEX matches_stats_pending ON matches (id) WHERE stats_hands < hands_played;

-- Per-hand totals, beside the per-match ones of 001 (same row: guild, user, ranked).
-- "defending": on the dealer's team (庄家方); "attacking": on the other team.
-- A role is won when that team goes up; levels_gained counts the levels the player's
-- team went up; kitties_captured counts last tricks this player won as an attacker
-- that brought the kitty to the attackers.
ALTER TABLE player_stats ADD COLUMN hands_defending INTEGER NOT NULL DEFAULT 0
    CHECK (hands_defending >= 0);
ALTER TABLE player_stats ADD COLUMN won_defending INTEGER NOT NULL DEFAULT 0
    CHECK (won_defending >= 0);
ALTER TABLE player_stats ADD COLUMN hands_attacking INTEGER NOT NULL DEFAULT 0
    CHECK (hands_attacking >= 0);
ALTER TABLE player_stats ADD COLUMN won_attacking INTEGER NOT NULL DEFAULT 0
    CHECK (won_attacking >= 0);
ALTER TABLE player_stats ADD COLUMN levels_gained INTEGER NOT NULL DEFAULT 0
    CHECK (levels_gained >= 0);
ALTER TABLE player_stats ADD COLUMN kitties_captured INTEGER NOT NULL DEFAULT 0
    CHECK (kitties_captured >= 0);

CREATE INDEX player_stats_by_levels ON player_stats (guild_id, ranked, levels_gained DESC);

-- One openskill rating per user and server, from ranked hands only. score = mu - 3 sigma
-- (the conservative estimate the leaderboard sorts by), kept as a column for the index.
CREATE TABLE player_ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL CHECK (sigma > 0),
    score       REAL    NOT NULL,
    hands       INTEGER NOT NULL DEFAULT 0 CHECK (hands >= 0),
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX player_ratings_by_score ON player_ratings (guild_id, score DESC, user_id);
