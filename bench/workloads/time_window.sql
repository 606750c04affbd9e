-- One hour of orders joined to their lines and to their customers, planned
-- with 1.1's estimates (ulid_ineqsel) against 1.0's (core's scalargesel and
-- scalarltsel, set back on the ulid operators for the case), on the same
-- data: :N orders over 30 days, three lines each (indexed by order), 100,000
-- customers.  1.0's estimate of a window depends on where it falls in the
-- histogram, so there are two: one inside a histogram bucket (1.0 says 1
-- row) and one across a bucket's bound (1.0 says about a bucket).  The
-- customers join is also planned at random_page_cost 1.1 (a common setting
-- for SSDs), where index probes into cached customers cost what they do.
-- cluster: plain
-- rounds: 9

-- @setup
CREATE TABLE tw_customer (cid int PRIMARY KEY, region int NOT NULL, name text NOT NULL);
INSERT INTO tw_customer SELECT i, i % 50, md5(i::text) FROM generate_series(1, 100000) i;
CREATE TABLE tw_order (id ulid PRIMARY KEY, cid int NOT NULL, amount numeric NOT NULL);
INSERT INTO tw_order
	SELECT gen_ulid(timestamptz '2026-11-01 00:00Z' + random() * interval '30 days'),
		1 + (random() * 99999)::int, round((random() * 100)::numeric, 2)
	FROM generate_series(1, :N);
CREATE TABLE tw_line (order_id ulid NOT NULL, sku int NOT NULL, qty int NOT NULL);
INSERT INTO tw_line SELECT id, s, 1 + s % 2 FROM tw_order, generate_series(1, 3) s;
CREATE INDEX ON tw_line (order_id);
VACUUM ANALYZE tw_customer, tw_order, tw_line;
-- The two windows, from tw_order.id's histogram (100 buckets of about 7
-- hours): an hour in the middle of the 41st bucket, and an hour centred
-- on the 61st bound.
CREATE TABLE tw_window AS
WITH h AS (SELECT histogram_bounds::text::ulid[] AS b FROM pg_stats
		   WHERE tablename = 'tw_order' AND attname = 'id'),
	t AS (SELECT ulid_time(b[41]) + (ulid_time(b[42]) - ulid_time(b[41])) / 2 AS mid41,
				 ulid_time(b[61]) AS bound61 FROM h)
SELECT 'inside' AS name, (mid41 - interval '30 minutes')::ulid AS lo, (mid41 + interval '30 minutes')::ulid AS hi FROM t
UNION ALL
SELECT 'across', (bound61 - interval '30 minutes')::ulid, (bound61 + interval '30 minutes')::ulid FROM t;

-- @check
-- 1.1's estimate of each window is within 2x of its count; 1.0's of the
-- window inside a bucket is not.
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
CREATE TEMP TABLE tw_new AS
	SELECT name, (SELECT count(*) FROM tw_order WHERE id >= lo AND id < hi) AS actual,
		substring(plan_of(format('SELECT * FROM tw_order WHERE id >= %L AND id < %L', lo, hi))
				  FROM 'rows=(\d+)')::float8 AS est
	FROM tw_window;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = scalargesel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarltsel);
CREATE TEMP TABLE tw_old AS
	SELECT name, substring(plan_of(format('SELECT * FROM tw_order WHERE id >= %L AND id < %L', lo, hi))
						   FROM 'rows=(\d+)')::float8 AS est
	FROM tw_window;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
SELECT bool_and(n.est / n.actual BETWEEN 0.5 AND 2)
	AND bool_or(o.name = 'inside' AND o.est / n.actual NOT BETWEEN 0.5 AND 2)
FROM tw_new n JOIN tw_old o USING (name);

-- @case lines inside a bucket: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = scalargesel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarltsel);
SELECT lo, hi FROM tw_window WHERE name = 'inside' \gset
-- @timed
SELECT count(*) FROM (SELECT l.sku, sum(l.qty * o.amount) FROM tw_order o JOIN tw_line l ON l.order_id = o.id
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY l.sku) s;

-- @case lines inside a bucket: 1.1 estimates vs lines inside a bucket: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
SELECT lo, hi FROM tw_window WHERE name = 'inside' \gset
-- @timed
SELECT count(*) FROM (SELECT l.sku, sum(l.qty * o.amount) FROM tw_order o JOIN tw_line l ON l.order_id = o.id
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY l.sku) s;

-- @case lines across a bound: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = scalargesel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarltsel);
SELECT lo, hi FROM tw_window WHERE name = 'across' \gset
-- @timed
SELECT count(*) FROM (SELECT l.sku, sum(l.qty * o.amount) FROM tw_order o JOIN tw_line l ON l.order_id = o.id
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY l.sku) s;

-- @case lines across a bound: 1.1 estimates vs lines across a bound: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
SELECT lo, hi FROM tw_window WHERE name = 'across' \gset
-- @timed
SELECT count(*) FROM (SELECT l.sku, sum(l.qty * o.amount) FROM tw_order o JOIN tw_line l ON l.order_id = o.id
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY l.sku) s;

-- @case customers inside a bucket: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = scalargesel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarltsel);
SELECT lo, hi FROM tw_window WHERE name = 'inside' \gset
-- @timed
SELECT count(*) FROM (SELECT c.region, count(*), sum(o.amount) FROM tw_order o JOIN tw_customer c USING (cid)
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY c.region) s;

-- @case customers inside a bucket: 1.1 estimates vs customers inside a bucket: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
SELECT lo, hi FROM tw_window WHERE name = 'inside' \gset
-- @timed
SELECT count(*) FROM (SELECT c.region, count(*), sum(o.amount) FROM tw_order o JOIN tw_customer c USING (cid)
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY c.region) s;

-- @case customers across a bound: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = scalargesel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarltsel);
SELECT lo, hi FROM tw_window WHERE name = 'across' \gset
-- @timed
SELECT count(*) FROM (SELECT c.region, count(*), sum(o.amount) FROM tw_order o JOIN tw_customer c USING (cid)
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY c.region) s;

-- @case customers across a bound: 1.1 estimates vs customers across a bound: 1.0 estimates
RESET random_page_cost;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
SELECT lo, hi FROM tw_window WHERE name = 'across' \gset
-- @timed
SELECT count(*) FROM (SELECT c.region, count(*), sum(o.amount) FROM tw_order o JOIN tw_customer c USING (cid)
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY c.region) s;

-- @case customers inside a bucket: 1.1 estimates at random_page_cost 1.1 vs customers inside a bucket: 1.0 estimates
SET random_page_cost = 1.1;
ALTER OPERATOR >= (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = ulid_ineqsel);
SELECT lo, hi FROM tw_window WHERE name = 'inside' \gset
-- @timed
SELECT count(*) FROM (SELECT c.region, count(*), sum(o.amount) FROM tw_order o JOIN tw_customer c USING (cid)
	WHERE o.id >= :'lo' AND o.id < :'hi' GROUP BY c.region) s;
