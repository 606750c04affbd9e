-- The trusted-language edition (tle/ulid.sql, through pg_tle) against the
-- native type and uuid, in one server: the edition registered under the
-- name ulid_tle in schema tle (pg_tle refuses the name ulid where the native
-- extension's files are; its type is still named ulid), the native type in
-- public; the edition's operators, outside the search path, are named as
-- OPERATOR(tle.=).  On :N / 10 rows (the edition's PL/pgSQL runs once per
-- value): generating ids; text output and input of ids of random times over
-- a year; a btree index build; a join of :N / 100 sampled keys, one index
-- descent each; public ids (the edition's ulid_encrypt and ulid_decrypt
-- are pgcrypto's encrypt() and decrypt(), so pgcrypto's encrypt() called
-- directly is a peer), with a key and under the key table's, and ObjectIds
-- in and out.
-- cluster: tle
-- rounds: 3
-- requires: EXISTS (SELECT FROM pg_available_extensions WHERE name = 'pg_tle')

-- @setup
CREATE EXTENSION IF NOT EXISTS pg_tle;
-- The edition renamed, beside the cluster's data directory (the run's own).
\getenv pgdata PGDATA
\! sed -E "s/(pgtle\.[a-z_]+\(|name OPERATOR\(pg_catalog\.=\) )'ulid'/\1'ulid_tle'/g" tle/ulid.sql > "$PGDATA/bench_ulid_tle.sql"
SELECT NOT EXISTS (SELECT FROM pgtle.available_extensions() WHERE name = 'ulid_tle') AS install_tle \gset
\if :install_tle
\i :pgdata/bench_ulid_tle.sql
\endif
CREATE SCHEMA IF NOT EXISTS tle;
CREATE EXTENSION IF NOT EXISTS ulid_tle SCHEMA tle;
CREATE EXTENSION IF NOT EXISTS pgcrypto;
SELECT tle.ulid_public_id_key_import('\x000102030405060708090a0b0c0d0e0f')
WHERE NOT EXISTS (SELECT FROM tle.ulid_public_id_keys);
CREATE TABLE IF NOT EXISTS tt AS
	SELECT n, u AS native, u::text::tle.ulid AS edition, u::uuid AS g, u::text AS t, u::uuid::text AS gt,
		o, ulid_from_objectid(o) AS o_native, ulid_from_objectid(o)::text::tle.ulid AS o_edition
	FROM (SELECT n, gen_ulid(now() - random() * interval '365 days') AS u,
			  lpad(to_hex(extract(epoch FROM now())::bigint - n), 8, '0') || substr(md5(n::text), 1, 16) AS o
		  FROM generate_series(1, :N / 10) n) s;
CREATE TABLE IF NOT EXISTS tk_native (id ulid PRIMARY KEY, n int);
CREATE TABLE IF NOT EXISTS tk_edition (id tle.ulid PRIMARY KEY, n int);
CREATE TABLE IF NOT EXISTS tk_uuid (id uuid PRIMARY KEY, n int);
INSERT INTO tk_native SELECT native, n FROM tt WHERE NOT EXISTS (SELECT FROM tk_native);
INSERT INTO tk_edition SELECT edition, n FROM tt WHERE NOT EXISTS (SELECT FROM tk_edition);
INSERT INTO tk_uuid SELECT g, n FROM tt WHERE NOT EXISTS (SELECT FROM tk_uuid);
CREATE TABLE IF NOT EXISTS ts AS SELECT native, edition, g FROM tt ORDER BY random() LIMIT :N / 100;
VACUUM ANALYZE tt, tk_native, tk_edition, tk_uuid, ts;

-- @check
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off;
SELECT (SELECT count(*) FROM tt WHERE edition::text = native::text AND edition::uuid = native::uuid) = :N / 10
	AND (SELECT count(*) FROM ts JOIN tk_edition k ON k.id OPERATOR(tle.=) ts.edition) = :N / 100
	AND plan_of('SELECT count(k.n) FROM ts JOIN tk_edition k ON k.id OPERATOR(tle.=) ts.edition') LIKE '%tk_edition_pkey%'
	AND (SELECT count(*) FROM tt WHERE tle.ulid_encrypt(edition, '\x000102030405060708090a0b0c0d0e0f')
		= ulid_encrypt(native, '\x000102030405060708090a0b0c0d0e0f')) = :N / 10
	AND (SELECT count(*) FROM ts WHERE tle.ulid_encrypt(edition) = ulid_encrypt(native, '\x000102030405060708090a0b0c0d0e0f')
		AND tle.ulid_decrypt(ulid_encrypt(native, '\x000102030405060708090a0b0c0d0e0f')) OPERATOR(tle.=) edition) = :N / 100
	AND (SELECT count(*) FROM tt WHERE o_edition::text = o_native::text AND tle.ulid_to_objectid(o_edition) = o) = :N / 10;

