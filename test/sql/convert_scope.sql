-- What ulid_convert_column() locks and refuses, held against what ALTER
-- TABLE ... ALTER COLUMN ... TYPE ulid locks and refuses for the same
-- change: the tree converted (inheriting tables and partitions), the tables
-- at the other end of a foreign key on the column and the partitions that
-- the key reaches; not a table that inherits from one of those, which no
-- key reaches.  Side by side, the strongest lock each holds on each table
-- (pg_temp.table_locks(), rolled back).  Then the review's three cases of
-- a dry run that said less than the conversion did
-- (pg_temp.dry_run_check()).  What a refused conversion locks while it
-- refuses is in the isolation spec convert_scope.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
\i test/sql/include/convert_check.sql

CREATE ROLE regress_scope_alice;
CREATE ROLE regress_scope_bob;
CREATE ROLE regress_scope_carol;
GRANT CREATE ON SCHEMA public TO regress_scope_alice, regress_scope_bob;

--
-- The review's case: a table that inherits from the referenced table, and
-- one that inherits from the referencing table, each another role's.
--
SET ROLE regress_scope_bob;
CREATE TABLE sc_pb (code uuid PRIMARY KEY);
GRANT REFERENCES ON sc_pb TO regress_scope_alice;
CREATE TABLE sc_pb2 (code uuid PRIMARY KEY);
GRANT REFERENCES ON sc_pb2 TO regress_scope_alice;
RESET ROLE;
CREATE TABLE sc_pb_child () INHERITS (sc_pb);
ALTER TABLE sc_pb_child OWNER TO regress_scope_carol;
SET ROLE regress_scope_alice;
CREATE TABLE sc_m (code uuid REFERENCES sc_pb);
CREATE TABLE sc_m2 (code uuid REFERENCES sc_pb2);
RESET ROLE;
CREATE TABLE sc_m2_child () INHERITS (sc_m2);
ALTER TABLE sc_m2_child OWNER TO regress_scope_carol;

-- alice converts her referencing column: not bob's table's child.
SET ROLE regress_scope_alice;
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_m ALTER COLUMN code TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_m', 'code')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_m', 'code')
WHERE action = 'lock';
SELECT * FROM pg_temp.dry_run_check('sc_m', 'code');
RESET ROLE;
-- bob converts his referenced key: not the referencing table's child.
SET ROLE regress_scope_bob;
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_pb2 ALTER COLUMN code TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_pb2', 'code')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_pb2', 'code')
WHERE action = 'lock';
SELECT * FROM pg_temp.dry_run_check('sc_pb2', 'code');
-- bob's key with carol's inheriting table: ALTER TABLE would change
-- carol's table too, and refuses; so does the conversion.
SELECT * FROM pg_temp.table_locks($$ALTER TABLE sc_pb ALTER COLUMN code TYPE ulid$$);
SELECT * FROM pg_temp.table_locks($$SELECT ulid_convert_column('sc_pb', 'code')$$);
SELECT * FROM pg_temp.dry_run_check('sc_pb', 'code');
RESET ROLE;

--
-- Partitions and inheritance: the whole tree, as ALTER TABLE recurses.
--
CREATE TABLE sc_parts (id uuid NOT NULL, k int) PARTITION BY LIST (k);
CREATE TABLE sc_parts_1 PARTITION OF sc_parts FOR VALUES IN (1);
CREATE TABLE sc_parts_2 PARTITION OF sc_parts FOR VALUES IN (2) PARTITION BY LIST (k);
CREATE TABLE sc_parts_2a PARTITION OF sc_parts_2 FOR VALUES IN (2);
CREATE TABLE sc_inh (id uuid);
CREATE TABLE sc_inh_child () INHERITS (sc_inh);
CREATE TABLE sc_inh_grandchild () INHERITS (sc_inh_child);
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_parts ALTER COLUMN id TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_parts', 'id')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_inh ALTER COLUMN id TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_inh', 'id')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT * FROM pg_temp.dry_run_check('sc_parts', 'id');
SELECT * FROM pg_temp.dry_run_check('sc_inh', 'id');

