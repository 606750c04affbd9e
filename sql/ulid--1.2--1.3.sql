/* ulid--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.3'" to load this file. \quit

-- The two cross-type = operators of ulid and uuid no longer MERGE: a
-- mergejoinable join clause becomes an equivalence class of ulid's btree
-- family alone, and the planner then offers it to no index of core's
-- uuid_ops, so joining a converted key with a uuid column not yet converted
-- lost the index on the uuid side.  ALTER OPERATOR cannot take MERGES back
-- (15 and 16 have no option for it; 17 on refuse to change it once set), so
-- the catalog row is changed, as no command can.  Nothing stored depends on
-- the flag: plans cached with a merge join are planned again on the next
-- invalidation, and a merge join of the two types is planned no more.
UPDATE pg_catalog.pg_operator o SET oprcanmerge = false
FROM pg_catalog.pg_depend d
WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_operator'::pg_catalog.regclass::pg_catalog.oid
  AND d.objid OPERATOR(pg_catalog.=) o.oid
  AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
  AND d.deptype OPERATOR(pg_catalog.=) 'e'::pg_catalog.char
  AND d.refobjid OPERATOR(pg_catalog.=) (SELECT e.oid FROM pg_catalog.pg_extension e
											 WHERE e.extname OPERATOR(pg_catalog.=) 'ulid'::pg_catalog.name)
  AND o.oprname OPERATOR(pg_catalog.=) '='::pg_catalog.name
  AND 'pg_catalog.uuid'::pg_catalog.regtype::pg_catalog.oid OPERATOR(pg_catalog.=) ANY (ARRAY[o.oprleft, o.oprright]);

-- The event trigger also fires for CREATE SCHEMA, whose CREATE TABLEs it
-- did not see; an event trigger's tags cannot be altered, so it is made
-- again, with its comment.
DROP EVENT TRIGGER ulid_check_defaults;
CREATE EVENT TRIGGER ulid_check_defaults ON ddl_command_end
	WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE', 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'CREATE SCHEMA')
	EXECUTE FUNCTION ulid_check_defaults();
COMMENT ON EVENT TRIGGER ulid_check_defaults IS
'warns when a ulid column gets a default that generates uuids (see ulid_convert_column())';

-- What ulid_convert_column() would do, changing nothing: one row per step,
-- in its order (locks, blockers, conversions, defaults, rebuilds, scans,
-- publications, functions to review).
CREATE FUNCTION ulid_convert_column_dry_run(tab pg_catalog.regclass, col pg_catalog.name)
RETURNS TABLE (step pg_catalog.int4, action pg_catalog.text, object pg_catalog.text, detail pg_catalog.text)
AS 'MODULE_PATHNAME', 'ulid_convert_column_dry_run'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION ulid_convert_column_dry_run(pg_catalog.regclass, pg_catalog.name) IS
'what ulid_convert_column(tab, col) would lock, refuse, convert, rebuild and check again, and the publications and functions to look at, without changing anything';

--
-- Public ids: a ulid enciphered as one AES-128 block under a 16-byte key
--

-- IMMUTABLE, so that "id = ulid_decrypt($1, $2)" is computed once and looks
-- the key up in the index; not LEAKPROOF, as a key of the wrong length is
-- an error.
CREATE FUNCTION ulid_encrypt(id ulid, key pg_catalog.bytea)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'ulid_encrypt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_encrypt(ulid, pg_catalog.bytea) IS
'the public id of a ulid: its 16 bytes enciphered as one AES-128 block under a 16-byte key, as a uuid that tells nothing of the time';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_decrypt'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
'the ulid of a public id made by ulid_encrypt with the same key';

--
-- MongoDB ObjectIds: the time in seconds becomes milliseconds, the other 8
-- bytes follow, then two zero bytes; byte order is kept
--

CREATE FUNCTION ulid_from_objectid(pg_catalog.text)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_from_objectid_text'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.text) IS
'the ulid of a MongoDB ObjectId given as its 24 hexadecimal digits: its seconds as milliseconds, its last 8 bytes, two zero bytes';

CREATE FUNCTION ulid_from_objectid(pg_catalog.bytea)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_from_objectid_bytea'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.bytea) IS
'the ulid of a MongoDB ObjectId given as its 12 bytes';

CREATE FUNCTION ulid_to_objectid(ulid)
RETURNS pg_catalog.text
AS 'MODULE_PATHNAME', 'ulid_to_objectid'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION ulid_to_objectid(ulid) IS
'the 24 hexadecimal digits of the MongoDB ObjectId a ulid was made from by ulid_from_objectid';