-- @case gen: gen_random_uuid()
SELECT count(gen_random_uuid()) FROM generate_series(1, :N / 10);

-- @case gen: native gen_ulid()
SELECT count(gen_ulid()) FROM generate_series(1, :N / 10);

-- @case gen: edition gen_ulid() vs gen: native gen_ulid(), gen: gen_random_uuid()
SELECT count(tle.gen_ulid()) FROM generate_series(1, :N / 10);

-- @case out: uuid::text
SELECT count(g::text) FROM tt;

-- @case out: native ulid::text
SELECT count(native::text) FROM tt;

-- @case out: edition ulid::text vs out: native ulid::text, out: uuid::text
SELECT count(edition::text) FROM tt;

-- @case in: text::uuid
SELECT count(gt::uuid) FROM tt;

-- @case in: text::ulid native
SELECT count(t::ulid) FROM tt;

-- @case in: text::ulid edition vs in: text::ulid native, in: text::uuid
SELECT count(t::tle.ulid) FROM tt;

-- @case index: uuid
DROP INDEX IF EXISTS tt_idx;
-- @timed
CREATE INDEX tt_idx ON tt (g);
-- @size
SELECT pg_relation_size('tt_idx');

-- @case index: native ulid
DROP INDEX IF EXISTS tt_idx;
-- @timed
CREATE INDEX tt_idx ON tt (native);
-- @size
SELECT pg_relation_size('tt_idx');

-- @case index: edition ulid vs index: native ulid, index: uuid
DROP INDEX IF EXISTS tt_idx;
-- @timed
CREATE INDEX tt_idx ON tt (edition);
-- @size
SELECT pg_relation_size('tt_idx');

-- @case lookup: uuid
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off;
-- @timed
SELECT count(k.n) FROM ts JOIN tk_uuid k ON k.id = ts.g;

-- @case lookup: native ulid
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off;
-- @timed
SELECT count(k.n) FROM ts JOIN tk_native k ON k.id = ts.native;

-- @case lookup: edition ulid vs lookup: native ulid, lookup: uuid
SET enable_hashjoin = off; SET enable_mergejoin = off; SET enable_seqscan = off;
-- @timed
SELECT count(k.n) FROM ts JOIN tk_edition k ON k.id OPERATOR(tle.=) ts.edition;

-- @case encrypt: pgcrypto encrypt()
SELECT count(encrypt(native::bytea, '\x000102030405060708090a0b0c0d0e0f', 'aes-ecb/pad:none')) FROM tt;

-- @case encrypt: native ulid_encrypt()
SELECT count(ulid_encrypt(native, '\x000102030405060708090a0b0c0d0e0f')) FROM tt;

-- @case encrypt: edition ulid_encrypt() vs encrypt: native ulid_encrypt(), encrypt: pgcrypto encrypt()
SELECT count(tle.ulid_encrypt(edition, '\x000102030405060708090a0b0c0d0e0f')) FROM tt;

-- @case encrypt: edition ulid_encrypt(id) vs encrypt: edition ulid_encrypt(), encrypt: native ulid_encrypt()
SELECT count(tle.ulid_encrypt(edition)) FROM tt;

-- @case decrypt: native ulid_decrypt()
SELECT count(ulid_decrypt(g, '\x000102030405060708090a0b0c0d0e0f')) FROM tt;

-- @case decrypt: edition ulid_decrypt() vs decrypt: native ulid_decrypt(), encrypt: pgcrypto encrypt()
SELECT count(tle.ulid_decrypt(g, '\x000102030405060708090a0b0c0d0e0f')) FROM tt;

-- @case decrypt: edition ulid_decrypt(public_id) vs decrypt: edition ulid_decrypt(), decrypt: native ulid_decrypt()
SELECT count(tle.ulid_decrypt(g)) FROM tt;

-- @case objectid in: native ulid_from_objectid(text)
SELECT count(ulid_from_objectid(o)) FROM tt;

-- @case objectid in: edition ulid_from_objectid(text) vs objectid in: native ulid_from_objectid(text)
SELECT count(tle.ulid_from_objectid(o)) FROM tt;

-- @case objectid out: native ulid_to_objectid()
SELECT count(ulid_to_objectid(o_native)) FROM tt;

-- @case objectid out: edition ulid_to_objectid() vs objectid out: native ulid_to_objectid()
SELECT count(tle.ulid_to_objectid(o_edition)) FROM tt;
