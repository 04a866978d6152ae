-- 005: a table message being moved (the same column as sqlite/005_table_moving_from.sql,
-- which explains it).
ALTER TABLE tables ADD COLUMN moving_from BIGINT;
