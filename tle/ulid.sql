/*
 * tle/ulid.sql: the trusted-language edition of ulid, for servers that run
 * pg_tle but do not offer the native extension (managed PostgreSQL).
 *
 * Registers the extension "ulid" with pg_tle in the current database; then
 * CREATE EXTENSION ulid makes the type.  Run it as a member of pgtle_admin
 * (docs/managed.md says which role that is on each provider):
 *
 *     psql -d DB -f tle/ulid.sql
 *     psql -d DB -c 'CREATE EXTENSION ulid'
 *
 * The same type to everything above the storage as the native extension: the
 * name ulid, the same 16 bytes of value, the same canonical text and input
 * rules, errors with the same SQLSTATE, message and detail, the same order,
 * the same hash, and the same names for what it provides.  A dump of either
 * restores into the other (docs/managed.md).  What it lacks and what it costs
 * are listed there too.
 *
 * pg_tle keeps a base type's value as a bytea: 16 bytes of data behind a
 * 4-byte varlena header, a fixed length of 20 (typlen 20), and casts it to
 * bytea without a function.  Everything here is SQL or PL/pgSQL, with three
 * exceptions that need no code of their own: the B-tree class compares with
 * core's byteacmp and sorts with bytea_sortsupport, and the hash class hashes
 * with hashvarlena, all of which read exactly those 16 bytes (see the
 * operator classes below).  ulid_encrypt() and ulid_decrypt() call
 * pgcrypto's AES, and need pgcrypto in the database, in any schema; their
 * one-argument forms and ulid_decrypt_all() take the key from a table of the
 * extension that only its owner reads (pg_tle can read no file and define no
 * setting, where the native reads its keys from a file a setting names).
 *
 * pg_tle refuses to register a name for which the server has a control file
 * ("control file already exists for the ulid extension", SQLSTATE 55000):
 * where the native extension is installed, use it instead.
 */

-- Version 1.4, the default: registered with its full script where the
-- edition is new to the database, added beside the versions there are
-- otherwise; nothing where 1.4 is registered already, so that the file can
-- be run again.
SELECT CASE WHEN EXISTS (SELECT FROM pgtle.available_extensions() e
						 WHERE e.name OPERATOR(pg_catalog.=) 'ulid')
	THEN pgtle.install_extension_version_sql('ulid', '1.4', s.script)
	ELSE pgtle.install_extension('ulid', '1.4',
		-- The extension's comment: the native's, word for word, as pg_dump
		-- writes it into dumps that either edition may restore.
		'ULID type: 128-bit, time-ordered identifiers in Crockford Base32',
		s.script) END AS registered
FROM (SELECT $_pgtle_$

-- CREATE EXTENSION runs this with search_path set to the target schema,
-- pg_catalog implicitly first.  Function bodies run under the caller's
-- search_path instead, with the caller's privileges, so they resolve
-- nothing through it: this extension's objects are named through
-- @extschema@, core's functions through pg_catalog, and every operator as
-- OPERATOR(pg_catalog.op).  An operator written bare (acc & 31, ms % 1000)
-- whose argument types pg_catalog has no exact match for would be taken
-- from any schema on the caller's search_path that has one, and run as the
-- caller: a superuser printing a value.

-- PostgreSQL 14 or later: ulid_time_ms() below floors EXTRACT's result,
-- exact as a numeric from 14 on; 13 and older give a float8, which puts
-- about one time in a hundred a millisecond low.
DO $$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.<) 140000 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'the trusted-language edition of ulid needs PostgreSQL 14 or later';
	END IF;
END
$$;

--
-- Shell type
--

SELECT pgtle.create_shell_type('@extschema@', 'ulid');

--
-- I/O functions
--

-- pg_tle calls these from C functions of the same names that it makes,
-- ulid_in(cstring) and ulid_out(ulid): input returns the 16 bytes, output
-- reads them.  PL/pgSQL, not SQL: pg_tle calls them through a fresh
-- function lookup each time, which keeps PL/pgSQL's compiled function but
-- would plan a SQL function anew on every value.

-- Text input: 26 Crockford Base32 characters, case-insensitive, I and L read
-- as 1 and O as 0, the first at most 7; or a UUID in its canonical 8-4-4-4-12
-- hyphenated form, any case.  Anything else raises the error the native
-- ulid_in raises: SQLSTATE 22P02, the same message, the same detail.
CREATE FUNCTION ulid_in(input pg_catalog.text)
RETURNS pg_catalog.bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	digits CONSTANT pg_catalog.text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
	s pg_catalog.text;
	hex pg_catalog.text;
	acc pg_catalog.int8;
	-- the error path
	enc pg_catalog.text;
	nchars pg_catalog.int4;
	c pg_catalog.text;
	high_bytes pg_catalog.bool := false;
	bad_ulid pg_catalog.text;
	bad_ulid_pos pg_catalog.int4;
	bad_uuid pg_catalog.text;
	bad_uuid_pos pg_catalog.int4;
	uuid_ok pg_catalog.bool;
	t pg_catalog.text;
	framed pg_catalog.bool := false;
	hyphen pg_catalog.bool := false;
	udigits pg_catalog.text := '';
	ndigits pg_catalog.int4 := 0;
	detail pg_catalog.text;
BEGIN
	-- A ULID.  The aliases and lower case are mapped by translate(), not
	-- upper(), whose result depends on the locale.
	IF input OPERATOR(pg_catalog.~) '^[0-7OoIiLl][0-9A-TV-Za-tv-z]{25}$' THEN
		s := pg_catalog.translate(input, 'abcdefghijklmnopqrstvwxyzILO',
								  'ABCDEFGH1JK1MN0PQRSTVWXYZ110');
		-- Byte 0: the first character's 3 bits and the second's 5.
		hex := pg_catalog.lpad(pg_catalog.to_hex(
				((pg_catalog.strpos(digits, pg_catalog.substr(s, 1, 1)) OPERATOR(pg_catalog.-) 1)
				 OPERATOR(pg_catalog.*) 32)
				OPERATOR(pg_catalog.+) pg_catalog.strpos(digits, pg_catalog.substr(s, 2, 1))
				OPERATOR(pg_catalog.-) 1), 2, '0');
		-- Then three groups of 8 characters, 40 bits, 5 bytes each.
		FOR g IN 0 .. 2 LOOP
			acc := 0;
			FOR i IN 3 OPERATOR(pg_catalog.+) (8 OPERATOR(pg_catalog.*) g) ..
					 10 OPERATOR(pg_catalog.+) (8 OPERATOR(pg_catalog.*) g) LOOP
				acc := (acc OPERATOR(pg_catalog.*) 32)
					OPERATOR(pg_catalog.+) pg_catalog.strpos(digits, pg_catalog.substr(s, i, 1))
					OPERATOR(pg_catalog.-) 1;
			END LOOP;
			hex := hex OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(acc), 10, '0');
		END LOOP;
		RETURN pg_catalog.decode(hex, 'hex');
	END IF;

	-- A UUID in its canonical form: the bytes of the uuid cast.
	IF input OPERATOR(pg_catalog.~) '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$' THEN
		RETURN pg_catalog.decode(pg_catalog.replace(input, '-', ''), 'hex');
	END IF;

	-- Neither: find why, in the order the native ulid_in reports it.
	-- Characters are counted as the database encoding defines them, as
	-- length() and substr() do; in SQL_ASCII every byte is one, and a byte
	-- above 127 is shown by its value.
	enc := pg_catalog.getdatabaseencoding();
	nchars := pg_catalog.length(input);
	FOR i IN 1 .. nchars LOOP
		c := pg_catalog.substr(input, i, 1);
		IF enc OPERATOR(pg_catalog.=) 'SQL_ASCII' AND
			pg_catalog.get_byte(pg_catalog.convert_to(c, enc), 0) OPERATOR(pg_catalog.>) 127 THEN
			high_bytes := true;
			c := 'Byte 0x' OPERATOR(pg_catalog.||) pg_catalog.translate(pg_catalog.lpad(pg_catalog.to_hex(
					pg_catalog.get_byte(pg_catalog.convert_to(c, enc), 0)), 2, '0'), 'abcdef', 'ABCDEF');
		ELSE
			c := pg_catalog.format('Character "%s"', c);
		END IF;
		IF bad_ulid IS NULL AND
			pg_catalog.strpos('0123456789ABCDEFGHIJKLMNOPQRSTVWXYZabcdefghijklmnopqrstvwxyz',
							  pg_catalog.substr(input, i, 1)) OPERATOR(pg_catalog.=) 0 THEN
			bad_ulid := c;
			bad_ulid_pos := i;
		END IF;
		IF bad_uuid IS NULL AND i OPERATOR(pg_catalog.<=) 36 THEN
			IF i OPERATOR(pg_catalog.=) ANY ('{9,14,19,24}'::pg_catalog.int4[]) THEN
				uuid_ok := pg_catalog.substr(input, i, 1) OPERATOR(pg_catalog.=) '-';
			ELSE
				uuid_ok := pg_catalog.strpos('0123456789abcdefABCDEF', pg_catalog.substr(input, i, 1))
					OPERATOR(pg_catalog.>) 0;
			END IF;
			IF NOT uuid_ok THEN
				bad_uuid := c;
				bad_uuid_pos := i;
			END IF;
		END IF;
	END LOOP;

	-- Is it a UUID written another way?  Hexadecimal digits with hyphens
	-- anywhere, optionally in braces or after "urn:uuid:" (either case),
	-- optionally with white space around: with 32 digits, or with braces or
	-- the prefix and a digit, or with a hyphen and at least 16 digits.
	t := pg_catalog.btrim(input, E' \t\n\r');
	IF pg_catalog.translate(pg_catalog.substr(t, 1, 9), 'URNID', 'urnid') OPERATOR(pg_catalog.=) 'urn:uuid:' THEN
		t := pg_catalog.substr(t, 10);
		framed := true;
	END IF;
	IF pg_catalog.length(t) OPERATOR(pg_catalog.>=) 2 AND pg_catalog.left(t, 1) OPERATOR(pg_catalog.=) '{' AND
		pg_catalog.right(t, 1) OPERATOR(pg_catalog.=) '}' THEN
		t := pg_catalog.substr(t, 2, pg_catalog.length(t) OPERATOR(pg_catalog.-) 2);
		framed := true;
	END IF;
	FOR i IN 1 .. pg_catalog.length(t) LOOP
		c := pg_catalog.substr(t, i, 1);
		IF pg_catalog.strpos('0123456789abcdefABCDEF', c) OPERATOR(pg_catalog.>) 0 THEN
			ndigits := ndigits OPERATOR(pg_catalog.+) 1;
			udigits := udigits OPERATOR(pg_catalog.||) pg_catalog.translate(c, 'ABCDEF', 'abcdef');
		ELSIF c OPERATOR(pg_catalog.=) '-' THEN
			hyphen := true;
		ELSE
			ndigits := -1;
			EXIT;
		END IF;
	END LOOP;
	IF ndigits OPERATOR(pg_catalog.<>) 32 AND NOT ((framed AND ndigits OPERATOR(pg_catalog.>) 0) OR
												  (hyphen AND ndigits OPERATOR(pg_catalog.>=) 16)) THEN
		ndigits := -1;
	END IF;

	IF nchars OPERATOR(pg_catalog.=) 26 AND bad_ulid IS NOT NULL THEN
		detail := pg_catalog.format('%s at position %s is not a Crockford Base32 digit.', bad_ulid, bad_ulid_pos);
	ELSIF nchars OPERATOR(pg_catalog.=) 26 THEN
		detail := pg_catalog.format('The first character is "%s", but it must be 0-7: the value does not fit in 128 bits.',
									pg_catalog.substr(input, 1, 1));
	ELSIF ndigits OPERATOR(pg_catalog.=) 32 THEN
		detail := pg_catalog.format('A UUID is read only in its canonical 8-4-4-4-12 hyphenated form, here "%s-%s-%s-%s-%s"; cast other spellings from uuid.',
									pg_catalog.substr(udigits, 1, 8), pg_catalog.substr(udigits, 9, 4),
									pg_catalog.substr(udigits, 13, 4), pg_catalog.substr(udigits, 17, 4),
									pg_catalog.substr(udigits, 21, 12));
	ELSIF ndigits OPERATOR(pg_catalog.>) 0 THEN
		detail := pg_catalog.format('A UUID has 32 hexadecimal digits, got %s.', ndigits);
	ELSIF nchars OPERATOR(pg_catalog.=) 36 AND bad_uuid IS NOT NULL AND
		bad_uuid_pos OPERATOR(pg_catalog.=) ANY ('{9,14,19,24}'::pg_catalog.int4[]) THEN
		detail := pg_catalog.format('%s at position %s is not a hyphen: a UUID is written in the 8-4-4-4-12 hyphenated form.',
									bad_uuid, bad_uuid_pos);
	ELSIF nchars OPERATOR(pg_catalog.=) 36 AND bad_uuid IS NOT NULL THEN
		detail := pg_catalog.format('%s at position %s is not a hexadecimal digit: a UUID is written in the 8-4-4-4-12 hyphenated form.',
									bad_uuid, bad_uuid_pos);
	ELSIF enc OPERATOR(pg_catalog.=) 'SQL_ASCII' AND high_bytes THEN
		detail := pg_catalog.format('Expected 26 characters, got %s; in a SQL_ASCII database every byte is a character.', nchars);
	ELSE
		detail := pg_catalog.format('Expected 26 characters, got %s.', nchars);
	END IF;
	RAISE EXCEPTION USING
		ERRCODE = 'invalid_text_representation',
		MESSAGE = pg_catalog.format('invalid input syntax for type ulid: "%s"', input),
		DETAIL = detail;
