-- Casts to and from uuid, bytea and timestamptz.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET TimeZone = 'UTC';

-- uuid: the same 16 bytes both ways.
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid;
SELECT '01563df3-6481-d676-4c61-efb99302bd5b'::uuid::ulid;
SELECT '00000000000000000000000000'::ulid::uuid, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'::ulid::uuid;
SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid::ulid;
-- The cast is binary-coercible both ways: implicit from ulid (a ulid is a
-- uuid), on assignment from uuid.
SELECT castsource::regtype, casttarget::regtype, castmethod, castcontext
FROM pg_cast WHERE castsource = 'ulid'::regtype OR casttarget = 'ulid'::regtype
ORDER BY castsource::regtype::text, casttarget::regtype::text;
-- Assignment: a uuid goes into a ulid column and back without a cast.
CREATE TABLE cast_assign (u uuid, l ulid);
INSERT INTO cast_assign VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid, '01563df3-6481-d676-4c61-efb99302bd5b'::uuid);
SELECT u, l FROM cast_assign;
DROP TABLE cast_assign;
-- Lossless round trips and the same order, over 10,000 values.
CREATE TABLE cast_values AS SELECT gen_ulid() AS id FROM generate_series(1, 10000);
INSERT INTO cast_values SELECT gen_random_uuid()::ulid FROM generate_series(1, 10000);
SELECT count(*) FROM cast_values WHERE id::uuid::ulid = id AND id::bytea::ulid = id
	AND id::text::ulid = id;
SELECT array_agg(id ORDER BY id) = array_agg(id ORDER BY id::uuid) FROM cast_values;
-- A UUIDv7 cast to ulid carries the v7 timestamp (version bits are not touched).
SELECT ulid_time('01890a5d-ac96-774b-bcce-b302099a8057'::uuid::ulid);
-- The cast does not set UUID version and variant bits.
SELECT uuid_send('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid) = ulid_send('01ARYZ6S41TSV4RRFFQ69G5FAV');

-- bytea: explicit, exactly 16 bytes.
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::bytea;
SELECT '\x01563df36481d6764c61efb99302bd5b'::bytea::ulid;
\set VERBOSITY sqlstate
SELECT '\x01563df36481d6764c61efb99302bd'::bytea::ulid;
\set VERBOSITY default
SELECT '\x01563df36481d6764c61efb99302bd'::bytea::ulid;
SELECT '\x01563df36481d6764c61efb99302bd5b00'::bytea::ulid;
SELECT ''::bytea::ulid;
-- bytea is not an assignment cast.
CREATE TABLE cast_bytea (l ulid);
INSERT INTO cast_bytea VALUES ('\x01563df36481d6764c61efb99302bd5b'::bytea);
DROP TABLE cast_bytea;

-- timestamptz: the embedded time.
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::timestamptz;
SELECT ulid_time('01ARYZ6S41TSV4RRFFQ69G5FAV');
SELECT ulid_time('00000000000000000000000000'), ulid_time('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');

-- timestamptz to ulid: the smallest ulid of that millisecond.
SELECT '2016-07-30 22:36:16.385+00'::timestamptz::ulid;
SELECT '2016-07-30 22:36:16.385999+00'::timestamptz::ulid;
SELECT ulid_from_time('2016-07-30 22:36:16.385999+00');
SELECT '1970-01-01 00:00:00+00'::timestamptz::ulid;
SELECT '10889-08-02 05:31:50.655999+00'::timestamptz::ulid;
-- The floor rule: the time round-trips to the millisecond.
SELECT ulid_time('2016-07-30 22:36:16.385999+00'::timestamptz::ulid);
SELECT count(*) FROM cast_values
	WHERE ulid_time(id)::ulid <= id AND id < (ulid_time(id) + interval '1 millisecond')::ulid;
-- It selects by creation time: ids from a millisecond are >= its floor.
SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid >= '2016-07-30 22:36:16.385+00'::timestamptz::ulid,
	'01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid < '2016-07-30 22:36:16.386+00'::timestamptz::ulid;
-- Outside 48 bits of milliseconds: datetime_field_overflow (22008).
\set VERBOSITY sqlstate
SELECT '1969-12-31 23:59:59.999999+00'::timestamptz::ulid;
\set VERBOSITY default
SELECT '1969-12-31 23:59:59.999999+00'::timestamptz::ulid;
SELECT '10889-08-02 05:31:50.656+00'::timestamptz::ulid;
SELECT 'infinity'::timestamptz::ulid;
SELECT '-infinity'::timestamptz::ulid;
RESET TimeZone;

DROP TABLE cast_values;

-- The implicit cast to uuid and function resolution.  A function with a uuid
-- overload and a polymorphic one, called with a ulid, has no exact match and
-- no preferred type to choose by (rules 4.c and 4.d of function type
-- resolution): ambiguous, 42725, since 1.1 made the cast implicit (1.0
-- chose anyelement).  Core behaves the same for an integer with int8 and
-- anyelement overloads.  The working forms: cast to the overload wanted, or
-- give ulid an overload of its own, which an exact match picks.
CREATE FUNCTION pg_temp.g(uuid) RETURNS text LANGUAGE sql AS $$ SELECT 'uuid' $$;
CREATE FUNCTION pg_temp.g(anyelement) RETURNS text LANGUAGE sql AS $$ SELECT 'anyelement' $$;
-- (The errors' detail and hint are worded differently from 19 on: terse.)
\set VERBOSITY sqlstate
SELECT pg_temp.g('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid);
\set VERBOSITY terse
SELECT pg_temp.g('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid);
SELECT pg_temp.g('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid::uuid);
CREATE FUNCTION pg_temp.f(int8) RETURNS text LANGUAGE sql AS $$ SELECT 'int8' $$;
CREATE FUNCTION pg_temp.f(anyelement) RETURNS text LANGUAGE sql AS $$ SELECT 'anyelement' $$;
SELECT pg_temp.f(1::int4);
\set VERBOSITY default
CREATE FUNCTION pg_temp.g(ulid) RETURNS text LANGUAGE sql AS $$ SELECT 'ulid' $$;
SELECT pg_temp.g('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid);
-- Why the cast stays implicit: a ulid column referencing a uuid key.  The
-- key's family (core's uuid_ops) has no (uuid, ulid) equality, so the
-- foreign key needs an implicit cast from ulid to uuid; without it (the
-- catalog changed in a transaction, undone) it cannot be made.
CREATE TABLE cast_uuid_key (id uuid PRIMARY KEY);
CREATE TABLE cast_ulid_ref (ref ulid REFERENCES cast_uuid_key (id));
BEGIN;
UPDATE pg_cast SET castcontext = 'a'
WHERE (castsource, casttarget) = ('ulid'::regtype, 'uuid'::regtype);
-- (datatype_mismatch, 42804; its detail's wording differs by major)
\set VERBOSITY sqlstate
CREATE TABLE cast_ulid_ref2 (ref ulid REFERENCES cast_uuid_key (id));
\set VERBOSITY default
ROLLBACK;
DROP TABLE cast_ulid_ref, cast_uuid_key;
