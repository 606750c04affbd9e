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
-- are uuid's (hash_any of the 16 bytes), with the same seeds, and so, like
-- every hash of bytes in core, they differ between byte orders: hash_any
-- reads the bytes as native 32-bit words.  Both sets are pinned, the one that
-- applies chosen by what core does on this machine: hash_any of the 4 bytes
-- 'abcd' equals hashint4 of them read little-endian (0x64636261) or
-- big-endian (0x61626364).
CREATE TEMP TABLE index_hash_pins (id ulid, little_endian boolean, h int4, e0 int8, e42 int8);
INSERT INTO index_hash_pins VALUES
	('00000000000000000000000000', true, 1353656403, -6859010066814654381, -3882004234363783809),
	('01ARYZ6S41TSV4RRFFQ69G5FAV', true, -948953427, -4983032551100637523, 3957606706526962445),
	('01JXCXCA4N0000000000000000', true, 890748220, 550727821712407868, -6632160933598274855),
	('01JXCXCA4NZZZZZZZZZZZZZZZZ', true, -157271478, -3866651699743540662, 393924092568118228),
	('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', true, -682383255, 293445543803463785, -6666173708135232559),
	('00000000000000000000000000', false, 1353656403, -6859010066814654381, -3882004234363783809),
	('01ARYZ6S41TSV4RRFFQ69G5FAV', false, 705651090, -4105801104329055854, -2928104040165594914),
	('01JXCXCA4N0000000000000000', false, 587803850, -1018557772900782902, -3803042554283759376),
	('01JXCXCA4NZZZZZZZZZZZZZZZZ', false, 1552320934, -36150695228438106, 3094294190259101549),
	('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', false, -682383255, 293445543803463785, -6666173708135232559);
SELECT hashtext('abcd' COLLATE "C") IN (hashint4(1684234849), hashint4(1633837924)) AS one_byte_order;
SELECT p.id, ulid_hash(p.id) = p.h AS hash, ulid_hash_extended(p.id, 0) = p.e0 AS extended_0,
	ulid_hash_extended(p.id, 42) = p.e42 AS extended_42,
	(ulid_hash(p.id), ulid_hash_extended(p.id, 0), ulid_hash_extended(p.id, 42))
		= (uuid_hash(p.id::uuid), uuid_hash_extended(p.id::uuid, 0), uuid_hash_extended(p.id::uuid, 42)) AS as_uuid
FROM index_hash_pins p
WHERE p.little_endian = (hashtext('abcd' COLLATE "C") = hashint4(1684234849))
ORDER BY p.id;

-- Hash partitioning uses ulid_hash_extended: the rows spread over both
-- partitions, each row is in the partition its hash names, and equality
-- prunes to the one partition that holds the key.
CREATE TABLE index_parts (id ulid PRIMARY KEY) PARTITION BY HASH (id);
CREATE TABLE index_parts_0 PARTITION OF index_parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE index_parts_1 PARTITION OF index_parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO index_parts SELECT id FROM index_t;
SELECT count(*) > 0 AS p0 FROM index_parts_0;
SELECT count(*) > 0 AS p1 FROM index_parts_1;
SELECT count(*) FILTER (WHERE satisfies_hash_partition('index_parts'::regclass, 2, 0, id)) = (SELECT count(*) FROM index_parts_0)
	AND count(*) FILTER (WHERE satisfies_hash_partition('index_parts'::regclass, 2, 1, id)) = (SELECT count(*) FROM index_parts_1)
	AS each_where_its_hash_says
FROM index_parts;
SELECT pg_temp.plan_has($$SELECT * FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'index_parts_0')
	<> pg_temp.plan_has($$SELECT * FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'index_parts_1')
	AS one_partition,
	pg_temp.plan_has($$SELECT * FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$,
		(SELECT tableoid::regclass::text FROM index_parts WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV')) AS the_one_holding_it;

RESET enable_seqscan;
DROP TABLE index_t, index_h, index_parts;
