-- ALTER EXTENSION ulid UPDATE from 1.0 rewrites nothing and keeps every
-- stored value and index working, and leaves the same catalog as a fresh
-- install of the default version: every member object, with every property
-- and comment.  The comparison is shown to catch deliberate differences.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS ulid CASCADE;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;
\i test/sql/include/plan_has.sql
-- pg_temp.count_of(query): the number of rows a query returns.
CREATE FUNCTION pg_temp.count_of(query text) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
BEGIN
	EXECUTE 'SELECT count(*) FROM (' || query || ') s' INTO n;
	RETURN n;
END $$;

-- ulid_catalog(): every member object of the extension, one row per
-- property, with every column of its catalog row (OIDs turned into names,
-- since a fresh install gets new ones), its comment and, for an operator
-- family, each member operator and support function.  An object of a
-- catalog described nowhere here gives a row whose value is its OID, which
-- differs between two installations: it cannot go unnoticed.
CREATE FUNCTION ulid_catalog() RETURNS TABLE (object text, property text, value text)
LANGUAGE sql AS $$
	WITH ext AS (SELECT * FROM pg_extension WHERE extname = 'ulid'),
	member AS (
		SELECT d.classid, d.objid, pg_describe_object(d.classid, d.objid, 0) AS object
		FROM pg_depend d, ext
		WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
	)
	-- The extension itself.
	SELECT 'extension ulid', p.key, p.value
	FROM ext, jsonb_each_text(to_jsonb(ext) - '{oid,extowner,extnamespace,extconfig}'::text[]
		|| jsonb_build_object('extowner', ext.extowner::regrole, 'extnamespace', ext.extnamespace::regnamespace,
							  'extconfig', ext.extconfig::regclass[])) p
	UNION ALL
	-- Functions, aggregates and procedures: every column of pg_proc.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_proc f ON m.classid = 'pg_proc'::regclass AND f.oid = m.objid,
	jsonb_each_text(to_jsonb(f)
		- '{oid,pronamespace,proowner,prolang,provariadic,prorettype,proargtypes,proallargtypes,protrftypes,proargdefaults,prosqlbody}'::text[]
		|| jsonb_build_object(
			'pronamespace', f.pronamespace::regnamespace, 'proowner', f.proowner::regrole,
			'prolang', (SELECT lanname FROM pg_language WHERE oid = f.prolang),
			'provariadic', f.provariadic::regtype, 'prorettype', f.prorettype::regtype,
			'proargtypes', f.proargtypes::regtype[], 'proallargtypes', f.proallargtypes::regtype[],
			'protrftypes', f.protrftypes::regtype[],
			'proargdefaults', CASE WHEN f.proargdefaults IS NOT NULL THEN pg_get_function_arguments(f.oid) END,
			'prosqlbody', pg_get_function_sqlbody(f.oid))) p
	UNION ALL
	-- Aggregates, also every column of pg_aggregate.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_aggregate a ON m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid,
	jsonb_each_text(to_jsonb(a) - '{aggsortop,aggtranstype,aggmtranstype}'::text[]
		|| jsonb_build_object('aggsortop', a.aggsortop::regoperator, 'aggtranstype', a.aggtranstype::regtype,
							  'aggmtranstype', a.aggmtranstype::regtype)) p
	UNION ALL
	-- Types.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid,
	jsonb_each_text(to_jsonb(t)
		- '{oid,typnamespace,typowner,typrelid,typelem,typarray,typbasetype,typcollation,typdefaultbin}'::text[]
		|| jsonb_build_object(
			'typnamespace', t.typnamespace::regnamespace, 'typowner', t.typowner::regrole,
			'typrelid', t.typrelid::regclass, 'typelem', t.typelem::regtype, 'typarray', t.typarray::regtype,
			'typbasetype', t.typbasetype::regtype, 'typcollation', t.typcollation::regcollation)) p
	UNION ALL
	-- Range types, also every column of pg_range.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_range r ON m.classid = 'pg_type'::regclass AND r.rngtypid = m.objid,
	jsonb_each_text(to_jsonb(r) - '{rngtypid,rngsubtype,rngmultitypid,rngcollation,rngsubopc,rngcanonical,rngsubdiff}'::text[]
		|| jsonb_build_object(
			'rngsubtype', r.rngsubtype::regtype, 'rngmultitypid', r.rngmultitypid::regtype,
			'rngcollation', nullif(r.rngcollation, 0)::regcollation,
			'rngsubopc', pg_describe_object('pg_opclass'::regclass, r.rngsubopc, 0),
			'rngcanonical', r.rngcanonical::regprocedure, 'rngsubdiff', r.rngsubdiff::regprocedure)) p
	UNION ALL
	-- Operators.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid,
	jsonb_each_text(to_jsonb(o)
		- '{oid,oprnamespace,oprowner,oprleft,oprright,oprresult,oprcom,oprnegate}'::text[]
		|| jsonb_build_object(
			'oprnamespace', o.oprnamespace::regnamespace, 'oprowner', o.oprowner::regrole,
			'oprleft', o.oprleft::regtype, 'oprright', o.oprright::regtype, 'oprresult', o.oprresult::regtype,
			'oprcom', o.oprcom::regoperator, 'oprnegate', o.oprnegate::regoperator)) p
	UNION ALL
	-- Operator classes.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid,
	jsonb_each_text(to_jsonb(c)
		- '{oid,opcmethod,opcnamespace,opcowner,opcfamily,opcintype,opckeytype}'::text[]
		|| jsonb_build_object(
			'opcmethod', (SELECT amname FROM pg_am WHERE oid = c.opcmethod),
			'opcnamespace', c.opcnamespace::regnamespace, 'opcowner', c.opcowner::regrole,
			'opcfamily', pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0),
			'opcintype', c.opcintype::regtype, 'opckeytype', c.opckeytype::regtype)) p
	UNION ALL
	-- Operator families.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_opfamily f ON m.classid = 'pg_opfamily'::regclass AND f.oid = m.objid,
	jsonb_each_text(to_jsonb(f) - '{oid,opfmethod,opfnamespace,opfowner}'::text[]
		|| jsonb_build_object(
			'opfmethod', (SELECT amname FROM pg_am WHERE oid = f.opfmethod),
			'opfnamespace', f.opfnamespace::regnamespace, 'opfowner', f.opfowner::regrole)) p
	UNION ALL
	-- Each operator of a family: by strategy and types; its purpose (search
	-- or ordering), and the operator class it belongs to (or none: a loose
	-- member of the family, added by ALTER OPERATOR FAMILY).
	SELECT m.object,
		format('operator %s(%s,%s)', o.amopstrategy, o.amoplefttype::regtype, o.amoprighttype::regtype),
		concat_ws(' ', o.amopopr::regoperator, 'purpose ' || o.amoppurpose::text,
				  'sorted by ' || pg_describe_object('pg_opfamily'::regclass, nullif(o.amopsortfamily, 0), 0),
				  (SELECT 'of ' || pg_describe_object(d.refclassid, d.refobjid, 0) FROM pg_depend d
				   WHERE d.classid = 'pg_amop'::regclass AND d.objid = o.oid
					 AND d.refclassid = 'pg_opclass'::regclass))
	FROM member m JOIN pg_amop o ON m.classid = 'pg_opfamily'::regclass AND o.amopfamily = m.objid
	UNION ALL
	-- Each support function of a family: by number and types.
	SELECT m.object,
		format('function %s(%s,%s)', p.amprocnum, p.amproclefttype::regtype, p.amprocrighttype::regtype),
		concat_ws(' ', p.amproc::regprocedure,
				  (SELECT 'of ' || pg_describe_object(d.refclassid, d.refobjid, 0) FROM pg_depend d
				   WHERE d.classid = 'pg_amproc'::regclass AND d.objid = p.oid
					 AND d.refclassid = 'pg_opclass'::regclass))
	FROM member m JOIN pg_amproc p ON m.classid = 'pg_opfamily'::regclass AND p.amprocfamily = m.objid
	UNION ALL
	-- Casts.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid,
	jsonb_each_text(to_jsonb(c) - '{oid,castsource,casttarget,castfunc}'::text[]
		|| jsonb_build_object('castsource', c.castsource::regtype, 'casttarget', c.casttarget::regtype,
							  'castfunc', c.castfunc::regprocedure)) p
	UNION ALL
	-- Event triggers.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_event_trigger e ON m.classid = 'pg_event_trigger'::regclass AND e.oid = m.objid,
	jsonb_each_text(to_jsonb(e) - '{oid,evtowner,evtfoid}'::text[]
		|| jsonb_build_object('evtowner', e.evtowner::regrole, 'evtfoid', e.evtfoid::regprocedure)) p
	UNION ALL
	-- Tables, views and sequences: their kind, options, privileges, columns
	-- and a view's query (the rest of pg_class is storage, not definition).
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_class r ON m.classid = 'pg_class'::regclass AND r.oid = m.objid,
	jsonb_each_text(jsonb_build_object(
		'relkind', r.relkind, 'relpersistence', r.relpersistence, 'reloptions', r.reloptions,
		'relacl', r.relacl, 'relowner', r.relowner::regrole, 'relnamespace', r.relnamespace::regnamespace,
		'columns', (SELECT string_agg(format('%s %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
											  CASE WHEN a.attnotnull THEN ' not null' END,
											  ' default ' || pg_get_expr(ad.adbin, ad.adrelid)), ', ' ORDER BY a.attnum)
					FROM pg_attribute a LEFT JOIN pg_attrdef ad ON (ad.adrelid, ad.adnum) = (a.attrelid, a.attnum)
					WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped),
		'view', CASE WHEN r.relkind IN ('v', 'm') THEN pg_get_viewdef(r.oid) END)) p
	UNION ALL
	-- Schemas.
	SELECT m.object, p.key, p.value
	FROM member m JOIN pg_namespace n ON m.classid = 'pg_namespace'::regclass AND n.oid = m.objid,
	jsonb_each_text(jsonb_build_object('nspowner', n.nspowner::regrole, 'nspacl', n.nspacl)) p
	UNION ALL
	-- Every member's comment, whatever its catalog.
	SELECT m.object, 'comment', obj_description(m.objid, c.relname)
	FROM member m JOIN pg_class c ON c.oid = m.classid
	UNION ALL
	-- A member of a catalog not described above.
	SELECT m.object, 'not described by ulid_catalog(): a member of ' || m.classid::regclass, m.objid::text
	FROM member m
	WHERE m.classid NOT IN ('pg_proc'::regclass, 'pg_type'::regclass, 'pg_operator'::regclass,
							'pg_opclass'::regclass, 'pg_opfamily'::regclass, 'pg_cast'::regclass,
							'pg_event_trigger'::regclass, 'pg_class'::regclass, 'pg_namespace'::regclass)
