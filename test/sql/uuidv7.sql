-- Core's uuidv7() (PostgreSQL 18 on) and ulid: both begin with the 48-bit
-- Unix time in milliseconds, so a UUIDv7 cast to ulid keeps its time and
-- its order.  A ULID cast to uuid is not a UUIDv7: its version and variant
-- bits are random.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

CREATE TEMP TABLE v7 AS
	SELECT n, uuidv7() AS u FROM generate_series(1, 10000) n;

-- The time survives the cast, to the millisecond.
SELECT count(*) AS same_time FROM v7
WHERE ulid_time(u::ulid) = uuid_extract_timestamp(u);
-- The cast round-trips, and the text form is valid ulid input.
SELECT count(*) AS round_trips FROM v7
WHERE u::ulid::uuid = u AND (u::ulid)::text::ulid = u::ulid;
-- Generation order is ulid order: uuidv7() is monotonic within a backend.
SELECT bool_and(prev < id) AS ulid_order_is_generation_order
FROM (SELECT u::ulid AS id, lag(u::ulid) OVER (ORDER BY n) AS prev FROM v7) s
WHERE prev IS NOT NULL;
-- A time given to uuidv7() as a shift lands in the same millisecond range.
SELECT ulid_time(uuidv7(interval '-1 day')::ulid) BETWEEN now() - interval '1 day 1 minute'
	AND now() - interval '1 day' + interval '1 minute' AS shifted_time;

-- gen_ulid()::uuid: uuid_extract_version() reads random bits (and answers
-- only when the random variant bits say RFC 9562), so every
-- version turns up; uuid_extract_timestamp() answers only for the ids whose
-- random bits happen to say 1 or 7, and only "version 7" reads the right time.
-- Each value of its own millisecond, so that each has 80 fresh random bits:
-- within a millisecond gen_ulid() counts up from the first value, whose top
-- bits (the version's) then rarely change.
CREATE TEMP TABLE g AS
	SELECT gen_ulid(now() - n * interval '1 millisecond')::uuid AS u
	FROM generate_series(1, 10000) n;
SELECT count(DISTINCT uuid_extract_version(u)) AS versions_seen FROM g;
SELECT count(*) AS timestamps_outside_versions_1_and_7 FROM g
WHERE uuid_extract_version(u) NOT IN (1, 7) AND uuid_extract_timestamp(u) IS NOT NULL;
SELECT bool_and(uuid_extract_timestamp(u) = ulid_time(u::ulid)) AS version_7_reads_the_time
FROM g WHERE uuid_extract_version(u) = 7;

-- The UUIDv7-shaped generators: every value cast to uuid is a UUIDv7 for
-- core's functions (uuid_extract_version() answers only for the RFC 9562
-- variant, so 7 means variant and version), and the time core reads is the
-- ulid's.  10,000 values of each, the monotonic one interleaved with
-- gen_monotonic_ulid().
CREATE TEMP TABLE g7 AS
	SELECT 'gen_ulid_v7()' AS generator, gen_ulid_v7() AS id FROM generate_series(1, 10000)
	UNION ALL
	SELECT 'gen_ulid_v7(timestamptz)', gen_ulid_v7(now() - n * interval '1 hour 1 millisecond')
	FROM generate_series(1, 10000) n
	UNION ALL
	SELECT 'gen_monotonic_ulid_v7()', id FROM (
		SELECT CASE WHEN n % 2 = 0 THEN gen_monotonic_ulid_v7() END AS id,
			CASE WHEN n % 2 = 1 THEN gen_monotonic_ulid() END AS plain
		FROM generate_series(1, 20000) n) s
	WHERE id IS NOT NULL;
SELECT generator, count(*) AS values,
	count(*) FILTER (WHERE uuid_extract_version(id::uuid) = 7) AS version_7,
	count(*) FILTER (WHERE uuid_extract_timestamp(id::uuid) = ulid_time(id)) AS same_time
FROM g7 GROUP BY generator ORDER BY generator;
-- The other way: core's uuidv7() values, as ulids, have the shape those
-- generators give.
SELECT bool_and(get_byte(u::ulid::bytea, 6) >> 4 = 7 AND get_byte(u::ulid::bytea, 8) >> 6 = 2)
	AS uuidv7_has_the_shape
FROM v7;
