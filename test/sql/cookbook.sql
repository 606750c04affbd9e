-- The README's cookbook, run as written.  bin/test checks that every SQL
-- block of the README's Cookbook section appears in this file verbatim.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;

-- Sample data: an order a minute through June 2025, with ids whose random
-- part is zero so the output is the same on every run.
CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
INSERT INTO orders
	SELECT ulid_from_time('2025-06-01 00:00+00'::timestamptz + n * interval '1 minute'), 'item ' || n
	FROM generate_series(0, 30 * 24 * 60 - 1) n;
ANALYZE orders;

-- Rows created in a time window
SELECT count(*) FROM orders
WHERE id >= '2025-06-10 00:00+00'::timestamptz::ulid
  AND id <  '2025-06-11 00:00+00'::timestamptz::ulid;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders
WHERE id >= '2025-06-10 00:00+00'::timestamptz::ulid
  AND id <  '2025-06-11 00:00+00'::timestamptz::ulid;
INSERT INTO orders (item) VALUES ('made today'), ('made today too');
SELECT count(*) FROM orders WHERE id >= (now() - interval '1 day')::ulid;
EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE id >= (now() - interval '1 day')::ulid;
DELETE FROM orders WHERE item LIKE 'made today%';

-- Latest N rows
SELECT id, ulid_time(id), item FROM orders ORDER BY id DESC LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id, ulid_time(id), item FROM orders ORDER BY id DESC LIMIT 3;

-- Keyset pagination
SELECT id, item FROM orders WHERE id > '01JWMA9ZB0QW4DG6WJ7D0Y4T0S' ORDER BY id LIMIT 3;
EXPLAIN (COSTS OFF) SELECT id, item FROM orders WHERE id > '01JWMA9ZB0QW4DG6WJ7D0Y4T0S' ORDER BY id LIMIT 3;

-- Monthly partitions keyed on the id
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), body text) PARTITION BY RANGE (id);
CREATE TABLE events_2025_06 PARTITION OF events
    FOR VALUES FROM ('2025-06-01 00:00+00'::timestamptz::ulid) TO ('2025-07-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_2025_07 PARTITION OF events
    FOR VALUES FROM ('2025-07-01 00:00+00'::timestamptz::ulid) TO ('2025-08-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_default PARTITION OF events DEFAULT;
INSERT INTO events (id, body) VALUES (gen_ulid('2025-06-15 12:00+00'), 'mid June'),
	(gen_ulid('2025-07-01 00:00+00'), 'first ms of July');
INSERT INTO events (body) VALUES ('today');
SELECT tableoid::regclass, body FROM events ORDER BY id;
EXPLAIN (COSTS OFF) SELECT * FROM events WHERE id >= '2025-07-01 00:00+00'::timestamptz::ulid
                               AND id <  '2025-07-02 00:00+00'::timestamptz::ulid;
-- Retiring a month is a metadata operation, not a DELETE.
ALTER TABLE events DETACH PARTITION events_2025_06;
DROP TABLE events_2025_06;

-- A BRIN index for an append-only event table
CREATE TABLE log (id ulid NOT NULL DEFAULT gen_ulid(), line text);
INSERT INTO log SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + n * interval '10 ms'), 'line ' || n
	FROM generate_series(1, 200000) n;
CREATE INDEX log_id_brin ON log USING brin (id);
CREATE INDEX log_id_btree ON log (id);
SELECT pg_size_pretty(pg_relation_size('log_id_brin')) AS brin,
       pg_size_pretty(pg_relation_size('log_id_btree')) AS btree;
DROP INDEX log_id_btree;
ANALYZE log;
EXPLAIN (COSTS OFF) SELECT count(*) FROM log
WHERE id >= '2025-06-01 00:10+00'::timestamptz::ulid AND id < '2025-06-01 00:11+00'::timestamptz::ulid;
SELECT count(*) FROM log
WHERE id >= '2025-06-01 00:10+00'::timestamptz::ulid AND id < '2025-06-01 00:11+00'::timestamptz::ulid;

-- Backfilling ids for existing rows
CREATE TABLE legacy (created_at timestamptz NOT NULL, name text);
INSERT INTO legacy VALUES ('2020-01-01 10:00+00', 'first'), ('2021-06-30 18:30+00', 'second'),
	('2021-06-30 18:30+00', 'same time');
ALTER TABLE legacy ADD COLUMN id ulid;
UPDATE legacy SET id = gen_ulid(created_at);
ALTER TABLE legacy ALTER COLUMN id SET DEFAULT gen_ulid(), ADD PRIMARY KEY (id);
SELECT name, ulid_time(id) = created_at AS time_matches FROM legacy ORDER BY created_at, name;
SELECT count(DISTINCT id) FROM legacy;

-- Migrating a uuid column to ulid in place
CREATE TABLE accounts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text);
INSERT INTO accounts (id, name) VALUES ('01563df3-6481-d676-4c61-efb99302bd5b', 'from a ULID'),
	('9d2c1c6e-7c4b-4a5e-8f0a-3b1d2e4f5a6b', 'a v4 uuid');
SELECT pg_relation_filenode('accounts') AS filenode_before \gset
ALTER TABLE accounts ALTER COLUMN id DROP DEFAULT,
                     ALTER COLUMN id TYPE ulid USING id::ulid,
                     ALTER COLUMN id SET DEFAULT gen_ulid();
SELECT id, id::uuid AS same_bytes_as_uuid, name FROM accounts ORDER BY id;
-- The table was not rewritten (the cast is binary-coercible); its index was rebuilt.
SELECT pg_relation_filenode('accounts') = :filenode_before AS table_not_rewritten;
-- Old v4 values keep their random order: one sorts after every new id.
INSERT INTO accounts (name) VALUES ('new');
SELECT name FROM accounts ORDER BY id DESC LIMIT 1;

DROP TABLE orders, events, log, legacy, accounts;
RESET max_parallel_workers_per_gather;
RESET TimeZone;
