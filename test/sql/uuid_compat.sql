-- ulid meets uuid: comparisons in both directions, indexes on either side
-- serving the other type, joins, foreign keys both ways, and nothing that
-- resolved before becomes ambiguous.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
\i test/sql/include/plan_has.sql

-- 2000 ids, one a minute from 2026-01-01, in a ulid table and (every
-- second one) in a uuid table.
CREATE TABLE orders (id ulid PRIMARY KEY, n int NOT NULL);
INSERT INTO orders
	SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 minute'), g
	FROM generate_series(1, 2000) g;
CREATE TABLE legacy (u uuid PRIMARY KEY, n int NOT NULL);
INSERT INTO legacy SELECT id::uuid, n FROM orders WHERE n % 2 = 0;
ANALYZE orders, legacy;

-- Every operator class validates, its family complete for each pair of
-- types (ulid, uuid) it holds.
SELECT c.opcname, a.amname, amvalidate(c.oid) AS valid
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE c.opcintype = 'ulid'::regtype ORDER BY 1;
SELECT a.amname, string_agg(DISTINCT format('%s,%s', amoplefttype::regtype, amoprighttype::regtype), ' ') AS type_pairs
FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE f.opfname IN ('ulid_ops', 'ulid_hash_ops') GROUP BY 1 ORDER BY 1;

-- Comparisons in both directions agree with the same comparison on uuid.
SELECT count(*) FILTER (WHERE (o.id < l.u) = (o.id::uuid < l.u)
						  AND (o.id <= l.u) = (o.id::uuid <= l.u)
						  AND (o.id = l.u) = (o.id::uuid = l.u)
						  AND (o.id <> l.u) = (o.id::uuid <> l.u)
						  AND (o.id >= l.u) = (o.id::uuid >= l.u)
						  AND (o.id > l.u) = (o.id::uuid > l.u)
						  AND (l.u < o.id) = (l.u < o.id::uuid)
						  AND (l.u <= o.id) = (l.u <= o.id::uuid)
						  AND (l.u = o.id) = (l.u = o.id::uuid)
						  AND (l.u <> o.id) = (l.u <> o.id::uuid)
						  AND (l.u >= o.id) = (l.u >= o.id::uuid)
						  AND (l.u > o.id) = (l.u > o.id::uuid)) AS agree,
	count(*) AS pairs
FROM (SELECT * FROM orders WHERE n % 50 = 0) o, (SELECT * FROM legacy WHERE n % 40 = 0) l;

--
-- An index on the ulid column serves uuid values: a driver that binds a
-- uuid parameter.
--
PREPARE by_uuid(uuid) AS SELECT n FROM orders WHERE id = $1;
PREPARE by_uuids(uuid[]) AS SELECT n FROM orders WHERE id = ANY ($1);
PREPARE uuid_range(uuid, uuid) AS SELECT count(*) FROM orders WHERE id >= $1 AND id < $2;
SET plan_cache_mode = force_generic_plan;
SELECT pg_temp.plan_has('EXECUTE by_uuid(''00000000-0000-0000-0000-000000000000'')', 'Index Scan using orders_pkey') AS eq_uses_pkey,
	pg_temp.plan_has('EXECUTE by_uuids(''{00000000-0000-0000-0000-000000000000}'')', 'Index Scan using orders_pkey') AS any_uses_pkey,
	pg_temp.plan_has('EXECUTE uuid_range(''00000000-0000-0000-0000-000000000000'', ''00000000-0000-0000-0000-000000000001'')', 'orders_pkey') AS range_uses_pkey;
RESET plan_cache_mode;
SELECT (SELECT n FROM orders WHERE id = u) = n AS found FROM legacy WHERE n = 1000;
SELECT u AS u1000 FROM legacy WHERE n = 1000 \gset
SELECT array_agg(u) AS first_five FROM legacy WHERE n <= 10 \gset
EXECUTE by_uuid(:'u1000');
EXECUTE by_uuids(:'first_five');
EXECUTE uuid_range(ulid_min_at('2026-01-01 01:00+00')::uuid, ulid_min_at('2026-01-01 02:00+00')::uuid);

