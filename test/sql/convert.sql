-- Converting a uuid column in place: ulid_convert_column() keeps every value
-- byte for byte, rebuilds the indexes with ulid's classes and replaces a
-- default that generates uuids with gen_ulid(); what it cannot do safely it
-- refuses.  The event trigger ulid_check_defaults warns when DDL leaves a
-- ulid column whose default is a uuid generator cast to ulid.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
CREATE EXTENSION IF NOT EXISTS "uuid-ossp";
RESET client_min_messages;
\i test/sql/include/plan_has.sql
-- Before each conversion, pg_temp.dry_run_check() holds its dry run against
-- what it then does (in a subtransaction rolled back): 'agrees', or what
-- one said and the other did not.
\i test/sql/include/convert_check.sql

--
-- The safe path
--

CREATE TABLE conv (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text);
CREATE INDEX conv_hash ON conv USING hash (id);
INSERT INTO conv (name) SELECT 'row ' || g FROM generate_series(1, 1000) g;
INSERT INTO conv VALUES ('00000000-0000-0000-0000-000000000000', 'smallest'),
	('ffffffff-ffff-ffff-ffff-ffffffffffff', 'largest'),
	('01563df3-6481-d676-4c61-efb99302bd5b', 'a ULID');
CREATE TABLE conv_before AS SELECT * FROM conv;
SELECT pg_relation_filenode('conv') AS filenode_before \gset

-- One row per table converted: its default before and after.
SELECT * FROM pg_temp.dry_run_check('conv', 'id');
SELECT * FROM ulid_convert_column('conv', 'id');
SELECT format_type(atttypid, atttypmod) AS type, attnotnull FROM pg_attribute
WHERE attrelid = 'conv'::regclass AND attname = 'id';
-- Not rewritten (the cast is binary-coercible), every value the same bytes.
SELECT pg_relation_filenode('conv') = :filenode_before AS table_not_rewritten;
SELECT (SELECT count(*) FROM conv_before) AS rows_before,
	count(*) FILTER (WHERE c.id::uuid = b.id AND c.name = b.name) AS same_bytes_same_row
