-- 003: which live process serves which shard (bot/store/sql.py, claim_shards). A process
-- that serves shards of a PostgreSQL database keeps a row per shard and renews
-- heartbeat_at; a row whose heartbeat is older than the lease time is free. (A SQLite file
-- is served by one process only, held by a file lock; the table is kept for one schema.)
CREATE TABLE shard_leases (
    shard_id      INTEGER NOT NULL PRIMARY KEY CHECK (shard_id >= 0),
    shard_count   INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner         TEXT    NOT NULL,
    heartbeat_at  INTEGER NOT NULL
) STRICT;