$$;

-- The catalog of a fresh install of the default version, for reference.
CREATE EXTENSION ulid;
CREATE TABLE catalog_fresh AS SELECT * FROM ulid_catalog();
-- How many member objects are compared (it grows with each version).  From
-- PostgreSQL 17 on the array types (ulid[], ulid_gist_key[], ulidrange[],
-- ulidmultirange[]) are members too: not counted here.
SELECT count(DISTINCT object) AS objects_compared FROM catalog_fresh
WHERE object NOT LIKE 'type %[]' AND object <> 'extension ulid';

-- Every property that differs between the fresh install's catalog and the
-- extension's now ("(none)": the object or member is not there).
CREATE FUNCTION catalog_diff() RETURNS TABLE (object text, property text, fresh text, updated text)
LANGUAGE sql AS $$
	SELECT object, property,
		CASE WHEN f.object IS NULL THEN '(none)' ELSE f.value END,
		CASE WHEN u.object IS NULL THEN '(none)' ELSE u.value END
	FROM catalog_fresh f FULL JOIN ulid_catalog() u USING (object, property)
	WHERE f.value IS DISTINCT FROM u.value OR f.object IS NULL OR u.object IS NULL
	ORDER BY object COLLATE "C", property COLLATE "C"
$$;
DROP EXTENSION ulid;