FROM conv c FULL JOIN conv_before b ON c.name = b.name;
SELECT id, id::uuid AS as_uuid, name FROM conv WHERE name IN ('smallest', 'largest', 'a ULID') ORDER BY 1;
-- The indexes were rebuilt with ulid's classes, and are used.
SELECT c.relname, o.opcname FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE i.indrelid = 'conv'::regclass ORDER BY 1;
SET enable_seqscan = off;
SELECT pg_temp.plan_has($$SELECT name FROM conv WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV'$$, 'Index Scan using conv_');
SELECT name FROM conv WHERE id = '01ARYZ6S41TSV4RRFFQ69G5FAV';
SELECT pg_temp.plan_has($$SELECT name FROM conv WHERE id > '7ZZZZZZZZZZZZZZZZZZZZZZZZY'$$, 'conv_pkey');
SELECT name FROM conv WHERE id > '7ZZZZZZZZZZZZZZZZZZZZZZZZY';
SELECT pg_temp.plan_has('SELECT name FROM conv ORDER BY id LIMIT 1', 'Index Scan using conv_pkey');
SELECT name FROM conv ORDER BY id LIMIT 1;
RESET enable_seqscan;
-- New rows get ulids of the current time.
INSERT INTO conv (name) SELECT 'new ' || g FROM generate_series(1, 100) g;
SELECT count(*) AS new_rows,
	bool_and(ulid_time(id) BETWEEN now() - interval '1 minute' AND clock_timestamp()) AS current_time
FROM conv WHERE name LIKE 'new %';
-- Again: nothing left to do.
SELECT * FROM pg_temp.dry_run_check('conv', 'id');
SELECT * FROM ulid_convert_column('conv', 'id');

-- No default stays no default; a constant is converted with the column, and
-- gives the same bytes; so does a default that is not volatile.
CREATE TABLE conv_kinds (
	plain uuid,
	fixed uuid DEFAULT '01563df3-6481-d676-4c61-efb99302bd5b',
	derived uuid DEFAULT md5('ulid')::uuid,
	n int
);
SELECT * FROM pg_temp.dry_run_check('conv_kinds', 'plain');
SELECT * FROM ulid_convert_column('conv_kinds', 'plain');
SELECT * FROM pg_temp.dry_run_check('conv_kinds', 'fixed');
SELECT * FROM ulid_convert_column('conv_kinds', 'fixed');
SELECT * FROM pg_temp.dry_run_check('conv_kinds', 'derived');
SELECT * FROM ulid_convert_column('conv_kinds', 'derived');
INSERT INTO conv_kinds (n) VALUES (1) RETURNING plain, fixed, fixed::uuid, derived::uuid = md5('ulid')::uuid AS same_value;

-- Generators of uuid-ossp too.  A volatile function of one's own is not
-- guessed at: refused, nothing changes.
CREATE FUNCTION conv_new_uuid() RETURNS uuid LANGUAGE sql VOLATILE AS 'SELECT gen_random_uuid()';
CREATE TABLE conv_ossp (v1 uuid DEFAULT uuid_generate_v1(), v4 uuid DEFAULT uuid_generate_v4(),
	own uuid DEFAULT conv_new_uuid());
SELECT * FROM pg_temp.dry_run_check('conv_ossp', 'v1');
SELECT * FROM ulid_convert_column('conv_ossp', 'v1');
SELECT * FROM pg_temp.dry_run_check('conv_ossp', 'v4');
SELECT * FROM ulid_convert_column('conv_ossp', 'v4');
SELECT * FROM pg_temp.dry_run_check('conv_ossp', 'own');
SELECT * FROM ulid_convert_column('conv_ossp', 'own');
SELECT format_type(atttypid, atttypmod) AS own_still FROM pg_attribute
WHERE attrelid = 'conv_ossp'::regclass AND attname = 'own';

-- A uuid column that already defaults to a ulid generator (through the
-- implicit cast) keeps it: the conversion drops the cast.
CREATE TABLE conv_ulidgen (a uuid DEFAULT gen_ulid(), b uuid DEFAULT gen_ulid_v7(),
	c uuid DEFAULT gen_monotonic_ulid()::uuid);
SELECT * FROM pg_temp.dry_run_check('conv_ulidgen', 'a');
SELECT * FROM ulid_convert_column('conv_ulidgen', 'a');
SELECT * FROM pg_temp.dry_run_check('conv_ulidgen', 'b');
SELECT * FROM ulid_convert_column('conv_ulidgen', 'b');
SELECT * FROM pg_temp.dry_run_check('conv_ulidgen', 'c');
SELECT * FROM ulid_convert_column('conv_ulidgen', 'c');
INSERT INTO conv_ulidgen DEFAULT VALUES
RETURNING ulid_time(a) > now() - interval '1 minute' AS a_now, ulid_time(b) > now() - interval '1 minute' AS b_now,
	ulid_time(c) > now() - interval '1 minute' AS c_now;

-- A partitioned table: ALTER TABLE converts every partition with it, so each
-- partition's default is treated like the parent's.
CREATE TABLE conv_parts (id uuid NOT NULL DEFAULT gen_random_uuid(), k int) PARTITION BY LIST (k);
CREATE TABLE conv_parts_1 PARTITION OF conv_parts FOR VALUES IN (1);
CREATE TABLE conv_parts_2 PARTITION OF conv_parts (id DEFAULT '00000000-0000-0000-0000-000000000002')
	FOR VALUES IN (2);
CREATE TABLE conv_parts_3 PARTITION OF conv_parts FOR VALUES IN (3) PARTITION BY LIST (k);
CREATE TABLE conv_parts_3a PARTITION OF conv_parts_3 FOR VALUES IN (3);
INSERT INTO conv_parts (k) VALUES (1), (2), (3);
CREATE TABLE conv_parts_before AS SELECT * FROM conv_parts;
SELECT * FROM pg_temp.dry_run_check('conv_parts', 'id');
SELECT * FROM ulid_convert_column('conv_parts', 'id') ORDER BY relation::text;
SELECT count(*) AS same_bytes FROM conv_parts p JOIN conv_parts_before b ON p.id::uuid = b.id AND p.k = b.k;
INSERT INTO conv_parts (k) VALUES (1), (2), (3)
RETURNING tableoid::regclass, ulid_time(id) > now() - interval '1 minute' AS current_time;

-- Plain inheritance likewise.
CREATE TABLE conv_inh (id uuid DEFAULT gen_random_uuid());
CREATE TABLE conv_inh_child (extra int) INHERITS (conv_inh);
SELECT * FROM pg_temp.dry_run_check('conv_inh', 'id');
SELECT * FROM ulid_convert_column('conv_inh', 'id') ORDER BY relation::text;

-- Names are quoted, and gen_ulid() and ulid are qualified with the
-- extension's schema, wherever it was moved.
CREATE SCHEMA "Conv Schema";
CREATE TABLE "Conv Schema"."Odd ""Table""" ("The Id" uuid DEFAULT gen_random_uuid());
CREATE SCHEMA conv_ext;
ALTER EXTENSION ulid SET SCHEMA conv_ext;
SELECT * FROM conv_ext.ulid_convert_column('"Conv Schema"."Odd ""Table"""', 'The Id');
SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
WHERE attrelid = '"Conv Schema"."Odd ""Table"""'::regclass AND attname = 'The Id';
ALTER EXTENSION ulid SET SCHEMA public;
DROP SCHEMA conv_ext;

--
-- Every index kind on the column, before and after: each gets ulid's class
-- (B-tree, hash, BRIN minmax, GiST and GIN through their defaults; BRIN
-- minmax-multi and bloom, whose uuid classes are not the defaults, made
-- again with ulid's, options, predicate and comment kept), and each serves
-- "id = x" with x typed ulid and typed uuid, with the right row.
--
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE EXTENSION IF NOT EXISTS btree_gin;
RESET client_min_messages;
CREATE TABLE conv_ix (by_btree uuid, by_hash uuid, by_minmax uuid, by_multi uuid, by_bloom uuid,
	by_gist uuid, by_gin uuid, note text);
INSERT INTO conv_ix SELECT u, u, u, u, u, u, u, 'row ' || g
FROM (SELECT gen_ulid('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute')::uuid AS u, g
	  FROM generate_series(1, 2000) g) s;
CREATE INDEX conv_ix_btree ON conv_ix (by_btree);
CREATE INDEX conv_ix_hash ON conv_ix USING hash (by_hash);
CREATE INDEX conv_ix_minmax ON conv_ix USING brin (by_minmax) WITH (pages_per_range = 2);
CREATE INDEX conv_ix_multi ON conv_ix USING brin (by_multi uuid_minmax_multi_ops(values_per_range = 16))
	WITH (pages_per_range = 2);
CREATE INDEX conv_ix_bloom ON conv_ix USING brin (by_bloom uuid_bloom_ops(false_positive_rate = 0.01), note)
	WITH (pages_per_range = 2) WHERE note <> 'none';
COMMENT ON INDEX conv_ix_bloom IS 'bloom over the key and the note';
CREATE INDEX conv_ix_gist ON conv_ix USING gist (by_gist);
CREATE INDEX conv_ix_gin ON conv_ix USING gin (by_gin);
ANALYZE conv_ix;
-- pg_temp.conv_ix_classes(): each index's definition.
CREATE FUNCTION pg_temp.conv_ix_classes() RETURNS TABLE (index name, definition text)
LANGUAGE sql AS $$
	SELECT c.relname, regexp_replace(pg_get_indexdef(c.oid), '^.* USING ', '')
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
	WHERE i.indrelid = 'conv_ix'::regclass ORDER BY 1
$$;
-- pg_temp.conv_ix_serves(column, index): whether "column = x" (and the
-- bloom index's predicate) uses the index and finds the one row, x typed
-- ulid and typed uuid.
CREATE FUNCTION pg_temp.conv_ix_serves(col text, index text, OUT by_ulid boolean, OUT by_uuid boolean)
LANGUAGE plpgsql AS $$
DECLARE
	k text;
	q text;
	n bigint;
BEGIN
	SET LOCAL enable_seqscan = off;
	SELECT by_btree::text INTO k FROM conv_ix WHERE note = 'row 1234';
	q := format('SELECT note FROM conv_ix WHERE %I = %L::ulid AND note <> ''none''', col, k);
	EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO n;
	by_ulid := pg_temp.plan_has(q, index) AND n = 1;
	q := format('SELECT note FROM conv_ix WHERE %I = %L::ulid::uuid AND note <> ''none''', col, k);
	EXECUTE 'SELECT count(*) FROM (' || q || ') s' INTO n;
	by_uuid := pg_temp.plan_has(q, index) AND n = 1;
END $$;
SELECT * FROM pg_temp.conv_ix_classes();
SELECT column_name, (pg_temp.conv_ix_serves(column_name, 'conv_ix_' || substr(column_name, 4))).*
FROM unnest(ARRAY['by_btree', 'by_hash', 'by_minmax', 'by_multi', 'by_bloom', 'by_gist', 'by_gin']) column_name;
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_btree');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_btree');
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_hash');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_hash');
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_minmax');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_minmax');
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_multi');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_multi');
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_bloom');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_bloom');
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_gist');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_gist');
SELECT * FROM pg_temp.dry_run_check('conv_ix', 'by_gin');
SELECT relation FROM ulid_convert_column('conv_ix', 'by_gin');
ANALYZE conv_ix;
SELECT * FROM pg_temp.conv_ix_classes();
SELECT obj_description('conv_ix_bloom'::regclass, 'pg_class') AS comment_kept;
SELECT column_name, (pg_temp.conv_ix_serves(column_name, 'conv_ix_' || substr(column_name, 4))).*
FROM unnest(ARRAY['by_btree', 'by_hash', 'by_minmax', 'by_multi', 'by_bloom', 'by_gist', 'by_gin']) column_name;
DROP TABLE conv_ix;
DROP EXTENSION btree_gist;
DROP EXTENSION btree_gin;