END
$$;

-- Text output: the 26 canonical upper-case characters.
CREATE FUNCTION ulid_out(value pg_catalog.bytea)
RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	digits CONSTANT pg_catalog.text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
	b0 pg_catalog.int4 := pg_catalog.get_byte(value, 0);
	result pg_catalog.text;
	acc pg_catalog.int8;
BEGIN
	-- The top 3 bits of byte 0, then its low 5 bits.
	result := pg_catalog.substr(digits, (b0 OPERATOR(pg_catalog./) 32) OPERATOR(pg_catalog.+) 1, 1)
		OPERATOR(pg_catalog.||) pg_catalog.substr(digits, (b0 OPERATOR(pg_catalog.%) 32) OPERATOR(pg_catalog.+) 1, 1);
	-- Then bytes 1-5, 6-10 and 11-15, 40 bits each, as 8 characters each.
	FOR g IN 0 .. 2 LOOP
		acc := 0;
		FOR k IN 1 OPERATOR(pg_catalog.+) (5 OPERATOR(pg_catalog.*) g) ..
				 5 OPERATOR(pg_catalog.+) (5 OPERATOR(pg_catalog.*) g) LOOP
			acc := (acc OPERATOR(pg_catalog.*) 256) OPERATOR(pg_catalog.+) pg_catalog.get_byte(value, k);
		END LOOP;
		FOR i IN REVERSE 7 .. 0 LOOP
			result := result OPERATOR(pg_catalog.||) pg_catalog.substr(digits,
				((acc OPERATOR(pg_catalog.>>) (5 OPERATOR(pg_catalog.*) i)) OPERATOR(pg_catalog.&) 31::pg_catalog.int8)
					::pg_catalog.int4 OPERATOR(pg_catalog.+) 1, 1);
		END LOOP;
	END LOOP;
	RETURN result;
END
$$;

--
-- The type: 16 bytes of value, kept by pg_tle as a bytea
--

SELECT pgtle.create_base_type('@extschema@', 'ulid',
	'@extschema@.ulid_in(pg_catalog.text)'::pg_catalog.regprocedure,
	'@extschema@.ulid_out(pg_catalog.bytea)'::pg_catalog.regprocedure,
	16);

COMMENT ON TYPE ulid IS
'ULID: 48-bit Unix time in milliseconds and 80 random bits, 16 bytes, shown as 26 Crockford Base32 characters (trusted-language edition)';

--
-- Casts
--

-- bytea: pg_tle has made the cast from ulid (explicit, without a function:
-- the 16 bytes).  The way back checks the length, as the native's does.
CREATE FUNCTION ulid_from_bytea(value pg_catalog.bytea)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	hex pg_catalog.text;
BEGIN
	IF pg_catalog.length(value) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_binary_representation',
			MESSAGE = 'invalid length in external "ulid" value',
			DETAIL = pg_catalog.format('Expected 16 bytes, got %s.', pg_catalog.length(value));
	END IF;
	-- A value of the type is made only by its input function; the canonical
	-- UUID text is the cheapest form it reads.
	hex := pg_catalog.encode(value, 'hex');
	RETURN (pg_catalog.substr(hex, 1, 8) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 9, 4) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 13, 4) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 17, 4) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 21, 12))::@extschema@.ulid;
END
$$;

COMMENT ON FUNCTION ulid_from_bytea(pg_catalog.bytea) IS
'ulid from its 16 bytes (big-endian); any other length is an error';

CREATE CAST (pg_catalog.bytea AS ulid) WITH FUNCTION ulid_from_bytea(pg_catalog.bytea);

-- uuid: the same 16 bytes, implicit from ulid and on assignment back, as
-- the native casts are; here through functions, the two types being stored
-- differently.
CREATE FUNCTION ulid_to_uuid(value ulid)
RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
	RETURN pg_catalog.encode(value::pg_catalog.bytea, 'hex')::pg_catalog.uuid;
END
$$;

CREATE FUNCTION ulid_from_uuid(value pg_catalog.uuid)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
	-- uuid's output is the canonical form, which ulid's input reads.
	RETURN value::pg_catalog.text::@extschema@.ulid;
END
$$;

CREATE CAST (ulid AS pg_catalog.uuid) WITH FUNCTION ulid_to_uuid(ulid) AS IMPLICIT;
CREATE CAST (pg_catalog.uuid AS ulid) WITH FUNCTION ulid_from_uuid(pg_catalog.uuid) AS ASSIGNMENT;

-- timestamptz: the embedded time, and the smallest ulid of a millisecond.

-- The ULID millisecond of a time, floored; an error outside what 48 bits
-- hold (1970-01-01 to 10889-08-02 05:31:50.655 UTC) and for infinity.
CREATE FUNCTION ulid_time_ms(ts pg_catalog.timestamptz)
RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	ms pg_catalog.int8;
BEGIN
	IF pg_catalog.isfinite(ts) THEN
		-- EXTRACT gives a numeric: exact to the microsecond (date_part() a float8).
		ms := pg_catalog.floor(EXTRACT(epoch FROM ts) OPERATOR(pg_catalog.*) 1000::pg_catalog.numeric);
	END IF;
	IF ms IS NULL OR ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 281474976710655 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'datetime_field_overflow',
			MESSAGE = 'timestamp out of range for type ulid',
			DETAIL = 'A ulid holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
	END IF;
	RETURN ms;
END
$$;

CREATE FUNCTION ulid_time(value ulid)
RETURNS pg_catalog.timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	b pg_catalog.bytea := value::pg_catalog.bytea;
	ms pg_catalog.int8 := 0;
BEGIN
	FOR k IN 0 .. 5 LOOP
		ms := (ms OPERATOR(pg_catalog.*) 256) OPERATOR(pg_catalog.+) pg_catalog.get_byte(b, k);
	END LOOP;
	-- Whole seconds, then the milliseconds: each exact in a float8, where
	-- ms / 1000.0 is not (the time would be off by microseconds).
	RETURN pg_catalog.to_timestamp((ms OPERATOR(pg_catalog./) 1000::pg_catalog.int8)::pg_catalog.float8)
		OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs =>
			(ms OPERATOR(pg_catalog.%) 1000::pg_catalog.int8)::pg_catalog.float8
				OPERATOR(pg_catalog./) 1000::pg_catalog.float8);
END
$$;

COMMENT ON FUNCTION ulid_time(ulid) IS
'the creation time embedded in a ulid, to the millisecond';

-- The first or last ULID of ts's millisecond: the time, then 80 zero or one bits.
CREATE FUNCTION ulid_min_at(ts pg_catalog.timestamptz)
RETURNS ulid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT @extschema@.ulid_from_bytea(pg_catalog.decode(
		pg_catalog.lpad(pg_catalog.to_hex(@extschema@.ulid_time_ms(ts)), 12, '0') OPERATOR(pg_catalog.||) '00000000000000000000',
		'hex'))
$$;

COMMENT ON FUNCTION ulid_min_at(pg_catalog.timestamptz) IS
'the smallest ulid of the millisecond containing a time: an inclusive lower bound';

CREATE FUNCTION ulid_max_at(ts pg_catalog.timestamptz)
RETURNS ulid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT @extschema@.ulid_from_bytea(pg_catalog.decode(
		pg_catalog.lpad(pg_catalog.to_hex(@extschema@.ulid_time_ms(ts)), 12, '0') OPERATOR(pg_catalog.||) 'ffffffffffffffffffff',
		'hex'))
$$;

COMMENT ON FUNCTION ulid_max_at(pg_catalog.timestamptz) IS
'the largest ulid of the millisecond containing a time: an inclusive upper bound';

CREATE FUNCTION ulid_from_time(ts pg_catalog.timestamptz)
RETURNS ulid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT @extschema@.ulid_min_at(ts)
$$;

COMMENT ON FUNCTION ulid_from_time(pg_catalog.timestamptz) IS
'the smallest ulid of the millisecond of a time (random part all zeros), for range predicates';

CREATE CAST (ulid AS pg_catalog.timestamptz) WITH FUNCTION ulid_time(ulid);
CREATE CAST (pg_catalog.timestamptz AS ulid) WITH FUNCTION ulid_from_time(pg_catalog.timestamptz);

--
-- Comparison functions
--

