-- The time-ordered generators side by side, where all of them exist
-- (PostgreSQL 18 with pg_uuidv7, the most used UUIDv7 extension: Debian's
-- postgresql-18-pg-uuidv7): gen_ulid(), gen_ulid_v7(), core's uuidv7(),
-- pg_uuidv7's uuid_generate_v7(), and gen_random_uuid() as the random
-- baseline.  For each: generating :N ids; loading :N rows in one statement
-- with it as the primary key's DEFAULT, and that index's size after the
-- load; sorting :N of its ids, made in one statement, in shuffled order.
-- The leaf density after such loads: bench/leaf_density.sql (recorded in
-- bench/results/*-leaf_density-pg18.csv).
-- cluster: plain
-- rows: :N
-- requires: to_regprocedure('uuidv7()') IS NOT NULL AND to_regprocedure('uuid_generate_v7()') IS NOT NULL

-- @setup
CREATE TABLE IF NOT EXISTS ps AS
	SELECT ulid_v, ulid_v7_v, uuidv7_v, pg_uuidv7_v, random_v
	FROM (SELECT row_number() OVER () AS n, gen_ulid() AS ulid_v FROM generate_series(1, :N)) a
	JOIN (SELECT row_number() OVER () AS n, gen_ulid_v7() AS ulid_v7_v FROM generate_series(1, :N)) b USING (n)
	JOIN (SELECT row_number() OVER () AS n, uuidv7() AS uuidv7_v FROM generate_series(1, :N)) c USING (n)
	JOIN (SELECT row_number() OVER () AS n, uuid_generate_v7() AS pg_uuidv7_v FROM generate_series(1, :N)) d USING (n)
	JOIN (SELECT row_number() OVER () AS n, gen_random_uuid() AS random_v FROM generate_series(1, :N)) e USING (n)
	ORDER BY random();
VACUUM ANALYZE ps;

-- @check
SELECT count(DISTINCT pg_uuidv7_v) = :N AND bool_and(uuid_extract_version(pg_uuidv7_v) = 7)
	AND count(DISTINCT ulid_v7_v) = :N AND bool_and(uuid_extract_version(ulid_v7_v::uuid) = 7)
	AND plan_of('SELECT ulid_v FROM ps ORDER BY 1 OFFSET ' || :N) LIKE '%Sort%'
FROM ps;

-- @case gen: gen_random_uuid()
SELECT count(gen_random_uuid()) FROM generate_series(1, :N);

-- @case gen: uuidv7()
SELECT count(uuidv7()) FROM generate_series(1, :N);

-- @case gen: uuid_generate_v7()
SELECT count(uuid_generate_v7()) FROM generate_series(1, :N);

-- @case gen: gen_ulid_v7() vs gen: uuidv7(), gen: uuid_generate_v7()
SELECT count(gen_ulid_v7()) FROM generate_series(1, :N);

-- @case gen: gen_ulid() vs gen: uuidv7(), gen: uuid_generate_v7(), gen: gen_random_uuid()
SELECT count(gen_ulid()) FROM generate_series(1, :N);

-- @case insert: gen_random_uuid()
DROP TABLE IF EXISTS pi;
CREATE TABLE pi (id uuid DEFAULT gen_random_uuid() PRIMARY KEY, n int);
CHECKPOINT;
-- @timed
INSERT INTO pi (n) SELECT g FROM generate_series(1, :N) g;
-- @size
SELECT pg_relation_size('pi_pkey');

-- @case insert: uuidv7()
DROP TABLE IF EXISTS pi;
CREATE TABLE pi (id uuid DEFAULT uuidv7() PRIMARY KEY, n int);
CHECKPOINT;
-- @timed
INSERT INTO pi (n) SELECT g FROM generate_series(1, :N) g;
-- @size
SELECT pg_relation_size('pi_pkey');

-- @case insert: uuid_generate_v7()
DROP TABLE IF EXISTS pi;
CREATE TABLE pi (id uuid DEFAULT uuid_generate_v7() PRIMARY KEY, n int);
CHECKPOINT;
-- @timed
INSERT INTO pi (n) SELECT g FROM generate_series(1, :N) g;
-- @size
SELECT pg_relation_size('pi_pkey');

-- @case insert: gen_ulid_v7() vs insert: uuidv7(), insert: uuid_generate_v7()
DROP TABLE IF EXISTS pi;
CREATE TABLE pi (id ulid DEFAULT gen_ulid_v7() PRIMARY KEY, n int);
CHECKPOINT;
-- @timed
INSERT INTO pi (n) SELECT g FROM generate_series(1, :N) g;
-- @size
SELECT pg_relation_size('pi_pkey');

-- @case insert: gen_ulid() vs insert: uuidv7(), insert: uuid_generate_v7(), insert: gen_random_uuid()
DROP TABLE IF EXISTS pi;
CREATE TABLE pi (id ulid DEFAULT gen_ulid() PRIMARY KEY, n int);
CHECKPOINT;
-- @timed
INSERT INTO pi (n) SELECT g FROM generate_series(1, :N) g;
-- @size
SELECT pg_relation_size('pi_pkey');

-- @case sort: gen_random_uuid()
SELECT random_v FROM ps ORDER BY 1 OFFSET :N;

-- @case sort: uuidv7()
SELECT uuidv7_v FROM ps ORDER BY 1 OFFSET :N;

-- @case sort: uuid_generate_v7()
SELECT pg_uuidv7_v FROM ps ORDER BY 1 OFFSET :N;

-- @case sort: gen_ulid_v7() vs sort: uuidv7(), sort: uuid_generate_v7()
SELECT ulid_v7_v FROM ps ORDER BY 1 OFFSET :N;

-- @case sort: gen_ulid() vs sort: uuidv7(), sort: uuid_generate_v7(), sort: gen_random_uuid()
SELECT ulid_v FROM ps ORDER BY 1 OFFSET :N;