-- A partitioned table's BRIN bloom index and its partitions' indexes: made
-- again with the same names, attached to the parent's again, valid.
CREATE TABLE conv_px (id uuid, at date) PARTITION BY RANGE (at);
CREATE TABLE conv_px_2024 PARTITION OF conv_px FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE conv_px_2025 PARTITION OF conv_px FOR VALUES FROM ('2025-01-01') TO ('2026-01-01')
	PARTITION BY RANGE (at);
CREATE TABLE conv_px_2025h1 PARTITION OF conv_px_2025 FOR VALUES FROM ('2025-01-01') TO ('2025-07-01');
CREATE TABLE conv_px_2025h2 PARTITION OF conv_px_2025 FOR VALUES FROM ('2025-07-01') TO ('2026-01-01');
CREATE INDEX conv_px_bloom ON conv_px USING brin (id uuid_bloom_ops);
INSERT INTO conv_px SELECT gen_ulid('2024-06-01'::timestamptz + g * interval '1 hour')::uuid,
	'2024-06-01'::date + g / 24 FROM generate_series(1, 8000) g;
-- pg_temp.conv_px_indexes(): every index of the tree, its parent index,
-- class and validity.
CREATE FUNCTION pg_temp.conv_px_indexes()
RETURNS TABLE (index regclass, on_table regclass, parent regclass, class name, valid boolean)
LANGUAGE sql AS $$
	SELECT i.indexrelid::regclass, i.indrelid::regclass, h.inhparent::regclass, o.opcname, i.indisvalid
	FROM pg_index i JOIN pg_opclass o ON o.oid = i.indclass[0]
	LEFT JOIN pg_inherits h ON h.inhrelid = i.indexrelid
	WHERE i.indrelid IN (SELECT relid FROM pg_partition_tree('conv_px'))
	ORDER BY i.indexrelid::regclass::text COLLATE "C"