CREATE EXTENSION ulid VERSION '1.0';

-- Made under 1.0: a table with a primary key (B-tree), a hash index and one
-- BRIN index of each class, each on a copy of the key of its own so that a
-- query on that column can use no other index, and a TOASTable column; and a
-- table partitioned by the hash of its ulid key (rows routed by 1.0's
-- extended hash function) in four partitions, with a primary key.
CREATE TABLE upgrade_data (
	id ulid PRIMARY KEY DEFAULT gen_ulid(), n int,
	by_hash ulid, by_minmax ulid, by_multi ulid, by_bloom ulid, note text);
INSERT INTO upgrade_data
	SELECT u, g, u, u, u, u, 'row ' || g
	FROM (SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 minute') AS u, g
		  FROM generate_series(1, 5000) g) s;
CREATE INDEX upgrade_data_hash ON upgrade_data USING hash (by_hash);
CREATE INDEX upgrade_data_minmax ON upgrade_data USING brin (by_minmax)
	WITH (pages_per_range = 4);
CREATE INDEX upgrade_data_multi ON upgrade_data USING brin (by_multi ulid_minmax_multi_ops)
	WITH (pages_per_range = 4);
CREATE INDEX upgrade_data_bloom ON upgrade_data USING brin (by_bloom ulid_bloom_ops)
	WITH (pages_per_range = 4);
