-- What bin/demo shows: a table keyed by ulid, in a throwaway cluster.
\pset footer off
\echo
\echo CREATE EXTENSION ulid;
CREATE EXTENSION ulid;
\echo CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
INSERT INTO orders (item) VALUES ('coffee');
INSERT INTO orders (item) SELECT 'croissant' FROM pg_sleep(0.01);
INSERT INTO orders (item) SELECT 'orange juice' FROM pg_sleep(0.01);
\echo
\echo Ids sort in creation order; each is 16 bytes, casts losslessly to uuid and carries its time:
SELECT id, id::uuid AS as_uuid, ulid_time(id) AS created, pg_column_size(id) AS bytes, item
FROM orders ORDER BY id;
\echo Input is strict and says why it rejects a value:
\set ON_ERROR_STOP 0
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAU'::ulid;
\set ON_ERROR_STOP 1
\echo
\echo The canonical example, its uuid form and its time:
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid AS id,
	'01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid AS as_uuid,
	ulid_time('01ARYZ6S41TSV4RRFFQ69G5FAV') AT TIME ZONE 'UTC' AS utc_time;
\echo gen_monotonic_ulid() increases strictly, even within one millisecond:
SELECT gen_monotonic_ulid() FROM generate_series(1, 4);
\echo Rows created in the last hour, found through the primary key:
SELECT count(*) FROM orders WHERE id >= (now() - interval '1 hour')::ulid;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id >= (now() - interval '1 hour')::ulid;
