-- 003: which live process serves which shard (the same schema as
-- sqlite/003_shard_leases.sql, which explains it).
CREATE TABLE shard_leases (
    shard_id      INTEGER NOT NULL PRIMARY KEY CHECK (shard_id >= 0),
    shard_count   INTEGER NOT NULL CHECK (shard_count > shard_id),
    owner         TEXT    NOT NULL,
    heartbeat_at  BIGINT  NOT NULL
);
