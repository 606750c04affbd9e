-- Index conditions the planner support functions build (id op ts,
-- id <@ tstzrange, uuid_col op ulid) take the index's operator by what its
-- function means, never by its strategy number: an operator class may sort
-- the other way round, and then its strategy 1 is ">".  Every query here
-- returns the rows a sequential scan returns, through the index.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';
SET max_parallel_workers_per_gather = 0;
\i test/sql/include/plan_has.sql

-- pg_temp.agree(query): the count a query returns with only index scans
-- allowed, and with none ("index/seqscan"), which must be equal.
CREATE FUNCTION pg_temp.agree(query text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	via_index bigint;
	via_scan bigint;
BEGIN
	SET LOCAL enable_seqscan = off;
	EXECUTE 'SELECT count(*) FROM (' || query || ') s' INTO via_index;
	SET LOCAL enable_seqscan = on;
	SET LOCAL enable_indexscan = off;
	SET LOCAL enable_indexonlyscan = off;
	SET LOCAL enable_bitmapscan = off;
	EXECUTE 'SELECT count(*) FROM (' || query || ') s' INTO via_scan;
	RESET enable_seqscan;
	RESET enable_indexscan;
	RESET enable_indexonlyscan;
	RESET enable_bitmapscan;
	RETURN via_index || '/' || via_scan;
END $$;

-- A B-tree class of ulid that sorts in reverse: its strategy 1 is >.  (The
-- SQL support functions keep this search_path: from 17 on, index builds
-- and ANALYZE run with pg_catalog's alone.)
CREATE FUNCTION ulid_rev_cmp(ulid, ulid) RETURNS int LANGUAGE sql IMMUTABLE STRICT
	SET search_path FROM CURRENT AS 'SELECT ulid_cmp($2, $1)';
CREATE OPERATOR CLASS ulid_rev_ops FOR TYPE ulid USING btree AS
	OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <,
	FUNCTION 1 ulid_rev_cmp(ulid, ulid);
-- And a BRIN minmax class whose "smallest" is the largest.
CREATE OPERATOR CLASS ulid_rev_minmax_ops FOR TYPE ulid USING brin AS
	OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- One row a minute from 2024-01-01 00:01 to 2024-01-07 22:40, each index
-- on a column of its own so that it is the only one a query can use.
CREATE TABLE rv (by_btree ulid, by_brin ulid, by_gist ulid, by_gin ulid, u uuid, by_hash uuid);
INSERT INTO rv SELECT u, u, u, u, u::uuid, u::uuid
FROM (SELECT gen_ulid('2024-01-01+00'::timestamptz + g * interval '1 min') AS u
	  FROM generate_series(1, 10000) g) s;
CREATE INDEX rv_btree ON rv (by_btree ulid_rev_ops);
CREATE INDEX rv_brin ON rv USING brin (by_brin ulid_rev_minmax_ops) WITH (pages_per_range = 2);
CREATE INDEX rv_gist ON rv USING gist (by_gist);
CREATE INDEX rv_gin ON rv USING gin (by_gin);
ANALYZE rv;

-- The reversed B-tree: the time comparisons both ways round, a time known
-- only when the scan starts, and tstzrange containment.
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree > ''2024-01-05+00''::timestamptz') AS gt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree >= ''2024-01-05 00:00:00.0005+00''::timestamptz') AS ge;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree < ''2024-01-02+00''::timestamptz') AS lt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree <= ''2024-01-02+00''::timestamptz') AS le;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE ''2024-01-05+00''::timestamptz < by_btree') AS ts_lt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree > (SELECT ''2024-01-05+00''::timestamptz)') AS at_scan_start;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree <@ tstzrange(''2024-01-02+00'', ''2024-01-03+00'')') AS in_range;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE tstzrange(''2024-01-02+00'', NULL) @> by_btree') AS range_contains;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_btree <@ (SELECT tstzrange(''2024-01-02+00'', ''2024-01-03+00''))') AS range_at_scan_start;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT 1 FROM rv WHERE by_btree > ''2024-01-05+00''::timestamptz', 'rv_btree') AS btree_serves_gt,
	pg_temp.plan_has('SELECT 1 FROM rv WHERE by_btree <@ tstzrange(''2024-01-02+00'', ''2024-01-03+00'')', 'rv_btree') AS btree_serves_range;
RESET enable_seqscan;

-- The reversed BRIN class.
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_brin > ''2024-01-05+00''::timestamptz') AS brin_gt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_brin <= ''2024-01-02+00''::timestamptz') AS brin_le;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_brin <@ tstzrange(''2024-01-02+00'', ''2024-01-03+00'')') AS brin_in_range;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT 1 FROM rv WHERE by_brin > ''2024-01-05+00''::timestamptz', 'rv_brin') AS brin_serves_gt;
RESET enable_seqscan;

