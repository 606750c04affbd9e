-- ALTER EXTENSION ulid UPDATE from 1.0 keeps every stored value and index
-- working, and leaves the same catalog as a fresh install of the default
-- version: every member object, with its definition, properties and comment.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS ulid CASCADE;
RESET client_min_messages;

-- A description of every object of the extension, one row each.
CREATE FUNCTION ulid_catalog() RETURNS TABLE (object text, definition text)
LANGUAGE sql AS $$
	SELECT pg_describe_object(d.classid, d.objid, 0),
		concat_ws(' | ',
			CASE d.classid
			WHEN 'pg_proc'::regclass THEN
				(SELECT CASE WHEN p.prokind = 'a'
					THEN format('aggregate %s %s %s %s %s', a.aggtransfn, a.aggcombinefn,
								a.aggsortop::regoperator, a.aggtranstype::regtype, p.proparallel)
					ELSE pg_get_functiondef(p.oid) END
				 FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid WHERE p.oid = d.objid)
			WHEN 'pg_operator'::regclass THEN
				(SELECT format('%s %s %s %s %s %s %s', o.oprcode, o.oprcom::regoperator,
							   o.oprnegate::regoperator, o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge)
				 FROM pg_operator o WHERE o.oid = d.objid)
			WHEN 'pg_type'::regclass THEN
				(SELECT format('%s %s %s %s %s %s %s %s', t.typinput, t.typoutput, t.typreceive,
							   t.typsend, t.typlen, t.typbyval, t.typalign, t.typstorage)
				 FROM pg_type t WHERE t.oid = d.objid)
			WHEN 'pg_cast'::regclass THEN
				(SELECT format('%s %s %s', c.castfunc::regprocedure, c.castcontext, c.castmethod)
				 FROM pg_cast c WHERE c.oid = d.objid)
			WHEN 'pg_opclass'::regclass THEN
				(SELECT format('default %s, family %s, key %s', c.opcdefault,
							   pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0),
							   c.opckeytype::regtype)
				 FROM pg_opclass c WHERE c.oid = d.objid)
			WHEN 'pg_opfamily'::regclass THEN
				(SELECT string_agg(m, ', ' ORDER BY m) FROM (
					SELECT format('operator %s %s', amopstrategy, amopopr::regoperator) AS m
					FROM pg_amop WHERE amopfamily = d.objid
					UNION ALL
					SELECT format('function %s(%s, %s) %s', amprocnum, amproclefttype::regtype,
								  amprocrighttype::regtype, amproc::regprocedure)
					FROM pg_amproc WHERE amprocfamily = d.objid) members)
			WHEN 'pg_event_trigger'::regclass THEN
				(SELECT format('on %s %s %s, enabled %s', e.evtevent, e.evttags,
							   e.evtfoid::regprocedure, e.evtenabled)
				 FROM pg_event_trigger e WHERE e.oid = d.objid)
			END,
			obj_description(d.objid, (SELECT relname FROM pg_class WHERE oid = d.classid)))
	FROM pg_depend d
	WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
$$;

CREATE EXTENSION ulid VERSION '1.0';

-- Data and every kind of index, made under 1.0.
CREATE TABLE upgrade_data (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int);
INSERT INTO upgrade_data
	SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 minute'), g
	FROM generate_series(1, 5000) g;
CREATE INDEX upgrade_data_hash ON upgrade_data USING hash (id);
CREATE INDEX upgrade_data_minmax ON upgrade_data USING brin (id);
CREATE INDEX upgrade_data_multi ON upgrade_data USING brin (id ulid_minmax_multi_ops);
CREATE INDEX upgrade_data_bloom ON upgrade_data USING brin (id ulid_bloom_ops);
CREATE TABLE upgrade_before AS
	SELECT count(*) AS n, md5(string_agg(id::text, ',' ORDER BY id)) AS sum FROM upgrade_data;

ALTER EXTENSION ulid UPDATE;
SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'ulid')
	AS at_default_version
FROM pg_extension WHERE extname = 'ulid';

-- The same rows, and the indexes still find them: by range and by equality.
SELECT (count(*), md5(string_agg(id::text, ',' ORDER BY id))) = (SELECT n, sum FROM upgrade_before)
	AS rows_unchanged
FROM upgrade_data;
SET enable_seqscan = off;
SELECT count(*) AS from_jan_2 FROM upgrade_data WHERE id >= '2026-01-02 00:00+00'::timestamptz::ulid;
SELECT count(*) AS first_100 FROM upgrade_data
	WHERE id = ANY (ARRAY(SELECT id FROM upgrade_data WHERE n <= 100));
RESET enable_seqscan;
INSERT INTO upgrade_data (n) VALUES (0) RETURNING ulid_time(id) > now() - interval '1 minute' AS default_generates;

-- The updated catalog equals a fresh install's.
CREATE TABLE upgrade_updated AS SELECT * FROM ulid_catalog();
DROP TABLE upgrade_data, upgrade_before;
DROP EXTENSION ulid;
CREATE EXTENSION ulid;
CREATE TABLE upgrade_fresh AS SELECT * FROM ulid_catalog();
-- How many objects were compared (it grows with each version).  From
-- PostgreSQL 17 on the array type ulid[] is a member too: not counted here.
SELECT count(*) AS objects_compared FROM upgrade_fresh WHERE object <> 'type ulid[]';
SELECT 'only after update' AS side, * FROM (TABLE upgrade_updated EXCEPT TABLE upgrade_fresh) s
UNION ALL
SELECT 'only in fresh install', * FROM (TABLE upgrade_fresh EXCEPT TABLE upgrade_updated) s
ORDER BY 1, 2;

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
SELECT 'only after update' AS side, * FROM (SELECT * FROM ulid_catalog() EXCEPT TABLE upgrade_fresh) s
UNION ALL
SELECT 'only in fresh install', * FROM (TABLE upgrade_fresh EXCEPT SELECT * FROM ulid_catalog()) s
ORDER BY 1, 2;

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

DROP TABLE upgrade_updated, upgrade_fresh;
DROP FUNCTION ulid_catalog();
