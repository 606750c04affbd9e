-- GIN: ulid_gin_ops finds the rows a sequential scan finds, for every
-- operator and its (ulid, uuid) twin, on random and monotonic ids and at the
-- edges, alone and beside an array in a multi-column index; ulid[] through
-- core's array class.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
\i test/sql/include/plan_has.sql
SET max_parallel_workers_per_gather = 0;

SELECT opcname, opcdefault, amvalidate(oid) FROM pg_opclass
WHERE opcintype = 'ulid'::regtype AND opcmethod = (SELECT oid FROM pg_am WHERE amname = 'gin');
SELECT amopstrategy, amopopr::regoperator FROM pg_amop
WHERE amopfamily = (SELECT opcfamily FROM pg_opclass WHERE opcname = 'ulid_gin_ops')
ORDER BY amoprighttype::regtype::text, amopstrategy;

-- 4000 ids at random times in January 2020, one of them four more times;
-- 3000 monotonic ids of now (many to a millisecond); the smallest and the
-- largest ulid; NULL ids.  Tags: one of a-d, sometimes e, sometimes NULL.
-- No autovacuum: the test decides when the pending list is flushed.
CREATE TABLE gin_t (id ulid, tags text[], kind text NOT NULL) WITH (autovacuum_enabled = off);
INSERT INTO gin_t
	SELECT gen_ulid('2020-01-01 00:00+00'::timestamptz + random() * interval '30 days'),
		CASE WHEN random() < 0.02 THEN NULL
			 ELSE ARRAY[(ARRAY['a', 'b', 'c', 'd'])[1 + floor(random() * 4)::int]]
				  || CASE WHEN random() < 0.3 THEN '{e}'::text[] ELSE '{}' END
		END,
		'random'
	FROM generate_series(1, 4000);
INSERT INTO gin_t
	SELECT id, '{a}', 'duplicate'
	FROM (SELECT id FROM gin_t ORDER BY id OFFSET 999 LIMIT 1) s, generate_series(1, 4);
INSERT INTO gin_t
	SELECT gen_monotonic_ulid(), ARRAY[(ARRAY['a', 'b', 'c', 'd'])[1 + n % 4]], 'monotonic'
	FROM generate_series(1, 3000) n;
