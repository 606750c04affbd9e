-- A non-superuser database owner installs the trusted extension; DROP EXTENSION.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
DROP EXTENSION ulid;
DROP ROLE IF EXISTS regress_ulid_owner;
RESET client_min_messages;
SELECT count(*) AS left_behind FROM pg_type WHERE typname = 'ulid';

CREATE ROLE regress_ulid_owner LOGIN;
SELECT current_database() AS db \gset
ALTER DATABASE :"db" OWNER TO regress_ulid_owner;
SET ROLE regress_ulid_owner;
CREATE SCHEMA ulid_schema;
CREATE EXTENSION ulid SCHEMA ulid_schema;
SET search_path = ulid_schema, public;
-- Every function works for the owner.
SELECT ulid_time('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid) = '2016-07-30 22:36:16.385+00';
SELECT gen_ulid() < gen_ulid('10000-01-01'), gen_monotonic_ulid() < gen_monotonic_ulid();
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid::ulid::bytea::ulid::text;
SELECT ulid_monotonic_scope(), ulid_hash('01ARYZ6S41TSV4RRFFQ69G5FAV') = ulid_hash_extended('01ARYZ6S41TSV4RRFFQ69G5FAV', 0)::bit(32)::int4,
	'2016-07-30 22:36:16.385+00'::timestamptz::ulid::timestamptz = '2016-07-30 22:36:16.385+00',
	ulid_from_time('2016-07-30 22:36:16.385+00') < '01ARYZ6S41TSV4RRFFQ69G5FAV',
	gen_ulid('2016-07-30 22:36:16.385+00') > ulid_from_bytea('\x01563df3648100000000000000000000'),
	ulid_smaller('01ARYZ6S41TSV4RRFFQ69G5FAV', '01BX5ZZKBKACTAV9WEVGEMMVRZ') < ulid_larger('01ARYZ6S41TSV4RRFFQ69G5FAV', '01BX5ZZKBKACTAV9WEVGEMMVRZ');
CREATE TABLE owned (id ulid PRIMARY KEY DEFAULT gen_ulid());
INSERT INTO owned SELECT FROM generate_series(1, 100);
SELECT count(*), min(id) < max(id) FROM owned;
-- Its sort support, hash and BRIN classes work for the owner too.
CREATE INDEX owned_hash ON owned USING hash (id);
CREATE INDEX owned_brin ON owned USING brin (id);
CREATE INDEX owned_sorted ON owned (id DESC);
SELECT count(*) FROM (SELECT DISTINCT id FROM owned ORDER BY id) s;
DROP TABLE owned;
-- Every member object lives in the extension's schema (casts and the event
-- trigger have none).
SELECT classid::regclass,
	count(*) FILTER (WHERE classid NOT IN ('pg_cast'::regclass, 'pg_event_trigger'::regclass) AND coalesce(
		(SELECT pronamespace FROM pg_proc WHERE oid = objid AND classid = 'pg_proc'::regclass),
		(SELECT typnamespace FROM pg_type WHERE oid = objid AND classid = 'pg_type'::regclass),
		(SELECT oprnamespace FROM pg_operator WHERE oid = objid AND classid = 'pg_operator'::regclass),
		(SELECT opcnamespace FROM pg_opclass WHERE oid = objid AND classid = 'pg_opclass'::regclass),
		(SELECT opfnamespace FROM pg_opfamily WHERE oid = objid AND classid = 'pg_opfamily'::regclass)
	) IS DISTINCT FROM 'ulid_schema'::regnamespace) AS outside_schema
FROM pg_depend
WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
GROUP BY 1 ORDER BY classid::regclass::text;
-- No SECURITY DEFINER function.
SELECT count(*) FROM pg_proc WHERE pronamespace = 'ulid_schema'::regnamespace AND prosecdef;
-- The event trigger exists though the owner may not create one (it takes a
-- superuser): the script of a trusted extension runs as the bootstrap
-- superuser, who owns it.  It warns the owner's DDL too.
SELECT evtowner = 10 AS owned_by_bootstrap_superuser, evtenabled
FROM pg_event_trigger WHERE evtname = 'ulid_check_defaults';
CREATE TABLE owned_uuid_default (id ulid DEFAULT gen_random_uuid());
DROP TABLE owned_uuid_default;

-- Its member objects belong to the bootstrap superuser, as with every
-- trusted extension, so moving it to another schema is for a superuser.
ALTER EXTENSION ulid SET SCHEMA public;

-- The owner drops it again; nothing is left behind.
DROP EXTENSION ulid;
SELECT count(*) AS left_behind FROM pg_type WHERE typname = 'ulid';
SELECT count(*) AS casts_left FROM pg_cast c
WHERE NOT EXISTS (SELECT FROM pg_type WHERE oid = c.castsource)
   OR NOT EXISTS (SELECT FROM pg_type WHERE oid = c.casttarget);
SELECT count(*) AS event_triggers_left FROM pg_event_trigger WHERE evtname = 'ulid_check_defaults';
RESET search_path;
DROP SCHEMA ulid_schema;
RESET ROLE;
ALTER DATABASE :"db" OWNER TO CURRENT_USER;
DROP ROLE regress_ulid_owner;

-- A role without CREATE on the database cannot install it.
CREATE ROLE regress_ulid_nobody;
SET ROLE regress_ulid_nobody;
CREATE EXTENSION ulid;
RESET ROLE;
DROP ROLE regress_ulid_nobody;

-- Relocatable: a superuser moves it, with its data, to another schema and back.
SET client_min_messages = warning;
CREATE EXTENSION ulid;
RESET client_min_messages;
CREATE TABLE install_kept (id ulid PRIMARY KEY);
INSERT INTO install_kept VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV');
CREATE SCHEMA ulid_moved;
ALTER EXTENSION ulid SET SCHEMA ulid_moved;
SELECT count(*) AS left_in_public FROM pg_proc WHERE pronamespace = 'public'::regnamespace AND proname LIKE '%ulid%';
-- Outside the search_path its operators are named with their schema.
SELECT id, ulid_moved.ulid_time(id) = '2016-07-30 22:36:16.385+00' AS time_ok FROM install_kept
WHERE id OPERATOR(ulid_moved.=) '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid_moved.ulid;
ALTER EXTENSION ulid SET SCHEMA public;
DROP SCHEMA ulid_moved;
DROP TABLE install_kept;
-- The extension stays installed for whatever test runs next.