$$;
SELECT * FROM pg_temp.conv_px_indexes();
SELECT * FROM pg_temp.dry_run_check('conv_px', 'id');
SELECT * FROM ulid_convert_column('conv_px', 'id');
SELECT * FROM pg_temp.conv_px_indexes();
SET enable_seqscan = off;
SELECT pg_temp.plan_has($$SELECT at FROM conv_px WHERE id = '01J2N7BXG0AAAAAAAAAAAAAAAA'$$, 'conv_px_2025h1_id_idx')
	AS leaf_index_used,
	(SELECT count(*) FROM conv_px WHERE id = (SELECT id FROM conv_px_2025h1 ORDER BY id LIMIT 1)) AS rows_found;
RESET enable_seqscan;
DROP TABLE conv_px;

-- After a plain ALTER COLUMN TYPE, which keeps the uuid classes, the
-- conversion's repair (the column already ulid) gives the indexes ulid's.
CREATE TABLE conv_rep (id uuid, note text);
INSERT INTO conv_rep SELECT gen_ulid('2025-01-01 00:00+00'::timestamptz + g * interval '1 minute')::uuid, 'row ' || g
FROM generate_series(1, 2000) g;
CREATE INDEX conv_rep_bloom ON conv_rep USING brin (id uuid_bloom_ops) WITH (pages_per_range = 2);
ALTER TABLE conv_rep ALTER COLUMN id TYPE ulid;
SELECT regexp_replace(pg_get_indexdef('conv_rep_bloom'::regclass), '^.* USING ', '') AS after_alter;
SELECT * FROM pg_temp.dry_run_check('conv_rep', 'id');
SELECT * FROM ulid_convert_column('conv_rep', 'id');
SELECT regexp_replace(pg_get_indexdef('conv_rep_bloom'::regclass), '^.* USING ', '') AS after_repair;
SET enable_seqscan = off;
SELECT pg_temp.plan_has($$SELECT note FROM conv_rep WHERE id = '01JGFJJZ1ZW4FWB2TBCM8FPH2X'$$, 'conv_rep_bloom') AS used;
RESET enable_seqscan;
DROP TABLE conv_rep;

-- Two columns converted in one statement: the second conversion sees the
-- index the first made (and makes it again with both columns' ulid
-- classes), not the one the first dropped.
CREATE TABLE conv_two (a uuid, b uuid);
INSERT INTO conv_two SELECT u, u FROM (SELECT gen_ulid()::uuid AS u FROM generate_series(1, 100)) s;
CREATE INDEX conv_two_bloom ON conv_two USING brin (a uuid_bloom_ops, b uuid_bloom_ops);
SELECT * FROM pg_temp.dry_run_check('conv_two', 'a');
SELECT c.relation, c.old_default FROM unnest('{a,b}'::name[]) col, ulid_convert_column('conv_two', col) c;
SELECT regexp_replace(pg_get_indexdef('conv_two_bloom'::regclass), '^.* USING ', '') AS definition;
DROP TABLE conv_two;

