-- Hash join and merge join of d and d2 (the same :N keys shuffled) on the
-- key, the other join methods turned off.
-- cluster: plain

-- @setup
\i bench/data.sql

-- @check
SET enable_hashjoin = on; SET enable_mergejoin = off; SET enable_nestloop = off;
SELECT plan_of('SELECT count(*) FROM d JOIN d2 USING (u)') LIKE '%Hash Join%';

-- @check
SET enable_hashjoin = off; SET enable_mergejoin = on; SET enable_nestloop = off;
SELECT plan_of('SELECT count(*) FROM d JOIN d2 USING (u)') LIKE '%Merge Join%';

-- @case hash: uuid
SET enable_hashjoin = on; SET enable_mergejoin = off; SET enable_nestloop = off;
-- @timed
SELECT count(*) FROM d JOIN d2 USING (g);

-- @case hash: ulid vs hash: uuid
SET enable_hashjoin = on; SET enable_mergejoin = off; SET enable_nestloop = off;
-- @timed
SELECT count(*) FROM d JOIN d2 USING (u);

-- @case merge: uuid
SET enable_hashjoin = off; SET enable_mergejoin = on; SET enable_nestloop = off;
-- @timed
SELECT count(*) FROM d JOIN d2 USING (g);

-- @case merge: ulid vs merge: uuid
SET enable_hashjoin = off; SET enable_mergejoin = on; SET enable_nestloop = off;
-- @timed
SELECT count(*) FROM d JOIN d2 USING (u);
