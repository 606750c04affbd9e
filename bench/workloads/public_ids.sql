-- Public ids: ulid_encrypt() and ulid_decrypt() per call, against pgcrypto's AES.
-- count() over :N calls, each reading its input from table pi: ulid_encrypt(id, key)
-- and ulid_decrypt(public_id, key) against gen_random_uuid() (what a second,
-- random public id costs to make) and against pgcrypto's encrypt(id::bytea,
-- key, 'aes-ecb/pad:none') and decrypt(), the same AES-128 of the same 16
-- bytes (the checks), which returns bytea and makes its cipher context and key
-- schedule on every call.  Twice each: with one key in every row (read from a
-- column all the same, as a bind parameter would be for a whole query:
-- ulid.so keeps the schedule for the call site and only compares the key),
-- and with a key per row (column kr, all distinct), which makes the schedule
-- again on every call: what keeping it saves.  And the server's key (1.4's
-- one-argument forms, the key read from the file ulid.public_id_key_file
-- names, which the driver sets in every cluster and the setup writes, the
-- same key as k): ulid_encrypt(id) and ulid_decrypt(public_id) against the
-- two-argument forms with the same key.  The floor reads the table and calls
-- nothing.
-- cluster: plain
-- rows: :N
-- baseline: floor
-- rounds: 9

-- @setup
CREATE EXTENSION IF NOT EXISTS pgcrypto;
-- The server's key file, k as 32 hexadecimal digits, readable by the server's
-- user alone (the driver runs psql as root, the server as postgres).
\! f="$PGDATA/ulid_public_id.key"; (umask 077 && echo 000102030405060708090a0b0c0d0e0f > "$f") && { [ "$(id -u)" -ne 0 ] || chown postgres: "$f"; }
-- id: ulids of random times over a year; k: one key (FIPS-197's); kr: a
-- random key per row; p: id's public id under k, pb the same as bytea.
CREATE TABLE IF NOT EXISTS pi AS
	SELECT id, ulid_encrypt(id, k) AS p, encrypt(id::bytea, k, 'aes-ecb/pad:none') AS pb, k, kr
	FROM (SELECT gen_ulid(now() - random() * interval '365 days') AS id,
				 '\x000102030405060708090a0b0c0d0e0f'::bytea AS k,
				 gen_random_bytes(16) AS kr
		  FROM generate_series(1, :N)) s;
VACUUM ANALYZE pi;

-- @check
-- pgcrypto's peers compute what ulid.so computes, with one key and a key per row.
SELECT bool_and(encode(encrypt(id::bytea, k, 'aes-ecb/pad:none'), 'hex') = replace(ulid_encrypt(id, k)::text, '-', '')
		AND encode(encrypt(id::bytea, kr, 'aes-ecb/pad:none'), 'hex') = replace(ulid_encrypt(id, kr)::text, '-', '')
		AND decrypt(pb, k, 'aes-ecb/pad:none') = id::bytea AND ulid_decrypt(p, k) = id
		AND decrypt(pb, kr, 'aes-ecb/pad:none') = ulid_decrypt(p, kr)::bytea)
	AND count(*) = 1000
FROM (SELECT * FROM pi LIMIT 1000) s;

-- @check
-- FIPS-197, appendix C.1, through both.
SELECT ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff'::uuid::ulid, k) = '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a'
	AND encode(encrypt('\x00112233445566778899aabbccddeeff', k, 'aes-ecb/pad:none'), 'hex')
		= '69c4e0d86a7b0430d8cdb78070b4c55a'
FROM (SELECT k FROM pi LIMIT 1) s;

-- @check
-- The server's key is k: the one-argument forms compute what the two-argument ones do.
SELECT current_setting('ulid.public_id_key_file') = 'ulid_public_id.key'
	AND bool_and(ulid_encrypt(id) = p AND ulid_decrypt(p) = id) AND count(*) = 1000
FROM (SELECT * FROM pi LIMIT 1000) s;

-- @check
-- One key in every row; a different key in each.
SELECT count(DISTINCT k) = 1 AND count(DISTINCT kr) = :N FROM pi;

-- @case floor
SELECT count(*) FROM pi;

-- @case gen_random_uuid() vs floor
SELECT count(gen_random_uuid()) FROM pi;

-- @case encrypt: ulid_encrypt() under a key passed vs gen_random_uuid(), encrypt: pgcrypto encrypt(), floor
SELECT count(ulid_encrypt(id, k)) FROM pi;

-- @case encrypt: pgcrypto encrypt() vs gen_random_uuid(), floor
SELECT count(encrypt(id::bytea, k, 'aes-ecb/pad:none')) FROM pi;

-- @case decrypt: ulid_decrypt() under a key passed vs gen_random_uuid(), decrypt: pgcrypto decrypt(), floor
SELECT count(ulid_decrypt(p, k)) FROM pi;

-- @case decrypt: pgcrypto decrypt() vs gen_random_uuid(), floor
SELECT count(decrypt(pb, k, 'aes-ecb/pad:none')) FROM pi;

-- @case encrypt: ulid_encrypt() under the server's key vs encrypt: ulid_encrypt() under a key passed, gen_random_uuid(), floor
SELECT count(ulid_encrypt(id)) FROM pi;

-- @case decrypt: ulid_decrypt() under the server's key vs decrypt: ulid_decrypt() under a key passed, gen_random_uuid(), floor
SELECT count(ulid_decrypt(p)) FROM pi;

-- @case encrypt (key per row): ulid_encrypt() vs encrypt: ulid_encrypt() under a key passed, encrypt (key per row): pgcrypto encrypt(), gen_random_uuid(), floor
SELECT count(ulid_encrypt(id, kr)) FROM pi;

-- @case encrypt (key per row): pgcrypto encrypt() vs encrypt: pgcrypto encrypt(), floor
SELECT count(encrypt(id::bytea, kr, 'aes-ecb/pad:none')) FROM pi;

-- @case decrypt (key per row): ulid_decrypt() vs decrypt: ulid_decrypt() under a key passed, decrypt (key per row): pgcrypto decrypt(), gen_random_uuid(), floor
SELECT count(ulid_decrypt(p, kr)) FROM pi;

-- @case decrypt (key per row): pgcrypto decrypt() vs decrypt: pgcrypto decrypt(), floor
SELECT count(decrypt(pb, kr, 'aes-ecb/pad:none')) FROM pi;
