-- Text input and output: what ulid_in accepts and why it rejects the rest.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- Each row of an error case shows the SQLSTATE, the message and the detail.
\i test/sql/include/parse.sql

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

-- Valid: a UUID in its canonical 8-4-4-4-12 hyphenated form, in any case,
-- reads as the same 16 bytes as the uuid cast; output stays ULID text.
SELECT '550e8400-e29b-41d4-a716-446655440000'::ulid;
SELECT '550e8400-e29b-41d4-a716-446655440000'::ulid = '550e8400-e29b-41d4-a716-446655440000'::uuid::ulid;
SELECT '550E8400-E29B-41D4-A716-446655440000'::ulid = '550e8400-e29b-41d4-a716-446655440000'::uuid::ulid;
SELECT '550e8400-E29B-41d4-A716-446655440000'::ulid = '550e8400-e29b-41d4-a716-446655440000'::uuid::ulid;
SELECT '550e8400-e29b-41d4-a716-446655440000'::ulid::uuid;
SELECT '00000000-0000-0000-0000-000000000000'::ulid, 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'::ulid;
-- Valid: every hexadecimal digit in both cases, in every group.
SELECT '01234567-89ab-cdef-ABCD-EF0123456789'::ulid::uuid;
-- Valid: a ULID written as uuid text reads back as itself.
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid::text::ulid;

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

-- Invalid: every other spelling of a UUID; the detail shows the one to write.
SELECT * FROM pg_temp.parse('{550e8400-e29b-41d4-a716-446655440000}');
SELECT * FROM pg_temp.parse('550e8400e29b41d4a716446655440000');
SELECT * FROM pg_temp.parse('550E8400E29B41D4A716446655440000');
SELECT * FROM pg_temp.parse('550e-8400-e29b-41d4-a716-4466-5544-0000');
SELECT * FROM pg_temp.parse('550e8400e-29b-41d4-a716-446655440000');
SELECT * FROM pg_temp.parse('{550e8400e29b41d4a716446655440000}');
SELECT * FROM pg_temp.parse('urn:uuid:550e8400-e29b-41d4-a716-446655440000');
SELECT * FROM pg_temp.parse('URN:UUID:550E8400-E29B-41D4-A716-446655440000');
-- Invalid: no trimming for UUIDs either.
SELECT * FROM pg_temp.parse(' 550e8400-e29b-41d4-a716-446655440000');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-446655440000 ');
SELECT * FROM pg_temp.parse(E'550e8400-e29b-41d4-a716-446655440000\n');
-- Invalid: 36 characters that are not a UUID: the first one out of place;
-- other lengths that are no UUID either: the length.
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-44665544000g');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716_446655440000');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-44665544000é');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAV0123456789');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAV-0123456789');
-- Invalid: a digit too few or too many: the count of digits.
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-44665544000');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-4466554400000');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-4466554400000a');
-- Invalid: a few digits among hyphens are no UUID anyone was writing (a
-- date, "1-2"): the count of characters, not of a UUID's digits.
SELECT * FROM pg_temp.parse('1-2');
SELECT * FROM pg_temp.parse('2024-01-01');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d');

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

-- COPY of a uuid text dump into a ulid column, text and csv, mixed case: the
-- rows read as the same values as the uuid cast gives.
CREATE TABLE copy_uuid_src (n int, id uuid);
CREATE TABLE copy_uuid_dst (n int, id ulid);
INSERT INTO copy_uuid_src VALUES
	(1, '550e8400-e29b-41d4-a716-446655440000'),
	(2, '6BA7B810-9DAD-11D1-80B4-00C04FD430C8'),
	(3, '0188e4a5-Be4c-7d2a-8F1e-3c4b5a6d7e8f'),
	(4, '00000000-0000-0000-0000-000000000000'),
	(5, 'ffffffff-ffff-ffff-ffff-ffffffffffff'),
	(6, '01563df3-6481-d676-4c61-efb99302bd5b');