-- GiST and GIN classes hold >= and <= too: they serve the same conditions.
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_gist > ''2024-01-05+00''::timestamptz') AS gist_gt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_gist <@ tstzrange(''2024-01-02+00'', ''2024-01-03+00'')') AS gist_in_range;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_gin < ''2024-01-02+00''::timestamptz') AS gin_lt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_gin <@ tstzrange(''2024-01-02+00'', ''2024-01-03+00'')') AS gin_in_range;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT 1 FROM rv WHERE by_gist > ''2024-01-05+00''::timestamptz', 'rv_gist') AS gist_serves_gt,
	pg_temp.plan_has('SELECT 1 FROM rv WHERE by_gin < ''2024-01-02+00''::timestamptz', 'rv_gin') AS gin_serves_lt;
RESET enable_seqscan;

-- A uuid column indexed with a reversed uuid class, compared with a ulid:
-- the index is served through the class's own operators, whatever their
-- strategy numbers.
CREATE FUNCTION uuid_rev_cmp(uuid, uuid) RETURNS int LANGUAGE sql IMMUTABLE STRICT
	SET search_path FROM CURRENT AS 'SELECT uuid_cmp($2, $1)';
CREATE OPERATOR CLASS uuid_rev_ops FOR TYPE uuid USING btree AS
	OPERATOR 1 >, OPERATOR 2 >=, OPERATOR 3 =, OPERATOR 4 <=, OPERATOR 5 <,
	FUNCTION 1 uuid_rev_cmp(uuid, uuid);
CREATE INDEX rv_u ON rv (u uuid_rev_ops);
CREATE INDEX rv_hash ON rv USING hash (by_hash);
ANALYZE rv;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE u > ''2024-01-05+00''::timestamptz::ulid') AS uuid_gt;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE u <= ''2024-01-02+00''::timestamptz::ulid') AS uuid_le;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE ''2024-01-05+00''::timestamptz::ulid < u') AS ulid_lt_uuid;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE u = (SELECT by_btree FROM rv ORDER BY by_gin OFFSET 100 LIMIT 1)') AS uuid_eq;
SELECT pg_temp.agree('SELECT 1 FROM rv WHERE by_hash = (SELECT by_btree FROM rv ORDER BY by_gin OFFSET 100 LIMIT 1)') AS hash_eq;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT 1 FROM rv WHERE u > ''2024-01-05+00''::timestamptz::ulid', 'rv_u') AS uuid_index_serves_gt,
	pg_temp.plan_has('SELECT 1 FROM rv WHERE by_hash = ''01HKBEPS010000000000000000''::ulid', 'rv_hash') AS hash_serves_eq;
RESET enable_seqscan;

-- A class whose operators have functions of their own is not served: no
-- index condition is made from it, and the rows are still right.
CREATE FUNCTION ulid_own_gt(ulid, ulid) RETURNS boolean LANGUAGE sql IMMUTABLE STRICT
	SET search_path FROM CURRENT AS 'SELECT ulid_cmp($1, $2) > 0';
CREATE OPERATOR >>> (LEFTARG = ulid, RIGHTARG = ulid, FUNCTION = ulid_own_gt);
CREATE OPERATOR CLASS ulid_odd_ops FOR TYPE ulid USING btree AS
	OPERATOR 1 >>>, OPERATOR 3 =, FUNCTION 1 ulid_rev_cmp(ulid, ulid);
CREATE TABLE odd (id ulid);
INSERT INTO odd SELECT by_btree FROM rv;
CREATE INDEX odd_id ON odd (id ulid_odd_ops);
ANALYZE odd;
SELECT pg_temp.agree('SELECT 1 FROM odd WHERE id > ''2024-01-05+00''::timestamptz') AS odd_gt;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT 1 FROM odd WHERE id > ''2024-01-05+00''::timestamptz', 'Index Cond') AS odd_index_cond;
RESET enable_seqscan;

DROP TABLE rv, odd;
DROP OPERATOR CLASS ulid_odd_ops USING btree;
DROP OPERATOR FAMILY ulid_odd_ops USING btree;
DROP OPERATOR >>> (ulid, ulid);
DROP FUNCTION ulid_own_gt(ulid, ulid);
DROP OPERATOR FAMILY ulid_rev_ops USING btree;
DROP OPERATOR FAMILY ulid_rev_minmax_ops USING brin;
DROP OPERATOR FAMILY uuid_rev_ops USING btree;
DROP FUNCTION ulid_rev_cmp(ulid, ulid), uuid_rev_cmp(uuid, uuid);
