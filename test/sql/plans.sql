-- PostgreSQL 19's planner on ulid keys: NOT IN becomes an anti-join when
-- neither side can be NULL, IS NOT DISTINCT FROM on NOT NULL columns becomes
-- = (and so can use an index), and eager aggregation groups by a ulid below a
-- join, min()/max() of ulid included (their combine function makes them
-- partial).  Each plan is asserted by the node that matters, and each result
-- against the same query planned the old way.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

\i test/sql/include/plan_has.sql

CREATE TABLE plan_a (id ulid NOT NULL);
CREATE TABLE plan_b (id ulid NOT NULL);
CREATE TABLE plan_b_nullable (id ulid);
INSERT INTO plan_a SELECT gen_ulid() FROM generate_series(1, 2000);
INSERT INTO plan_b SELECT id FROM plan_a ORDER BY id LIMIT 700;
INSERT INTO plan_b_nullable SELECT id FROM plan_b;
ANALYZE plan_a, plan_b, plan_b_nullable;

-- NOT IN over NOT NULL ulid columns: an anti-join, with the right rows.
SELECT pg_temp.plan_has('SELECT id FROM plan_a WHERE id NOT IN (SELECT id FROM plan_b)', 'Anti Join');
SELECT count(*) FROM plan_a WHERE id NOT IN (SELECT id FROM plan_b);
-- A nullable column keeps the subplan: one NULL in it and NOT IN is never true.
SELECT pg_temp.plan_has('SELECT id FROM plan_a WHERE id NOT IN (SELECT id FROM plan_b_nullable)', 'Anti Join');
SELECT count(*) FROM plan_a WHERE id NOT IN (SELECT id FROM plan_b_nullable);
INSERT INTO plan_b_nullable VALUES (NULL);
SELECT count(*) FROM plan_a WHERE id NOT IN (SELECT id FROM plan_b_nullable);

-- IS NOT DISTINCT FROM on a NOT NULL ulid column is =: the index finds it.
CREATE INDEX plan_a_id ON plan_a (id);
INSERT INTO plan_a VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV');
SET enable_seqscan = off;
SELECT pg_temp.plan_has($$SELECT id FROM plan_a WHERE id IS NOT DISTINCT FROM '01ARYZ6S41TSV4RRFFQ69G5FAV'$$,
	'plan_a_id');
SELECT id FROM plan_a WHERE id IS NOT DISTINCT FROM '01ARYZ6S41TSV4RRFFQ69G5FAV';
SELECT count(*) FROM plan_a WHERE id IS DISTINCT FROM '01ARYZ6S41TSV4RRFFQ69G5FAV';
RESET enable_seqscan;

-- Eager aggregation: children are counted per parent ulid before the join.
CREATE TABLE plan_parent (id ulid PRIMARY KEY, name text NOT NULL);
CREATE TABLE plan_child (parent ulid NOT NULL, id ulid NOT NULL);
INSERT INTO plan_parent SELECT gen_ulid(), 'group ' || (n % 10) FROM generate_series(1, 100) n;
INSERT INTO plan_child SELECT p.id, gen_ulid() FROM plan_parent p, generate_series(1, 100);
ANALYZE plan_parent, plan_child;
SET enable_eager_aggregate = on;
SELECT pg_temp.plan_has('SELECT p.id, count(*) FROM plan_parent p JOIN plan_child c ON c.parent = p.id GROUP BY p.id',
	'Partial');
-- min() and max() of ulid go below the join too.
SELECT pg_temp.plan_has('SELECT p.name, min(c.id), max(c.id) FROM plan_parent p
	JOIN plan_child c ON c.parent = p.id GROUP BY p.name', 'Partial');
CREATE TEMP TABLE plan_eager AS
	SELECT p.name, min(c.id) AS first, max(c.id) AS last, count(*) AS n
	FROM plan_parent p JOIN plan_child c ON c.parent = p.id GROUP BY p.name;
SET enable_eager_aggregate = off;
SELECT pg_temp.plan_has('SELECT p.name, min(c.id), max(c.id) FROM plan_parent p
	JOIN plan_child c ON c.parent = p.id GROUP BY p.name', 'Partial');
-- The same groups, firsts and lasts either way.
SELECT count(*) AS groups,
	count(*) FILTER (WHERE e.first = l.first AND e.last = l.last AND e.n = l.n) AS same
FROM plan_eager e JOIN (
	SELECT p.name, min(c.id) AS first, max(c.id) AS last, count(*) AS n
	FROM plan_parent p JOIN plan_child c ON c.parent = p.id GROUP BY p.name) l USING (name);
RESET enable_eager_aggregate;

DROP TABLE plan_a, plan_b, plan_b_nullable, plan_parent, plan_child;
