-- Lock contention of cluster-wide gen_monotonic_ulid(): 8 pgbench clients
-- that do nothing but call one generator per transaction, with
-- shared_preload_libraries = 'ulid', so that gen_monotonic_ulid() takes the
-- shared lock on every call.  Measured as the time per transaction (1/TPS).
-- cluster: preloaded
-- pgbench: -c 8 -j 2 -M prepared
-- warmup: 0
-- rounds: 3

-- @case gen_random_uuid()
SELECT gen_random_uuid();

-- @case gen_ulid() vs gen_random_uuid()
SELECT gen_ulid();

-- @case gen_monotonic_ulid() vs gen_random_uuid()
SELECT gen_monotonic_ulid();