-- Byte order is value order: bytea's comparisons of the 16 bytes.  PL/pgSQL,
-- not SQL: the planner would inline a SQL function into a bytea comparison,
-- which an index on the ulid column cannot serve.  Not LEAKPROOF: only a
-- superuser may mark a function so.
CREATE FUNCTION ulid_lt(a ulid, b ulid) RETURNS pg_catalog.bool
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.bytealt(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

CREATE FUNCTION ulid_le(a ulid, b ulid) RETURNS pg_catalog.bool
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.byteale(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

CREATE FUNCTION ulid_eq(a ulid, b ulid) RETURNS pg_catalog.bool
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.byteaeq(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

CREATE FUNCTION ulid_ne(a ulid, b ulid) RETURNS pg_catalog.bool
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.byteane(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

CREATE FUNCTION ulid_ge(a ulid, b ulid) RETURNS pg_catalog.bool
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.byteage(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

CREATE FUNCTION ulid_gt(a ulid, b ulid) RETURNS pg_catalog.bool
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.byteagt(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

CREATE FUNCTION ulid_cmp(a ulid, b ulid) RETURNS pg_catalog.int4
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN RETURN pg_catalog.byteacmp(a::pg_catalog.bytea, b::pg_catalog.bytea); END $$;

--
-- Operators
--

-- Core's estimators: the native's own histogram estimator is C.
CREATE OPERATOR < (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_lt,
	COMMUTATOR = >, NEGATOR = >=,
	RESTRICT = pg_catalog.scalarltsel, JOIN = pg_catalog.scalarltjoinsel
);

CREATE OPERATOR <= (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_le,
	COMMUTATOR = >=, NEGATOR = >,
	RESTRICT = pg_catalog.scalarlesel, JOIN = pg_catalog.scalarlejoinsel
);

CREATE OPERATOR = (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_eq,
	COMMUTATOR = =, NEGATOR = <>,
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel,
	HASHES, MERGES
);

CREATE OPERATOR <> (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_ne,
	COMMUTATOR = <>, NEGATOR = =,
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);

CREATE OPERATOR >= (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_ge,
	COMMUTATOR = <=, NEGATOR = <,
	RESTRICT = pg_catalog.scalargesel, JOIN = pg_catalog.scalargejoinsel
);

CREATE OPERATOR > (
	LEFTARG = ulid, RIGHTARG = ulid, PROCEDURE = ulid_gt,
	COMMUTATOR = <, NEGATOR = <=,
	RESTRICT = pg_catalog.scalargtsel, JOIN = pg_catalog.scalargtjoinsel
);

--
-- Operator classes
--

-- The support functions are core's for bytea, which take the value as the
-- bytea it is stored as (the cast pg_tle made is binary) and read its 16
-- bytes: byteacmp compares them as memcmp does, the native order;
-- bytea_sortsupport gives sorts and index builds abbreviated keys of the
-- first 8 (the time and 16 random bits), as the native's sort support does;
-- equal values are bytewise equal, so deduplication is safe (btequalimage).
-- A B-tree scan compares through support function 1, so index searches and
-- builds run no PL/pgSQL; the operators above serve filters and joins.
CREATE OPERATOR CLASS ulid_ops
DEFAULT FOR TYPE ulid USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 (ulid, ulid) pg_catalog.byteacmp(pg_catalog.bytea, pg_catalog.bytea),
	FUNCTION 2 (ulid, ulid) pg_catalog.bytea_sortsupport(pg_catalog.internal),
	FUNCTION 4 (ulid, ulid) pg_catalog.btequalimage(pg_catalog.oid);

-- hashvarlena hashes the 16 bytes as uuid_hash does: the native ulid_hash
-- is uuid_hash of the same bytes, so hash partitions and hash indexes place
-- every value where the native's do.
CREATE OPERATOR CLASS ulid_hash_ops
DEFAULT FOR TYPE ulid USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 (ulid, ulid) pg_catalog.hashvarlena(pg_catalog.internal),
	FUNCTION 2 (ulid, ulid) pg_catalog.hashvarlenaextended(pg_catalog.internal, pg_catalog.int8);

--
-- Aggregates
--

CREATE FUNCTION ulid_smaller(a ulid, b ulid) RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN IF pg_catalog.byteale(a::pg_catalog.bytea, b::pg_catalog.bytea) THEN RETURN a; END IF; RETURN b; END $$;

CREATE FUNCTION ulid_larger(a ulid, b ulid) RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS
$$ BEGIN IF pg_catalog.byteage(a::pg_catalog.bytea, b::pg_catalog.bytea) THEN RETURN a; END IF; RETURN b; END $$;

COMMENT ON FUNCTION ulid_smaller(ulid, ulid) IS 'the smaller of two ulids';
COMMENT ON FUNCTION ulid_larger(ulid, ulid) IS 'the larger of two ulids';

CREATE AGGREGATE min(ulid) (
	SFUNC = ulid_smaller,
	STYPE = ulid,
	COMBINEFUNC = ulid_smaller,
	SORTOP = <,
	PARALLEL = SAFE
);

CREATE AGGREGATE max(ulid) (
	SFUNC = ulid_larger,
	STYPE = ulid,
	COMBINEFUNC = ulid_larger,
	SORTOP = >,
	PARALLEL = SAFE
);

COMMENT ON AGGREGATE min(ulid) IS 'the smallest (earliest) ulid';
COMMENT ON AGGREGATE max(ulid) IS 'the largest (latest) ulid';

--
-- Generators
--

-- Random bits come from gen_random_uuid() (core, pg_strong_random()): of a
-- UUIDv4's 32 hexadecimal digits, the 13th (the version) and the 17th (the
-- variant's bits) are not random, so only digits 1-12 and 19-32 are taken.
--
-- The last value of each generator is kept in the session, in a custom
-- setting (ulid.last_gen_ulid, ulid.last_monotonic), as pg_tle offers no
-- memory of its own.  Settings follow transactions: a rollback restores the
-- value the transaction began with.  Setting one is refused in parallel
-- mode, so the generators are PARALLEL UNSAFE (the native's are not).
--
-- Anyone can set those settings too (SET, ALTER ROLE ... SET, PGOPTIONS), so
-- a value that the generator could not have written is treated as absent:
-- it must be the 32 lower-case hexadecimal digits the generators write and,
-- for gen_monotonic_ulid(), whose next value follows from it without fresh
-- bits, of a time no later than the clock.  A state set in the future would
-- otherwise make every session that has it produce the same ids
-- (docs/managed.md says what a session can and cannot do to its ids).

-- The next value for millisecond ms, as the native gen_ulid() makes it:
-- within one millisecond a session's values ascend, by the one before's
-- bytes 6-7 plus one and 64 fresh random bits; the first of a millisecond
-- (or when those 16 bits are all ones) is 80 fresh random bits.
CREATE FUNCTION ulid_generate_packed(ms pg_catalog.int8)
RETURNS ulid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE AS $$
DECLARE
	time_hex pg_catalog.text := pg_catalog.lpad(pg_catalog.to_hex(ms), 12, '0');
	r pg_catalog.text := pg_catalog.replace(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
	last pg_catalog.text := pg_catalog.current_setting('ulid.last_gen_ulid', true);
	counter pg_catalog.int4;
	hex pg_catalog.text;
BEGIN
	-- (32 lower-case hexadecimal digits: rtrim() of them leaves nothing)
	IF pg_catalog.left(last, 12) OPERATOR(pg_catalog.=) time_hex AND
		pg_catalog.length(last) OPERATOR(pg_catalog.=) 32 AND
		pg_catalog.rtrim(last, '0123456789abcdef') OPERATOR(pg_catalog.=) '' THEN
		counter := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 13, 4))::pg_catalog.bit(16)::pg_catalog.int4;
		IF counter OPERATOR(pg_catalog.<) 65535 THEN
			hex := time_hex OPERATOR(pg_catalog.||)
				pg_catalog.lpad(pg_catalog.to_hex(counter OPERATOR(pg_catalog.+) 1), 4, '0') OPERATOR(pg_catalog.||)
				pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 4);
		END IF;
	END IF;
	IF hex IS NULL THEN
		hex := time_hex OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||)
			pg_catalog.substr(r, 19, 8);
	END IF;
	-- An assignment, not PERFORM: PL/pgSQL evaluates it without a plan,
	-- where PERFORM's would be logged by auto_explain (nested statements)
	-- with the new id in it.
	last := pg_catalog.set_config('ulid.last_gen_ulid', hex, false);
	RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(hex, 'hex'));
END
$$;

CREATE FUNCTION gen_ulid()
RETURNS ulid
LANGUAGE sql VOLATILE PARALLEL UNSAFE AS $$
	SELECT @extschema@.ulid_generate_packed(@extschema@.ulid_time_ms(pg_catalog.clock_timestamp()))
$$;

COMMENT ON FUNCTION gen_ulid() IS
'a new ulid: the current time and cryptographically random bits: 80 in a session''s first id of a millisecond, then the first 16 plus one and 64 fresh, so that its ids of a millisecond ascend';

CREATE FUNCTION gen_ulid(ts pg_catalog.timestamptz)
RETURNS ulid
LANGUAGE sql VOLATILE STRICT PARALLEL UNSAFE AS $$
	SELECT @extschema@.ulid_generate_packed(@extschema@.ulid_time_ms(ts))
$$;

COMMENT ON FUNCTION gen_ulid(pg_catalog.timestamptz) IS
'a new ulid for the given time (floored to the millisecond) and cryptographically random bits, as gen_ulid() makes them: ascending within a millisecond in one session';

-- Strictly greater than the session's previous value, as the native's step:
-- a clock ahead of the last value's millisecond gives the current time and
-- 80 fresh random bits; the same millisecond gives the last value plus one
-- over its 80 random bits, keeping its time; all ones there moves to the
-- next millisecond with fresh bits.  A last value later than the clock is
-- taken for one the session set (above), not followed: where the clock
-- steps back by more than a millisecond, the edition starts again from the
-- clock, and only the native's ids stay above those made before the step.
CREATE FUNCTION gen_monotonic_ulid()
RETURNS ulid
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
DECLARE
	now_ms pg_catalog.int8 := @extschema@.ulid_time_ms(pg_catalog.clock_timestamp());
	r pg_catalog.text := pg_catalog.replace(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
	last pg_catalog.text := pg_catalog.current_setting('ulid.last_monotonic', true);
	last_ms pg_catalog.int8;
	hi pg_catalog.int8;			-- the first 20 random bits
	lo pg_catalog.int8;			-- the last 60
	hex pg_catalog.text;
BEGIN
	-- (32 lower-case hexadecimal digits: rtrim() of them leaves nothing)
	IF pg_catalog.length(last) OPERATOR(pg_catalog.=) 32 AND
		pg_catalog.rtrim(last, '0123456789abcdef') OPERATOR(pg_catalog.=) '' THEN
		last_ms := ('x0000' OPERATOR(pg_catalog.||) pg_catalog.left(last, 12))::pg_catalog.bit(64)::pg_catalog.int8;
		-- Later than the clock: not a value this function wrote (but for the
		-- step into the next millisecond below, once in 2^80 ids), so absent.
		IF last_ms OPERATOR(pg_catalog.>) (now_ms OPERATOR(pg_catalog.+) 1::pg_catalog.int8) THEN
			last_ms := NULL;
		END IF;
	END IF;
	IF last_ms IS NULL OR now_ms OPERATOR(pg_catalog.>) last_ms THEN
		hex := pg_catalog.lpad(pg_catalog.to_hex(now_ms), 12, '0') OPERATOR(pg_catalog.||)
			pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 8);
	ELSE
		hi := ('x00000000000' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 13, 5))::pg_catalog.bit(64)::pg_catalog.int8;
		lo := ('x0' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 18, 15))::pg_catalog.bit(64)::pg_catalog.int8;
		IF lo OPERATOR(pg_catalog.<) 1152921504606846975::pg_catalog.int8 THEN		-- 2^60 - 1
			lo := lo OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
		ELSIF hi OPERATOR(pg_catalog.<) 1048575::pg_catalog.int8 THEN				-- 2^20 - 1
			hi := hi OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
			lo := 0;
		ELSIF last_ms OPERATOR(pg_catalog.<) 281474976710655::pg_catalog.int8 THEN	-- the last millisecond
			last_ms := last_ms OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
			hi := NULL;
		ELSE
			RAISE EXCEPTION USING
				ERRCODE = 'sequence_generator_limit_exceeded',
				MESSAGE = 'no ulid is greater than the last one generated',
				DETAIL = 'The last ulid generated is the largest possible value.';
		END IF;
		IF hi IS NULL THEN
			hex := pg_catalog.lpad(pg_catalog.to_hex(last_ms), 12, '0') OPERATOR(pg_catalog.||)
				pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 8);
		ELSE
			hex := pg_catalog.left(last, 12) OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(hi), 5, '0')
				OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(lo), 15, '0');
		END IF;
	END IF;
	-- An assignment, not PERFORM: PL/pgSQL evaluates it without a plan,
	-- where PERFORM's would be logged by auto_explain (nested statements)
	-- with the new id in it.
	last := pg_catalog.set_config('ulid.last_monotonic', hex, false);
	RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(hex, 'hex'));
END
$$;

COMMENT ON FUNCTION gen_monotonic_ulid() IS
'a new ulid strictly greater than the previous one generated in its scope (see ulid_monotonic_scope())';

CREATE FUNCTION ulid_monotonic_scope()
RETURNS pg_catalog.text
LANGUAGE sql STABLE PARALLEL SAFE AS $$ SELECT 'backend'::pg_catalog.text $$;

COMMENT ON FUNCTION ulid_monotonic_scope() IS
'backend: gen_monotonic_ulid() is monotonic within a session (the trusted-language edition has no shared memory)';

--
-- Public ids: AES-128 through pgcrypto
--

-- ulid_encrypt() is AES-128 (FIPS-197) of the 16 bytes as one block, no
-- mode and no padding, under a 16-byte key: pgcrypto's encrypt() with
-- 'aes-ecb/pad:none', the native's cipher.  pgcrypto pads a shorter key
-- with zeros and takes a longer one for AES-192 or AES-256, so the length is
-- checked here first; the key is never shown in an error.
--
-- pgcrypto may be in any schema, or missing: its schema is looked up in
-- pg_extension on each call (a session setting could be forged), and its
-- function called there by name with exact argument types (bytea, bytea,
-- text), so that nothing comes from the caller's search_path.  A function
-- of another name or types in that schema is never chosen over pgcrypto's
-- own; one there with the same three arguments and more with defaults
-- makes the call ambiguous, an error, never another function's result.
-- Where pgcrypto is missing: SQLSTATE 0A000 with the hint to create it.
CREATE FUNCTION ulid_encrypt(id ulid, key pg_catalog.bytea)
RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	crypto pg_catalog.name;
	block pg_catalog.bytea;
BEGIN
	IF pg_catalog.length(key) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_parameter_value',
			MESSAGE = pg_catalog.format('key must be 16 bytes, not %s', pg_catalog.length(key)),
			DETAIL = 'ulid_encrypt and ulid_decrypt use AES-128, whose key is 16 bytes.';
	END IF;
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_encrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	EXECUTE pg_catalog.format('SELECT %I.encrypt($1, $2, $3)', crypto) INTO block
		USING id::pg_catalog.bytea, key, 'aes-ecb/pad:none'::pg_catalog.text;
	RETURN pg_catalog.encode(block, 'hex')::pg_catalog.uuid;