CREATE TABLE upgrade_parts (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE upgrade_parts_0 PARTITION OF upgrade_parts FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE upgrade_parts_1 PARTITION OF upgrade_parts FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE upgrade_parts_2 PARTITION OF upgrade_parts FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE upgrade_parts_3 PARTITION OF upgrade_parts FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO upgrade_parts SELECT id, n FROM upgrade_data;
-- A view and an expression index that use the cast to uuid, which the
-- update drops and creates again as an implicit cast.
CREATE VIEW upgrade_as_uuid AS SELECT id::uuid AS u, n FROM upgrade_data;
CREATE INDEX upgrade_data_as_uuid ON upgrade_data ((id::uuid));
CREATE TABLE upgrade_view_before AS SELECT pg_get_viewdef('upgrade_as_uuid') AS def;

-- Every relation of those tables: the tables, partitions, TOAST tables and
-- their indexes.
CREATE VIEW upgrade_relations AS
	WITH tables AS (
		SELECT 'upgrade_data'::regclass AS relation
		UNION ALL SELECT relid FROM pg_partition_tree('upgrade_parts')),
	with_toast AS (
		SELECT relation FROM tables
		UNION ALL SELECT reltoastrelid::regclass FROM pg_class JOIN tables ON oid = relation
		WHERE reltoastrelid <> 0)
	SELECT relation FROM with_toast
	UNION ALL SELECT indexrelid::regclass FROM pg_index JOIN with_toast ON indrelid = relation;

-- What the update must not change: the file of each relation that has one,
-- the rows, and the partition each row is in.
CREATE TABLE upgrade_files AS
	SELECT relation, pg_relation_filenode(relation) AS filenode FROM upgrade_relations
	WHERE pg_relation_filenode(relation) IS NOT NULL;
CREATE TABLE upgrade_rows AS
	SELECT (SELECT md5(string_agg(d::text, ',' ORDER BY id)) FROM upgrade_data d) AS data,
		   (SELECT md5(string_agg(p::text, ',' ORDER BY id)) FROM upgrade_parts p) AS parts;
CREATE TABLE upgrade_placement AS SELECT id, tableoid::regclass AS part FROM upgrade_parts;

ALTER EXTENSION ulid UPDATE;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'ulid')
	AS at_default_version
