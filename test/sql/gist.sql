-- GiST: ulid_gist_ops, the default GiST class of ulid.  Every operator
-- through the index agrees with a sequential scan, on random and on
-- monotonic data and at the edges; nearest-by-time ordering; the tree's
-- keys cover their subtrees after many page splits; an exclusion constraint
-- with a tstzrange, without btree_gist.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
CREATE EXTENSION IF NOT EXISTS pageinspect;
RESET client_min_messages;
\i test/sql/include/plan_has.sql

-- The class validates, is the default for gist, and btree_gist is not needed.
SELECT c.opcname, c.opcdefault, c.opckeytype::regtype, amvalidate(c.oid) AS valid
FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE a.amname = 'gist' AND c.opcintype = 'ulid'::regtype;
SELECT count(*) AS btree_gist_installed FROM pg_extension WHERE extname = 'btree_gist';
-- The key type is made only by the index.
SELECT 'x'::ulid_gist_key;

-- <->: the milliseconds between the times of two ulids, either way round.
SELECT ulid_from_time('2026-01-01 00:00:01+00') <-> ulid_from_time('2026-01-01 00:00:00+00') AS one_second,
	ulid_from_time('2026-01-01 00:00:00+00') <-> ulid_from_time('2026-01-01 00:00:01+00') AS reversed,
	ulid_min_at('2026-01-01 00:00+00') <-> ulid_max_at('2026-01-01 00:00+00') AS same_millisecond,
	'00000000000000000000000000'::ulid <-> '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid = 2 ^ 48 - 1 AS whole_range;

-- Random data: 20,000 ids over a month, in no order, inserted into an
-- existing index one by one (the page splits of random inserts), with
-- duplicates, the smallest and the largest ulid, and a NULL.
CREATE TABLE g_random (id ulid);
CREATE INDEX g_random_gist ON g_random USING gist (id);
INSERT INTO g_random
	SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + random() * interval '30 days')
	FROM generate_series(1, 20000);
