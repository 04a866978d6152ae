-- 004: a hand's record in every preset (the same schema as sqlite/004_hand_seats.sql,
-- which explains each column).
ALTER TABLE hands ALTER COLUMN defenders_team DROP NOT NULL;
ALTER TABLE hands ALTER COLUMN last_trick_team DROP NOT NULL;
ALTER TABLE hands ADD COLUMN defenders JSON;
ALTER TABLE hands ADD COLUMN winner_side TEXT
    CHECK (winner_side IN ('defenders', 'attackers', 'none'));
ALTER TABLE hands ADD COLUMN bid INTEGER CHECK (bid IS NULL OR bid > 0);
ALTER TABLE hands ADD COLUMN seat_changes JSON;
