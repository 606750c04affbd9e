-- SELECT DISTINCT over the :N keys of table d, by sorting (Unique over a
-- Sort, hash aggregation off) and by hashing (a HashAggregate, the default
-- plan here).
-- cluster: plain

-- @setup
\i bench/data.sql

-- @check
SET enable_hashagg = off;
SELECT plan_of('SELECT count(*) FROM (SELECT DISTINCT u FROM d) s') LIKE '%Unique%';

-- @check
SELECT plan_of('SELECT count(*) FROM (SELECT DISTINCT u FROM d) s') LIKE '%HashAggregate%';

-- @case sort: uuid
SET enable_hashagg = off;
-- @timed
SELECT count(*) FROM (SELECT DISTINCT g FROM d) s;

-- @case sort: ulid vs sort: uuid
SET enable_hashagg = off;
-- @timed
SELECT count(*) FROM (SELECT DISTINCT u FROM d) s;

-- @case hash: uuid
RESET enable_hashagg;
-- @timed
SELECT count(*) FROM (SELECT DISTINCT g FROM d) s;

-- @case hash: ulid vs hash: uuid
RESET enable_hashagg;
-- @timed
SELECT count(*) FROM (SELECT DISTINCT u FROM d) s;