INSERT INTO g_random SELECT id FROM g_random ORDER BY id LIMIT 50 OFFSET 10000;
INSERT INTO g_random VALUES ('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), (NULL);

-- Monotonic data: 20,000 ids from gen_monotonic_ulid() (many share a
-- millisecond); the index built over the first half (a sorted build), the
-- second half inserted at its right edge.
CREATE TABLE g_mono (id ulid);
INSERT INTO g_mono SELECT gen_monotonic_ulid() FROM generate_series(1, 10000);
CREATE INDEX g_mono_gist ON g_mono USING gist (id);
INSERT INTO g_mono SELECT gen_monotonic_ulid() FROM generate_series(1, 10000);
VACUUM ANALYZE g_random, g_mono;

-- The probes: the edges of the type and of each table, keys inside each
-- table, a duplicated key, and values between keys.
CREATE TABLE probes (tab text, what text, p ulid);
INSERT INTO probes
	SELECT t, w, p FROM unnest('{g_random,g_mono}'::text[]) t,
	LATERAL (VALUES ('smallest ulid', '00000000000000000000000000'::ulid),
					('largest ulid', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid),
					('before the first time', ulid_max_at('2025-12-31 23:59+00'))) v(w, p);
INSERT INTO probes
	SELECT 'g_random', w, p FROM (VALUES
		('first key', (SELECT min(id) FROM g_random WHERE id > '00000000000000000000000000')),
		('last key', (SELECT max(id) FROM g_random WHERE id < '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')),
		('a duplicated key', (SELECT id FROM g_random GROUP BY id HAVING count(*) > 1 LIMIT 1)),
		('a middle key', (SELECT id FROM g_random ORDER BY id OFFSET 7000 LIMIT 1)),
		('between keys', ulid_min_at('2026-01-15 12:00:00.0005+00')),
		('inside a millisecond', ulid_from_bytea(overlay((SELECT id FROM g_random ORDER BY id OFFSET 3000 LIMIT 1)::bytea
														 PLACING '\x8000000000'::bytea FROM 12)))) v(w, p);
INSERT INTO probes
	SELECT 'g_mono', w, p FROM (VALUES
		('first key', (SELECT min(id) FROM g_mono)),
		('last key', (SELECT max(id) FROM g_mono)),
		('a middle key', (SELECT id FROM g_mono ORDER BY id OFFSET 9999 LIMIT 1)),
		('after the last time', ulid_from_time(now() + interval '1 day'))) v(w, p);
SELECT tab, count(*) AS probes, count(DISTINCT p) AS distinct_probes FROM probes GROUP BY 1 ORDER BY 1;

-- The rows of a query, by a sequential scan, a plain or index-only GiST
-- scan, or a bitmap GiST scan; the result is the row count and a digest of
-- the sorted rows, or NULL if the plan did not take the intended path.
CREATE FUNCTION pg_temp.rows_by(query text, path text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	result text;
BEGIN
	PERFORM set_config('enable_seqscan', (path = 'seq')::text, true);
	PERFORM set_config('enable_indexscan', (path = 'index')::text, true);
	PERFORM set_config('enable_indexonlyscan', (path = 'index')::text, true);
	PERFORM set_config('enable_bitmapscan', (path = 'bitmap')::text, true);
	IF NOT pg_temp.plan_has(query, CASE path WHEN 'seq' THEN 'Seq Scan'
											WHEN 'index' THEN ' Scan using'
											ELSE 'Bitmap Index Scan on' END) THEN
		RETURN NULL;
	END IF;
	EXECUTE format('SELECT count(*) || '':'' || md5(coalesce(string_agg(id::text, '','' ORDER BY id), '''')) FROM (%s) q',
				   query) INTO result;
	RETURN result;
END $$;

-- Every operator, on every probe: the index scans find exactly the rows the
-- sequential scan finds.
SELECT p.tab, o.op, count(*) AS probes,
	count(*) FILTER (WHERE i = s AND b = s) AS agree,
	count(*) FILTER (WHERE s NOT LIKE '0:%') AS probes_with_rows
FROM probes p,
	unnest('{<,<=,=,<>,>=,>}'::text[]) o(op),
	LATERAL (SELECT format('SELECT id FROM %I WHERE id %s %L::ulid', p.tab, o.op, p.p) AS q) q,
	LATERAL (SELECT pg_temp.rows_by(q.q, 'seq') AS s, pg_temp.rows_by(q.q, 'index') AS i,
					pg_temp.rows_by(q.q, 'bitmap') AS b) r
GROUP BY 1, 2 ORDER BY 1, array_position('{<,<=,=,<>,>=,>}'::text[], o.op);

-- The same with the probe typed uuid: the family's (ulid, uuid) operators.
SELECT p.tab, o.op, count(*) AS probes,
	count(*) FILTER (WHERE i = s AND b = s) AS agree
FROM probes p,
	unnest('{<,<=,=,<>,>=,>}'::text[]) o(op),
	LATERAL (SELECT format('SELECT id FROM %I WHERE id %s %L::uuid', p.tab, o.op, p.p::uuid) AS q) q,
	LATERAL (SELECT pg_temp.rows_by(q.q, 'seq') AS s, pg_temp.rows_by(q.q, 'index') AS i,
					pg_temp.rows_by(q.q, 'bitmap') AS b) r
GROUP BY 1, 2 ORDER BY 1, array_position('{<,<=,=,<>,>=,>}'::text[], o.op);
RESET enable_seqscan;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

-- Counts at the edges, the same by either scan: nothing is below the
-- smallest ulid or above the largest, and each occurs once.
SET enable_seqscan = off;
SELECT pg_temp.plan_has($$SELECT count(*) FROM g_random WHERE id < '00000000000000000000000000'$$, 'g_random_gist') AS uses_index,
	(SELECT count(*) FROM g_random WHERE id < '00000000000000000000000000') AS below_smallest,
	(SELECT count(*) FROM g_random WHERE id = '00000000000000000000000000') AS smallest,
	(SELECT count(*) FROM g_random WHERE id > '7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS above_largest,
	(SELECT count(*) FROM g_random WHERE id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS largest,
	(SELECT count(*) FROM g_random WHERE id <> '7ZZZZZZZZZZZZZZZZZZZZZZZZZ') AS not_largest,
	(SELECT count(*) FROM g_random WHERE id IS NULL) AS nulls;

-- Nearest by time: ORDER BY id <-> probe through the index gives the
-- distances a sort of the whole table gives (ids at equal distance may come
-- in any order, so the distances are compared); NULL if the index was not
-- used.
CREATE FUNCTION pg_temp.knn_agrees(tab text, probe ulid) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	q text := format('SELECT id <-> %L::ulid AS d FROM %I ORDER BY id <-> %L::ulid LIMIT 25', probe, tab, probe);
	by_index float8[];
	by_sort float8[];
BEGIN
	PERFORM set_config('enable_seqscan', 'off', true);
	IF NOT pg_temp.plan_has(q, ' Scan using ' || tab || '_gist') THEN
		RETURN NULL;
	END IF;
	EXECUTE format('SELECT array_agg(d) FROM (%s) x', q) INTO by_index;
	PERFORM set_config('enable_seqscan', 'on', true);
	PERFORM set_config('enable_indexscan', 'off', true);
	PERFORM set_config('enable_indexonlyscan', 'off', true);
	EXECUTE format('SELECT array_agg(d) FROM (%s) x', q) INTO by_sort;
	PERFORM set_config('enable_indexscan', 'on', true);
	PERFORM set_config('enable_indexonlyscan', 'on', true);
	RETURN by_index = by_sort AND cardinality(by_index) = 25;
END $$;
SELECT tab, count(*) AS probes, count(*) FILTER (WHERE pg_temp.knn_agrees(tab, p)) AS agree
FROM probes GROUP BY 1 ORDER BY 1;
RESET enable_seqscan;

-- The tree, read with pageinspect: many pages (picksplit ran many times for
-- g_random), every leaf key [v, v], every parent key covering every key of
-- its child page, and one leaf entry per row.
CREATE FUNCTION pg_temp.gist_keys(idx regclass)
RETURNS TABLE (blk int, leaf boolean, child int, lo ulid, hi ulid, is_null boolean)
LANGUAGE sql AS $$
	SELECT b, o.leaf,
		CASE WHEN NOT o.leaf THEN (i.ctid::text::point)[0]::int END,
		substring(i.keys FROM '\[(\w+),')::ulid, substring(i.keys FROM ',(\w+)\]')::ulid,
		i.keys LIKE '%null%'
	FROM generate_series(0, (pg_relation_size(idx) / current_setting('block_size')::int - 1)::int) b,
		LATERAL (SELECT 'leaf' = ANY (flags) AS leaf
				 FROM gist_page_opaque_info(get_raw_page(idx::text, b))) o,
		LATERAL gist_page_items(get_raw_page(idx::text, b), idx) i
$$;
SELECT t.idx,
	count(DISTINCT k.blk) FILTER (WHERE k.leaf) > 50 AS many_leaf_pages,
	count(DISTINCT k.blk) FILTER (WHERE NOT k.leaf) >= 1 AS has_inner_pages,
	count(*) FILTER (WHERE k.leaf) = CASE t.idx WHEN 'g_random_gist'::regclass
		THEN (SELECT count(*) FROM g_random) ELSE (SELECT count(*) FROM g_mono) END AS one_entry_per_row,
	count(*) FILTER (WHERE k.leaf AND NOT k.is_null AND k.lo <> k.hi) AS leaf_keys_not_a_point,
	(SELECT count(*) FROM pg_temp.gist_keys(t.idx) p JOIN pg_temp.gist_keys(t.idx) c ON c.blk = p.child
	 WHERE NOT c.is_null AND (c.lo < p.lo OR c.hi > p.hi)) AS keys_outside_parent
FROM unnest('{g_random_gist,g_mono_gist}'::regclass[]) t(idx), pg_temp.gist_keys(t.idx) k
GROUP BY t.idx ORDER BY 1;

--
-- A reservation keyed by a ulid: an exclusion constraint with core's range
-- class, no btree_gist.
--
CREATE TABLE booking (
	room ulid NOT NULL,
	during tstzrange NOT NULL,
	EXCLUDE USING gist (room WITH =, during WITH &&)
);
INSERT INTO booking VALUES
	('01KDN7ZBR0AAAAAAAAAAAAAAAA', '[2026-03-01 10:00+00, 2026-03-01 11:00+00)'),
	('01KDN7ZBR0AAAAAAAAAAAAAAAA', '[2026-03-01 11:00+00, 2026-03-01 12:00+00)');
-- The same room, overlapping: refused.
INSERT INTO booking VALUES ('01KDN7ZBR0AAAAAAAAAAAAAAAA', '[2026-03-01 10:30+00, 2026-03-01 11:30+00)');
DO $$
BEGIN
	INSERT INTO booking VALUES ('01KDN7ZBR0AAAAAAAAAAAAAAAA', '[2026-03-01 09:00+00, 2026-03-01 10:01+00)');
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'SQLSTATE %', SQLSTATE;
END $$;
-- Another room, the same time: accepted.
INSERT INTO booking VALUES ('01KDN7ZBR0BBBBBBBBBBBBBBBB', '[2026-03-01 10:30+00, 2026-03-01 11:30+00)');
-- Stretching a booking over the one before it in its room: refused.
UPDATE booking SET during = '[2026-03-01 10:59+00, 2026-03-01 12:00+00)'
WHERE room = '01KDN7ZBR0AAAAAAAAAAAAAAAA' AND lower(during) = '2026-03-01 11:00+00';
-- 20,000 more bookings, 2,000 rooms of 10 consecutive hours, none
-- overlapping: all accepted; then one overlap among them is still found.
INSERT INTO booking
	SELECT r.id, tstzrange('2026-04-01 00:00+00'::timestamptz + h * interval '1 hour',
						   '2026-04-01 00:00+00'::timestamptz + (h + 1) * interval '1 hour')
	FROM (SELECT gen_ulid() AS id FROM generate_series(1, 2000)) r, generate_series(0, 9) h;
SELECT count(*) AS bookings FROM booking;
DO $$
BEGIN
	INSERT INTO booking
		SELECT room, tstzrange(lower(during) + interval '30 minutes', upper(during) + interval '30 minutes')
		FROM booking WHERE lower(during) = '2026-04-01 05:00+00' ORDER BY room OFFSET 1234 LIMIT 1;
EXCEPTION WHEN exclusion_violation THEN
	RAISE NOTICE 'overlap among 20,000 bookings refused: SQLSTATE %', SQLSTATE;
END $$;
-- The constraint's index answers a room's bookings in a window.
ANALYZE booking;
SELECT pg_temp.plan_has($$SELECT * FROM booking WHERE room = '01KDN7ZBR0AAAAAAAAAAAAAAAA'
						AND during && '[2026-03-01 10:30+00, 2026-03-01 10:40+00)'$$,
						'booking_room_during_excl') AS uses_index;
SELECT room, during FROM booking WHERE room = '01KDN7ZBR0AAAAAAAAAAAAAAAA'
	AND during && '[2026-03-01 10:30+00, 2026-03-01 11:10+00)' ORDER BY during;

DROP TABLE g_random, g_mono, probes, booking;
DROP EXTENSION pageinspect;
