-- Point lookups on a ulid key by a prepared statement, as a driver sends
-- them (pgbench -M prepared, one client): the parameter typed ulid, and
-- typed uuid, as psycopg, pgjdbc or pgx send a native UUID value.  Both
-- use the ulid key's index (the checks), so they should cost the same; a
-- uuid key looked up by a uuid parameter is the peer.  Each transaction
-- first fetches a random key's text by its integer (the same step in every
-- case), then looks the key up.
-- cluster: plain
-- pgbench: -c 1 -M prepared

-- @setup
CREATE TABLE IF NOT EXISTS lk (n int PRIMARY KEY, id ulid NOT NULL UNIQUE, g uuid NOT NULL UNIQUE);
INSERT INTO lk
	SELECT i, gen_ulid(now() - random() * interval '365 days'), gen_random_uuid()
	FROM generate_series(1, :N) i
	WHERE NOT EXISTS (SELECT FROM lk);
VACUUM ANALYZE lk;

-- @check
SELECT plan_of('SELECT n FROM lk WHERE id = ''01ARYZ6S41TSV4RRFFQ69G5FAV''::ulid') LIKE '%Index Scan using lk_id_key%';

-- @check
SELECT plan_of('SELECT n FROM lk WHERE id = ''01563df3-6481-d676-4c61-efb99302bd5b''::uuid') LIKE '%Index Scan using lk_id_key%';

-- @case uuid key by uuid
-- @timed
\set i random(1, :N)
SELECT g::text AS k FROM lk WHERE n = :i \gset
SELECT n FROM lk WHERE g = :k::uuid;

-- @case ulid key by ulid vs uuid key by uuid
-- @timed
\set i random(1, :N)
SELECT id::text AS k FROM lk WHERE n = :i \gset
SELECT n FROM lk WHERE id = :k::ulid;

-- @case ulid key by uuid vs ulid key by ulid, uuid key by uuid
-- @timed
\set i random(1, :N)
SELECT id::uuid::text AS k FROM lk WHERE n = :i \gset
SELECT n FROM lk WHERE id = :k::uuid;