END
$$;

COMMENT ON FUNCTION ulid_encrypt(ulid, pg_catalog.bytea) IS
'the public id of a ulid: its 16 bytes enciphered as one AES-128 block under a 16-byte key, as a uuid that tells nothing of the time';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	crypto pg_catalog.name;
	block pg_catalog.bytea;
BEGIN
	IF pg_catalog.length(key) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_parameter_value',
			MESSAGE = pg_catalog.format('key must be 16 bytes, not %s', pg_catalog.length(key)),
			DETAIL = 'ulid_encrypt and ulid_decrypt use AES-128, whose key is 16 bytes.';
	END IF;
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_decrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	EXECUTE pg_catalog.format('SELECT %I.decrypt($1, $2, $3)', crypto) INTO block
		USING pg_catalog.uuid_send(public_id), key, 'aes-ecb/pad:none'::pg_catalog.text;
	RETURN @extschema@.ulid_from_bytea(block);
END
$$;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
'the ulid of a public id made by ulid_encrypt with the same key';

--
-- MongoDB ObjectIds
--

-- An ObjectId is 12 bytes, 4 of Unix seconds (big-endian) and 8 more; its
-- ulid has the time seconds * 1000, the 8 bytes, then two zero bytes, so
-- ObjectIds and their ulids sort alike.  Text is 24 hexadecimal digits of
-- either case, nothing around them; errors as the native's, SQLSTATE 22P02
-- with a detail saying what is wrong, or 22P03 for 12 bytes that are not.
CREATE FUNCTION ulid_from_objectid(pg_catalog.text)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	objectid ALIAS FOR $1;
	detail pg_catalog.text;
BEGIN
	IF objectid OPERATOR(pg_catalog.~) '^[0-9A-Fa-f]{24}$' THEN
		RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(
			pg_catalog.lpad(pg_catalog.to_hex(('x00000000' OPERATOR(pg_catalog.||) pg_catalog.left(objectid, 8))
				::pg_catalog.bit(64)::pg_catalog.int8 OPERATOR(pg_catalog.*) 1000::pg_catalog.int8), 12, '0')
			OPERATOR(pg_catalog.||) pg_catalog.substr(objectid, 9) OPERATOR(pg_catalog.||) '0000', 'hex'));
	END IF;
	IF pg_catalog.left(objectid, 9) OPERATOR(pg_catalog.=) 'ObjectId(' THEN
		detail := 'An ObjectId is read as its 24 hexadecimal digits alone, without ObjectId(...) around them.';
	ELSIF pg_catalog.length(objectid) OPERATOR(pg_catalog.<>) 24 THEN
		detail := pg_catalog.format('Expected 24 hexadecimal digits, got %s characters.', pg_catalog.length(objectid));
	ELSE
		FOR i IN 1 .. 24 LOOP
			IF pg_catalog.strpos('0123456789abcdefABCDEF', pg_catalog.substr(objectid, i, 1)) OPERATOR(pg_catalog.=) 0 THEN
				detail := pg_catalog.format('Character "%s" at position %s is not a hexadecimal digit.',
											pg_catalog.substr(objectid, i, 1), i);
				EXIT;
			END IF;
		END LOOP;
	END IF;
	RAISE EXCEPTION USING
		ERRCODE = 'invalid_text_representation',
		MESSAGE = pg_catalog.format('invalid input syntax for an ObjectId: "%s"', objectid),
		DETAIL = detail;
END
$$;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.text) IS
'the ulid of a MongoDB ObjectId given as its 24 hexadecimal digits: its seconds as milliseconds, its last 8 bytes, two zero bytes';

CREATE FUNCTION ulid_from_objectid(pg_catalog.bytea)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	objectid ALIAS FOR $1;
BEGIN
	IF pg_catalog.length(objectid) OPERATOR(pg_catalog.<>) 12 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_binary_representation',
			MESSAGE = 'invalid length for an ObjectId',
			DETAIL = pg_catalog.format('Expected 12 bytes, got %s.', pg_catalog.length(objectid));
	END IF;
	-- Its 24 hexadecimal digits, which the text form reads.
	RETURN @extschema@.ulid_from_objectid(pg_catalog.encode(objectid, 'hex'));
END
$$;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.bytea) IS
'the ulid of a MongoDB ObjectId given as its 12 bytes';

-- The way back, for a ulid of that shape: a whole second no later than
-- 2106-02-07 06:28:15 UTC (2^32 - 1 seconds), the last two bytes zero.
CREATE FUNCTION ulid_to_objectid(ulid)
RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	id ALIAS FOR $1;
	hex pg_catalog.text := pg_catalog.encode(id::pg_catalog.bytea, 'hex');
	ms pg_catalog.int8 := ('x0000' OPERATOR(pg_catalog.||) pg_catalog.left(hex, 12))::pg_catalog.bit(64)::pg_catalog.int8;
	detail pg_catalog.text;
BEGIN
	IF ms OPERATOR(pg_catalog.%) 1000::pg_catalog.int8 OPERATOR(pg_catalog.<>) 0::pg_catalog.int8 THEN
		detail := pg_catalog.format('Its time has a fraction of a second (%s ms): an ObjectId holds whole seconds.',
									ms OPERATOR(pg_catalog.%) 1000::pg_catalog.int8);
	ELSIF ms OPERATOR(pg_catalog.>) 4294967295000::pg_catalog.int8 THEN
		detail := 'Its time is after 2106-02-07 06:28:15 UTC, the last an ObjectId can hold.';
	ELSIF pg_catalog.right(hex, 4) OPERATOR(pg_catalog.<>) '0000' THEN
		detail := 'Its last two bytes are not zero.';
	ELSE
		RETURN pg_catalog.lpad(pg_catalog.to_hex(ms OPERATOR(pg_catalog./) 1000::pg_catalog.int8), 8, '0')
			OPERATOR(pg_catalog.||) pg_catalog.substr(hex, 13, 16);
	END IF;
	RAISE EXCEPTION USING
		ERRCODE = 'invalid_parameter_value',
		MESSAGE = pg_catalog.format('ulid "%s" does not hold an ObjectId', id::pg_catalog.text),
		DETAIL = detail;
END
$$;

COMMENT ON FUNCTION ulid_to_objectid(ulid) IS
'the 24 hexadecimal digits of the MongoDB ObjectId a ulid was made from by ulid_from_objectid';

--
-- Public ids under a key the database holds
--

-- ulid_encrypt(id), ulid_decrypt(public_id) and ulid_decrypt_all(public_id)
-- are the two-argument functions' cipher under a key that never travels in
-- SQL.  The native extension reads its keys from a file named by a setting;
-- pg_tle can do neither (no file access, no C setting), so the edition keeps
-- them in a table of its own that only the role that created the extension
-- can read or write (and superusers, and members of pg_read_all_data or
-- pg_write_all_data).  The three functions are SECURITY DEFINER, running as
-- that role with search_path pg_catalog, pg_temp, and any role may call
-- them; ulid_public_id_key_rotate() makes a key inside the server,
-- ulid_public_id_key_import(key) brings one that exists (it travels once, in
-- that call), ulid_public_id_key_drop_previous() forgets all but the
-- current.  The newest generation is the current key; the others are
-- previous keys, tried newest first by ulid_decrypt_all().
--
-- Nothing another role sees carries a key or an id: auto_explain logs the
-- plans of the statements these bodies run (log_nested_statements), with
-- each parameter's value inlined as a constant, so no statement here is
-- given a key or the ulid of a public id.  Each reads the key from the
-- table in the same statement that calls pgcrypto, and ulid_decrypt's ulid
-- is made in that statement too, never passed to another.  ulid_encrypt
-- cannot give pgcrypto the id without passing it, so it passes the id
-- masked: a first statement computes a pad from a random nonce, the first
-- 16 bytes of HMAC-SHA-256 of the nonce under the key, the body XORs the id
-- with it (an expression PL/pgSQL evaluates without a plan), and a second
-- statement computes AES-CBC of the masked id with the pad, computed again
-- there, as its IV: E(id XOR pad XOR pad) = E(id), the public id.  A log
-- shows the nonce and the masked id.  The pad is not E(nonce), which any
-- role computes as ulid_encrypt(nonce::ulid) and would unmask the id with:
-- no function a caller may call computes the HMAC under the key, so without
-- the key the logged values tell nothing of the id.
--
-- The table is a configuration table of the extension: pg_dump writes its
-- rows (so a restored database decrypts the public ids it had), and so a
-- dump holds the keys, readable by whoever can read the dump file.  Its
-- statistics (ANALYZE) are in pg_statistic, which only a superuser reads;
-- pg_stats shows a column only to roles that may read it.
CREATE TABLE ulid_public_id_keys (
	generation pg_catalog.int4 PRIMARY KEY,
	key pg_catalog.bytea NOT NULL CHECK (pg_catalog.length(key) OPERATOR(pg_catalog.=) 16),
	created pg_catalog.timestamptz NOT NULL DEFAULT pg_catalog.now()
);

COMMENT ON TABLE ulid_public_id_keys IS
'the keys of ulid_encrypt(id), ulid_decrypt(public_id) and ulid_decrypt_all(public_id): the newest generation current, the others previous; readable by the extension''s owner alone';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.ulid_public_id_keys', '');

CREATE FUNCTION ulid_encrypt(id ulid)
RETURNS pg_catalog.uuid
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	nonce pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
	generation pg_catalog.int4;
	pad pg_catalog.bytea;
	masked pg_catalog.bytea;
	block pg_catalog.bytea;
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_encrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	-- The current key's generation and the pad, HMAC-SHA-256 of the nonce.
	EXECUTE pg_catalog.format('SELECT k.generation, pg_catalog.substr(%I.hmac($1, k.key, ''sha256''::pg_catalog.text), 1, 16)
		FROM @extschema@.ulid_public_id_keys k ORDER BY k.generation DESC LIMIT 1', crypto)
		INTO generation, pad USING nonce;
	IF generation IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = 'no key for public ids is configured',
			HINT = 'The role that created the extension ulid makes one with SELECT ulid_public_id_key_rotate().';
	END IF;
	-- id XOR pad, as two 64-bit halves.
	masked := pg_catalog.decode(
		pg_catalog.lpad(pg_catalog.to_hex(
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id::pg_catalog.bytea, 1, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8
			OPERATOR(pg_catalog.#)
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pad, 1, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8), 16, '0')
		OPERATOR(pg_catalog.||)
		pg_catalog.lpad(pg_catalog.to_hex(
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id::pg_catalog.bytea, 9, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8
			OPERATOR(pg_catalog.#)
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pad, 9, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8), 16, '0'),
		'hex');
	-- E(masked XOR pad) = E(id), under the same key.
	EXECUTE pg_catalog.format('SELECT %1$I.encrypt_iv($1, k.key,
			pg_catalog.substr(%1$I.hmac($2, k.key, ''sha256''::pg_catalog.text), 1, 16), ''aes-cbc/pad:none''::pg_catalog.text)
		FROM @extschema@.ulid_public_id_keys k WHERE k.generation OPERATOR(pg_catalog.=) $3', crypto)
		INTO block USING masked, nonce, generation;
	RETURN pg_catalog.encode(block, 'hex')::pg_catalog.uuid;
END
$$;

COMMENT ON FUNCTION ulid_encrypt(ulid) IS
'the public id of a ulid under the current key of ulid_public_id_keys: ulid_encrypt(id, key) with a key that no statement carries';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid)
RETURNS ulid
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	id @extschema@.ulid;
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_decrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	-- The ulid is made in the statement that deciphers it.
	EXECUTE pg_catalog.format('SELECT @extschema@.ulid_from_bytea(%I.decrypt(pg_catalog.uuid_send($1), k.key,
			''aes-ecb/pad:none''::pg_catalog.text))
		FROM @extschema@.ulid_public_id_keys k ORDER BY k.generation DESC LIMIT 1', crypto)
		INTO id USING public_id;
	IF id IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = 'no key for public ids is configured',
			HINT = 'The role that created the extension ulid makes one with SELECT ulid_public_id_key_rotate().';
	END IF;
	RETURN id;
END
$$;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid) IS
'the ulid of a public id made by ulid_encrypt(id) under the current key of ulid_public_id_keys';