INSERT INTO gin_t VALUES
	('00000000000000000000000000', '{a}', 'edge'),
	('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '{a}', 'edge'),
	(NULL, '{a}', 'null'), (NULL, '{b}', 'null'), (NULL, NULL, 'null');
CREATE INDEX gin_t_id_tags ON gin_t USING gin (id, tags);
ANALYZE gin_t;
SELECT kind, count(*), count(DISTINCT id) AS distinct_ids FROM gin_t GROUP BY kind ORDER BY kind;

-- The values probed, in order: every edge, keys of either kind, and a value
-- between two adjacent keys that is in no row.
CREATE TEMP TABLE gin_probes (n int, probe text, id ulid);
INSERT INTO gin_probes VALUES
	(1, 'smallest ulid', '00000000000000000000000000'),
	(11, 'largest ulid', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
INSERT INTO gin_probes
	SELECT 2, 'first random', min(id) FROM gin_t WHERE kind = 'random';
INSERT INTO gin_probes
	SELECT 3, 'the duplicated one', min(id) FROM gin_t WHERE kind = 'duplicate';
INSERT INTO gin_probes
	SELECT 4, 'middle random', id FROM gin_t WHERE kind = 'random' ORDER BY id OFFSET 1999 LIMIT 1;
-- The largest ulid of the 2500th random key's millisecond: above that key,
-- below the next (in a later millisecond but one time in a million).
INSERT INTO gin_probes
	SELECT 5, 'between two random', ulid_max_at(ulid_time(id))
	FROM gin_t WHERE kind = 'random' ORDER BY id OFFSET 2499 LIMIT 1;
INSERT INTO gin_probes
	SELECT 6, 'last random', max(id) FROM gin_t WHERE kind = 'random';
INSERT INTO gin_probes
	SELECT 7, 'first monotonic', min(id) FROM gin_t WHERE kind = 'monotonic';
INSERT INTO gin_probes
	SELECT 8, 'middle monotonic', id FROM gin_t WHERE kind = 'monotonic' ORDER BY id OFFSET 1499 LIMIT 1;
INSERT INTO gin_probes
	SELECT 9, 'second-to-last monotonic', id FROM gin_t WHERE kind = 'monotonic' ORDER BY id DESC OFFSET 1 LIMIT 1;
INSERT INTO gin_probes
	SELECT 10, 'last monotonic', max(id) FROM gin_t WHERE kind = 'monotonic';
SELECT count(*) AS probes, count(id) AS not_null FROM gin_probes;

-- pg_temp.gin_check(cond): the rows of gin_t matching cond through the GIN
-- index (sequential scans off), whether they are exactly the rows a
-- sequential scan finds (bitmap scans off), and whether the plans were those.
CREATE FUNCTION pg_temp.gin_check(cond text, OUT rows bigint, OUT same boolean, OUT by_index boolean)
LANGUAGE plpgsql AS $$
DECLARE
	q text := 'SELECT ctid FROM gin_t WHERE ' || cond;
	agg text := 'SELECT count(*), array_agg(ctid ORDER BY ctid) FROM (' || q || ') s';
	seq_rows tid[];
	index_rows tid[];
	seq_plan boolean;
BEGIN
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_bitmapscan', 'off', true);
	seq_plan := pg_temp.plan_has(q, 'Seq Scan on gin_t');
	EXECUTE agg INTO rows, seq_rows;
	PERFORM set_config('enable_seqscan', 'off', true);
	PERFORM set_config('enable_bitmapscan', 'on', true);
	by_index := seq_plan AND pg_temp.plan_has(q, 'Bitmap Index Scan on gin_t_id_tags');
	EXECUTE agg INTO rows, index_rows;
	same := index_rows IS NOT DISTINCT FROM seq_rows;
	PERFORM set_config('enable_seqscan', 'on', true);
END $$;

-- Every operator on every probe, as a ulid and as a uuid: the index's rows
-- (of the ulid form), and whether every one of the ten was exactly the
-- sequential scan's rows through the index.
SELECT p.probe,
	max(r.rows) FILTER (WHERE o.op = '<' AND t.typ = 'ulid') AS "<",
	max(r.rows) FILTER (WHERE o.op = '<=' AND t.typ = 'ulid') AS "<=",
	max(r.rows) FILTER (WHERE o.op = '=' AND t.typ = 'ulid') AS "=",
	max(r.rows) FILTER (WHERE o.op = '>=' AND t.typ = 'ulid') AS ">=",
	max(r.rows) FILTER (WHERE o.op = '>' AND t.typ = 'ulid') AS ">",
	bool_and(r.same) AS same,
	bool_and(r.by_index) AS by_index
FROM gin_probes p
	CROSS JOIN (VALUES ('<'), ('<='), ('='), ('>='), ('>')) o(op)
	CROSS JOIN (VALUES ('ulid'), ('uuid')) t(typ)
	CROSS JOIN LATERAL pg_temp.gin_check(format('id %s %L::%s', o.op,
		CASE t.typ WHEN 'uuid' THEN p.id::uuid::text ELSE p.id::text END, t.typ)) r
GROUP BY p.n, p.probe ORDER BY p.n;

-- The value on the left, as a uuid: the planner commutes (uuid, ulid)
-- operators into the family's (ulid, uuid) ones.
SELECT o.op, r.*
FROM (VALUES ('<'), ('<='), ('='), ('>='), ('>')) o(op),
	LATERAL pg_temp.gin_check(format('%L::uuid %s id',
		(SELECT id::uuid FROM gin_probes WHERE n = 8), o.op)) r;

-- A NULL probe matches nothing, either way.
SELECT o.op, r.rows, r.same
FROM (VALUES ('<'), ('<='), ('='), ('>='), ('>')) o(op),
	LATERAL pg_temp.gin_check(format('id %s NULL::ulid', o.op)) r;

-- Two conditions on one column: a window between two probes.
SELECT * FROM pg_temp.gin_check(format('id >= %L AND id < %L',
	(SELECT id FROM gin_probes WHERE n = 2), (SELECT id FROM gin_probes WHERE n = 4)));

-- The multi-column index serves id and tags together: one bitmap index scan
-- with both conditions, the same rows as a sequential scan.  (Tags are
-- random: whether rows were found, not how many.)
SET enable_seqscan = off;
SELECT pg_temp.plan_has(q, 'Bitmap Index Scan on gin_t_id_tags') AS by_index,
	pg_temp.plan_has(q, '::ulid) AND (tags @> ') AS both_conditions_in_index
FROM (SELECT format('SELECT * FROM gin_t WHERE id > %L::ulid AND tags @> ''{a}''', id) AS q
	  FROM gin_probes WHERE n = 4) s;
RESET enable_seqscan;
SELECT p.probe, r.rows > 0 AS found, r.same, r.by_index
FROM gin_probes p,
	LATERAL pg_temp.gin_check(format('id > %L AND tags @> ''{a}''', p.id)) r
WHERE p.n IN (1, 4, 7, 11) ORDER BY p.n;
-- Tags alone still find the rows whose id is NULL.
SELECT rows > 0 AS found, same, by_index FROM pg_temp.gin_check('tags @> ''{a}''');
SELECT * FROM pg_temp.gin_check('tags @> ''{b}'' AND id IS NULL');
SELECT rows > 0 AS found, same, by_index
FROM pg_temp.gin_check('tags && ''{c,e}'' AND id <= ' || quote_literal((SELECT id FROM gin_probes WHERE n = 5)));

-- The index stays right under deletes and inserts: the new row is in the
-- pending list (fastupdate) until the vacuum moves it into the tree.
DELETE FROM gin_t WHERE kind = 'duplicate' OR id = (SELECT id FROM gin_probes WHERE n = 8);
INSERT INTO gin_t SELECT id, '{f}', 'late' FROM gin_probes WHERE n = 5;
SELECT n_pending_tuples FROM gin_metapage_info(get_raw_page('gin_t_id_tags', 0));
SELECT p.probe, o.op, r.*
FROM gin_probes p, (VALUES ('<'), ('='), ('>=')) o(op),
	LATERAL pg_temp.gin_check(format('id %s %L', o.op, p.id)) r
WHERE p.n IN (3, 5, 8) ORDER BY p.n, o.op;
VACUUM gin_t;
SELECT n_pending_tuples FROM gin_metapage_info(get_raw_page('gin_t_id_tags', 0));
SELECT p.probe, o.op, r.*
FROM gin_probes p, (VALUES ('<'), ('='), ('>=')) o(op),
	LATERAL pg_temp.gin_check(format('id %s %L', o.op, p.id)) r
WHERE p.n IN (3, 5, 8) ORDER BY p.n, o.op;

-- ulid[] needs nothing of this class: core's array_ops uses ulid's btree class.
CREATE TABLE gin_arrays (ids ulid[]);
INSERT INTO gin_arrays SELECT array_agg(id ORDER BY id) FROM gin_t WHERE id IS NOT NULL
	GROUP BY ulid_time(id)::date, tags;
CREATE INDEX gin_arrays_ids ON gin_arrays USING gin (ids);
SELECT opc.opcname FROM pg_index i JOIN pg_opclass opc ON opc.oid = i.indclass[0]
WHERE i.indexrelid = 'gin_arrays_ids'::regclass;
CREATE TEMP TABLE gin_array_probe AS
	SELECT ids[1] AS id FROM gin_arrays WHERE cardinality(ids) > 1 ORDER BY ids LIMIT 1;
SET enable_seqscan = off;
SELECT pg_temp.plan_has('SELECT * FROM gin_arrays WHERE ids @> ARRAY[''00000000000000000000000000''::ulid]',
	'Bitmap Index Scan on gin_arrays_ids') AS by_index;
SELECT count(*) AS containing FROM gin_arrays WHERE ids @> ARRAY[(SELECT id FROM gin_array_probe)];
SELECT count(*) AS overlapping FROM gin_arrays
WHERE ids && ARRAY[(SELECT id FROM gin_array_probe), '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid];
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT count(*) AS containing FROM gin_arrays WHERE ids @> ARRAY[(SELECT id FROM gin_array_probe)];
SELECT count(*) AS overlapping FROM gin_arrays
WHERE ids && ARRAY[(SELECT id FROM gin_array_probe), '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid];
RESET enable_bitmapscan;

DROP TABLE gin_t, gin_arrays;
DROP EXTENSION pageinspect;
RESET max_parallel_workers_per_gather;