FROM pg_extension WHERE extname = 'ulid';

-- Nothing was rewritten: every table, partition, TOAST table and index keeps
-- its file.
SELECT count(*) AS relations_compared,
	count(*) FILTER (WHERE c.relkind = 'i') AS of_which_indexes,
	count(*) FILTER (WHERE pg_relation_filenode(f.relation) IS DISTINCT FROM f.filenode) AS rewritten
FROM upgrade_files f JOIN pg_class c ON c.oid = f.relation;

-- The view and the expression index over the cast still work, unchanged.
SELECT pg_get_viewdef('upgrade_as_uuid') = def AS view_unchanged,
	(SELECT n FROM upgrade_as_uuid WHERE u = (SELECT id::uuid FROM upgrade_data WHERE n = 42)) AS found
FROM upgrade_view_before;
SET enable_seqscan = off; SET enable_bitmapscan = off;
SELECT n AS found_by_expression_index FROM upgrade_data
WHERE id::uuid = (SELECT id::uuid FROM upgrade_data WHERE n = 4242);
RESET enable_seqscan; RESET enable_bitmapscan;

-- The same rows.
SELECT (SELECT md5(string_agg(d::text, ',' ORDER BY id)) FROM upgrade_data d) = data AS data_unchanged,
	   (SELECT md5(string_agg(p::text, ',' ORDER BY id)) FROM upgrade_parts p) = parts AS parts_unchanged
FROM upgrade_rows;

-- amcheck finds every heap and B-tree index sound: each heap tuple, each
-- B-tree's structure, its links between levels, and every heap tuple
-- present in it (heapallindexed).  A problem raises an error or returns a row.
SELECT count(*) AS heaps_checked, sum(problems) AS heap_problems
FROM upgrade_files f JOIN pg_class c ON c.oid = f.relation,
	LATERAL (SELECT count(*) AS problems FROM verify_heapam(f.relation)) v
WHERE c.relkind IN ('r', 't');
SELECT count(*) AS btrees_checked
FROM upgrade_files f JOIN pg_class c ON c.oid = f.relation JOIN pg_am a ON a.oid = c.relam,
	LATERAL bt_index_check(f.relation, true) x,
	LATERAL bt_index_parent_check(f.relation, true, true) y
WHERE a.amname = 'btree';

-- amcheck has no check of hash or BRIN indexes: each one, the only index on
-- its column, finds every row by equality (and BRIN minmax and minmax-multi
-- by range: the rows from 2026-01-02 on).
SET enable_seqscan = off;
SELECT index, pg_temp.plan_has(query, index) AS used, pg_temp.count_of(query) AS rows_found
FROM (VALUES
	('upgrade_data_hash', 'SELECT FROM upgrade_data WHERE by_hash = ANY (ARRAY(SELECT id FROM upgrade_data))'),
	('upgrade_data_minmax', 'SELECT FROM upgrade_data WHERE by_minmax = ANY (ARRAY(SELECT id FROM upgrade_data))'),
	('upgrade_data_multi', 'SELECT FROM upgrade_data WHERE by_multi = ANY (ARRAY(SELECT id FROM upgrade_data))'),
	('upgrade_data_bloom', 'SELECT FROM upgrade_data WHERE by_bloom = ANY (ARRAY(SELECT id FROM upgrade_data))'),
	('upgrade_data_minmax', $$SELECT FROM upgrade_data WHERE by_minmax >= '2026-01-02 00:00+00'::timestamptz::ulid$$),
	('upgrade_data_multi', $$SELECT FROM upgrade_data WHERE by_multi >= '2026-01-02 00:00+00'::timestamptz::ulid$$)
) v(index, query);
RESET enable_seqscan;

-- Each row is still in its partition, all four are used, and routing the
-- rows again with 1.1's hash function (deleting and inserting them) puts
-- each back in the same one.
SELECT count(*) AS rows_in_partitions, count(DISTINCT p.tableoid) AS partitions_used,
	count(*) FILTER (WHERE p.tableoid = b.part) AS in_same_partition
