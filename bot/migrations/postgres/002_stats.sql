-- 002: per-hand player statistics, ratings (openskill), and a marker of which hands
-- have been counted (the same schema as sqlite/002_stats.sql, which explains each column).

ALTER TABLE matches ADD COLUMN stats_hands INTEGER NOT NULL DEFAULT 0
    CHECK (stats_hands >= 0);
CREATE INDEX matches_stats_pending ON matches (id) WHERE stats_hands < hands_played;

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

CREATE TABLE player_ratings (
    guild_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    mu          DOUBLE PRECISION NOT NULL,
    sigma       DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    score       DOUBLE PRECISION NOT NULL,
    hands       INTEGER          NOT NULL DEFAULT 0 CHECK (hands >= 0),
    updated_at  BIGINT           NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
);

CREATE INDEX player_ratings_by_score ON player_ratings (guild_id, score DESC, user_id);
