-- btree and hash indexes, uniqueness, and the operator classes' validity.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- (The BRIN operator classes are in brin.sql.)
SELECT amname, opcname, opcdefault, amvalidate(opc.oid)
FROM pg_opclass opc JOIN pg_am am ON am.oid = opc.opcmethod
WHERE opcintype = 'ulid'::regtype AND amname <> 'brin' ORDER BY amname, opcname;

\i test/sql/include/plan_has.sql
-- btequalimage is registered, so B-tree deduplication is allowed.
SELECT amproc::regproc FROM pg_amproc ap JOIN pg_opfamily f ON f.oid = ap.amprocfamily
WHERE f.opfname = 'ulid_ops' AND ap.amprocnum = 4;

CREATE TABLE index_t (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
INSERT INTO index_t (n) SELECT n FROM generate_series(1, 10000) n;
INSERT INTO index_t VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV', 0);
ANALYZE index_t;
SET enable_seqscan = off;

-- Equality through the btree.
SELECT pg_temp.plan_has($$SELECT n FROM index_t WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'using index_t_pkey');
SELECT n FROM index_t WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV';

-- Equality through a hash index.
CREATE TABLE index_h AS SELECT * FROM index_t;
CREATE INDEX index_h_hash ON index_h USING hash (id);
ANALYZE index_h;
SELECT pg_temp.plan_has($$SELECT n FROM index_h WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'index_h_hash');
SELECT n FROM index_h WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV';
SELECT count(*) FROM index_t t WHERE (SELECT h.n FROM index_h h WHERE h.id = t.id) = t.n;

-- Ranges and order through the btree, with the same rows as a sequential scan.
SELECT pg_temp.plan_has($$SELECT id FROM index_t
	WHERE id >= '01ARYZ6S41TSV4RRFFQ69G5FAV' ORDER BY id LIMIT 5$$, 'Scan using index_t_pkey');
SELECT pg_temp.plan_has('SELECT id FROM index_t ORDER BY id DESC LIMIT 5', 'Scan Backward using index_t_pkey');
CREATE TEMP TABLE index_by_index AS
	SELECT id FROM index_t WHERE id > '01ARYZ6S41TSV4RRFFQ69G5FAV' ORDER BY id;
SET enable_seqscan = on;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SET enable_indexonlyscan = off;
SELECT (SELECT array_agg(id ORDER BY id) FROM index_by_index) =
	(SELECT array_agg(id ORDER BY id) FROM index_t WHERE id > '01ARYZ6S41TSV4RRFFQ69G5FAV');
RESET enable_indexscan;
RESET enable_bitmapscan;
RESET enable_indexonlyscan;

-- min and max read one end of the btree.
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT max(id) FROM index_t', 'Backward using index_t_pkey');
SELECT max(id) = (SELECT id FROM index_t ORDER BY id DESC LIMIT 1) FROM index_t;
RESET enable_seqscan;

-- A duplicate key is a unique violation (23505).
\set VERBOSITY sqlstate
INSERT INTO index_t VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV', 1);
\set VERBOSITY default
INSERT INTO index_t VALUES ('01aryz6s41tsv4rrffq69g5fav', 1);
-- Aliases are the same value, hence the same key.
INSERT INTO index_t VALUES ('OIARYZ6S4ITSV4RRFFQ69G5FAV', 1);

-- Hash joins and merge joins are allowed.  The tables differ: a join of a
-- table to itself on its primary key is removed altogether from PostgreSQL 18 on.
SET enable_seqscan = on;
SET enable_mergejoin = off;
SET enable_nestloop = off;
SELECT pg_temp.plan_has('SELECT count(*) FROM index_t a JOIN index_h b USING (id)', 'Hash Join');
SELECT count(*) FROM index_t a JOIN index_h b USING (id);
SET enable_mergejoin = on;
SET enable_hashjoin = off;
SELECT pg_temp.plan_has('SELECT count(*) FROM index_t a JOIN index_h b USING (id)', 'Merge Join');
SELECT count(*) FROM index_t a JOIN index_h b USING (id);
RESET enable_mergejoin;
RESET enable_hashjoin;
RESET enable_nestloop;
-- Hashed DISTINCT / GROUP BY.
SET enable_sort = off;
SELECT pg_temp.plan_has('SELECT count(*) FROM (SELECT DISTINCT id FROM index_t) d', 'HashAggregate');
SELECT count(*) FROM (SELECT DISTINCT id FROM index_t) d;
RESET enable_sort;

-- ulid_hash agrees with uuid's hash on the same bytes; the extended hash
-- with seed 0 agrees with the plain one in its low 32 bits.
SELECT ulid_hash('01ARYZ6S41TSV4RRFFQ69G5FAV') = uuid_hash('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid),
	ulid_hash_extended('01ARYZ6S41TSV4RRFFQ69G5FAV', 1) = uuid_hash_extended('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid, 1),
	ulid_hash_extended('01ARYZ6S41TSV4RRFFQ69G5FAV', 0)::bit(32)::int4 = ulid_hash('01ARYZ6S41TSV4RRFFQ69G5FAV');

-- The hashes of fixed ids, pinned: hash indexes, hash partitions and Citus'
-- shards are chosen by them, so they never change between versions.  They
-- are uuid's (hash_any of the 16 bytes, as core computes it on
-- little-endian machines), with the same seeds.
SELECT id, ulid_hash(id), ulid_hash_extended(id, 0), ulid_hash_extended(id, 42),
	ulid_hash(id) = uuid_hash(id::uuid) AS as_uuid
FROM (VALUES ('00000000000000000000000000'::ulid), ('01ARYZ6S41TSV4RRFFQ69G5FAV'),
	('01JXCXCA4N0000000000000000'), ('01JXCXCA4NZZZZZZZZZZZZZZZZ'),
	('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')) AS v(id);

-- Hash partitioning uses ulid_hash_extended.
CREATE TABLE index_parts (id ulid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE index_parts_0 PARTITION OF index_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE index_parts_1 PARTITION OF index_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO index_parts SELECT id FROM index_t;
SELECT count(*) > 0 AS p0 FROM index_parts_0;
SELECT count(*) > 0 AS p1 FROM index_parts_1;
-- Equality prunes to the one partition the key hashes to.
SELECT pg_temp.plan_has($$SELECT * FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'index_parts_0')
	<> pg_temp.plan_has($$SELECT * FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'index_parts_1')
	AS one_partition,
	(SELECT tableoid::regclass FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV') AS holds_it;

RESET enable_seqscan;
DROP TABLE index_t, index_h, index_parts;