FROM upgrade_placement b JOIN upgrade_parts p USING (id);
BEGIN;
WITH gone AS (DELETE FROM upgrade_parts RETURNING *)
INSERT INTO upgrade_parts SELECT * FROM gone;
SELECT count(*) FILTER (WHERE p.tableoid = b.part) AS routed_to_same_partition
FROM upgrade_placement b JOIN upgrade_parts p USING (id);
ROLLBACK;

-- A default made under 1.0 still generates.
INSERT INTO upgrade_data (n) VALUES (0) RETURNING ulid_time(id) > now() - interval '1 minute' AS default_generates;
DROP VIEW upgrade_relations, upgrade_as_uuid;
DROP TABLE upgrade_data, upgrade_parts, upgrade_files, upgrade_rows, upgrade_placement, upgrade_view_before;
DROP FUNCTION pg_temp.plan_has(text, text), pg_temp.count_of(text);

-- The updated catalog equals the fresh install's: no row.
SELECT * FROM catalog_diff();

-- The comparison catches each kind of difference: every change below, made
-- to the updated extension, shows as the one row of that property.
BEGIN;
ALTER FUNCTION ulid_time(ulid) VOLATILE;
ALTER FUNCTION ulid_cmp(ulid, ulid) COST 2;
ALTER FUNCTION ulid_eq(ulid, ulid) NOT LEAKPROOF;
ALTER FUNCTION ulid_hash(ulid) CALLED ON NULL INPUT;
ALTER FUNCTION gen_ulid() PARALLEL RESTRICTED;
ALTER FUNCTION ulid_monotonic_scope() SECURITY DEFINER;
ALTER FUNCTION gen_ulid(timestamptz) SET search_path = pg_catalog;
ALTER OPERATOR < (ulid, ulid) SET (RESTRICT = scalarlesel);
ALTER OPERATOR FAMILY ulid_ops USING btree DROP FUNCTION 2 (ulid, ulid);
COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'changed';
-- (ALTER AGGREGATE cannot change an aggregate's functions: replacing it can.)
CREATE OR REPLACE AGGREGATE max(ulid) (
	SFUNC = ulid_larger, STYPE = ulid, SORTOP = >, PARALLEL = SAFE
);
-- (No command changes a cast's context: the catalog is changed directly.)
UPDATE pg_cast SET castcontext = 'a'
WHERE (castsource, casttarget) = ('ulid'::regtype, 'uuid'::regtype);
-- (Nor a range type's subtype_diff.)
UPDATE pg_range SET rngsubdiff = 0 WHERE rngtypid = 'ulidrange'::regtype;
SELECT * FROM catalog_diff();
ROLLBACK;

-- Members that a fresh install lacks: a function and an event trigger,
-- described in full, and a collation, of a catalog that ulid_catalog() does
-- not describe: it reports the collation with its OID, which no other
-- installation shares, so that it always shows (shown here as "its OID").
-- (The event trigger's owner is whoever runs this: not shown.)
BEGIN;
CREATE FUNCTION upgrade_event() RETURNS event_trigger LANGUAGE plpgsql AS 'BEGIN END';
CREATE EVENT TRIGGER upgrade_event ON ddl_command_end EXECUTE FUNCTION upgrade_event();
CREATE COLLATION upgrade_collation FROM "C";
ALTER EXTENSION ulid ADD FUNCTION upgrade_event();
ALTER EXTENSION ulid ADD EVENT TRIGGER upgrade_event;
ALTER EXTENSION ulid ADD COLLATION upgrade_collation;
SELECT count(*) > 0 AND bool_and(fresh = '(none)') AS function_reported_new
FROM catalog_diff() WHERE object = 'function upgrade_event()';
SELECT object, property, fresh,
	CASE WHEN property LIKE 'not described%' THEN 'its OID' ELSE updated END AS updated
FROM catalog_diff() WHERE object <> 'function upgrade_event()' AND property <> 'evtowner'
ORDER BY object COLLATE "C", property COLLATE "C";
ROLLBACK;

-- All undone: no row.
SELECT * FROM catalog_diff();

-- From 1.1: the update from the previous version alone leaves the same
-- catalog as a fresh install too, and rewrites nothing: a table with a
-- primary key, a BRIN index and a GiST index made under 1.1 keeps its files
-- and answers the time conditions through its index as before.
DROP EXTENSION ulid;
CREATE EXTENSION ulid VERSION '1.1';
CREATE TABLE upgrade_11 (id ulid PRIMARY KEY, by_brin ulid, by_gist ulid);
INSERT INTO upgrade_11
	SELECT u, u, u FROM (SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 minute') AS u
						 FROM generate_series(1, 3000) g) s;
CREATE INDEX upgrade_11_brin ON upgrade_11 USING brin (by_brin) WITH (pages_per_range = 4);
CREATE INDEX upgrade_11_gist ON upgrade_11 USING gist (by_gist);
CREATE TABLE upgrade_11_files AS
	SELECT c.oid::regclass AS relation, pg_relation_filenode(c.oid) AS filenode FROM pg_class c
	WHERE c.oid IN ('upgrade_11'::regclass, 'upgrade_11_pkey'::regclass, 'upgrade_11_brin'::regclass,
					'upgrade_11_gist'::regclass);
ALTER EXTENSION ulid UPDATE;
SELECT extversion AS updated_from_1_1_to FROM pg_extension WHERE extname = 'ulid';
SELECT * FROM catalog_diff();
SELECT count(*) AS relations_compared,
	count(*) FILTER (WHERE pg_relation_filenode(relation) IS DISTINCT FROM filenode) AS rewritten
FROM upgrade_11_files;
SET enable_seqscan = off;
SELECT (SELECT count(*) FROM upgrade_11 WHERE id >= '2026-01-02 00:00+00'::timestamptz) AS by_pkey,
	(SELECT count(*) FROM upgrade_11 WHERE by_brin >= '2026-01-02 00:00+00'::timestamptz) AS by_brin,
	(SELECT count(*) FROM upgrade_11 WHERE by_gist >= '2026-01-02 00:00+00'::timestamptz) AS by_gist;
RESET enable_seqscan;
DROP TABLE upgrade_11, upgrade_11_files;

-- From 1.2: the update from the previous release alone leaves the same
-- catalog as a fresh install, and rewrites nothing: a table keyed by ulid
-- with a hash and a BRIN bloom index made under 1.2 keeps its files and its
-- indexes find the rows.
DROP EXTENSION ulid;
CREATE EXTENSION ulid VERSION '1.2';
CREATE TABLE upgrade_12 (id ulid PRIMARY KEY, by_hash ulid, by_bloom ulid);
INSERT INTO upgrade_12
	SELECT u, u, u FROM (SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 minute') AS u
						 FROM generate_series(1, 3000) g) s;
CREATE INDEX upgrade_12_hash ON upgrade_12 USING hash (by_hash);
CREATE INDEX upgrade_12_bloom ON upgrade_12 USING brin (by_bloom ulid_bloom_ops);
CREATE TABLE upgrade_12_files AS
	SELECT c.oid::regclass AS relation, pg_relation_filenode(c.oid) AS filenode FROM pg_class c
	WHERE c.oid IN ('upgrade_12'::regclass, 'upgrade_12_pkey'::regclass, 'upgrade_12_hash'::regclass,
					'upgrade_12_bloom'::regclass);
ALTER EXTENSION ulid UPDATE;
SELECT extversion AS updated_from_1_2_to FROM pg_extension WHERE extname = 'ulid';
SELECT * FROM catalog_diff();
SELECT count(*) AS relations_compared,
	count(*) FILTER (WHERE pg_relation_filenode(relation) IS DISTINCT FROM filenode) AS rewritten
FROM upgrade_12_files;
SET enable_seqscan = off;
SELECT (SELECT count(*) FROM upgrade_12 WHERE id >= '2026-01-02 00:00+00'::timestamptz) AS by_pkey,
	(SELECT count(*) FROM upgrade_12 t WHERE by_hash IN (SELECT id FROM upgrade_12 ORDER BY id LIMIT 10)) AS by_hash,
	(SELECT count(*) FROM upgrade_12 WHERE by_bloom = ANY (ARRAY(SELECT id FROM upgrade_12 ORDER BY id LIMIT 10))) AS by_bloom;
RESET enable_seqscan;
DROP TABLE upgrade_12, upgrade_12_files;

-- From 1.3: the same, for the update from the previous release alone: a
-- table keyed by ulid made under 1.3 keeps its files, and its key finds the
-- rows.  (No public ids here: a build without OpenSSL, PGlite's, runs this
-- file too.)
DROP EXTENSION ulid;
CREATE EXTENSION ulid VERSION '1.3';
CREATE TABLE upgrade_13 (id ulid PRIMARY KEY, n int);
INSERT INTO upgrade_13
	SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 minute'), g
	FROM generate_series(1, 3000) g;
CREATE TABLE upgrade_13_files AS
	SELECT c.oid::regclass AS relation, pg_relation_filenode(c.oid) AS filenode FROM pg_class c
	WHERE c.oid IN ('upgrade_13'::regclass, 'upgrade_13_pkey'::regclass);
ALTER EXTENSION ulid UPDATE;
SELECT extversion AS updated_from_1_3_to FROM pg_extension WHERE extname = 'ulid';
SELECT * FROM catalog_diff();
SELECT count(*) AS relations_compared,
	count(*) FILTER (WHERE pg_relation_filenode(relation) IS DISTINCT FROM filenode) AS rewritten
FROM upgrade_13_files;
SET enable_seqscan = off;
SELECT count(*) AS by_pkey FROM upgrade_13 WHERE id >= '2026-01-02 00:00+00'::timestamptz;
RESET enable_seqscan;
DROP TABLE upgrade_13, upgrade_13_files;

-- An installation of 1.0 made on PostgreSQL 13 and brought here by
-- pg_upgrade has no BRIN minmax-multi or bloom class: the update adds them,
-- and the catalog again equals a fresh install's.
DROP EXTENSION ulid;
CREATE EXTENSION ulid VERSION '1.0';
ALTER EXTENSION ulid DROP OPERATOR CLASS ulid_minmax_multi_ops USING brin;
ALTER EXTENSION ulid DROP OPERATOR FAMILY ulid_minmax_multi_ops USING brin;
ALTER EXTENSION ulid DROP OPERATOR CLASS ulid_bloom_ops USING brin;
ALTER EXTENSION ulid DROP OPERATOR FAMILY ulid_bloom_ops USING brin;
DROP OPERATOR FAMILY ulid_minmax_multi_ops USING brin;
DROP OPERATOR FAMILY ulid_bloom_ops USING brin;
SELECT count(*) AS brin_classes_before FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE a.amname = 'brin' AND c.opcintype = 'ulid'::regtype;
ALTER EXTENSION ulid UPDATE;
SELECT * FROM catalog_diff();

-- A fresh install needs no PL/pgSQL.
BEGIN;
DROP EXTENSION ulid;
DROP EXTENSION plpgsql;
-- (1.0's DO block needed it: undefined_object, 42704.)
SAVEPOINT without_plpgsql;
\set VERBOSITY sqlstate
CREATE EXTENSION ulid VERSION '1.0';
\set VERBOSITY default
ROLLBACK TO without_plpgsql;
CREATE EXTENSION ulid;
SELECT count(*) AS brin_classes_without_plpgsql FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE a.amname = 'brin' AND c.opcintype = 'ulid'::regtype;
ROLLBACK;

DROP TABLE catalog_fresh;
DROP FUNCTION catalog_diff(), ulid_catalog();
DROP EXTENSION amcheck;
