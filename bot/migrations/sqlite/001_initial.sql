-- 001: players, guild settings, tables (lobbies), matches with their seats,
-- the append-only action log, and one row per scored hand.
-- Times are Unix milliseconds (UTC). JSON is TEXT and checked with json_valid().
-- Discord ids are 64-bit INTEGERs.

CREATE TABLE players (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    first_seen  INTEGER NOT NULL,
    last_seen   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE guild_settings (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL CHECK (json_valid(settings)),
    updated_at  INTEGER NOT NULL
) STRICT;

CREATE TABLE matches (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    rules        TEXT    NOT NULL CHECK (json_valid(rules)),
    seats        TEXT    NOT NULL CHECK (json_valid(seats)),
    ranked       INTEGER NOT NULL DEFAULT 0 CHECK (ranked IN (0, 1)),
    status       TEXT    NOT NULL DEFAULT 'playing'
                 CHECK (status IN ('playing', 'finished', 'abandoned')),
    winner_team  INTEGER CHECK (winner_team IS NULL OR status = 'finished'),
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER CHECK ((finished_at IS NULL) = (status = 'playing')),
    hands_played INTEGER NOT NULL DEFAULT 0 CHECK (hands_played >= 0)
) STRICT;

-- start-up: rebuild the unfinished matches
CREATE INDEX matches_playing ON matches (id) WHERE status = 'playing';
-- match history and export per server, newest first (ids grow with time)
CREATE INDEX matches_by_guild ON matches (guild_id, id DESC);
CREATE INDEX matches_by_channel ON matches (channel_id, id DESC);

-- One row per seat of a match (seats JSON keeps the exact record). Denormalised
-- guild_id/ranked and the outcome (set by finish_match) let per-player history and
-- stats read one index instead of every match.
CREATE TABLE match_players (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    guild_id  INTEGER NOT NULL,
    kind      TEXT    NOT NULL CHECK (kind IN ('human', 'ai')),
    user_id   INTEGER CHECK ((user_id IS NULL) = (kind = 'ai')),
    name      TEXT    NOT NULL,
    ai_level  TEXT,
    team      INTEGER NOT NULL CHECK (team >= 0),
    ranked    INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    outcome   TEXT    CHECK (outcome IN ('won', 'lost', 'abandoned')),
    PRIMARY KEY (match_id, seat),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) STRICT, WITHOUT ROWID;

-- one player's history, newest first
CREATE INDEX match_players_by_user ON match_players (guild_id, user_id, match_id DESC)
    WHERE user_id IS NOT NULL;

-- Running totals per user, server and ranked/casual, kept by finish_match in the same
-- transaction, so a leaderboard reads one row per player instead of every match.
-- (Can be rebuilt from match_players; later stats add columns here.)
CREATE TABLE player_stats (
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    ranked     INTEGER NOT NULL CHECK (ranked IN (0, 1)),
    played     INTEGER NOT NULL DEFAULT 0 CHECK (played >= 0),
    won        INTEGER NOT NULL DEFAULT 0 CHECK (won >= 0 AND won <= played),
    abandoned  INTEGER NOT NULL DEFAULT 0 CHECK (abandoned >= 0),
    PRIMARY KEY (guild_id, user_id, ranked),
    FOREIGN KEY (guild_id, user_id) REFERENCES players (guild_id, user_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX player_stats_by_wins ON player_stats (guild_id, ranked, won DESC, played);

-- Tables (one per channel): the lobby and the running match, rebuilt at start-up.
CREATE TABLE tables (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    host_id     INTEGER NOT NULL,
    message_id  INTEGER,
    preset      TEXT    NOT NULL,
    options     TEXT    NOT NULL CHECK (json_valid(options)),
    settings    TEXT    NOT NULL CHECK (json_valid(settings)),
    seats       TEXT    NOT NULL CHECK (json_valid(seats)),
    match_id    INTEGER REFERENCES matches (id) ON DELETE SET NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished')),
    locale      TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
) STRICT;

CREATE INDEX tables_by_guild ON tables (guild_id);
CREATE INDEX tables_by_match ON tables (match_id) WHERE match_id IS NOT NULL;

-- The append-only action log: seq is the 0-based index in the game's log.
CREATE TABLE actions (
    match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    action      TEXT    NOT NULL CHECK (json_valid(action)),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (match_id, seq)
) STRICT, WITHOUT ROWID;

-- Even a writer that bypasses the store cannot leave a gap in a log.
CREATE TRIGGER actions_no_gap BEFORE INSERT ON actions
WHEN NEW.seq <> COALESCE((SELECT MAX(seq) FROM actions WHERE match_id = NEW.match_id) + 1, 0)
BEGIN
    SELECT RAISE(ABORT, 'actions: seq must follow the last one');
END;

CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;

-- One row per scored hand. Levels are per team (index = team), as rank labels.
CREATE TABLE hands (
    match_id          INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    hand_no           INTEGER NOT NULL CHECK (hand_no >= 0),
    dealer            INTEGER NOT NULL CHECK (dealer >= 0),
    level             TEXT    NOT NULL,
    trump             TEXT,
    defenders_team    INTEGER NOT NULL CHECK (defenders_team >= 0),
    attacker_points   INTEGER NOT NULL,
    kitty_multiplier  INTEGER NOT NULL CHECK (kitty_multiplier >= 0),
    last_trick_team   INTEGER NOT NULL CHECK (last_trick_team >= 0),
    last_trick_seat   INTEGER CHECK (last_trick_seat IS NULL OR last_trick_seat >= 0),
    winner_team       INTEGER CHECK (winner_team IS NULL OR winner_team >= 0),
    levels_gained     INTEGER NOT NULL,
    levels_before     TEXT    NOT NULL CHECK (json_valid(levels_before)),
    levels_after      TEXT    NOT NULL CHECK (json_valid(levels_after)),
    result            TEXT    NOT NULL CHECK (json_valid(result)),
    recorded_at       INTEGER NOT NULL,
    PRIMARY KEY (match_id, hand_no)
) STRICT;
