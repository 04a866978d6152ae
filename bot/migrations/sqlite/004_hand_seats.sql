-- 004: a hand's record in every preset (bot/stats/hands.py). Levels are per level holder
-- (a fixed team, or each player where levels are individual: find-friends, three-bid);
-- match_players.team and matches.winner_team are level holders too. The fixed-team
-- columns are NULL where a match has no fixed teams. New columns (NULL in rows stored
-- before this migration, whose seats are read from the fixed teams):
--   defenders     JSON list of the seats that defended (the dealer and every friend found)
--   winner_side   who went up: 'defenders', 'attackers' or 'none'
--   bid           three-bid: the winning bid (the attackers' threshold)
--   seat_changes  JSON list, one per seat: {"before", "after" (rank labels), "gained"
--                 (levels the hand gave that seat), "reasons" (the engine's codes)}
-- SQLite cannot drop NOT NULL in place: the table is rebuilt with its columns in the same
-- order as PostgreSQL's (the old ones, then the new ones).
CREATE TABLE hands_new (
    match_id          INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    hand_no           INTEGER NOT NULL CHECK (hand_no >= 0),
    dealer            INTEGER NOT NULL CHECK (dealer >= 0),
    level             TEXT    NOT NULL,
    trump             TEXT,
    defenders_team    INTEGER CHECK (defenders_team IS NULL OR defenders_team >= 0),
    attacker_points   INTEGER NOT NULL,
    kitty_multiplier  INTEGER NOT NULL CHECK (kitty_multiplier >= 0),
    last_trick_team   INTEGER CHECK (last_trick_team IS NULL OR last_trick_team >= 0),
    last_trick_seat   INTEGER CHECK (last_trick_seat IS NULL OR last_trick_seat >= 0),
    winner_team       INTEGER CHECK (winner_team IS NULL OR winner_team >= 0),
    levels_gained     INTEGER NOT NULL,
    levels_before     TEXT    NOT NULL CHECK (json_valid(levels_before)),
    levels_after      TEXT    NOT NULL CHECK (json_valid(levels_after)),
    result            TEXT    NOT NULL CHECK (json_valid(result)),
    recorded_at       INTEGER NOT NULL,
    defenders         TEXT    CHECK (defenders IS NULL OR json_valid(defenders)),
    winner_side       TEXT    CHECK (winner_side IN ('defenders', 'attackers', 'none')),
    bid               INTEGER CHECK (bid IS NULL OR bid > 0),
    seat_changes      TEXT    CHECK (seat_changes IS NULL OR json_valid(seat_changes)),
    PRIMARY KEY (match_id, hand_no)
) STRICT;

INSERT INTO hands_new (match_id, hand_no, dealer, level, trump, defenders_team,
    attacker_points, kitty_multiplier, last_trick_team, last_trick_seat, winner_team,
    levels_gained, levels_before, levels_after, result, recorded_at)
SELECT match_id, hand_no, dealer, level, trump, defenders_team, attacker_points,
    kitty_multiplier, last_trick_team, last_trick_seat, winner_team, levels_gained,
    levels_before, levels_after, result, recorded_at FROM hands;

DROP TABLE hands;

ALTER TABLE hands_new RENAME TO hands;