-- Tablespaces: an index made again stays where it was, in the database's
-- default or in its own, whatever the session's default_tablespace says.
SET allow_in_place_tablespaces = on;
CREATE TABLESPACE regress_conv_space LOCATION '';
RESET allow_in_place_tablespaces;
CREATE TABLE conv_ts (id uuid);
CREATE INDEX conv_ts_default ON conv_ts USING brin (id uuid_bloom_ops);
CREATE INDEX conv_ts_own ON conv_ts USING brin (id uuid_minmax_multi_ops) TABLESPACE regress_conv_space;
SET default_tablespace = regress_conv_space;
SELECT * FROM pg_temp.dry_run_check('conv_ts', 'id');
SELECT relation FROM ulid_convert_column('conv_ts', 'id');
RESET default_tablespace;
SELECT c.relname, coalesce(t.spcname, '(the database''s default)') AS tablespace, o.opcname
FROM pg_class c LEFT JOIN pg_tablespace t ON t.oid = c.reltablespace
JOIN pg_index i ON i.indexrelid = c.oid JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE c.relname LIKE 'conv_ts_%' ORDER BY 1;
DROP TABLE conv_ts;
DROP TABLESPACE regress_conv_space;

--
-- The unsafe path warns: a ulid column whose default is a uuid generator
--

CREATE TABLE conv_plain (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text);
ALTER TABLE conv_plain ALTER COLUMN id TYPE ulid;
-- Other DDL on the table does not repeat it.
ALTER TABLE conv_plain ADD COLUMN n int, ALTER COLUMN note SET DEFAULT 'x';
-- ulid_convert_column() repairs it.
SELECT * FROM pg_temp.dry_run_check('conv_plain', 'id');
SELECT * FROM ulid_convert_column('conv_plain', 'id');

CREATE TABLE conv_warn_create (id ulid DEFAULT gen_random_uuid());
CREATE TABLE conv_warn_cast (id ulid DEFAULT gen_random_uuid()::ulid);
CREATE TABLE conv_warn_ossp (id ulid DEFAULT uuid_generate_v4());
CREATE TABLE conv_warn_other (id ulid DEFAULT md5(random()::text)::uuid);
CREATE TABLE conv_warn_alter (id ulid, n int);
ALTER TABLE conv_warn_alter ALTER COLUMN id SET DEFAULT gen_random_uuid();
ALTER TABLE conv_warn_alter ADD COLUMN other ulid DEFAULT gen_random_uuid();
CREATE TABLE conv_warn_like (LIKE conv_warn_create INCLUDING DEFAULTS);
-- A table made inside CREATE SCHEMA, and a column of a domain over ulid.
CREATE SCHEMA conv_warn_schema CREATE TABLE embedded (id ulid DEFAULT gen_random_uuid());
CREATE DOMAIN conv_ulid_domain AS ulid CHECK (VALUE IS NOT NULL);
CREATE TABLE conv_warn_domain (id conv_ulid_domain DEFAULT gen_random_uuid());
CREATE TABLE conv_quiet_domain (id conv_ulid_domain DEFAULT gen_ulid());
DROP SCHEMA conv_warn_schema CASCADE;
DROP TABLE conv_warn_domain, conv_quiet_domain;
DROP DOMAIN conv_ulid_domain;
-- A partition inherits its parent's default: the parent's warning is the
-- default's (its hint converts the partitions too), and the partition gets
-- none of its own; nor does a table that INHERITS it.
CREATE TABLE conv_warn_parts (id ulid DEFAULT gen_random_uuid(), k int) PARTITION BY LIST (k);
CREATE TABLE conv_warn_parts_1 PARTITION OF conv_warn_parts FOR VALUES IN (1);
CREATE TABLE conv_warn_child (x int) INHERITS (conv_warn_create);
-- One that declares the column itself, with its own default, is warned about.
CREATE TABLE conv_warn_own (id ulid DEFAULT uuid_generate_v4()) INHERITS (conv_warn_create);
DROP TABLE conv_warn_child, conv_warn_own;
-- The hint's call works on either: the partition alone, or the parent with
-- its partitions.
SELECT * FROM pg_temp.dry_run_check('conv_warn_parts_1', 'id');
SELECT * FROM ulid_convert_column('conv_warn_parts_1', 'id');
SELECT * FROM pg_temp.dry_run_check('conv_warn_parts', 'id');
SELECT * FROM ulid_convert_column('conv_warn_parts', 'id');

-- No warning for a proper default, a constant, or no default.
CREATE TABLE conv_quiet (
	a ulid DEFAULT gen_ulid(),
	b ulid DEFAULT gen_monotonic_ulid(),
	c ulid DEFAULT '01563df3-6481-d676-4c61-efb99302bd5b'::uuid,
	d ulid DEFAULT '01ARYZ6S41TSV4RRFFQ69G5FAV',
	e ulid DEFAULT gen_ulid(now()),
	f ulid,
	g uuid DEFAULT gen_random_uuid()
);
ALTER TABLE conv_quiet ALTER COLUMN f SET DEFAULT gen_ulid(), ADD COLUMN h ulid DEFAULT gen_ulid();
-- Nor where event triggers do not fire (a replica applying changes).
SET session_replication_role = replica;
CREATE TABLE conv_replica (id ulid DEFAULT gen_random_uuid());
RESET session_replication_role;

