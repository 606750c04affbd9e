-- Public ids: ulid_encrypt() and ulid_decrypt(), AES-128 on the 16 bytes.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
\i test/sql/include/plan_has.sql
\i test/sql/include/outcome.sql

-- FIPS-197, appendix C.1: key 000102...0f, plaintext 00112233...ff.
SELECT ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff'::uuid::ulid,
	'\x000102030405060708090a0b0c0d0e0f') AS fips_197_c1;
SELECT ulid_decrypt('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a',
	'\x000102030405060708090a0b0c0d0e0f')::uuid AS fips_197_c1_inverse;
-- The zero key and the zero block (a known answer of AES-128 too).
SELECT ulid_encrypt('00000000000000000000000000', '\x00000000000000000000000000000000');

-- Round trips over 20,000 ids under two keys; no two public ids alike, and
-- a key decrypts only its own public ids.
CREATE TABLE pub (id ulid PRIMARY KEY, n int);
INSERT INTO pub SELECT gen_monotonic_ulid(), n FROM generate_series(1, 20000) n;
SELECT count(*) AS n,
	count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id, k1), k1) = id) AS k1_round_trips,
	count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id, k2), k2) = id) AS k2_round_trips,
	count(DISTINCT ulid_encrypt(id, k1)) AS k1_distinct,
	count(*) FILTER (WHERE ulid_encrypt(id, k1) = ulid_encrypt(id, k2)) AS keys_agree,
	count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id, k1), k2) = id) AS wrong_key_finds
FROM pub,
	(VALUES (decode(md5('first key'), 'hex'), decode(md5('second key'), 'hex'))) AS keys (k1, k2);

-- The public ids of consecutive monotonic ids (one millisecond, adjacent
-- values) say nothing of their order: about half of the 19,999 neighbours
-- are in order.  Out of [45 %, 55 %] is ten standard deviations out.
SELECT avg((ulid_encrypt(id, k) < ulid_encrypt(next_id, k))::int) BETWEEN 0.45 AND 0.55 AS order_hidden
FROM (SELECT id, lead(id) OVER (ORDER BY id) AS next_id FROM pub) p,
	(VALUES (decode(md5('first key'), 'hex'))) AS keys (k)
WHERE next_id IS NOT NULL;
-- Nor of the time: the first 48 bits of the public ids are spread over the
-- whole range, not over the one millisecond of the ids.
SELECT count(DISTINCT ulid_time(ulid_encrypt(id, k)::ulid)) > 19000 AS times_spread
FROM pub, (VALUES (decode(md5('first key'), 'hex'))) AS keys (k);

-- A key per row: the schedule kept for the call site is made again when
-- the key changes, and each row gets its key's answer, the one a call site
-- with that key alone gives.
SELECT count(*) AS mixed_keys_agree
FROM pub, (VALUES (decode(md5('first key'), 'hex'), decode(md5('second key'), 'hex'))) AS keys (k1, k2)
WHERE ulid_encrypt(id, CASE WHEN n % 2 = 0 THEN k1 ELSE k2 END)
	= CASE WHEN n % 2 = 0 THEN ulid_encrypt(id, k1) ELSE ulid_encrypt(id, k2) END
  AND ulid_decrypt(ulid_encrypt(id, CASE WHEN n % 3 = 0 THEN k1 ELSE k2 END),
	CASE WHEN n % 3 = 0 THEN k1 ELSE k2 END) = id;

-- Keys of the wrong length: 22023, and the message has the length only.
SELECT * FROM pg_temp.outcome($$SELECT ulid_encrypt(gen_ulid(), '\x000102030405060708090a0b0c0d0e')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_decrypt(gen_random_uuid(), '\x000102030405060708090a0b0c0d0e0f10')$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_encrypt(gen_ulid(), '')$$);
-- NULL in, NULL out (STRICT).
SELECT ulid_encrypt(NULL, '\x000102030405060708090a0b0c0d0e0f') IS NULL AS null_id,
	ulid_decrypt('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a', NULL) IS NULL AS null_key;

-- Declared IMMUTABLE STRICT PARALLEL SAFE, and not LEAKPROOF (they can raise).
SELECT p.oid::regprocedure, provolatile, proisstrict, proparallel, proleakproof
FROM pg_proc p WHERE proname IN ('ulid_encrypt', 'ulid_decrypt') AND pronargs = 2 ORDER BY p.oid::regprocedure::text COLLATE "C";

-- A lookup by public id is computed once and served by the primary key:
-- with constants, with a prepared statement's custom and generic plans.
ANALYZE pub;
SELECT pg_temp.plan_has($$SELECT n FROM pub
	WHERE id = ulid_decrypt('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a', '\x000102030405060708090a0b0c0d0e0f')$$,
	'using pub_pkey') AS constant_uses_pkey;
