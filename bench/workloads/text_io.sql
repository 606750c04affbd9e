-- Text output and input: the casts over the :N keys of table d (bench/data.sql).
-- cluster: plain

-- @setup
\i bench/data.sql

-- @case uuid::text
SELECT count(g::text) FROM d;

-- @case ulid::text vs uuid::text
SELECT count(u::text) FROM d;

-- @case text::uuid
SELECT count(gs::uuid) FROM d;

-- @case text::ulid vs text::uuid
SELECT count(us::ulid) FROM d;
