-- UUIDv7-shaped generation: count() over :N calls of gen_ulid_v7() and
-- gen_monotonic_ulid_v7() against the generators they are shaped from,
-- gen_ulid() and gen_monotonic_ulid() (the same work, plus writing 6 bits),
-- and, on PostgreSQL 18 and later, core's uuidv7(), the last peer.  Checked
-- first to make distinct values with the version 7 and variant bits, stamped
-- with the current time.  Measured again, as generate_v7_preloaded, with
-- shared_preload_libraries = 'ulid', where both monotonic generators take a
-- shared lock per call (each its own).
-- cluster: plain preloaded
-- rows: :N
-- baseline: floor

-- @check
SELECT count(DISTINCT id) = 2000
	AND bool_and(get_byte(id::bytea, 6) >> 4 = 7 AND get_byte(id::bytea, 8) >> 6 = 2
				 AND abs(extract(epoch FROM ulid_time(id) - clock_timestamp())) < 60)
FROM (SELECT gen_ulid_v7() AS id FROM generate_series(1, 1000)
	  UNION ALL
	  SELECT gen_monotonic_ulid_v7() FROM generate_series(1, 1000)) x;

-- @check
-- requires: to_regprocedure('uuidv7()') IS NOT NULL
SELECT bool_and(uuid_extract_version(id::uuid) = 7
				AND uuid_extract_timestamp(id::uuid) = ulid_time(id))
FROM (SELECT gen_ulid_v7() AS id FROM generate_series(1, 1000)
	  UNION ALL
	  SELECT gen_monotonic_ulid_v7() FROM generate_series(1, 1000)) x;

-- @case floor
SELECT count(*) FROM generate_series(1, :N);

-- @case uuidv7() vs floor
-- requires: to_regprocedure('uuidv7()') IS NOT NULL
SELECT count(uuidv7()) FROM generate_series(1, :N);

-- @case gen_ulid() vs floor, uuidv7()
SELECT count(gen_ulid()) FROM generate_series(1, :N);

-- @case gen_ulid_v7() vs gen_ulid(), floor, uuidv7()
SELECT count(gen_ulid_v7()) FROM generate_series(1, :N);

-- @case gen_monotonic_ulid() vs gen_ulid(), floor, uuidv7()
SELECT count(gen_monotonic_ulid()) FROM generate_series(1, :N);

-- @case gen_monotonic_ulid_v7() vs gen_monotonic_ulid(), gen_ulid_v7(), floor, uuidv7()
SELECT count(gen_monotonic_ulid_v7()) FROM generate_series(1, :N);
