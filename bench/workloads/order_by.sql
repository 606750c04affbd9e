-- ORDER BY of the :N keys of table d: OFFSET past the end makes it the whole
-- sort with no rows sent.  ULIDs kept as text are sorted under "C", the
-- default collation of the cluster and ICU's en-x-icu.
-- cluster: plain

-- @setup
\i bench/data.sql

-- @check
SELECT plan_of('SELECT u FROM d ORDER BY u OFFSET ' || :N) LIKE '%Sort%';

-- @case uuid
SELECT g FROM d ORDER BY 1 OFFSET :N;

-- @case ulid vs uuid
SELECT u FROM d ORDER BY 1 OFFSET :N;

-- @case text COLLATE "C" vs uuid, ulid
SELECT us COLLATE "C" FROM d ORDER BY 1 OFFSET :N;

-- @case text (default collation) vs uuid, ulid
SELECT us FROM d ORDER BY 1 OFFSET :N;

-- @case text COLLATE "en-x-icu" vs uuid, ulid
SELECT us COLLATE "en-x-icu" FROM d ORDER BY 1 OFFSET :N;
