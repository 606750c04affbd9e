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

-- The binary form of a bytea is its bytes, so a binary COPY of a bytea value
-- feeds ulid_recv whatever payload we want.  binary_feed() does that on the
-- server and returns the ulid read, or the error's SQLSTATE, message and
-- detail: one SELECT per payload.
CREATE TABLE binary_target (id ulid);
CREATE FUNCTION binary_feed(payload bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	f text := current_setting('data_directory') || '/binary_payload.copy';
	result text;
	detail text;
BEGIN
	TRUNCATE binary_target;
	EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', payload, f);
	EXECUTE format('COPY binary_target FROM %L (FORMAT binary)', f);
	SELECT id::text INTO result FROM binary_target;
	RETURN result;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS detail = PG_EXCEPTION_DETAIL;
	RETURN format('%s: %s (%s)', SQLSTATE, SQLERRM, detail);
END
$$;
-- 16 bytes: the value.
SELECT binary_feed('\x01563df36481d6764c61efb99302bd5b');
-- 15, 17 and 0 bytes: invalid_binary_representation (22P03).
SELECT binary_feed('\x01563df36481d6764c61efb99302bd');
SELECT binary_feed('\x01563df36481d6764c61efb99302bd5b00');
SELECT binary_feed('\x');

DROP FUNCTION binary_feed(bytea);
DROP TABLE binary_src, binary_dst, binary_target;