--
-- Refusals: the SQLSTATE, the message and what to do.  Nothing changes.
--

CREATE FUNCTION pg_temp.refusal(query text, OUT state text, OUT message text,
	OUT detail text, OUT hint text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	state := 'none';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT,
		detail = PG_EXCEPTION_DETAIL, hint = PG_EXCEPTION_HINT;
END $$;

CREATE DOMAIN conv_uuid_domain AS uuid CHECK (VALUE <> '00000000-0000-0000-0000-000000000000');
CREATE TABLE conv_refused (
	id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
	t text,
	d conv_uuid_domain,
	a uuid[],
	g uuid GENERATED ALWAYS AS (md5(t)::uuid) STORED,
	odd uuid DEFAULT CASE WHEN random() < 0.5 THEN gen_random_uuid() ELSE uuid_generate_v4() END,
	used uuid DEFAULT gen_random_uuid()
);
CREATE VIEW conv_refused_view AS SELECT id, used FROM conv_refused;
CREATE MATERIALIZED VIEW conv_refused_matview AS SELECT id FROM conv_refused;
CREATE FOREIGN DATA WRAPPER conv_fdw;
CREATE SERVER conv_server FOREIGN DATA WRAPPER conv_fdw;
CREATE FOREIGN TABLE conv_refused_foreign (id uuid) SERVER conv_server;
CREATE TABLE conv_keyed (id uuid, k int) PARTITION BY HASH (id);
CREATE ROLE regress_conv_other;

\x on
-- Not uuid: another type, a domain over uuid, an array.
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 't')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'd')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'a')$$);
-- No such column, a system column, a generated column.
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'nope')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'ctid')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'g')$$);
-- A volatile default that is no generator it knows: not guessed at.
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'odd')$$);
-- Not a table.
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused_view', 'id')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused_matview', 'id')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused_pkey', 'id')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused_foreign', 'id')$$);
-- A partition, an inheriting table: the parent converts them.
CREATE TABLE conv_refused_parts (id uuid, k int) PARTITION BY LIST (k);
CREATE TABLE conv_refused_parts_1 PARTITION OF conv_refused_parts FOR VALUES IN (1) PARTITION BY LIST (k);
CREATE TABLE conv_refused_parts_1a PARTITION OF conv_refused_parts_1 FOR VALUES IN (1);
CREATE TABLE conv_refused_inh (id uuid);
CREATE TABLE conv_refused_inh_child (extra int) INHERITS (conv_refused_inh);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused_parts_1a', 'id')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused_inh_child', 'id')$$);
-- Not the owner: ALTER TABLE's own error.
SET ROLE regress_conv_other;
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'id')$$);
RESET ROLE;
-- What ALTER TABLE itself refuses comes through: a column a view uses, a
-- partition key.
SELECT state, message FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_refused', 'used')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('conv_keyed', 'id')$$);
\x off
-- The dry run refuses each the same way, or shows a blocker.
SELECT t::regclass AS "table", c AS "column", (pg_temp.dry_run_check(t::regclass, c)).outcome
FROM (VALUES ('conv_refused', 't'), ('conv_refused', 'd'), ('conv_refused', 'a'),
	('conv_refused', 'nope'), ('conv_refused', 'ctid'), ('conv_refused', 'g'), ('conv_refused', 'odd'),
	('conv_refused_view', 'id'), ('conv_refused_matview', 'id'), ('conv_refused_pkey', 'id'),
	('conv_refused_foreign', 'id'), ('conv_refused_parts_1a', 'id'), ('conv_refused_inh_child', 'id'),
	('conv_refused', 'used'), ('conv_keyed', 'id')) v(t, c)
ORDER BY t, c;
SET ROLE regress_conv_other;
SELECT * FROM pg_temp.dry_run_check('conv_refused', 'id');
RESET ROLE;
-- Nothing changed, not even the default dropped before the refused ALTER.
SELECT attname, format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid)
FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
WHERE attrelid = 'conv_refused'::regclass AND attnum > 0 ORDER BY attnum;
-- STRICT.
SELECT count(*) FROM ulid_convert_column(NULL, 'id');

--
-- Foreign keys between a ulid and a uuid column hold through the conversion
-- of either side: the cross-type operators of ulid's operator families
-- implement them.
--

