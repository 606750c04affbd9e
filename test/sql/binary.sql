-- Binary I/O: send gives the 16 bytes, recv takes exactly 16.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

SELECT ulid_send('01ARYZ6S41TSV4RRFFQ69G5FAV');

-- COPY (FORMAT binary) round trip, through a file on the client side.
CREATE TABLE binary_src (n int, id ulid);
INSERT INTO binary_src
	SELECT n, gen_ulid() FROM generate_series(1, 1000) n;
INSERT INTO binary_src VALUES
	(1001, '00000000000000000000000000'),
	(1002, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'),
	(1003, NULL);
\copy binary_src TO 'results/binary_ulid.copy' (FORMAT binary)
CREATE TABLE binary_dst (LIKE binary_src);
\copy binary_dst FROM 'results/binary_ulid.copy' (FORMAT binary)
SELECT count(*) FROM binary_dst;
-- Every row came back identical (IS NOT DISTINCT FROM also matches the NULL).
SELECT count(*) FROM binary_src s JOIN binary_dst d
	ON s.n = d.n AND s.id IS NOT DISTINCT FROM d.id;

-- The binary form of a bytea is its bytes, so a binary COPY of bytea values
-- feeds ulid_recv whatever payload we want.
CREATE TABLE binary_payload (n int, b bytea);
CREATE TABLE binary_target (n int, id ulid);
INSERT INTO binary_payload VALUES
	(1, '\x01563df36481d6764c61efb99302bd5b');
\copy binary_payload TO 'results/binary_payload.copy' (FORMAT binary)
\copy binary_target FROM 'results/binary_payload.copy' (FORMAT binary)
SELECT * FROM binary_target;
-- 15 bytes: invalid_binary_representation (22P03).
TRUNCATE binary_payload;
INSERT INTO binary_payload VALUES (2, '\x01563df36481d6764c61efb99302bd');
\copy binary_payload TO 'results/binary_payload.copy' (FORMAT binary)
\set VERBOSITY sqlstate
\copy binary_target FROM 'results/binary_payload.copy' (FORMAT binary)
\set VERBOSITY default
\copy binary_target FROM 'results/binary_payload.copy' (FORMAT binary)
-- 17 bytes: the same.
TRUNCATE binary_payload;
INSERT INTO binary_payload VALUES (3, '\x01563df36481d6764c61efb99302bd5b00');
\copy binary_payload TO 'results/binary_payload.copy' (FORMAT binary)
\set VERBOSITY sqlstate
\copy binary_target FROM 'results/binary_payload.copy' (FORMAT binary)
\set VERBOSITY default
\copy binary_target FROM 'results/binary_payload.copy' (FORMAT binary)
-- 0 bytes: the same.
TRUNCATE binary_payload;
INSERT INTO binary_payload VALUES (4, '\x');
\copy binary_payload TO 'results/binary_payload.copy' (FORMAT binary)
\set VERBOSITY sqlstate
\copy binary_target FROM 'results/binary_payload.copy' (FORMAT binary)
\set VERBOSITY default
SELECT * FROM binary_target;

DROP TABLE binary_src, binary_dst, binary_payload, binary_target;