CREATE FUNCTION ulid_decrypt_all(public_id pg_catalog.uuid)
RETURNS ulid[]
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	ids @extschema@.ulid[];
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_decrypt_all is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	EXECUTE pg_catalog.format('SELECT pg_catalog.array_agg(@extschema@.ulid_from_bytea(%I.decrypt(pg_catalog.uuid_send($1), k.key,
			''aes-ecb/pad:none''::pg_catalog.text)) ORDER BY k.generation DESC)
		FROM @extschema@.ulid_public_id_keys k', crypto)
		INTO ids USING public_id;
	IF ids IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = 'no key for public ids is configured',
			HINT = 'The role that created the extension ulid makes one with SELECT ulid_public_id_key_rotate().';
	END IF;
	RETURN ids;
END
$$;

COMMENT ON FUNCTION ulid_decrypt_all(pg_catalog.uuid) IS
'the ulids of a public id under each key of ulid_public_id_keys, the current first: for lookups while keys rotate';

-- The owner's functions.  They run as their caller (the key table's
-- privileges decide) and only the owner may call them.  Each takes the
-- table's lock first, so that generations are numbered one at a time.

-- A new key made inside the server (pgcrypto's gen_random_bytes, in the
-- statement that stores it), now current; the current one becomes
-- previous.  Returns its generation.
CREATE FUNCTION ulid_public_id_key_rotate()
RETURNS pg_catalog.int4
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	made pg_catalog.int4;
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_public_id_key_rotate is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	LOCK TABLE @extschema@.ulid_public_id_keys IN SHARE ROW EXCLUSIVE MODE;
	EXECUTE pg_catalog.format('INSERT INTO @extschema@.ulid_public_id_keys (generation, key)
		SELECT COALESCE(pg_catalog.max(k.generation), 0) OPERATOR(pg_catalog.+) 1, %I.gen_random_bytes(16)
		FROM @extschema@.ulid_public_id_keys k RETURNING generation', crypto)
		INTO made;
	RETURN made;
END
$$;

COMMENT ON FUNCTION ulid_public_id_key_rotate() IS
'makes a random key for public ids in the server, current from now on, the current one previous; returns its generation (owner only)';

-- A key that exists (the application's key of ulid_encrypt(id, key), or one
-- from the native extension's key file), now current; a key held already
-- moves to current.  The key travels in this call's statement, once:
-- log_statement and auto_explain show it there as they show any parameter.
-- Inside, its statements are planned generically, so that their plans show
-- $1, not the key.
CREATE FUNCTION ulid_public_id_key_import(key pg_catalog.bytea)
RETURNS pg_catalog.int4
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $$
DECLARE
	made pg_catalog.int4;
BEGIN
	IF pg_catalog.length(ulid_public_id_key_import.key) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_parameter_value',
			MESSAGE = pg_catalog.format('key must be 16 bytes, not %s', pg_catalog.length(ulid_public_id_key_import.key)),
			DETAIL = 'ulid_encrypt and ulid_decrypt use AES-128, whose key is 16 bytes.';
	END IF;
	LOCK TABLE @extschema@.ulid_public_id_keys IN SHARE ROW EXCLUSIVE MODE;
	DELETE FROM @extschema@.ulid_public_id_keys k WHERE k.key OPERATOR(pg_catalog.=) ulid_public_id_key_import.key;
	INSERT INTO @extschema@.ulid_public_id_keys (generation, key)
		SELECT COALESCE(pg_catalog.max(k.generation), 0) OPERATOR(pg_catalog.+) 1, ulid_public_id_key_import.key
		FROM @extschema@.ulid_public_id_keys k
		RETURNING generation INTO made;
	RETURN made;
END
$$;

COMMENT ON FUNCTION ulid_public_id_key_import(pg_catalog.bytea) IS
'makes a 16-byte key the current key for public ids, the current one previous; returns its generation (owner only; the key is in this statement)';

-- Forgets the previous keys: public ids made under them no longer resolve.
CREATE FUNCTION ulid_public_id_key_drop_previous()
RETURNS pg_catalog.int4
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	dropped pg_catalog.int4;
BEGIN
	LOCK TABLE @extschema@.ulid_public_id_keys IN SHARE ROW EXCLUSIVE MODE;
	DELETE FROM @extschema@.ulid_public_id_keys k
	WHERE k.generation OPERATOR(pg_catalog.<) (SELECT pg_catalog.max(c.generation) FROM @extschema@.ulid_public_id_keys c);
	GET DIAGNOSTICS dropped = ROW_COUNT;
	RETURN dropped;
END
$$;

COMMENT ON FUNCTION ulid_public_id_key_drop_previous() IS
'forgets every key for public ids but the current one; returns how many (owner only)';

-- The owner is the extension's: where a superuser updates an edition
-- another role created, the table and the functions the update makes are
-- first the superuser's, and would leave the extension's owner unable to
-- rotate its keys.  (Where CREATE EXTENSION runs this, its role is the
-- extension's owner already: nothing changes.)
DO $$
DECLARE
	object_ record;
BEGIN
	FOR object_ IN
		SELECT 'TABLE @extschema@.ulid_public_id_keys' AS object, e.extowner
		FROM pg_catalog.pg_class c, pg_catalog.pg_extension e
		WHERE c.oid OPERATOR(pg_catalog.=) '@extschema@.ulid_public_id_keys'::pg_catalog.regclass
			AND e.extname OPERATOR(pg_catalog.=) 'ulid' AND c.relowner OPERATOR(pg_catalog.<>) e.extowner
		UNION ALL
		SELECT 'FUNCTION ' OPERATOR(pg_catalog.||) p.oid::pg_catalog.regprocedure::pg_catalog.text, e.extowner
		FROM pg_catalog.pg_proc p, pg_catalog.pg_extension e
		WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.ulid_encrypt(@extschema@.ulid)',
				'@extschema@.ulid_decrypt(pg_catalog.uuid)', '@extschema@.ulid_decrypt_all(pg_catalog.uuid)',
				'@extschema@.ulid_public_id_key_rotate()', '@extschema@.ulid_public_id_key_import(pg_catalog.bytea)',
				'@extschema@.ulid_public_id_key_drop_previous()']::pg_catalog.regprocedure[])
			AND e.extname OPERATOR(pg_catalog.=) 'ulid' AND p.proowner OPERATOR(pg_catalog.<>) e.extowner
	LOOP
		EXECUTE pg_catalog.format('ALTER %s OWNER TO %I', object_.object, pg_catalog.pg_get_userbyid(object_.extowner));
	END LOOP;
END
$$;

-- Only the owner reads and writes the keys and calls the functions that
-- change them: no privilege for PUBLIC, nor for a role that default
-- privileges (ALTER DEFAULT PRIVILEGES) granted one as they were made.
REVOKE ALL ON TABLE ulid_public_id_keys FROM PUBLIC;
REVOKE ALL ON FUNCTION ulid_public_id_key_rotate() FROM PUBLIC;
REVOKE ALL ON FUNCTION ulid_public_id_key_import(pg_catalog.bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ulid_public_id_key_drop_previous() FROM PUBLIC;
DO $$
DECLARE
	grant_ record;
BEGIN
	FOR grant_ IN
		SELECT DISTINCT 'TABLE @extschema@.ulid_public_id_keys' AS object, a.grantee
		FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
		WHERE c.oid OPERATOR(pg_catalog.=) '@extschema@.ulid_public_id_keys'::pg_catalog.regclass
			AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
		UNION
		SELECT DISTINCT 'FUNCTION ' OPERATOR(pg_catalog.||) p.oid::pg_catalog.regprocedure::pg_catalog.text, a.grantee
		FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
		WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.ulid_public_id_key_rotate()',
				'@extschema@.ulid_public_id_key_import(pg_catalog.bytea)',
				'@extschema@.ulid_public_id_key_drop_previous()']::pg_catalog.regprocedure[])
			AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON %s FROM %s', grant_.object,
			CASE WHEN grant_.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
				ELSE pg_catalog.quote_ident(grant_.grantee::pg_catalog.regrole::pg_catalog.text) END);
	END LOOP;
END
$$;

--
-- Descriptions (shown by \df+, \do+, \dT+, \dC+ and \dAc+)
--

COMMENT ON FUNCTION ulid_in(pg_catalog.cstring) IS 'I/O';
COMMENT ON FUNCTION ulid_out(ulid) IS 'I/O';
COMMENT ON FUNCTION ulid_in(pg_catalog.text) IS 'I/O: the text input, which pg_tle''s ulid_in(cstring) calls';
COMMENT ON FUNCTION ulid_out(pg_catalog.bytea) IS 'I/O: the text output, which pg_tle''s ulid_out(ulid) calls';
COMMENT ON FUNCTION ulid_to_uuid(ulid) IS 'the ulid-to-uuid cast: the same 16 bytes';
COMMENT ON FUNCTION ulid_from_uuid(pg_catalog.uuid) IS 'the uuid-to-ulid cast: the same 16 bytes';
COMMENT ON FUNCTION ulid_time_ms(pg_catalog.timestamptz) IS 'the ULID millisecond of a time; an error outside the 48 bits';
COMMENT ON FUNCTION ulid_generate_packed(pg_catalog.int8) IS 'the step of gen_ulid() and gen_ulid(timestamptz)';
COMMENT ON CAST (ulid AS pg_catalog.uuid) IS 'the same 16 bytes; implicit: a ulid is a uuid';
COMMENT ON CAST (pg_catalog.uuid AS ulid) IS 'the same 16 bytes; on assignment: a uuid is a ulid only if its first 48 bits are a time';
COMMENT ON CAST (ulid AS pg_catalog.bytea) IS 'the 16 bytes, big-endian';
COMMENT ON CAST (pg_catalog.bytea AS ulid) IS 'from 16 bytes, big-endian';
COMMENT ON CAST (ulid AS pg_catalog.timestamptz) IS 'the embedded time (ulid_time)';
COMMENT ON CAST (pg_catalog.timestamptz AS ulid) IS 'the smallest ulid of the millisecond (ulid_min_at)';
COMMENT ON FUNCTION ulid_lt(ulid, ulid) IS 'implementation of < operator';
COMMENT ON FUNCTION ulid_le(ulid, ulid) IS 'implementation of <= operator';
COMMENT ON FUNCTION ulid_eq(ulid, ulid) IS 'implementation of = operator';
COMMENT ON FUNCTION ulid_ne(ulid, ulid) IS 'implementation of <> operator';
COMMENT ON FUNCTION ulid_ge(ulid, ulid) IS 'implementation of >= operator';
COMMENT ON FUNCTION ulid_gt(ulid, ulid) IS 'implementation of > operator';
COMMENT ON FUNCTION ulid_cmp(ulid, ulid) IS 'less-equal-greater';
COMMENT ON OPERATOR < (ulid, ulid) IS 'less than';
COMMENT ON OPERATOR <= (ulid, ulid) IS 'less than or equal';
COMMENT ON OPERATOR = (ulid, ulid) IS 'equal';
COMMENT ON OPERATOR <> (ulid, ulid) IS 'not equal';
COMMENT ON OPERATOR >= (ulid, ulid) IS 'greater than or equal';
COMMENT ON OPERATOR > (ulid, ulid) IS 'greater than';
COMMENT ON OPERATOR CLASS ulid_ops USING btree IS 'default B-tree operator class for ulid';
COMMENT ON OPERATOR FAMILY ulid_ops USING btree IS 'B-tree operator family of ulid';
COMMENT ON OPERATOR CLASS ulid_hash_ops USING hash IS 'default hash operator class for ulid';
COMMENT ON OPERATOR FAMILY ulid_hash_ops USING hash IS 'hash operator family of ulid';

$_pgtle_$::pg_catalog.text AS script) s
WHERE NOT EXISTS (SELECT FROM pgtle.available_extension_versions() v
				  WHERE v.name OPERATOR(pg_catalog.=) 'ulid' AND v.version OPERATOR(pg_catalog.=) '1.4');

