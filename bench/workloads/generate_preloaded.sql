-- Generation with shared_preload_libraries = 'ulid', where
-- gen_monotonic_ulid() is monotonic across the whole cluster and takes a
-- shared lock on every call; the peers are measured again in this cluster
-- (core's uuidv7() on PostgreSQL 18 and later).
-- cluster: preloaded
-- rows: :N
-- baseline: floor

-- @case floor
SELECT count(*) FROM generate_series(1, :N);

-- @case gen_random_uuid() vs floor
SELECT count(gen_random_uuid()) FROM generate_series(1, :N);

-- @case uuidv7() vs gen_random_uuid(), floor
-- requires: to_regprocedure('uuidv7()') IS NOT NULL
SELECT count(uuidv7()) FROM generate_series(1, :N);

-- @case clock_timestamp() vs gen_random_uuid(), floor
SELECT count(clock_timestamp()) FROM generate_series(1, :N);

-- @case gen_ulid() vs gen_random_uuid(), clock_timestamp(), floor, uuidv7()
SELECT count(gen_ulid()) FROM generate_series(1, :N);

-- @case gen_monotonic_ulid() vs gen_ulid(), gen_random_uuid(), floor, uuidv7()
SELECT count(gen_monotonic_ulid()) FROM generate_series(1, :N);