--
-- An index on a uuid column (core's uuid_ops) serves ulid values, through the
-- planner support function: the same rows as the uuid comparison.
--
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT * FROM legacy WHERE u = ''01KDVDNA3V0000000000000000''::ulid', 'Index Cond: (u = (''01KDVDNA3V0000000000000000''::ulid)::uuid)') AS eq_uses_uuid_pkey,
	pg_temp.plan_has('SELECT * FROM legacy WHERE ''01KDVDNA3V0000000000000000''::ulid <= u', 'Index Cond: (u >= (''01KDVDNA3V0000000000000000''::ulid)::uuid)') AS commuted_range_uses_uuid_pkey;
SELECT count(*) AS from_hour_10 FROM legacy WHERE u >= ulid_min_at('2026-01-01 10:00+00');
SELECT count(*) AS before_hour_10 FROM legacy WHERE ulid_min_at('2026-01-01 10:00+00') > u;
SELECT count(*) AS hour_10 FROM legacy
WHERE u BETWEEN ulid_min_at('2026-01-01 10:00+00') AND ulid_max_at('2026-01-01 10:59:59.999+00');
CREATE INDEX legacy_hash ON legacy USING hash (u);
SELECT pg_temp.plan_has('SELECT * FROM legacy WHERE u = ''01KDVDNA3V0000000000000000''::ulid', 'legacy_hash') AS eq_uses_uuid_hash_index;
DROP INDEX legacy_hash;
RESET enable_seqscan;

--
-- Joins between a ulid and a uuid column, by every method, give the same
-- rows.  IN (subquery) needed the family's own uuid members ("missing
-- operator 1(uuid,uuid)" with only the cross-type ones).
--
SELECT count(*) AS in_subquery FROM orders WHERE id IN (SELECT u FROM legacy);
SELECT count(*) AS not_in_subquery FROM orders WHERE id NOT IN (SELECT u FROM legacy);
SELECT count(*) AS uuid_in_ulid_subquery FROM legacy WHERE u IN (SELECT id FROM orders WHERE n <= 100);
SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT pg_temp.plan_has('SELECT * FROM orders JOIN legacy ON id = u', 'Hash Join') AS hash_join,
	(SELECT count(*) FROM orders JOIN legacy ON id = u) AS rows;
-- No merge join of the two types (the cross-type = does not MERGE, so that
-- the nested loops below exist): asked for one alone, the planner takes
-- another method, with the same rows.
SET enable_hashjoin = off; SET enable_mergejoin = on;
SELECT pg_temp.plan_has('SELECT * FROM orders JOIN legacy ON id = u', 'Merge Join') AS merge_join,
	(SELECT count(*) FROM orders JOIN legacy ON id = u) AS rows;
SELECT pg_temp.plan_has('SELECT * FROM orders JOIN legacy ON u = id', 'Merge Join') AS merge_join_commuted,
	(SELECT count(*) FROM orders JOIN legacy ON u = id) AS rows;
SET enable_mergejoin = off; SET enable_nestloop = on;
SELECT pg_temp.plan_has('SELECT * FROM orders JOIN legacy ON id = u', 'Nested Loop') AS nested_loop,
	(SELECT count(*) FROM orders JOIN legacy ON id = u) AS rows;
-- A nested loop over the index of either side, as for a key converted while
-- the column that references it is not (or the other way round): the ulid
-- key's index for a uuid value, and the uuid key's index (core's uuid_ops,
-- through ulid_uuid_support) for a ulid value, either way round.  (Were the
-- cross-type = mergejoinable, the join clause would be an equivalence class
-- of ulid's family alone, never offered to a uuid_ops index: a Join Filter
-- over all of legacy.)
SELECT pg_temp.plan_has('SELECT * FROM orders o JOIN legacy l ON l.u = o.id WHERE o.n = 8',
		'Index Cond: (u = (o.id)::uuid)') AS uuid_key_serves_ulid,
	pg_temp.plan_has('SELECT * FROM orders o JOIN legacy l ON o.id = l.u WHERE o.n = 8',
		'Index Cond: (u = (o.id)::uuid)') AS uuid_key_serves_ulid_commuted,
	(SELECT count(*) FROM orders o JOIN legacy l ON l.u = o.id WHERE o.n = 8) AS rows;
SELECT pg_temp.plan_has('SELECT * FROM legacy l JOIN orders o ON o.id = l.u WHERE l.n = 8',
		'Index Cond: (id = l.u)') AS ulid_key_serves_uuid,
	(SELECT count(*) FROM legacy l JOIN orders o ON o.id = l.u WHERE l.n = 8) AS rows;
-- A uuid column referencing the ulid key (a child not yet converted), and a
-- ulid column referencing the uuid key: the referencing column's index
-- serves the join from the key's side too.
CREATE TABLE uuid_child (r uuid REFERENCES orders (id));
CREATE INDEX uuid_child_r ON uuid_child (r);
INSERT INTO uuid_child SELECT id::uuid FROM orders, generate_series(1, 3);
CREATE TABLE ulid_child (r ulid REFERENCES legacy (u));
CREATE INDEX ulid_child_r ON ulid_child (r);
INSERT INTO ulid_child SELECT u FROM legacy, generate_series(1, 3);
ANALYZE uuid_child, ulid_child;
SELECT pg_temp.plan_has('SELECT * FROM orders o JOIN uuid_child c ON c.r = o.id WHERE o.n = 8',
		'Index Cond: (r = (o.id)::uuid)') AS uuid_child_index,
	(SELECT count(*) FROM orders o JOIN uuid_child c ON c.r = o.id WHERE o.n = 8) AS rows;
SELECT pg_temp.plan_has('SELECT * FROM legacy l JOIN ulid_child c ON c.r = l.u WHERE l.n = 8',
		'Index Cond: (r = l.u)') AS ulid_child_index,
	(SELECT count(*) FROM legacy l JOIN ulid_child c ON c.r = l.u WHERE l.n = 8) AS rows;
DROP TABLE uuid_child, ulid_child;
RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_nestloop;

--
-- Foreign keys both ways: a uuid column referencing a ulid key, a ulid
-- column referencing a uuid key.
--
CREATE TABLE uuid_ref (r uuid REFERENCES orders (id));
INSERT INTO uuid_ref SELECT u FROM legacy WHERE n <= 10;
\set VERBOSITY sqlstate
INSERT INTO uuid_ref VALUES ('00000000-0000-0000-0000-000000000000');
\set VERBOSITY default
INSERT INTO uuid_ref VALUES ('00000000-0000-0000-0000-000000000000');
\set VERBOSITY terse
DELETE FROM orders WHERE n = 2;
\set VERBOSITY default
CREATE TABLE ulid_ref (r ulid REFERENCES legacy (u) ON DELETE CASCADE);
INSERT INTO ulid_ref SELECT id FROM orders WHERE n % 2 = 0 AND n <= 10;
INSERT INTO ulid_ref VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV');
DELETE FROM legacy WHERE n = 4;
SELECT count(*) AS ulid_refs_after_cascade FROM ulid_ref;
DROP TABLE uuid_ref, ulid_ref;

--
-- Nothing that resolved before is ambiguous now.
--
SELECT n FROM orders WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV';
SELECT n FROM orders WHERE '01ARYZ6S41TSV4RRFFQ69G5FAV' = id;
SELECT n FROM legacy WHERE u = '550e8400-e29b-41d4-a716-446655440000';
SELECT '550e8400-e29b-41d4-a716-446655440000'::uuid = '550e8400-e29b-41d4-a716-446655440000' AS uuid_eq_literal,
	'550e8400-e29b-41d4-a716-446655440000'::uuid < '650e8400-e29b-41d4-a716-446655440000'::uuid AS uuid_lt_uuid;
SELECT count(*) AS in_literals FROM orders
WHERE id IN ('01ARYZ6S41TSV4RRFFQ69G5FAV', '01ARYZ6S41TSV4RRFFQ69G5FAW');
SELECT count(*) AS uuid_in_literals FROM legacy
WHERE u IN ('550e8400-e29b-41d4-a716-446655440000', '550e8400-e29b-41d4-a716-446655440001');
SELECT count(*) AS any_literal FROM orders WHERE id = ANY ('{01ARYZ6S41TSV4RRFFQ69G5FAV}');
SELECT ulid_eq(id, '01ARYZ6S41TSV4RRFFQ69G5FAV') AS function_call FROM orders WHERE n = 1;
SELECT pg_typeof(CASE WHEN n > 0 THEN id ELSE '01ARYZ6S41TSV4RRFFQ69G5FAV' END) AS case_literal,
	pg_typeof(COALESCE(id, '01ARYZ6S41TSV4RRFFQ69G5FAV')) AS coalesce_literal
FROM orders WHERE n = 1;
SELECT pg_typeof(x) AS union_literal FROM (SELECT id FROM orders WHERE n = 1 UNION SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV') s(x) LIMIT 1;
-- Mixed ulid and uuid resolve to uuid, as int4 and int8 resolve to int8: a
-- ulid is a uuid, not the other way round.
SELECT pg_typeof(CASE WHEN n > 0 THEN id ELSE u END) AS case_mixed,
	pg_typeof(COALESCE(id, u)) AS coalesce_mixed,
	pg_typeof(ARRAY[id, u]) AS array_mixed
FROM orders JOIN legacy USING (n) WHERE n = 10;
SELECT pg_typeof(x) AS union_mixed, count(*)
FROM (SELECT id FROM orders WHERE n <= 10 UNION SELECT u FROM legacy WHERE n <= 10) s(x) GROUP BY 1;
-- A ulid goes where a uuid is expected; a uuid goes into a ulid only on
-- assignment or by a cast.
CREATE FUNCTION pg_temp.takes_uuid(uuid) RETURNS text LANGUAGE sql AS 'SELECT $1::text';
SELECT pg_temp.takes_uuid(id) = id::uuid::text AS ulid_as_uuid_argument FROM orders WHERE n = 1;
\set VERBOSITY sqlstate
SELECT ulid_time(u) FROM legacy WHERE n = 10;
\set VERBOSITY default
SELECT ulid_time(u::ulid) AS with_cast FROM legacy WHERE n = 10;

--
-- Inclusive time bounds: the smallest and the largest ulid of the
-- millisecond containing a time.
--
SELECT ulid_min_at('2026-01-01 00:00:00.1234+00') AS min_at, ulid_max_at('2026-01-01 00:00:00.1234+00') AS max_at;
SELECT ulid_time(ulid_min_at(t)) = ulid_time(ulid_max_at(t)) AS same_millisecond,
	ulid_min_at(t) = t::ulid AS min_is_the_cast,
	ulid_max_at(t) < ulid_min_at(t + interval '1 millisecond') AS max_below_next_ms
FROM (VALUES ('2026-06-30 12:34:56.789999+00'::timestamptz)) v(t);
-- Ids of the last millisecond: BETWEEN with the cast misses them,
-- ulid_max_at keeps them.
CREATE TEMP TABLE last_ms AS
	SELECT gen_ulid('2026-01-01 00:00:00.999+00') AS id FROM generate_series(1, 100);
SELECT count(*) FILTER (WHERE id BETWEEN '2026-01-01 00:00+00'::timestamptz::ulid AND '2026-01-01 00:00:00.999+00'::timestamptz::ulid) AS with_cast,
	count(*) FILTER (WHERE id BETWEEN ulid_min_at('2026-01-01 00:00+00') AND ulid_max_at('2026-01-01 00:00:00.999+00')) AS with_max_at
FROM last_ms;
SELECT ulid_min_at('1970-01-01 00:00+00') AS first, ulid_max_at('10889-08-02 05:31:50.655+00') AS last;
\set VERBOSITY sqlstate
SELECT ulid_max_at('1969-12-31 23:59:59.999+00');
SELECT ulid_min_at('10889-08-02 05:31:50.656+00');
SELECT ulid_max_at('infinity');
\set VERBOSITY default
SELECT ulid_max_at('-infinity');
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel FROM pg_proc p
WHERE p.proname IN ('ulid_min_at', 'ulid_max_at') ORDER BY 1;

--
-- BRIN minmax answers uuid bounds on a ulid column.
--
CREATE INDEX orders_brin ON orders USING brin (id) WITH (pages_per_range = 1);
SET enable_seqscan = off; SET enable_indexscan = off; SET enable_indexonlyscan = off;
SELECT pg_temp.plan_has('SELECT count(*) FROM orders WHERE id >= ''00000000-0000-0000-0000-000000000000''::uuid', 'orders_brin') AS brin_with_uuid_bound;
SELECT count(*) AS hour_5_via_brin FROM orders
WHERE id >= ulid_min_at('2026-01-01 05:00+00')::uuid AND id <= ulid_max_at('2026-01-01 05:59+00')::uuid;
RESET enable_seqscan; RESET enable_indexscan; RESET enable_indexonlyscan;
DROP INDEX orders_brin;

--
-- Partition pruning on a ulid key by uuid values: hash partitions (the hash
-- family's uuid functions hash the same bytes as ulid's) and range
-- partitions (the btree family's cross-type comparisons).
--
CREATE FUNCTION pg_temp.scans(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	line text;
	found text[] := '{}';
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || query LOOP
		IF line ~ 'Scan on ' THEN
			found := found || substring(line FROM 'Scan on ([a-z_0-9]+)');
		END IF;
	END LOOP;
	RETURN array_to_string(found, ' ');
END $$;
CREATE TABLE by_hash (id ulid, n int) PARTITION BY HASH (id);
CREATE TABLE by_hash_0 PARTITION OF by_hash FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE by_hash_1 PARTITION OF by_hash FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE by_hash_2 PARTITION OF by_hash FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE by_hash_3 PARTITION OF by_hash FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO by_hash SELECT id, n FROM orders;
SELECT u AS u500 FROM legacy WHERE n = 500 \gset
SELECT pg_temp.scans(format('SELECT n FROM by_hash WHERE id = %L::uuid', :'u500'))
	= (SELECT tableoid::regclass::text FROM by_hash WHERE n = 500) AS hash_pruned_to_its_partition,
	(SELECT n FROM by_hash WHERE id = :'u500'::uuid) AS found;
CREATE TABLE by_day (id ulid, n int) PARTITION BY RANGE (id);
CREATE TABLE by_day_1 PARTITION OF by_day FOR VALUES FROM (ulid_min_at('2026-01-01 00:00+00')) TO (ulid_min_at('2026-01-02 00:00+00'));
CREATE TABLE by_day_2 PARTITION OF by_day FOR VALUES FROM (ulid_min_at('2026-01-02 00:00+00')) TO (MAXVALUE);
INSERT INTO by_day SELECT id, n FROM orders;
SELECT pg_temp.scans(format('SELECT count(*) FROM by_day WHERE id >= %L::uuid', ulid_min_at('2026-01-02 06:00+00')::uuid)) AS range_pruned,
	(SELECT count(*) FROM by_day WHERE id >= ulid_min_at('2026-01-02 06:00+00')::uuid) AS rows;
DROP TABLE by_hash, by_day;

--
-- Every object of the extension has a description (\df+, \do+, \dC+, \dAc+).
--
-- (Not the array types, members from PostgreSQL 17 on: core's have none either.)
SELECT pg_describe_object(d.classid, d.objid, 0) AS without_description
FROM pg_depend d
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
  AND NOT (d.classid = 'pg_type'::regclass AND (SELECT typcategory FROM pg_type WHERE oid = d.objid) = 'A')
  AND NOT EXISTS (SELECT FROM pg_description s
				  WHERE s.classoid = d.classid AND s.objoid = d.objid AND s.objsubid = 0)
ORDER BY 1;
SELECT obj_description('=(ulid,uuid)'::regoperator, 'pg_operator') AS "=(ulid,uuid)",
	obj_description('<(uuid,ulid)'::regoperator, 'pg_operator') AS "<(uuid,ulid)",
	obj_description('ulid_uuid_cmp(ulid,uuid)'::regprocedure, 'pg_proc') AS ulid_uuid_cmp;

DROP TABLE orders, legacy;