-- The update from 1.2 (ALTER EXTENSION ulid UPDATE), where 1.2 is
-- registered: the functions whose bodies changed, as 1.3 has them, every
-- operator qualified and the generators' states checked, then the five new
-- ones (public ids, ObjectIds); no other signature, no type or stored value
-- changes.  All but the type's I/O functions, ulid_in(text)
-- and ulid_out(bytea), which pg_tle refuses to replace ("ALTER or REPLACE of
-- pg_tle used datatype I/O function ... is not allowed"): an updated
-- database keeps their 1.2 bodies, and ulid_out's "& 31" with them
-- (docs/managed.md says how to get 1.3's instead).
SELECT pgtle.install_update_path('ulid', '1.2', '1.3', $_pgtle_$
CREATE OR REPLACE FUNCTION ulid_from_bytea(value pg_catalog.bytea)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	hex pg_catalog.text;
BEGIN
	IF pg_catalog.length(value) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_binary_representation',
			MESSAGE = 'invalid length in external "ulid" value',
			DETAIL = pg_catalog.format('Expected 16 bytes, got %s.', pg_catalog.length(value));
	END IF;
	-- A value of the type is made only by its input function; the canonical
	-- UUID text is the cheapest form it reads.
	hex := pg_catalog.encode(value, 'hex');
	RETURN (pg_catalog.substr(hex, 1, 8) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 9, 4) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 13, 4) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 17, 4) OPERATOR(pg_catalog.||) '-' OPERATOR(pg_catalog.||)
			pg_catalog.substr(hex, 21, 12))::@extschema@.ulid;
END
$$;

CREATE OR REPLACE FUNCTION ulid_time_ms(ts pg_catalog.timestamptz)
RETURNS pg_catalog.int8
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	ms pg_catalog.int8;
BEGIN
	IF pg_catalog.isfinite(ts) THEN
		-- EXTRACT gives a numeric: exact to the microsecond (date_part() a float8).
		ms := pg_catalog.floor(EXTRACT(epoch FROM ts) OPERATOR(pg_catalog.*) 1000::pg_catalog.numeric);
	END IF;
	IF ms IS NULL OR ms OPERATOR(pg_catalog.<) 0 OR ms OPERATOR(pg_catalog.>) 281474976710655 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'datetime_field_overflow',
			MESSAGE = 'timestamp out of range for type ulid',
			DETAIL = 'A ulid holds times from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655 UTC.';
	END IF;
	RETURN ms;
END
$$;

CREATE OR REPLACE FUNCTION ulid_time(value ulid)
RETURNS pg_catalog.timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	b pg_catalog.bytea := value::pg_catalog.bytea;
	ms pg_catalog.int8 := 0;
BEGIN
	FOR k IN 0 .. 5 LOOP
		ms := (ms OPERATOR(pg_catalog.*) 256) OPERATOR(pg_catalog.+) pg_catalog.get_byte(b, k);
	END LOOP;
	-- Whole seconds, then the milliseconds: each exact in a float8, where
	-- ms / 1000.0 is not (the time would be off by microseconds).
	RETURN pg_catalog.to_timestamp((ms OPERATOR(pg_catalog./) 1000::pg_catalog.int8)::pg_catalog.float8)
		OPERATOR(pg_catalog.+) pg_catalog.make_interval(secs =>
			(ms OPERATOR(pg_catalog.%) 1000::pg_catalog.int8)::pg_catalog.float8
				OPERATOR(pg_catalog./) 1000::pg_catalog.float8);
END
$$;

CREATE OR REPLACE FUNCTION ulid_min_at(ts pg_catalog.timestamptz)
RETURNS ulid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT @extschema@.ulid_from_bytea(pg_catalog.decode(
		pg_catalog.lpad(pg_catalog.to_hex(@extschema@.ulid_time_ms(ts)), 12, '0') OPERATOR(pg_catalog.||) '00000000000000000000',
		'hex'))
$$;

CREATE OR REPLACE FUNCTION ulid_max_at(ts pg_catalog.timestamptz)
RETURNS ulid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
	SELECT @extschema@.ulid_from_bytea(pg_catalog.decode(
		pg_catalog.lpad(pg_catalog.to_hex(@extschema@.ulid_time_ms(ts)), 12, '0') OPERATOR(pg_catalog.||) 'ffffffffffffffffffff',
		'hex'))
$$;

CREATE OR REPLACE FUNCTION ulid_generate_packed(ms pg_catalog.int8)
RETURNS ulid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE AS $$
DECLARE
	time_hex pg_catalog.text := pg_catalog.lpad(pg_catalog.to_hex(ms), 12, '0');
	r pg_catalog.text := pg_catalog.replace(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
	last pg_catalog.text := pg_catalog.current_setting('ulid.last_gen_ulid', true);
	counter pg_catalog.int4;
	hex pg_catalog.text;
BEGIN
	-- (32 lower-case hexadecimal digits: rtrim() of them leaves nothing)
	IF pg_catalog.left(last, 12) OPERATOR(pg_catalog.=) time_hex AND
		pg_catalog.length(last) OPERATOR(pg_catalog.=) 32 AND
		pg_catalog.rtrim(last, '0123456789abcdef') OPERATOR(pg_catalog.=) '' THEN
		counter := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 13, 4))::pg_catalog.bit(16)::pg_catalog.int4;
		IF counter OPERATOR(pg_catalog.<) 65535 THEN
			hex := time_hex OPERATOR(pg_catalog.||)
				pg_catalog.lpad(pg_catalog.to_hex(counter OPERATOR(pg_catalog.+) 1), 4, '0') OPERATOR(pg_catalog.||)
				pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 4);
		END IF;
	END IF;
	IF hex IS NULL THEN
		hex := time_hex OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||)
			pg_catalog.substr(r, 19, 8);
	END IF;
	PERFORM pg_catalog.set_config('ulid.last_gen_ulid', hex, false);
	RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(hex, 'hex'));
END
$$;

CREATE OR REPLACE FUNCTION gen_monotonic_ulid()
RETURNS ulid
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
DECLARE
	now_ms pg_catalog.int8 := @extschema@.ulid_time_ms(pg_catalog.clock_timestamp());
	r pg_catalog.text := pg_catalog.replace(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
	last pg_catalog.text := pg_catalog.current_setting('ulid.last_monotonic', true);
	last_ms pg_catalog.int8;
	hi pg_catalog.int8;			-- the first 20 random bits
	lo pg_catalog.int8;			-- the last 60
	hex pg_catalog.text;
BEGIN
	-- (32 lower-case hexadecimal digits: rtrim() of them leaves nothing)
	IF pg_catalog.length(last) OPERATOR(pg_catalog.=) 32 AND
		pg_catalog.rtrim(last, '0123456789abcdef') OPERATOR(pg_catalog.=) '' THEN
		last_ms := ('x0000' OPERATOR(pg_catalog.||) pg_catalog.left(last, 12))::pg_catalog.bit(64)::pg_catalog.int8;
		-- Later than the clock: not a value this function wrote (but for the
		-- step into the next millisecond below, once in 2^80 ids), so absent.
		IF last_ms OPERATOR(pg_catalog.>) (now_ms OPERATOR(pg_catalog.+) 1::pg_catalog.int8) THEN
			last_ms := NULL;
		END IF;
	END IF;
	IF last_ms IS NULL OR now_ms OPERATOR(pg_catalog.>) last_ms THEN
		hex := pg_catalog.lpad(pg_catalog.to_hex(now_ms), 12, '0') OPERATOR(pg_catalog.||)
			pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 8);
	ELSE
		hi := ('x00000000000' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 13, 5))::pg_catalog.bit(64)::pg_catalog.int8;
		lo := ('x0' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 18, 15))::pg_catalog.bit(64)::pg_catalog.int8;
		IF lo OPERATOR(pg_catalog.<) 1152921504606846975::pg_catalog.int8 THEN		-- 2^60 - 1
			lo := lo OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
		ELSIF hi OPERATOR(pg_catalog.<) 1048575::pg_catalog.int8 THEN				-- 2^20 - 1
			hi := hi OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
			lo := 0;
		ELSIF last_ms OPERATOR(pg_catalog.<) 281474976710655::pg_catalog.int8 THEN	-- the last millisecond
			last_ms := last_ms OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
			hi := NULL;
		ELSE
			RAISE EXCEPTION USING
				ERRCODE = 'sequence_generator_limit_exceeded',
				MESSAGE = 'no ulid is greater than the last one generated',
				DETAIL = 'The last ulid generated is the largest possible value.';
		END IF;
		IF hi IS NULL THEN
			hex := pg_catalog.lpad(pg_catalog.to_hex(last_ms), 12, '0') OPERATOR(pg_catalog.||)
				pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 8);
		ELSE
			hex := pg_catalog.left(last, 12) OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(hi), 5, '0')
				OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(lo), 15, '0');
		END IF;
	END IF;
	PERFORM pg_catalog.set_config('ulid.last_monotonic', hex, false);
	RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(hex, 'hex'));
END
$$;

-- New in 1.3: public ids and MongoDB ObjectIds.
CREATE FUNCTION ulid_encrypt(id ulid, key pg_catalog.bytea)
RETURNS pg_catalog.uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	crypto pg_catalog.name;
	block pg_catalog.bytea;
BEGIN
	IF pg_catalog.length(key) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_parameter_value',
			MESSAGE = pg_catalog.format('key must be 16 bytes, not %s', pg_catalog.length(key)),
			DETAIL = 'ulid_encrypt and ulid_decrypt use AES-128, whose key is 16 bytes.';
	END IF;
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_encrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	EXECUTE pg_catalog.format('SELECT %I.encrypt($1, $2, $3)', crypto) INTO block
		USING id::pg_catalog.bytea, key, 'aes-ecb/pad:none'::pg_catalog.text;
	RETURN pg_catalog.encode(block, 'hex')::pg_catalog.uuid;
END
$$;

COMMENT ON FUNCTION ulid_encrypt(ulid, pg_catalog.bytea) IS
'the public id of a ulid: its 16 bytes enciphered as one AES-128 block under a 16-byte key, as a uuid that tells nothing of the time';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid, key pg_catalog.bytea)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	crypto pg_catalog.name;
	block pg_catalog.bytea;
BEGIN
	IF pg_catalog.length(key) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_parameter_value',
			MESSAGE = pg_catalog.format('key must be 16 bytes, not %s', pg_catalog.length(key)),
			DETAIL = 'ulid_encrypt and ulid_decrypt use AES-128, whose key is 16 bytes.';
	END IF;
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_decrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	EXECUTE pg_catalog.format('SELECT %I.decrypt($1, $2, $3)', crypto) INTO block
		USING pg_catalog.uuid_send(public_id), key, 'aes-ecb/pad:none'::pg_catalog.text;
	RETURN @extschema@.ulid_from_bytea(block);
END
$$;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid, pg_catalog.bytea) IS
'the ulid of a public id made by ulid_encrypt with the same key';

CREATE FUNCTION ulid_from_objectid(pg_catalog.text)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	objectid ALIAS FOR $1;
	detail pg_catalog.text;
BEGIN
	IF objectid OPERATOR(pg_catalog.~) '^[0-9A-Fa-f]{24}$' THEN
		RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(
			pg_catalog.lpad(pg_catalog.to_hex(('x00000000' OPERATOR(pg_catalog.||) pg_catalog.left(objectid, 8))
				::pg_catalog.bit(64)::pg_catalog.int8 OPERATOR(pg_catalog.*) 1000::pg_catalog.int8), 12, '0')
			OPERATOR(pg_catalog.||) pg_catalog.substr(objectid, 9) OPERATOR(pg_catalog.||) '0000', 'hex'));
	END IF;
	IF pg_catalog.left(objectid, 9) OPERATOR(pg_catalog.=) 'ObjectId(' THEN
		detail := 'An ObjectId is read as its 24 hexadecimal digits alone, without ObjectId(...) around them.';
	ELSIF pg_catalog.length(objectid) OPERATOR(pg_catalog.<>) 24 THEN
		detail := pg_catalog.format('Expected 24 hexadecimal digits, got %s characters.', pg_catalog.length(objectid));
	ELSE
		FOR i IN 1 .. 24 LOOP
			IF pg_catalog.strpos('0123456789abcdefABCDEF', pg_catalog.substr(objectid, i, 1)) OPERATOR(pg_catalog.=) 0 THEN
				detail := pg_catalog.format('Character "%s" at position %s is not a hexadecimal digit.',
											pg_catalog.substr(objectid, i, 1), i);
				EXIT;
			END IF;
		END LOOP;
	END IF;
	RAISE EXCEPTION USING
		ERRCODE = 'invalid_text_representation',
		MESSAGE = pg_catalog.format('invalid input syntax for an ObjectId: "%s"', objectid),
		DETAIL = detail;
END
$$;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.text) IS
'the ulid of a MongoDB ObjectId given as its 24 hexadecimal digits: its seconds as milliseconds, its last 8 bytes, two zero bytes';

