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
CREATE TEMP TABLE g AS
	SELECT gen_ulid()::uuid AS u FROM generate_series(1, 10000);
SELECT count(DISTINCT uuid_extract_version(u)) AS versions_seen FROM g;
SELECT count(*) AS timestamps_outside_versions_1_and_7 FROM g
WHERE uuid_extract_version(u) NOT IN (1, 7) AND uuid_extract_timestamp(u) IS NOT NULL;
SELECT bool_and(uuid_extract_timestamp(u) = ulid_time(u::ulid)) AS version_7_reads_the_time
FROM g WHERE uuid_extract_version(u) = 7;
