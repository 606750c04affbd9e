-- ulid against uuid in PGlite (PostgreSQL in WebAssembly, 32-bit): generation, text I/O, sort, index build.
-- Run by name alone (bench/run pglite): one PGlite instance in Node with
-- this extension's bundle (bin/pglite) and pg_uuidv7's PGlite package, at
-- the versions bench/pglite/package.json pins; bench/pglite/run.mjs runs
-- the cases there, forward and backward in alternate rounds.
--
-- The rows: d (bench/data.sql, as on the server) for text output and input:
-- :N ulids of random times over the past year beside :N random uuids, in no
-- order, and both as text.  y, for sorts and index builds: d's ulid and uuid
-- columns and the ulid's 16 bytes typed uuid (ulid::uuid keeps the bytes),
-- which tells the type's sort path apart from its data.  n: gen_ulid(),
-- uuidv7() and gen_random_uuid() made now, in one statement, then shuffled,
-- with the gen_ulid() column's bytes as uuid too.
--
-- On 32-bit, where a Datum is 4 bytes, uuid's abbreviated key is its first
-- 4 bytes: for uuidv7() the top 32 bits of the 48-bit millisecond time,
-- which change every 65.5 s.  n's uuidv7() ids fall within seconds, so
-- their sorts give abbreviation up at the first check, after 10,240 values,
-- and compare all 16 bytes from then on (the @note puts the counts of
-- distinct leading bytes in the data file).  ulid's key on 32-bit is its
-- time relative to the sort's first value (src/ulid_abbrev.h), so neither
-- n's nor y's ulid sorts give it up.
--
-- Each sort first drops the index the last index build left (on y or n):
-- with it, the planner would read that index instead of sorting.
-- cluster: pglite
-- rows: :N
-- baseline: floor
-- rounds: 10

-- @setup
\i bench/data.sql
CREATE TABLE y AS SELECT u, g, u::uuid AS ug FROM d;
CREATE TABLE n AS
	SELECT u, u::uuid AS ug, v7, r
	FROM (SELECT gen_ulid() AS u, uuidv7() AS v7, gen_random_uuid() AS r
		  FROM generate_series(1, :N)) s
	ORDER BY random();
VACUUM ANALYZE y;
VACUUM ANALYZE n;

-- @check
SELECT plan_of('SELECT u FROM y ORDER BY u OFFSET ' || :N) LIKE '%Sort%'
	AND plan_of('SELECT u FROM n ORDER BY u OFFSET ' || :N) LIKE '%Sort%'
	AND (SELECT count(DISTINCT uuid_extract_version(v7)) = 1 AND min(uuid_extract_version(v7)) = 7 FROM n)
	AND (SELECT bool_and(ug::ulid = u) FROM y)
	AND (SELECT bool_and(ug::ulid = u) FROM n);

-- @note
-- How many of each column's leading 4 bytes differ: uuid's abbreviated key
-- here (ulid's is not, see above).  A sort gives abbreviation up, from
-- 10,000 values on, where fewer than one in 2,000 (+ 0.5) keys differ
-- (src/ulid.c, core's uuid.c).
SELECT format('distinct leading 4 bytes (uuid''s abbreviated key on 32-bit) among the %s rows: '
			  'year: ulid %s, uuid %s; now: gen_ulid() %s, uuidv7() %s, gen_random_uuid() %s',
			  to_char(:N, 'FM999,999,999'),
			  (SELECT to_char(count(DISTINCT substring(ulid_send(u) FROM 1 FOR 4)), 'FM999,999,999') FROM y),
			  (SELECT to_char(count(DISTINCT substring(uuid_send(g) FROM 1 FOR 4)), 'FM999,999,999') FROM y),
			  (SELECT to_char(count(DISTINCT substring(ulid_send(u) FROM 1 FOR 4)), 'FM999,999,999') FROM n),
			  (SELECT to_char(count(DISTINCT substring(uuid_send(v7) FROM 1 FOR 4)), 'FM999,999,999') FROM n),
			  (SELECT to_char(count(DISTINCT substring(uuid_send(r) FROM 1 FOR 4)), 'FM999,999,999') FROM n));

-- @case floor
SELECT count(*) FROM generate_series(1, :N);

-- @case gen: gen_random_uuid()
SELECT count(gen_random_uuid()) FROM generate_series(1, :N);

-- @case gen: uuidv7()
SELECT count(uuidv7()) FROM generate_series(1, :N);

-- @case gen: uuid_generate_v7()
SELECT count(uuid_generate_v7()) FROM generate_series(1, :N);

-- @case gen: gen_ulid() vs gen: gen_random_uuid(), gen: uuidv7(), gen: uuid_generate_v7()
SELECT count(gen_ulid()) FROM generate_series(1, :N);

-- @case out: uuid::text
SELECT count(g::text) FROM d;

-- @case out: ulid::text vs out: uuid::text
SELECT count(u::text) FROM d;

-- @case in: text::uuid
SELECT count(gs::uuid) FROM d;

-- @case in: text::ulid vs in: text::uuid
SELECT count(us::ulid) FROM d;

-- @case sort (year): uuid
DROP INDEX IF EXISTS k;
-- @timed
SELECT g FROM y ORDER BY 1 OFFSET :N;

-- @case sort (year): ulid as uuid
DROP INDEX IF EXISTS k;
-- @timed
SELECT ug FROM y ORDER BY 1 OFFSET :N;

-- @case sort (year): ulid vs sort (year): uuid, sort (year): ulid as uuid
DROP INDEX IF EXISTS k;
-- @timed
SELECT u FROM y ORDER BY 1 OFFSET :N;

-- @case sort (now): gen_random_uuid()
DROP INDEX IF EXISTS k;
-- @timed
SELECT r FROM n ORDER BY 1 OFFSET :N;

-- @case sort (now): uuidv7()
DROP INDEX IF EXISTS k;
-- @timed
SELECT v7 FROM n ORDER BY 1 OFFSET :N;

-- @case sort (now): gen_ulid() as uuid
DROP INDEX IF EXISTS k;
-- @timed
SELECT ug FROM n ORDER BY 1 OFFSET :N;

-- @case sort (now): gen_ulid() vs sort (now): gen_random_uuid(), sort (now): uuidv7(), sort (now): gen_ulid() as uuid
DROP INDEX IF EXISTS k;
-- @timed
SELECT u FROM n ORDER BY 1 OFFSET :N;

-- @case index (year): uuid
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON y (g);

-- @case index (year): ulid as uuid
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON y (ug);

-- @case index (year): ulid vs index (year): uuid, index (year): ulid as uuid
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON y (u);

-- @case index (now): gen_random_uuid()
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON n (r);

-- @case index (now): uuidv7()
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON n (v7);

-- @case index (now): gen_ulid() as uuid
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON n (ug);

-- @case index (now): gen_ulid() vs index (now): gen_random_uuid(), index (now): uuidv7(), index (now): gen_ulid() as uuid
DROP INDEX IF EXISTS k;
CHECKPOINT;
-- @timed
CREATE INDEX k ON n (u);