--
-- Foreign keys both ways, partitioned at both ends: a key that references
-- a partitioned table reaches each partition (a constraint and triggers
-- each); a partitioned referencing table has a key on each partition.  A
-- table that inherits from a referencing table has no key.
--
CREATE TABLE sc_ref (id uuid, k int, PRIMARY KEY (id, k)) PARTITION BY LIST (k);
CREATE TABLE sc_ref_1 PARTITION OF sc_ref FOR VALUES IN (1);
CREATE TABLE sc_ref_2 PARTITION OF sc_ref FOR VALUES IN (2) PARTITION BY LIST (k);
CREATE TABLE sc_ref_2a PARTITION OF sc_ref_2 FOR VALUES IN (2);
CREATE TABLE sc_user (pid uuid, k int, FOREIGN KEY (pid, k) REFERENCES sc_ref) PARTITION BY LIST (k);
CREATE TABLE sc_user_1 PARTITION OF sc_user FOR VALUES IN (1);
CREATE TABLE sc_user_2 PARTITION OF sc_user FOR VALUES IN (2);
CREATE TABLE sc_plain_user (pid uuid, k int, FOREIGN KEY (pid, k) REFERENCES sc_ref);
CREATE TABLE sc_plain_user_child () INHERITS (sc_plain_user);
INSERT INTO sc_ref VALUES ('01563df3-6481-d676-4c61-efb99302bd5b', 1), ('019728c9-c000-7a3e-9b1c-5d2e8f0a4b6c', 2);
INSERT INTO sc_user VALUES ('01563df3-6481-d676-4c61-efb99302bd5b', 1), ('019728c9-c000-7a3e-9b1c-5d2e8f0a4b6c', 2);
INSERT INTO sc_plain_user VALUES ('01563df3-6481-d676-4c61-efb99302bd5b', 1);
-- Other tables reference the column.
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_ref ALTER COLUMN id TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_ref', 'id')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_ref', 'id')
WHERE action = 'lock';
SELECT * FROM pg_temp.dry_run_check('sc_ref', 'id');
-- The column references another table.
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_user ALTER COLUMN pid TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_user', 'pid')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_user', 'pid')
WHERE action = 'lock';
SELECT * FROM pg_temp.dry_run_check('sc_user', 'pid');
SELECT coalesce(a."table", c."table") AS "table", a.mode AS alter_table, c.mode AS conversion
FROM pg_temp.table_locks($$ALTER TABLE sc_plain_user ALTER COLUMN pid TYPE ulid$$) a
FULL JOIN pg_temp.table_locks($$SELECT ulid_convert_column('sc_plain_user', 'pid')$$) c ON c."table" = a."table"
ORDER BY 1;
SELECT * FROM pg_temp.dry_run_check('sc_plain_user', 'pid');

--
-- Refused: what ALTER TABLE refuses, the conversion refuses with its
-- words, and the dry run shows (a blocker, or the same error).
--
CREATE TABLE sc_text (code text);
CREATE TABLE sc_keyed (id uuid, k int) PARTITION BY HASH (id);
CREATE TABLE sc_keyed_0 PARTITION OF sc_keyed FOR VALUES WITH (MODULUS 1, REMAINDER 0);
CREATE TABLE sc_subkeyed (id uuid, k int) PARTITION BY LIST (k);
CREATE TABLE sc_subkeyed_1 PARTITION OF sc_subkeyed FOR VALUES IN (1) PARTITION BY RANGE ((id::text));
CREATE TYPE sc_pair AS (id uuid, n int);
CREATE TABLE sc_typed OF sc_pair;
CREATE TABLE sc_row (id uuid);
CREATE TABLE sc_row_user (r sc_row[]);
CREATE TABLE sc_other_parent (id uuid);
CREATE TABLE sc_two_parents (id uuid);
CREATE TABLE sc_two_parents_child () INHERITS (sc_two_parents, sc_other_parent);
CREATE TABLE sc_trig (id uuid, n int);
CREATE TRIGGER sc_trig_id BEFORE UPDATE OF id ON sc_trig
	FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger();
CREATE TABLE sc_pol (id uuid);
CREATE POLICY sc_pol_id ON sc_pol USING (id IS NOT NULL);
CREATE TABLE sc_gen (id uuid, t text GENERATED ALWAYS AS (id::text) STORED);
SELECT t AS "table", c AS "column",
	(SELECT "table" FROM pg_temp.table_locks(format('ALTER TABLE %I ALTER COLUMN %I TYPE ulid', t, c))) AS alter_table,
	(SELECT "table" FROM pg_temp.table_locks(format('SELECT ulid_convert_column(%L, %L)', t, c))) AS conversion
