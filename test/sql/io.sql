-- Text input and output: what ulid_in accepts and why it rejects the rest.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- Each row of an error case shows the SQLSTATE, the message and the detail.
CREATE FUNCTION pg_temp.parse(input text,
	OUT result text, OUT code text, OUT message text, OUT detail text)
LANGUAGE plpgsql AS $$
BEGIN
	result := input::ulid::text;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE,
		message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
END $$;

-- Valid: the canonical example, the minimum and the maximum.
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid;
SELECT '00000000000000000000000000'::ulid;
SELECT '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid;
-- Valid: lower and mixed case read the same; output is upper case.
SELECT '01aryz6s41tsv4rrffq69g5fav'::ulid;
SELECT '01aRyZ6s41TsV4rRfFq69G5fAv'::ulid = '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid;
-- Valid: Crockford's aliases, I, i, L and l read as 1, O and o as 0.
SELECT 'OIARYZ6S41TSV4RRFFQ69G5FAV'::ulid;
SELECT 'oiARYZ6S4LTSV4RRFFQ69G5FAV'::ulid;
SELECT '0lARYZ6S41TSV4RRFFQ69G5FAV'::ulid = '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid;
-- Valid: every character of the alphabet round-trips.
SELECT '0123456789ABCDEFGHJKMNPQRS'::ulid, '0TVWXYZ0000000000000000000'::ulid;

-- Invalid: wrong length.
SELECT * FROM pg_temp.parse('');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FA');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAVX');
SELECT code, detail FROM pg_temp.parse(repeat('0', 1000));
-- Invalid: characters outside the alphabet, with their position.
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAU');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4uRFFQ69G5FAV');
SELECT * FROM pg_temp.parse('01ARYZ6S41*SV4RRFFQ69G5FAV');
SELECT * FROM pg_temp.parse('01ARYZ6S41-SV4RRFFQ69G5FAV');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAé');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5F€V');
-- Invalid: no trimming, surrounding white space is rejected.
SELECT * FROM pg_temp.parse(' 01ARYZ6S41TSV4RRFFQ69G5FA');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FA ');
SELECT * FROM pg_temp.parse(' 01ARYZ6S41TSV4RRFFQ69G5FAV');
-- Invalid: a first character above 7 does not fit in 128 bits.
SELECT * FROM pg_temp.parse('80000000000000000000000000');
SELECT * FROM pg_temp.parse('ZZZZZZZZZZZZZZZZZZZZZZZZZZ');
-- Invalid: the length is reported before a bad character, a bad character
-- before the overflow.
SELECT * FROM pg_temp.parse('U1ARYZ6S41TSV4RRFFQ69G5FA');
SELECT * FROM pg_temp.parse('81ARYZ6S41TSV4RRFFQ69G5FAU');

-- How psql shows the error to a user.
SELECT 'not a ulid'::ulid;

-- NULL in, NULL out.
SELECT NULL::ulid IS NULL;

-- Text casts in both directions (the automatic I/O casts).
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::text::ulid::text;
SELECT pg_typeof('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::text);

-- The type's shape: 16 bytes, by reference, char alignment, plain storage.
SELECT typlen, typbyval, typalign, typstorage FROM pg_type WHERE typname = 'ulid';
SELECT pg_column_size('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid);