COPY copy_uuid_dst FROM STDIN;
1	550e8400-e29b-41d4-a716-446655440000
2	6BA7B810-9DAD-11D1-80B4-00C04FD430C8
3	0188e4a5-Be4c-7d2a-8F1e-3c4b5a6d7e8f
\.
COPY copy_uuid_dst FROM STDIN (FORMAT csv);
4,00000000-0000-0000-0000-000000000000
5,"FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF"
6,01563DF3-6481-D676-4C61-EFB99302BD5B
\.
SELECT n, d.id, d.id = s.id::ulid AS same_as_cast
FROM copy_uuid_dst d JOIN copy_uuid_src s USING (n) ORDER BY n;
SELECT count(*) FROM copy_uuid_dst;
-- A dump written by COPY TO of the uuid table reads back as the same values.
TRUNCATE copy_uuid_dst;
\copy copy_uuid_src TO 'results/io_uuid_dump.txt'
\copy copy_uuid_dst FROM 'results/io_uuid_dump.txt'
SELECT count(*) AS rows, bool_and(d.id = s.id::ulid) AS all_same
FROM copy_uuid_dst d JOIN copy_uuid_src s USING (n);
-- A braced UUID in a dump is an error of its line.
COPY copy_uuid_dst FROM STDIN;
7	{550e8400-e29b-41d4-a716-446655440000}
\.
DROP TABLE copy_uuid_src, copy_uuid_dst;

-- The error detail counts and shows characters as the database encoding
-- defines them.  This database is UTF8: "é" is one character of two bytes.
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5Fé');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5Fé0');
SELECT * FROM pg_temp.parse('日01ARYZ6S41TSV4RRFFQ69G5F');

-- SQL_ASCII declares no encoding: core counts every byte as a character
-- (length() and substr() agree) and leaves bytes above 127 uninterpreted.
-- The detail counts the same way, says so when it matters, and shows such a
-- byte by its value rather than half of what the client meant as one
-- character.  Each database of another encoding gets the same function.
\set regress_db :DBNAME
SET client_min_messages = warning;
DROP DATABASE IF EXISTS ulid_io_sql_ascii;
RESET client_min_messages;
CREATE DATABASE ulid_io_sql_ascii ENCODING 'SQL_ASCII' TEMPLATE template0
	LOCALE_PROVIDER libc LC_COLLATE 'C' LC_CTYPE 'C';
\c ulid_io_sql_ascii
SET client_min_messages = warning;
CREATE EXTENSION ulid;
RESET client_min_messages;
\i test/sql/include/parse.sql
SELECT length('01ARYZ6S41TSV4RRFFQ69G5FAé');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAé');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5Fé');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FA*');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FA');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-4466554400é');
SELECT '550e8400-e29b-41d4-a716-446655440000'::ulid, '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid;

-- LATIN1: every byte is a character, and a defined one: "é" is shown.
SET client_min_messages = warning;
DROP DATABASE IF EXISTS ulid_io_latin1;
RESET client_min_messages;
CREATE DATABASE ulid_io_latin1 ENCODING 'LATIN1' TEMPLATE template0
	LOCALE_PROVIDER libc LC_COLLATE 'C' LC_CTYPE 'C';
\c ulid_io_latin1
SET client_min_messages = warning;
CREATE EXTENSION ulid;
RESET client_min_messages;
\i test/sql/include/parse.sql
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FAé');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5Fé');

-- EUC_JP: "日" is one character of two bytes (three in UTF-8).
SET client_min_messages = warning;
DROP DATABASE IF EXISTS ulid_io_euc_jp;
RESET client_min_messages;
CREATE DATABASE ulid_io_euc_jp ENCODING 'EUC_JP' TEMPLATE template0
	LOCALE_PROVIDER libc LC_COLLATE 'C' LC_CTYPE 'C';
\c ulid_io_euc_jp
SET client_min_messages = warning;
CREATE EXTENSION ulid;
RESET client_min_messages;
\i test/sql/include/parse.sql
SELECT octet_length('日'), length('日');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5FA日');
SELECT * FROM pg_temp.parse('01ARYZ6S41TSV4RRFFQ69G5F日');
SELECT * FROM pg_temp.parse('550e8400-e29b-41d4-a716-44665544000日');

\c :regress_db
DROP DATABASE ulid_io_sql_ascii;
DROP DATABASE ulid_io_latin1;
DROP DATABASE ulid_io_euc_jp;