CREATE TABLE conv_pk (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE conv_fk (id int PRIMARY KEY, pk uuid REFERENCES conv_pk);
INSERT INTO conv_pk SELECT FROM generate_series(1, 10);
INSERT INTO conv_fk SELECT row_number() OVER (), id FROM conv_pk;
-- The referenced key first: uuid references ulid.
SELECT * FROM pg_temp.dry_run_check('conv_pk', 'id');
SELECT * FROM ulid_convert_column('conv_pk', 'id');
SELECT state, message FROM pg_temp.refusal($$INSERT INTO conv_fk VALUES (100, gen_random_uuid())$$);
SELECT count(*) AS rows_referencing FROM conv_fk f JOIN conv_pk p ON p.id = f.pk;
-- Then the referencing column: ulid references ulid.
SELECT * FROM pg_temp.dry_run_check('conv_fk', 'pk');
SELECT * FROM ulid_convert_column('conv_fk', 'pk');
SELECT state, message FROM pg_temp.refusal($$INSERT INTO conv_fk VALUES (100, gen_ulid())$$);
-- The other way round: a ulid column referencing a uuid key.
CREATE TABLE conv_pk2 (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE conv_fk2 (id int PRIMARY KEY, pk uuid REFERENCES conv_pk2);
INSERT INTO conv_pk2 SELECT FROM generate_series(1, 10);
INSERT INTO conv_fk2 SELECT row_number() OVER (), id FROM conv_pk2;
SELECT * FROM pg_temp.dry_run_check('conv_fk2', 'pk');
SELECT * FROM ulid_convert_column('conv_fk2', 'pk');
SELECT state, message FROM pg_temp.refusal($$INSERT INTO conv_fk2 VALUES (100, gen_ulid())$$);
SELECT count(*) AS rows_referencing FROM conv_fk2 f JOIN conv_pk2 p ON p.id = f.pk;


--
-- The dry run: what a conversion would lock, refuse, convert, rebuild and
-- check again, and the publications and functions to look at, in its
-- order, with nothing changed.  The locks: the referencing tables (parents
-- before their partitions), the table, then what it references.
--

CREATE TABLE cv_parent (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text,
	CHECK (id <> '00000000-0000-0000-0000-000000000000'));
CREATE INDEX cv_parent_brin ON cv_parent USING brin (id uuid_minmax_multi_ops);
CREATE INDEX cv_parent_named ON cv_parent (name) WHERE id IS NOT NULL;
CREATE STATISTICS cv_parent_stats ON id, name FROM cv_parent;
CREATE TABLE cv_child (cid int PRIMARY KEY, pid uuid REFERENCES cv_parent);
CREATE TABLE cv_child_nv (pid uuid);
ALTER TABLE cv_child_nv ADD FOREIGN KEY (pid) REFERENCES cv_parent NOT VALID;
CREATE TABLE cv_pchild (k int, pid uuid REFERENCES cv_parent) PARTITION BY RANGE (k);
CREATE TABLE cv_pchild_1 PARTITION OF cv_pchild FOR VALUES FROM (0) TO (10);
CREATE TABLE cv_other (id uuid PRIMARY KEY);
-- Foreign keys on other columns lock nothing.
CREATE TABLE cv_grandchild (cid int REFERENCES cv_child, o uuid REFERENCES cv_other);
CREATE VIEW cv_view AS SELECT id FROM cv_parent;
CREATE FUNCTION cv_atomic() RETURNS bigint LANGUAGE sql BEGIN ATOMIC SELECT count(id) FROM cv_parent; END;
CREATE FUNCTION cv_name_of(uuid) RETURNS text LANGUAGE plpgsql
	AS $$ BEGIN RETURN (SELECT name FROM "CV_PARENT" WHERE id = $1); END $$;
CREATE FUNCTION cv_count() RETURNS bigint LANGUAGE plpgsql
	AS $$ BEGIN RETURN (SELECT count(*) FROM public.cv_parent); END $$;
CREATE FUNCTION cv_not_it() RETURNS bigint LANGUAGE plpgsql
	AS $$ BEGIN RETURN (SELECT count(*) FROM cv_parents); END $$;
SET client_min_messages = error;	-- wal_level is not logical here; no matter
CREATE PUBLICATION cv_pub_all FOR TABLE cv_parent;
CREATE PUBLICATION cv_pub_cols FOR TABLE cv_parent (id, name);
CREATE PUBLICATION cv_pub_filter FOR TABLE cv_parent WHERE (name <> 'x');
CREATE PUBLICATION cv_pub_id_filter FOR TABLE cv_child WHERE (pid IS NOT NULL);
RESET client_min_messages;
INSERT INTO cv_parent (id, name) VALUES ('01563df3-6481-d676-4c61-efb99302bd5b', 'one');
INSERT INTO cv_child VALUES (1, '01563df3-6481-d676-4c61-efb99302bd5b');

BEGIN;
SELECT * FROM ulid_convert_column_dry_run('cv_parent', 'id');
-- Only the lock a SELECT takes, on the table alone.
SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
WHERE l.pid = pg_backend_pid() AND c.relname LIKE 'cv\_%' ORDER BY 1, 2;
COMMIT;
-- The referencing column: the referenced table is locked after it.
SELECT * FROM ulid_convert_column_dry_run('cv_child', 'pid');
SELECT * FROM ulid_convert_column_dry_run('cv_child_nv', 'pid');
-- Nothing changed.
SELECT pg_typeof(id) AS id, pg_get_expr(adbin, adrelid) AS "default"
FROM cv_parent, pg_attrdef WHERE adrelid = 'cv_parent'::regclass;
-- The same refusals as the conversion, before any lock is taken.
SELECT state, message FROM pg_temp.refusal($$SELECT ulid_convert_column_dry_run('cv_parent', 'name')$$);
SET ROLE regress_conv_other;
SELECT state, message FROM pg_temp.refusal($$SELECT ulid_convert_column_dry_run('cv_parent', 'id')$$);
RESET ROLE;

--
-- Publications.  A column in a column list or row filter is refused before
-- anything changes, with the statements that convert it; a published table
-- warns that subscribers convert first.
--

SELECT * FROM pg_temp.dry_run_check('cv_parent', 'id');
DROP VIEW cv_view;
DROP FUNCTION cv_atomic();
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('cv_parent', 'id')$$);
SELECT * FROM pg_temp.refusal($$SELECT ulid_convert_column('cv_child', 'pid')$$);
-- The hint's route, in one transaction: the column list comes back as it was.
BEGIN;
ALTER PUBLICATION cv_pub_cols DROP TABLE cv_parent;
SELECT * FROM pg_temp.dry_run_check('cv_parent', 'id');
SELECT * FROM ulid_convert_column('cv_parent', 'id');
ALTER PUBLICATION cv_pub_cols ADD TABLE cv_parent (id, name);
COMMIT;
SELECT pubname, attnames, rowfilter FROM pg_publication_tables
WHERE tablename = 'cv_parent' ORDER BY 1;
SELECT id, id::uuid, pg_typeof(id) FROM cv_parent;
-- The referencing tables are converted, with their foreign keys.  A row
-- filter can name only columns of built-in types: the filter on cv_child's
-- column must go, or be written without it.
SELECT * FROM pg_temp.dry_run_check('cv_pchild', 'pid');
SELECT * FROM ulid_convert_column('cv_pchild', 'pid');
BEGIN;
ALTER PUBLICATION cv_pub_id_filter DROP TABLE cv_child;
SELECT * FROM pg_temp.dry_run_check('cv_child', 'pid');
SELECT * FROM ulid_convert_column('cv_child', 'pid');
SAVEPOINT filter;
ALTER PUBLICATION cv_pub_id_filter ADD TABLE cv_child WHERE (pid IS NOT NULL);
ROLLBACK TO filter;
ALTER PUBLICATION cv_pub_id_filter ADD TABLE cv_child WHERE (cid > 0);
COMMIT;
SELECT pubname, rowfilter FROM pg_publication_tables WHERE tablename = 'cv_child';
-- A NOT VALID foreign key stays NOT VALID: it was not checked, nor now.
SELECT * FROM pg_temp.dry_run_check('cv_child_nv', 'pid');
SELECT * FROM ulid_convert_column('cv_child_nv', 'pid');
SELECT conrelid::regclass, conname, convalidated FROM pg_constraint
WHERE contype = 'f' AND conrelid::regclass::text LIKE 'cv\_%' ORDER BY 1, 2;
-- A column already ulid: a dry run of its repair locks only its tables.
SELECT * FROM ulid_convert_column_dry_run('cv_parent', 'id');
DROP PUBLICATION cv_pub_all, cv_pub_cols, cv_pub_filter, cv_pub_id_filter;
DROP FUNCTION cv_name_of(uuid), cv_count(), cv_not_it();
DROP TABLE cv_grandchild, cv_other, cv_pchild, cv_child, cv_child_nv, cv_parent;

DROP ROLE regress_conv_other;
DROP TABLE conv, conv_before, conv_kinds, conv_ossp, conv_ulidgen, conv_parts, conv_parts_before, conv_inh CASCADE;
DROP TABLE conv_plain, conv_warn_create, conv_warn_cast, conv_warn_ossp, conv_warn_other,
	conv_warn_alter, conv_warn_like, conv_warn_parts, conv_quiet, conv_replica;
DROP TABLE conv_refused CASCADE;
DROP TABLE conv_refused_parts, conv_refused_inh CASCADE;
DROP TABLE conv_keyed, conv_fk, conv_pk, conv_fk2, conv_pk2;
DROP FOREIGN TABLE conv_refused_foreign;
DROP SERVER conv_server;
DROP FOREIGN DATA WRAPPER conv_fdw;
DROP DOMAIN conv_uuid_domain;
DROP FUNCTION conv_new_uuid();
DROP SCHEMA "Conv Schema" CASCADE;
DROP EXTENSION "uuid-ossp";
