-- CREATE INDEX (B-tree) on the :N keys of table d, and the index's size.
-- cluster: plain

-- @setup
\i bench/data.sql

-- @case uuid
DROP INDEX IF EXISTS d_key;
CHECKPOINT;
-- @timed
CREATE INDEX d_key ON d (g);
-- @size
SELECT pg_relation_size('d_key');

-- @case ulid vs uuid
DROP INDEX IF EXISTS d_key;
CHECKPOINT;
-- @timed
CREATE INDEX d_key ON d (u);
-- @size
SELECT pg_relation_size('d_key');

-- @case text COLLATE "C" vs uuid, ulid
DROP INDEX IF EXISTS d_key;
CHECKPOINT;
-- @timed
CREATE INDEX d_key ON d ((us COLLATE "C"));
-- @size
SELECT pg_relation_size('d_key');

-- @case text (default collation) vs uuid, ulid
DROP INDEX IF EXISTS d_key;
CHECKPOINT;
-- @timed
CREATE INDEX d_key ON d (us);
-- @size
SELECT pg_relation_size('d_key');

-- @case text COLLATE "en-x-icu" vs uuid, ulid
DROP INDEX IF EXISTS d_key;
CHECKPOINT;
-- @timed
CREATE INDEX d_key ON d ((us COLLATE "en-x-icu"));
-- @size
SELECT pg_relation_size('d_key');
