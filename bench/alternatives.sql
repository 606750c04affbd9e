-- What a user without this extension writes instead, timed by bench/workloads/generate.sql.
CREATE EXTENSION IF NOT EXISTS pgcrypto;
-- A ULID made in PL/pgSQL and kept as text: 48-bit ms time, 80 bits from
-- pgcrypto's gen_random_bytes(), 26 Crockford Base32 characters.
CREATE FUNCTION plpgsql_ulid() RETURNS text LANGUAGE plpgsql VOLATILE AS $f$
DECLARE
	digits constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
	ms constant bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
	rnd constant bytea := gen_random_bytes(10);
	result text := '';
	acc bigint := 0;
	nbits int := 0;
BEGIN
	FOR i IN REVERSE 9..0 LOOP
		result := result || substr(digits, ((ms >> (5 * i)) & 31)::int + 1, 1);
	END LOOP;
	FOR i IN 0..9 LOOP
		acc := (acc << 8) | get_byte(rnd, i);
		nbits := nbits + 8;
		WHILE nbits >= 5 LOOP
			nbits := nbits - 5;
			result := result || substr(digits, ((acc >> nbits) & 31)::int + 1, 1);
		END LOOP;
		acc := acc & ((1::bigint << nbits) - 1);
	END LOOP;
	RETURN result;
END
$f$;
-- A UUIDv7 in SQL, PostgreSQL 15's way without an extension (18 has
-- uuidv7()): a v4 with its first 48 bits replaced by the time in ms and the
-- version nibble turned from 4 (0100) into 7 (0111).
CREATE FUNCTION sql_uuidv7() RETURNS uuid LANGUAGE sql VOLATILE AS $f$
	SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
		PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
		FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$f$;