FROM (VALUES ('sc_text', 'code'), ('sc_keyed', 'id'), ('sc_subkeyed', 'id'), ('sc_typed', 'id'),
	('sc_row', 'id'), ('sc_two_parents', 'id'), ('sc_trig', 'id'), ('sc_pol', 'id'), ('sc_gen', 'id')) v(t, c)
ORDER BY 1;
SELECT t AS "table", (pg_temp.dry_run_check(t::regclass, c)).outcome
FROM (VALUES ('sc_text', 'code'), ('sc_keyed', 'id'), ('sc_subkeyed', 'id'), ('sc_typed', 'id'),
	('sc_row', 'id'), ('sc_two_parents', 'id'), ('sc_trig', 'id'), ('sc_pol', 'id'), ('sc_gen', 'id')) v(t, c)
ORDER BY 1;
-- The partition key in the dry run: a blocker, and what it would lock
-- once the key no longer uses the column.
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_keyed', 'id');

--
-- The repair of a column already ulid makes its BRIN bloom and
-- minmax-multi indexes again with ulid's classes: the dry run says so.
--
CREATE TABLE sc_rep (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text);
CREATE INDEX sc_rep_bloom ON sc_rep USING brin (id uuid_bloom_ops);
CREATE INDEX sc_rep_multi ON sc_rep USING brin (id uuid_minmax_multi_ops);
SET client_min_messages = error;
ALTER TABLE sc_rep ALTER COLUMN id TYPE ulid;
RESET client_min_messages;
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_rep', 'id');
SELECT * FROM pg_temp.dry_run_check('sc_rep', 'id');
-- Repaired, nothing is left to do.
SELECT relation, old_default, new_default FROM ulid_convert_column('sc_rep', 'id');
SELECT step, action, object, detail FROM ulid_convert_column_dry_run('sc_rep', 'id');
SELECT * FROM pg_temp.dry_run_check('sc_rep', 'id');

--
-- An index in a tablespace where the table's owner may no longer create:
-- ALTER TABLE makes it again there without asking (it checks no privilege
-- when it rebuilds an index), and so does the conversion.
--
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE regress_scope_space LOCATION '';
RESET allow_in_place_tablespaces;
GRANT CREATE ON TABLESPACE regress_scope_space TO regress_scope_alice;
SET ROLE regress_scope_alice;
CREATE TABLE sc_ts (id uuid PRIMARY KEY USING INDEX TABLESPACE regress_scope_space);
CREATE INDEX sc_ts_bloom ON sc_ts USING brin (id uuid_bloom_ops) TABLESPACE regress_scope_space;
RESET ROLE;
REVOKE CREATE ON TABLESPACE regress_scope_space FROM regress_scope_alice;
SET ROLE regress_scope_alice;
SELECT * FROM pg_temp.table_locks($$ALTER TABLE sc_ts ALTER COLUMN id TYPE ulid$$);
SELECT * FROM pg_temp.dry_run_check('sc_ts', 'id');
SELECT relation FROM ulid_convert_column('sc_ts', 'id');
RESET ROLE;
SELECT c.relname, t.spcname, o.opcname
FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace
JOIN pg_index i ON i.indexrelid = c.oid JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE c.relname LIKE 'sc\_ts\_%' ORDER BY 1;

DROP TABLE sc_ts;
DROP TABLESPACE regress_scope_space;
DROP TABLE sc_m, sc_m2, sc_pb, sc_pb2 CASCADE;
DROP TABLE sc_parts, sc_inh CASCADE;
DROP TABLE sc_user, sc_plain_user CASCADE;
DROP TABLE sc_ref;
DROP TABLE sc_text, sc_keyed, sc_subkeyed, sc_typed, sc_row_user, sc_row, sc_two_parents_child,
	sc_two_parents, sc_other_parent, sc_rep, sc_trig, sc_pol, sc_gen;
DROP TYPE sc_pair;
REVOKE CREATE ON SCHEMA public FROM regress_scope_alice, regress_scope_bob;
DROP ROLE regress_scope_alice, regress_scope_bob, regress_scope_carol;