PREPARE by_public_id(uuid, bytea) AS SELECT n FROM pub WHERE id = ulid_decrypt($1, $2);
SELECT ulid_encrypt(id, decode(md5('first key'), 'hex')) AS public_id FROM pub WHERE n = 12345 \gset
SET plan_cache_mode = force_custom_plan;
SELECT pg_temp.plan_has(format('EXECUTE by_public_id(%L, %L)', :'public_id', decode(md5('first key'), 'hex')),
	'using pub_pkey') AS custom_uses_pkey;
EXECUTE by_public_id(:'public_id', decode(md5('first key'), 'hex'));
SET plan_cache_mode = force_generic_plan;
SELECT pg_temp.plan_has(format('EXECUTE by_public_id(%L, %L)', :'public_id', decode(md5('first key'), 'hex')),
	'using pub_pkey') AS generic_uses_pkey;
EXECUTE by_public_id(:'public_id', decode(md5('first key'), 'hex'));
-- The wrong key finds no row (the public id is not authenticated: it
-- decrypts to some ulid, which matches nothing).
EXECUTE by_public_id(:'public_id', decode(md5('second key'), 'hex'));
-- And a list of public ids.
PREPARE by_public_ids(uuid[], bytea) AS
	SELECT n FROM pub WHERE id IN (SELECT ulid_decrypt(p, $2) FROM unnest($1) p) ORDER BY n;
SELECT array_agg(ulid_encrypt(id, decode(md5('first key'), 'hex'))) AS public_ids
FROM pub WHERE n IN (7, 70, 700) \gset
SELECT pg_temp.plan_has(format('EXECUTE by_public_ids(%L, %L)', :'public_ids', decode(md5('first key'), 'hex')),
	'using pub_pkey') AS list_uses_pkey;
EXECUTE by_public_ids(:'public_ids', decode(md5('first key'), 'hex'));
RESET plan_cache_mode;
DEALLOCATE by_public_id;
DEALLOCATE by_public_ids;

DROP TABLE pub;

-- The server's keys (ulid.public_id_key_file): this suite's server has
-- none, and t/018_public_id_key.pl tests them with one.  Without a key, each
-- function raises 55000 with a hint; NULL in, NULL out still.
SELECT * FROM pg_temp.outcome($$SELECT ulid_encrypt(gen_ulid())$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_decrypt(gen_random_uuid())$$);
SELECT * FROM pg_temp.outcome($$SELECT ulid_decrypt_all(gen_random_uuid())$$);
SELECT ulid_encrypt(NULL::ulid) IS NULL AS encrypt_null, ulid_decrypt(NULL::uuid) IS NULL AS decrypt_null,
	ulid_decrypt_all(NULL) IS NULL AS decrypt_all_null;
-- Only the server's configuration names the file: a session cannot.
SET ulid.public_id_key_file = 'mine.key';
SELECT * FROM pg_temp.outcome($$SELECT set_config('ulid.public_id_key_file', 'mine.key', true)$$);
SELECT context, vartype, boot_val FROM pg_settings WHERE name = 'ulid.public_id_key_file';
-- STABLE, so that a lookup is never folded to a constant ulid at plan time,
-- STRICT, PARALLEL RESTRICTED (a worker reads the key file itself), not
-- LEAKPROOF.
SELECT p.oid::regprocedure, provolatile, proisstrict, proparallel, proleakproof
FROM pg_proc p WHERE proname IN ('ulid_encrypt', 'ulid_decrypt', 'ulid_decrypt_all') AND pronargs = 1
ORDER BY p.oid::regprocedure::text COLLATE "C";
-- A generic plan, which evaluates nothing at plan time, looks the public id
-- up in the primary key; so does a list of them, and the rotation's array.
CREATE TABLE pub_server (id ulid PRIMARY KEY, n int);
INSERT INTO pub_server SELECT gen_ulid(), n FROM generate_series(1, 20000) n;
ANALYZE pub_server;
SET plan_cache_mode = force_generic_plan;
PREPARE by_server_key(uuid) AS SELECT n FROM pub_server WHERE id = ulid_decrypt($1);
PREPARE by_server_keys(uuid[]) AS
	SELECT n FROM pub_server WHERE id IN (SELECT ulid_decrypt(p) FROM unnest($1) p) ORDER BY n;
PREPARE by_any_server_key(uuid) AS SELECT n FROM pub_server WHERE id = ANY (ulid_decrypt_all($1));
SELECT pg_temp.plan_has($$EXECUTE by_server_key('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a')$$,
	'Index Cond: (id = ulid_decrypt($1))') AS generic_uses_pkey;
SELECT pg_temp.plan_has($$EXECUTE by_server_keys('{69c4e0d8-6a7b-0430-d8cd-b78070b4c55a}')$$,
	'using pub_server_pkey') AS list_uses_pkey;
SELECT pg_temp.plan_has($$EXECUTE by_any_server_key('69c4e0d8-6a7b-0430-d8cd-b78070b4c55a')$$,
	'Index Cond: (id = ANY (ulid_decrypt_all($1)))') AS rotation_uses_pkey;
RESET plan_cache_mode;
DEALLOCATE by_server_key;
DEALLOCATE by_server_keys;
DEALLOCATE by_any_server_key;
DROP TABLE pub_server;