CREATE FUNCTION ulid_from_objectid(pg_catalog.bytea)
RETURNS ulid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	objectid ALIAS FOR $1;
BEGIN
	IF pg_catalog.length(objectid) OPERATOR(pg_catalog.<>) 12 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_binary_representation',
			MESSAGE = 'invalid length for an ObjectId',
			DETAIL = pg_catalog.format('Expected 12 bytes, got %s.', pg_catalog.length(objectid));
	END IF;
	-- Its 24 hexadecimal digits, which the text form reads.
	RETURN @extschema@.ulid_from_objectid(pg_catalog.encode(objectid, 'hex'));
END
$$;

COMMENT ON FUNCTION ulid_from_objectid(pg_catalog.bytea) IS
'the ulid of a MongoDB ObjectId given as its 12 bytes';

CREATE FUNCTION ulid_to_objectid(ulid)
RETURNS pg_catalog.text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
	id ALIAS FOR $1;
	hex pg_catalog.text := pg_catalog.encode(id::pg_catalog.bytea, 'hex');
	ms pg_catalog.int8 := ('x0000' OPERATOR(pg_catalog.||) pg_catalog.left(hex, 12))::pg_catalog.bit(64)::pg_catalog.int8;
	detail pg_catalog.text;
BEGIN
	IF ms OPERATOR(pg_catalog.%) 1000::pg_catalog.int8 OPERATOR(pg_catalog.<>) 0::pg_catalog.int8 THEN
		detail := pg_catalog.format('Its time has a fraction of a second (%s ms): an ObjectId holds whole seconds.',
									ms OPERATOR(pg_catalog.%) 1000::pg_catalog.int8);
	ELSIF ms OPERATOR(pg_catalog.>) 4294967295000::pg_catalog.int8 THEN
		detail := 'Its time is after 2106-02-07 06:28:15 UTC, the last an ObjectId can hold.';
	ELSIF pg_catalog.right(hex, 4) OPERATOR(pg_catalog.<>) '0000' THEN
		detail := 'Its last two bytes are not zero.';
	ELSE
		RETURN pg_catalog.lpad(pg_catalog.to_hex(ms OPERATOR(pg_catalog./) 1000::pg_catalog.int8), 8, '0')
			OPERATOR(pg_catalog.||) pg_catalog.substr(hex, 13, 16);
	END IF;
	RAISE EXCEPTION USING
		ERRCODE = 'invalid_parameter_value',
		MESSAGE = pg_catalog.format('ulid "%s" does not hold an ObjectId', id::pg_catalog.text),
		DETAIL = detail;
END
$$;

COMMENT ON FUNCTION ulid_to_objectid(ulid) IS
'the 24 hexadecimal digits of the MongoDB ObjectId a ulid was made from by ulid_from_objectid';
$_pgtle_$)
WHERE pg_catalog.to_regprocedure('pgtle."ulid--1.2--1.3.sql"()') IS NULL
	AND EXISTS (SELECT FROM pgtle.available_extension_versions() v
				WHERE v.name OPERATOR(pg_catalog.=) 'ulid' AND v.version OPERATOR(pg_catalog.=) '1.2');

-- The update from 1.3, where 1.3 or 1.2 is registered (1.2 takes the path
-- above first): the generators as 1.4 has them, then the key table and the
-- functions of public ids under it; nothing else changes.
SELECT pgtle.install_update_path('ulid', '1.3', '1.4', $_pgtle_$
-- The generators record their state by assignment, not PERFORM, so that
-- auto_explain logs no plan holding the id they make.
CREATE OR REPLACE FUNCTION ulid_generate_packed(ms pg_catalog.int8)
RETURNS ulid
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE AS $$
DECLARE
	time_hex pg_catalog.text := pg_catalog.lpad(pg_catalog.to_hex(ms), 12, '0');
	r pg_catalog.text := pg_catalog.replace(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
	last pg_catalog.text := pg_catalog.current_setting('ulid.last_gen_ulid', true);
	counter pg_catalog.int4;
	hex pg_catalog.text;
BEGIN
	-- (32 lower-case hexadecimal digits: rtrim() of them leaves nothing)
	IF pg_catalog.left(last, 12) OPERATOR(pg_catalog.=) time_hex AND
		pg_catalog.length(last) OPERATOR(pg_catalog.=) 32 AND
		pg_catalog.rtrim(last, '0123456789abcdef') OPERATOR(pg_catalog.=) '' THEN
		counter := ('x' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 13, 4))::pg_catalog.bit(16)::pg_catalog.int4;
		IF counter OPERATOR(pg_catalog.<) 65535 THEN
			hex := time_hex OPERATOR(pg_catalog.||)
				pg_catalog.lpad(pg_catalog.to_hex(counter OPERATOR(pg_catalog.+) 1), 4, '0') OPERATOR(pg_catalog.||)
				pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 4);
		END IF;
	END IF;
	IF hex IS NULL THEN
		hex := time_hex OPERATOR(pg_catalog.||) pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||)
			pg_catalog.substr(r, 19, 8);
	END IF;
	-- An assignment, not PERFORM: PL/pgSQL evaluates it without a plan,
	-- where PERFORM's would be logged by auto_explain (nested statements)
	-- with the new id in it.
	last := pg_catalog.set_config('ulid.last_gen_ulid', hex, false);
	RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(hex, 'hex'));
END
$$;

CREATE OR REPLACE FUNCTION gen_monotonic_ulid()
RETURNS ulid
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE AS $$
DECLARE
	now_ms pg_catalog.int8 := @extschema@.ulid_time_ms(pg_catalog.clock_timestamp());
	r pg_catalog.text := pg_catalog.replace(pg_catalog.gen_random_uuid()::pg_catalog.text, '-', '');
	last pg_catalog.text := pg_catalog.current_setting('ulid.last_monotonic', true);
	last_ms pg_catalog.int8;
	hi pg_catalog.int8;			-- the first 20 random bits
	lo pg_catalog.int8;			-- the last 60
	hex pg_catalog.text;
BEGIN
	-- (32 lower-case hexadecimal digits: rtrim() of them leaves nothing)
	IF pg_catalog.length(last) OPERATOR(pg_catalog.=) 32 AND
		pg_catalog.rtrim(last, '0123456789abcdef') OPERATOR(pg_catalog.=) '' THEN
		last_ms := ('x0000' OPERATOR(pg_catalog.||) pg_catalog.left(last, 12))::pg_catalog.bit(64)::pg_catalog.int8;
		-- Later than the clock: not a value this function wrote (but for the
		-- step into the next millisecond below, once in 2^80 ids), so absent.
		IF last_ms OPERATOR(pg_catalog.>) (now_ms OPERATOR(pg_catalog.+) 1::pg_catalog.int8) THEN
			last_ms := NULL;
		END IF;
	END IF;
	IF last_ms IS NULL OR now_ms OPERATOR(pg_catalog.>) last_ms THEN
		hex := pg_catalog.lpad(pg_catalog.to_hex(now_ms), 12, '0') OPERATOR(pg_catalog.||)
			pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 8);
	ELSE
		hi := ('x00000000000' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 13, 5))::pg_catalog.bit(64)::pg_catalog.int8;
		lo := ('x0' OPERATOR(pg_catalog.||) pg_catalog.substr(last, 18, 15))::pg_catalog.bit(64)::pg_catalog.int8;
		IF lo OPERATOR(pg_catalog.<) 1152921504606846975::pg_catalog.int8 THEN		-- 2^60 - 1
			lo := lo OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
		ELSIF hi OPERATOR(pg_catalog.<) 1048575::pg_catalog.int8 THEN				-- 2^20 - 1
			hi := hi OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
			lo := 0;
		ELSIF last_ms OPERATOR(pg_catalog.<) 281474976710655::pg_catalog.int8 THEN	-- the last millisecond
			last_ms := last_ms OPERATOR(pg_catalog.+) 1::pg_catalog.int8;
			hi := NULL;
		ELSE
			RAISE EXCEPTION USING
				ERRCODE = 'sequence_generator_limit_exceeded',
				MESSAGE = 'no ulid is greater than the last one generated',
				DETAIL = 'The last ulid generated is the largest possible value.';
		END IF;
		IF hi IS NULL THEN
			hex := pg_catalog.lpad(pg_catalog.to_hex(last_ms), 12, '0') OPERATOR(pg_catalog.||)
				pg_catalog.substr(r, 1, 12) OPERATOR(pg_catalog.||) pg_catalog.substr(r, 19, 8);
		ELSE
			hex := pg_catalog.left(last, 12) OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(hi), 5, '0')
				OPERATOR(pg_catalog.||) pg_catalog.lpad(pg_catalog.to_hex(lo), 15, '0');
		END IF;
	END IF;
	-- An assignment, not PERFORM: PL/pgSQL evaluates it without a plan,
	-- where PERFORM's would be logged by auto_explain (nested statements)
	-- with the new id in it.
	last := pg_catalog.set_config('ulid.last_monotonic', hex, false);
	RETURN @extschema@.ulid_from_bytea(pg_catalog.decode(hex, 'hex'));
END
$$;

--
-- Public ids under a key the database holds
--

-- ulid_encrypt(id), ulid_decrypt(public_id) and ulid_decrypt_all(public_id)
-- are the two-argument functions' cipher under a key that never travels in
-- SQL.  The native extension reads its keys from a file named by a setting;
-- pg_tle can do neither (no file access, no C setting), so the edition keeps
-- them in a table of its own that only the role that created the extension
-- can read or write (and superusers, and members of pg_read_all_data or
-- pg_write_all_data).  The three functions are SECURITY DEFINER, running as
-- that role with search_path pg_catalog, pg_temp, and any role may call
-- them; ulid_public_id_key_rotate() makes a key inside the server,
-- ulid_public_id_key_import(key) brings one that exists (it travels once, in
-- that call), ulid_public_id_key_drop_previous() forgets all but the
-- current.  The newest generation is the current key; the others are
-- previous keys, tried newest first by ulid_decrypt_all().
--
-- Nothing another role sees carries a key or an id: auto_explain logs the
-- plans of the statements these bodies run (log_nested_statements), with
-- each parameter's value inlined as a constant, so no statement here is
-- given a key or the ulid of a public id.  Each reads the key from the
-- table in the same statement that calls pgcrypto, and ulid_decrypt's ulid
-- is made in that statement too, never passed to another.  ulid_encrypt
-- cannot give pgcrypto the id without passing it, so it passes the id
-- masked: a first statement computes a pad from a random nonce, the first
-- 16 bytes of HMAC-SHA-256 of the nonce under the key, the body XORs the id
-- with it (an expression PL/pgSQL evaluates without a plan), and a second
-- statement computes AES-CBC of the masked id with the pad, computed again
-- there, as its IV: E(id XOR pad XOR pad) = E(id), the public id.  A log
-- shows the nonce and the masked id.  The pad is not E(nonce), which any
-- role computes as ulid_encrypt(nonce::ulid) and would unmask the id with:
-- no function a caller may call computes the HMAC under the key, so without
-- the key the logged values tell nothing of the id.
--
-- The table is a configuration table of the extension: pg_dump writes its
-- rows (so a restored database decrypts the public ids it had), and so a
-- dump holds the keys, readable by whoever can read the dump file.  Its
-- statistics (ANALYZE) are in pg_statistic, which only a superuser reads;
-- pg_stats shows a column only to roles that may read it.
CREATE TABLE ulid_public_id_keys (
	generation pg_catalog.int4 PRIMARY KEY,
	key pg_catalog.bytea NOT NULL CHECK (pg_catalog.length(key) OPERATOR(pg_catalog.=) 16),
	created pg_catalog.timestamptz NOT NULL DEFAULT pg_catalog.now()
);

COMMENT ON TABLE ulid_public_id_keys IS
'the keys of ulid_encrypt(id), ulid_decrypt(public_id) and ulid_decrypt_all(public_id): the newest generation current, the others previous; readable by the extension''s owner alone';

SELECT pg_catalog.pg_extension_config_dump('@extschema@.ulid_public_id_keys', '');

