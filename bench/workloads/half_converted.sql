-- A key converted to ulid while the column that references it is still
-- uuid (and the other way round): a parent's children found by a nested
-- loop over the child's index, against the same join before conversion.
-- Each table pair is :N / 10 parents with 5 children each; each transaction
-- joins a random parent, by its name, to its children, or a random child to
-- its parent (pgbench, one client).
-- cluster: plain
-- pgbench: -c 1 -M prepared

-- @setup
CREATE TABLE IF NOT EXISTS hc_parent_uuid (id uuid PRIMARY KEY, name int UNIQUE);
CREATE TABLE IF NOT EXISTS hc_child_uuid (cid bigserial PRIMARY KEY, pid uuid REFERENCES hc_parent_uuid);
CREATE TABLE IF NOT EXISTS hc_parent_ulid (id ulid PRIMARY KEY, name int UNIQUE);
CREATE TABLE IF NOT EXISTS hc_child_uuid2 (cid bigserial PRIMARY KEY, pid uuid REFERENCES hc_parent_ulid);
CREATE TABLE IF NOT EXISTS hc_parent_uuid2 (id uuid PRIMARY KEY, name int UNIQUE);
CREATE TABLE IF NOT EXISTS hc_child_ulid (cid bigserial PRIMARY KEY, pid ulid REFERENCES hc_parent_uuid2);
INSERT INTO hc_parent_uuid SELECT gen_ulid(now() - i * interval '1 second')::uuid, i FROM generate_series(1, :N / 10) i
	WHERE NOT EXISTS (SELECT FROM hc_parent_uuid);
INSERT INTO hc_child_uuid (pid) SELECT id FROM hc_parent_uuid, generate_series(1, 5)
	WHERE NOT EXISTS (SELECT FROM hc_child_uuid);
INSERT INTO hc_parent_ulid SELECT * FROM hc_parent_uuid WHERE NOT EXISTS (SELECT FROM hc_parent_ulid);
INSERT INTO hc_child_uuid2 SELECT * FROM hc_child_uuid WHERE NOT EXISTS (SELECT FROM hc_child_uuid2);
INSERT INTO hc_parent_uuid2 SELECT * FROM hc_parent_uuid WHERE NOT EXISTS (SELECT FROM hc_parent_uuid2);
INSERT INTO hc_child_ulid SELECT * FROM hc_child_uuid WHERE NOT EXISTS (SELECT FROM hc_child_ulid);
CREATE INDEX IF NOT EXISTS hc_child_uuid_pid ON hc_child_uuid (pid);
CREATE INDEX IF NOT EXISTS hc_child_uuid2_pid ON hc_child_uuid2 (pid);
CREATE INDEX IF NOT EXISTS hc_child_ulid_pid ON hc_child_ulid (pid);
VACUUM ANALYZE hc_parent_uuid, hc_child_uuid, hc_parent_ulid, hc_child_uuid2, hc_parent_uuid2, hc_child_ulid;

-- @check
SELECT plan_of('SELECT * FROM hc_parent_uuid p JOIN hc_child_uuid c ON c.pid = p.id WHERE p.name = 77') LIKE '%Index Cond: (pid = p.id)%';

-- @check
SELECT plan_of('SELECT * FROM hc_parent_ulid p JOIN hc_child_uuid2 c ON c.pid = p.id WHERE p.name = 77') LIKE '%Index Cond: (pid = (p.id)::uuid)%';

-- @check
SELECT plan_of('SELECT * FROM hc_child_ulid c JOIN hc_parent_uuid2 p ON p.id = c.pid WHERE c.cid = 77') LIKE '%Index Cond: (id = (c.pid)::uuid)%';

-- @case uuid key to uuid children
-- @timed
\set i random(1, :N / 10)
SELECT c.cid FROM hc_parent_uuid p JOIN hc_child_uuid c ON c.pid = p.id WHERE p.name = :i;

-- @case ulid key to uuid children vs uuid key to uuid children
-- @timed
\set i random(1, :N / 10)
SELECT c.cid FROM hc_parent_ulid p JOIN hc_child_uuid2 c ON c.pid = p.id WHERE p.name = :i;

-- @case uuid child to uuid key
-- @timed
\set i random(1, :N / 2)
SELECT p.name FROM hc_child_uuid c JOIN hc_parent_uuid p ON p.id = c.pid WHERE c.cid = :i;

-- @case ulid child to uuid key vs uuid child to uuid key
-- @timed
\set i random(1, :N / 2)
SELECT p.name FROM hc_child_ulid c JOIN hc_parent_uuid2 p ON p.id = c.pid WHERE c.cid = :i;
