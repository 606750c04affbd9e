-- Sorting ids that gen_ulid() made several to a millisecond, in shuffled
-- order: against the same milliseconds with independent random bits, and
-- against the same values typed uuid; made as fast as one statement can
-- (thousands a millisecond), and at 1, 10 and 100 a millisecond through
-- gen_ulid(ts), which steps within a millisecond as gen_ulid() does; and
-- gen_ulid_v7()'s, against the same milliseconds with independent bits of
-- its shape.  The abbreviated key is the first 8 bytes (6 of time, 2 of the
-- random part).  1.1's step changed them only about every fourth id; since
-- 1.2 the step counts in them (src/ulid_packed.h).
-- cluster: plain

-- @setup
CREATE FUNCTION pg_temp.generated(per_ms int, rows int) RETURNS TABLE (u ulid, g uuid, v ulid)
LANGUAGE sql AS $$
	SELECT u, u::uuid,
		   ulid_from_bytea(substring(ulid_send(u) FROM 1 FOR 6) ||
						   substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10))
	FROM (SELECT CASE WHEN per_ms = 0 THEN gen_ulid()
					  ELSE gen_ulid('2025-06-01 00:00+00'::timestamptz + (n / per_ms) * interval '1 millisecond')
				 END AS u
		  FROM generate_series(0, rows - 1) AS n) s
	ORDER BY random()
$$;
-- gen_ulid_v7() at bulk rate, and the same milliseconds with independent
-- bits in the UUIDv7 shape (version 0111, variant 10).
CREATE FUNCTION pg_temp.generated_v7(rows int) RETURNS TABLE (u ulid, v ulid)
LANGUAGE sql AS $$
	SELECT u, ulid_from_bytea(set_byte(set_byte(b, 6, get_byte(b, 6) & 15 | 112),
									   8, get_byte(b, 8) & 63 | 128))
	FROM (SELECT u, substring(ulid_send(u) FROM 1 FOR 6) ||
				 substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10) AS b
		  FROM (SELECT gen_ulid_v7() AS u FROM generate_series(1, rows)) g) s
	ORDER BY random()
$$;
CREATE TABLE IF NOT EXISTS sg AS SELECT * FROM pg_temp.generated(0, :N);
CREATE TABLE IF NOT EXISTS sgv7 AS SELECT * FROM pg_temp.generated_v7(:N);
CREATE TABLE IF NOT EXISTS sg1 AS SELECT * FROM pg_temp.generated(1, :N);
CREATE TABLE IF NOT EXISTS sg10 AS SELECT * FROM pg_temp.generated(10, :N);
CREATE TABLE IF NOT EXISTS sg100 AS SELECT * FROM pg_temp.generated(100, :N);
VACUUM ANALYZE sg, sg1, sg10, sg100, sgv7;
SELECT round(:N::numeric / count(DISTINCT ulid_time(u))) AS bulk_ids_per_ms FROM sg;

-- @check
SELECT (SELECT count(*) FROM sg WHERE ulid_time(u) = ulid_time(v)) = :N
	AND (SELECT count(DISTINCT ulid_time(u)) FROM sg10) = :N / 10
	AND (SELECT count(*) FROM sgv7 WHERE ulid_time(u) = ulid_time(v)
			AND v::uuid::text ~ '^.{14}7.{4}[89ab]') = :N
	AND plan_of('SELECT u FROM sg ORDER BY u OFFSET ' || :N) LIKE '%Sort%';

-- @case bulk: independent bits
SELECT v FROM sg ORDER BY 1 OFFSET :N;

-- @case bulk: gen_ulid() vs bulk: independent bits, bulk: uuid
SELECT u FROM sg ORDER BY 1 OFFSET :N;

-- @case bulk: uuid
SELECT g FROM sg ORDER BY 1 OFFSET :N;

-- @case bulk v7: independent bits
SELECT v FROM sgv7 ORDER BY 1 OFFSET :N;

-- @case bulk v7: gen_ulid_v7() vs bulk v7: independent bits
SELECT u FROM sgv7 ORDER BY 1 OFFSET :N;

-- @case 100/ms: independent bits
SELECT v FROM sg100 ORDER BY 1 OFFSET :N;

-- @case 100/ms: gen_ulid() vs 100/ms: independent bits
SELECT u FROM sg100 ORDER BY 1 OFFSET :N;

-- @case 10/ms: independent bits
SELECT v FROM sg10 ORDER BY 1 OFFSET :N;

-- @case 10/ms: gen_ulid() vs 10/ms: independent bits
SELECT u FROM sg10 ORDER BY 1 OFFSET :N;

-- @case 1/ms: independent bits
SELECT v FROM sg1 ORDER BY 1 OFFSET :N;

-- @case 1/ms: gen_ulid() vs 1/ms: independent bits
SELECT u FROM sg1 ORDER BY 1 OFFSET :N;
