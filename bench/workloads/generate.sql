-- Generation: count() over :N calls of each generator, against core's
-- gen_random_uuid(), the bare series (the floor) and clock_timestamp() (the
-- clock read alone, which every generator that stamps the current time
-- pays: a generator that reads the clock once per id can beat
-- gen_random_uuid() by about as much as clock_timestamp() does, no more).
-- sql_uuidv7() and plpgsql_ulid() are what a user without this extension
-- writes instead (bench/alternatives.sql), checked first to make distinct
-- values of the right form stamped with the current time.  On PostgreSQL
-- 18 and later, core's uuidv7() too, the last peer of the ulid cases.
-- Measured again, as generate_preloaded, with shared_preload_libraries =
-- 'ulid', where gen_monotonic_ulid() is monotonic across the whole cluster
-- and takes a shared lock on every call; the floor and the peers are
-- measured again there, the alternatives (plain only) are not.
-- cluster: plain preloaded
-- rows: :N
-- baseline: floor

-- @setup
\i bench/alternatives.sql

-- @check
-- cluster: plain
SELECT count(DISTINCT s) = 1000
	AND bool_and(s ~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$'
				 AND abs(extract(epoch FROM ulid_time(s::ulid) - clock_timestamp())) < 60)
FROM (SELECT plpgsql_ulid() AS s FROM generate_series(1, 1000)) x;

-- @check
-- cluster: plain
SELECT count(DISTINCT v) = 1000
	AND bool_and(substr(v::text, 15, 1) = '7'
				 AND substr(v::text, 20, 1) IN ('8', '9', 'a', 'b')
				 AND abs(extract(epoch FROM ulid_time(v::ulid) - clock_timestamp())) < 60)
FROM (SELECT sql_uuidv7() AS v FROM generate_series(1, 1000)) x;

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

-- @case sql_uuidv7() vs gen_ulid(), gen_random_uuid(), uuidv7()
-- cluster: plain
SELECT count(sql_uuidv7()) FROM generate_series(1, :N);

-- @case plpgsql_ulid() vs gen_ulid(), gen_random_uuid()
-- cluster: plain
SELECT count(plpgsql_ulid()) FROM generate_series(1, :N);
