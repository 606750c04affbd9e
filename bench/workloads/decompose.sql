-- Where gen_ulid()'s time goes, in ns per call above the bare series: a
-- function call that does nothing (pg_backend_pid()), the clock read alone
-- (clock_timestamp()), everything gen_ulid() does but the clock read
-- (gen_ulid() of a fixed time), gen_ulid() itself, and gen_random_uuid().
-- More rounds than the other workloads: the differences are a few ns.
-- cluster: plain
-- rows: :N
-- baseline: floor
-- rounds: 15

-- @case floor
SELECT count(*) FROM generate_series(1, :N);

-- @case pg_backend_pid() vs floor
SELECT count(pg_backend_pid()) FROM generate_series(1, :N);

-- @case clock_timestamp() vs floor
SELECT count(clock_timestamp()) FROM generate_series(1, :N);

-- @case gen_ulid(fixed time) vs floor
SELECT count(gen_ulid('2026-12-02 18:00+00')) FROM generate_series(1, :N);

-- @case gen_ulid() vs clock_timestamp(), floor
SELECT count(gen_ulid()) FROM generate_series(1, :N);

-- @case gen_random_uuid() vs floor
SELECT count(gen_random_uuid()) FROM generate_series(1, :N);
