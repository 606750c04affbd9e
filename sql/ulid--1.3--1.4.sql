/* ulid--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION ulid UPDATE TO '1.4'" to load this file. \quit

-- Public ids under the server's keys (ulid.public_id_key_file), so that the
-- key is in no statement, plan or log.  STABLE, not IMMUTABLE: the result
-- depends on a setting, and a STABLE call is never folded to a constant at
-- plan time, so "id = ulid_decrypt($1)" puts no ulid into a logged plan
-- while it is still computed once and looked up in the index, in generic
-- plans too.  PARALLEL RESTRICTED: each process reads the key file itself,
-- and a worker started after the file was replaced would read the new keys
-- where its leader keeps the ones its transaction began with.
CREATE FUNCTION ulid_encrypt(id ulid)
RETURNS pg_catalog.uuid
AS 'MODULE_PATHNAME', 'ulid_encrypt_server_key'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ulid_encrypt(ulid) IS
'the public id of a ulid under the server''s current key (ulid.public_id_key_file), as a uuid that tells nothing of the time';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid)
RETURNS ulid
AS 'MODULE_PATHNAME', 'ulid_decrypt_server_key'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid) IS
'the ulid of a public id made by ulid_encrypt(id) under the server''s current key';

CREATE FUNCTION ulid_decrypt_all(public_id pg_catalog.uuid)
RETURNS ulid[]
AS 'MODULE_PATHNAME', 'ulid_decrypt_all'
LANGUAGE C STABLE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION ulid_decrypt_all(pg_catalog.uuid) IS
'the ulids of a public id under each of the server''s keys, the current key first: id = ANY (ulid_decrypt_all(p)) finds a row during a key rotation';