CREATE FUNCTION ulid_encrypt(id ulid)
RETURNS pg_catalog.uuid
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	nonce pg_catalog.bytea := pg_catalog.uuid_send(pg_catalog.gen_random_uuid());
	generation pg_catalog.int4;
	pad pg_catalog.bytea;
	masked pg_catalog.bytea;
	block pg_catalog.bytea;
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_encrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	-- The current key's generation and the pad, HMAC-SHA-256 of the nonce.
	EXECUTE pg_catalog.format('SELECT k.generation, pg_catalog.substr(%I.hmac($1, k.key, ''sha256''::pg_catalog.text), 1, 16)
		FROM @extschema@.ulid_public_id_keys k ORDER BY k.generation DESC LIMIT 1', crypto)
		INTO generation, pad USING nonce;
	IF generation IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = 'no key for public ids is configured',
			HINT = 'The role that created the extension ulid makes one with SELECT ulid_public_id_key_rotate().';
	END IF;
	-- id XOR pad, as two 64-bit halves.
	masked := pg_catalog.decode(
		pg_catalog.lpad(pg_catalog.to_hex(
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id::pg_catalog.bytea, 1, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8
			OPERATOR(pg_catalog.#)
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pad, 1, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8), 16, '0')
		OPERATOR(pg_catalog.||)
		pg_catalog.lpad(pg_catalog.to_hex(
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(id::pg_catalog.bytea, 9, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8
			OPERATOR(pg_catalog.#)
			('x' OPERATOR(pg_catalog.||) pg_catalog.encode(pg_catalog.substr(pad, 9, 8), 'hex'))::pg_catalog.bit(64)::pg_catalog.int8), 16, '0'),
		'hex');
	-- E(masked XOR pad) = E(id), under the same key.
	EXECUTE pg_catalog.format('SELECT %1$I.encrypt_iv($1, k.key,
			pg_catalog.substr(%1$I.hmac($2, k.key, ''sha256''::pg_catalog.text), 1, 16), ''aes-cbc/pad:none''::pg_catalog.text)
		FROM @extschema@.ulid_public_id_keys k WHERE k.generation OPERATOR(pg_catalog.=) $3', crypto)
		INTO block USING masked, nonce, generation;
	RETURN pg_catalog.encode(block, 'hex')::pg_catalog.uuid;
END
$$;

COMMENT ON FUNCTION ulid_encrypt(ulid) IS
'the public id of a ulid under the current key of ulid_public_id_keys: ulid_encrypt(id, key) with a key that no statement carries';

CREATE FUNCTION ulid_decrypt(public_id pg_catalog.uuid)
RETURNS ulid
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	id @extschema@.ulid;
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_decrypt is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	-- The ulid is made in the statement that deciphers it.
	EXECUTE pg_catalog.format('SELECT @extschema@.ulid_from_bytea(%I.decrypt(pg_catalog.uuid_send($1), k.key,
			''aes-ecb/pad:none''::pg_catalog.text))
		FROM @extschema@.ulid_public_id_keys k ORDER BY k.generation DESC LIMIT 1', crypto)
		INTO id USING public_id;
	IF id IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = 'no key for public ids is configured',
			HINT = 'The role that created the extension ulid makes one with SELECT ulid_public_id_key_rotate().';
	END IF;
	RETURN id;
END
$$;

COMMENT ON FUNCTION ulid_decrypt(pg_catalog.uuid) IS
'the ulid of a public id made by ulid_encrypt(id) under the current key of ulid_public_id_keys';

CREATE FUNCTION ulid_decrypt_all(public_id pg_catalog.uuid)
RETURNS ulid[]
LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	ids @extschema@.ulid[];
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_decrypt_all is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	EXECUTE pg_catalog.format('SELECT pg_catalog.array_agg(@extschema@.ulid_from_bytea(%I.decrypt(pg_catalog.uuid_send($1), k.key,
			''aes-ecb/pad:none''::pg_catalog.text)) ORDER BY k.generation DESC)
		FROM @extschema@.ulid_public_id_keys k', crypto)
		INTO ids USING public_id;
	IF ids IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'object_not_in_prerequisite_state',
			MESSAGE = 'no key for public ids is configured',
			HINT = 'The role that created the extension ulid makes one with SELECT ulid_public_id_key_rotate().';
	END IF;
	RETURN ids;
END
$$;

COMMENT ON FUNCTION ulid_decrypt_all(pg_catalog.uuid) IS
'the ulids of a public id under each key of ulid_public_id_keys, the current first: for lookups while keys rotate';

-- The owner's functions.  They run as their caller (the key table's
-- privileges decide) and only the owner may call them.  Each takes the
-- table's lock first, so that generations are numbered one at a time.

-- A new key made inside the server (pgcrypto's gen_random_bytes, in the
-- statement that stores it), now current; the current one becomes
-- previous.  Returns its generation.
CREATE FUNCTION ulid_public_id_key_rotate()
RETURNS pg_catalog.int4
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	crypto pg_catalog.name;
	made pg_catalog.int4;
BEGIN
	SELECT n.nspname INTO crypto
	FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
	WHERE e.extname OPERATOR(pg_catalog.=) 'pgcrypto';
	IF crypto IS NULL THEN
		RAISE EXCEPTION USING
			ERRCODE = 'feature_not_supported',
			MESSAGE = 'ulid_public_id_key_rotate is not available in this database',
			DETAIL = 'The trusted-language edition of ulid uses pgcrypto''s AES, and pgcrypto is not installed here.',
			HINT = 'Install it with CREATE EXTENSION pgcrypto.';
	END IF;
	LOCK TABLE @extschema@.ulid_public_id_keys IN SHARE ROW EXCLUSIVE MODE;
	EXECUTE pg_catalog.format('INSERT INTO @extschema@.ulid_public_id_keys (generation, key)
		SELECT COALESCE(pg_catalog.max(k.generation), 0) OPERATOR(pg_catalog.+) 1, %I.gen_random_bytes(16)
		FROM @extschema@.ulid_public_id_keys k RETURNING generation', crypto)
		INTO made;
	RETURN made;
END
$$;

COMMENT ON FUNCTION ulid_public_id_key_rotate() IS
'makes a random key for public ids in the server, current from now on, the current one previous; returns its generation (owner only)';

-- A key that exists (the application's key of ulid_encrypt(id, key), or one
-- from the native extension's key file), now current; a key held already
-- moves to current.  The key travels in this call's statement, once:
-- log_statement and auto_explain show it there as they show any parameter.
-- Inside, its statements are planned generically, so that their plans show
-- $1, not the key.
CREATE FUNCTION ulid_public_id_key_import(key pg_catalog.bytea)
RETURNS pg_catalog.int4
LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp SET plan_cache_mode = force_generic_plan AS $$
DECLARE
	made pg_catalog.int4;
BEGIN
	IF pg_catalog.length(ulid_public_id_key_import.key) OPERATOR(pg_catalog.<>) 16 THEN
		RAISE EXCEPTION USING
			ERRCODE = 'invalid_parameter_value',
			MESSAGE = pg_catalog.format('key must be 16 bytes, not %s', pg_catalog.length(ulid_public_id_key_import.key)),
			DETAIL = 'ulid_encrypt and ulid_decrypt use AES-128, whose key is 16 bytes.';
	END IF;
	LOCK TABLE @extschema@.ulid_public_id_keys IN SHARE ROW EXCLUSIVE MODE;
	DELETE FROM @extschema@.ulid_public_id_keys k WHERE k.key OPERATOR(pg_catalog.=) ulid_public_id_key_import.key;
	INSERT INTO @extschema@.ulid_public_id_keys (generation, key)
		SELECT COALESCE(pg_catalog.max(k.generation), 0) OPERATOR(pg_catalog.+) 1, ulid_public_id_key_import.key
		FROM @extschema@.ulid_public_id_keys k
		RETURNING generation INTO made;
	RETURN made;
END
$$;

COMMENT ON FUNCTION ulid_public_id_key_import(pg_catalog.bytea) IS
'makes a 16-byte key the current key for public ids, the current one previous; returns its generation (owner only; the key is in this statement)';

-- Forgets the previous keys: public ids made under them no longer resolve.
CREATE FUNCTION ulid_public_id_key_drop_previous()
RETURNS pg_catalog.int4
LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
SET search_path = pg_catalog, pg_temp AS $$
DECLARE
	dropped pg_catalog.int4;
BEGIN
	LOCK TABLE @extschema@.ulid_public_id_keys IN SHARE ROW EXCLUSIVE MODE;
	DELETE FROM @extschema@.ulid_public_id_keys k
	WHERE k.generation OPERATOR(pg_catalog.<) (SELECT pg_catalog.max(c.generation) FROM @extschema@.ulid_public_id_keys c);
	GET DIAGNOSTICS dropped = ROW_COUNT;
	RETURN dropped;
END
$$;

COMMENT ON FUNCTION ulid_public_id_key_drop_previous() IS
'forgets every key for public ids but the current one; returns how many (owner only)';

-- The owner is the extension's: where a superuser updates an edition
-- another role created, the table and the functions the update makes are
-- first the superuser's, and would leave the extension's owner unable to
-- rotate its keys.  (Where CREATE EXTENSION runs this, its role is the
-- extension's owner already: nothing changes.)
DO $$
DECLARE
	object_ record;
BEGIN
	FOR object_ IN
		SELECT 'TABLE @extschema@.ulid_public_id_keys' AS object, e.extowner
		FROM pg_catalog.pg_class c, pg_catalog.pg_extension e
		WHERE c.oid OPERATOR(pg_catalog.=) '@extschema@.ulid_public_id_keys'::pg_catalog.regclass
			AND e.extname OPERATOR(pg_catalog.=) 'ulid' AND c.relowner OPERATOR(pg_catalog.<>) e.extowner
		UNION ALL
		SELECT 'FUNCTION ' OPERATOR(pg_catalog.||) p.oid::pg_catalog.regprocedure::pg_catalog.text, e.extowner
		FROM pg_catalog.pg_proc p, pg_catalog.pg_extension e
		WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.ulid_encrypt(@extschema@.ulid)',
				'@extschema@.ulid_decrypt(pg_catalog.uuid)', '@extschema@.ulid_decrypt_all(pg_catalog.uuid)',
				'@extschema@.ulid_public_id_key_rotate()', '@extschema@.ulid_public_id_key_import(pg_catalog.bytea)',
				'@extschema@.ulid_public_id_key_drop_previous()']::pg_catalog.regprocedure[])
			AND e.extname OPERATOR(pg_catalog.=) 'ulid' AND p.proowner OPERATOR(pg_catalog.<>) e.extowner
	LOOP
		EXECUTE pg_catalog.format('ALTER %s OWNER TO %I', object_.object, pg_catalog.pg_get_userbyid(object_.extowner));
	END LOOP;
END
$$;

-- Only the owner reads and writes the keys and calls the functions that
-- change them: no privilege for PUBLIC, nor for a role that default
-- privileges (ALTER DEFAULT PRIVILEGES) granted one as they were made.
REVOKE ALL ON TABLE ulid_public_id_keys FROM PUBLIC;
REVOKE ALL ON FUNCTION ulid_public_id_key_rotate() FROM PUBLIC;
REVOKE ALL ON FUNCTION ulid_public_id_key_import(pg_catalog.bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION ulid_public_id_key_drop_previous() FROM PUBLIC;
DO $$
DECLARE
	grant_ record;
BEGIN
	FOR grant_ IN
		SELECT DISTINCT 'TABLE @extschema@.ulid_public_id_keys' AS object, a.grantee
		FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
		WHERE c.oid OPERATOR(pg_catalog.=) '@extschema@.ulid_public_id_keys'::pg_catalog.regclass
			AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
		UNION
		SELECT DISTINCT 'FUNCTION ' OPERATOR(pg_catalog.||) p.oid::pg_catalog.regprocedure::pg_catalog.text, a.grantee
		FROM pg_catalog.pg_proc p, pg_catalog.aclexplode(p.proacl) a
		WHERE p.oid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.ulid_public_id_key_rotate()',
				'@extschema@.ulid_public_id_key_import(pg_catalog.bytea)',
				'@extschema@.ulid_public_id_key_drop_previous()']::pg_catalog.regprocedure[])
			AND a.grantee OPERATOR(pg_catalog.<>) p.proowner
	LOOP
		EXECUTE pg_catalog.format('REVOKE ALL ON %s FROM %s', grant_.object,
			CASE WHEN grant_.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
				ELSE pg_catalog.quote_ident(grant_.grantee::pg_catalog.regrole::pg_catalog.text) END);
	END LOOP;
END
$$;
$_pgtle_$)
WHERE pg_catalog.to_regprocedure('pgtle."ulid--1.3--1.4.sql"()') IS NULL
	AND EXISTS (SELECT FROM pgtle.available_extension_versions() v
				WHERE v.name OPERATOR(pg_catalog.=) 'ulid' AND v.version OPERATOR(pg_catalog.=) ANY ('{1.2,1.3}'::pg_catalog.text[]));

SELECT pgtle.set_default_version('ulid', '1.4');
