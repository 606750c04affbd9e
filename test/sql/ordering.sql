-- Comparison operators, their order, and the min/max aggregates.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- Each operator on a smaller, an equal and a larger right-hand side.
SELECT r, l < r AS lt, l <= r AS le, l = r AS eq, l <> r AS ne, l >= r AS ge, l > r AS gt
FROM (VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid)) a(l),
	(VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAT'::ulid),
			('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid),
			('01ARYZ6S41TSV4RRFFQ69G5FAW'::ulid)) b(r)
ORDER BY r;
SELECT ulid_cmp('01ARYZ6S41TSV4RRFFQ69G5FAV', '01ARYZ6S41TSV4RRFFQ69G5FAW') < 0,
	ulid_cmp('01ARYZ6S41TSV4RRFFQ69G5FAV', '01ARYZ6S41TSV4RRFFQ69G5FAV') = 0,
	ulid_cmp('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '00000000000000000000000000') > 0;
-- Time dominates: the last id of a millisecond sorts before the first of the next.
SELECT '01ARYZ6S41ZZZZZZZZZZZZZZZZ'::ulid < '01ARYZ6S420000000000000000'::ulid;

-- The operators carry commutators, negators and estimators; = hashes and merges.
SELECT oprleft::regtype, oprname, oprright::regtype, oprcom::regoperator, oprnegate::regoperator, oprrest, oprjoin, oprcanhash, oprcanmerge
FROM pg_operator WHERE 'ulid'::regtype IN (oprleft, oprright) ORDER BY oprleft::regtype::text, oprright::regtype::text, oprname;
-- The comparison functions (with uuid and with a time too), the containment
-- in a tstzrange and ulid_time are LEAKPROOF: none can raise an error.
-- Nothing else of the extension is.
SELECT p.proname, p.proleakproof FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND p.proleakproof
ORDER BY p.proname;

-- 10,000 ids over many milliseconds: the same order by value, by text
-- (bytewise, collation "C") and by uuid.
CREATE TABLE ordering_ids AS
	SELECT gen_ulid('2020-01-01'::timestamptz + (random() * 1000) * interval '1 second') AS id
	FROM generate_series(1, 5000)
	UNION ALL
	SELECT gen_ulid() FROM generate_series(1, 5000);
SELECT count(*) FROM ordering_ids;
SELECT array_agg(id ORDER BY id) = array_agg(id ORDER BY id::text COLLATE "C") AS by_text,
	array_agg(id ORDER BY id) = array_agg(id ORDER BY id::uuid) AS by_uuid,
	array_agg(id ORDER BY id) = array_agg(id ORDER BY ulid_time(id), id::text COLLATE "C") AS by_time
FROM ordering_ids;

-- min and max agree with ORDER BY, also in a parallel plan.
SELECT min(id) = (SELECT id FROM ordering_ids ORDER BY id LIMIT 1),
	max(id) = (SELECT id FROM ordering_ids ORDER BY id DESC LIMIT 1)
FROM ordering_ids;
SELECT min(id), max(id) FROM (VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid),
	('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), (NULL)) v(id);
SELECT min(id), max(id) FROM ordering_ids WHERE false;
SELECT proname, proparallel FROM pg_proc
WHERE proname IN ('min', 'max') AND proargtypes[0] = 'ulid'::regtype ORDER BY proname;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT min(id), max(id) FROM ordering_ids;
SELECT min(id) = (SELECT id FROM ordering_ids ORDER BY id LIMIT 1),
	max(id) = (SELECT id FROM ordering_ids ORDER BY id DESC LIMIT 1)
FROM ordering_ids;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;

DROP TABLE ordering_ids;
