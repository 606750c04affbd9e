-- Sorting ids that gen_ulid() made many to a millisecond, in shuffled order:
-- against the same milliseconds with independent random bits, and against
-- the same values typed uuid.  The abbreviated key is the first 8 bytes (6
-- of time, 2 of the random part), which gen_ulid()'s step within a
-- millisecond changes only about every fourth id.
-- cluster: plain

-- @setup
CREATE TABLE IF NOT EXISTS sg AS
	SELECT u, u::uuid AS g,
		   ulid_from_bytea(substring(ulid_send(u) FROM 1 FOR 6) ||
						   substring(uuid_send(gen_random_uuid()) FROM 1 FOR 10)) AS v
	FROM (SELECT gen_ulid() AS u FROM generate_series(1, :N)) s
	ORDER BY random();
VACUUM ANALYZE sg;

-- @check
SELECT (SELECT count(DISTINCT ulid_time(u)) FROM sg) > 1
	AND (SELECT count(*) FROM sg WHERE ulid_time(u) = ulid_time(v)) = :N
	AND plan_of('SELECT u FROM sg ORDER BY u OFFSET ' || :N) LIKE '%Sort%';

-- @case independent bits
SELECT v FROM sg ORDER BY 1 OFFSET :N;

-- @case gen_ulid() vs independent bits, uuid
SELECT u FROM sg ORDER BY 1 OFFSET :N;

-- @case uuid
SELECT g FROM sg ORDER BY 1 OFFSET :N;
