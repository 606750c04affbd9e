-- PostgreSQL 19's COPY options meet ulid: ON_ERROR set_null reads bad ulid
-- text as NULL through ulid_in's soft errors; FORMAT json writes a ulid as a
-- JSON string of its text; COPY TO reads a partitioned table.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;

-- Each bad value becomes NULL, the row is kept, and one NOTICE counts them:
-- a letter outside Crockford's alphabet, too short, too long, above the
-- largest ulid (first character 8), empty.  Lowercase is valid.
CREATE TABLE copy_ids (n int, id ulid);
COPY copy_ids FROM STDIN (ON_ERROR set_null);
1	01ARYZ6S41TSV4RRFFQ69G5FAV
2	01ARYZ6S41TSV4RRFFQ69G5FAU
3	01ARYZ6S41TSV4RRFFQ69G5FA
4	01ARYZ6S41TSV4RRFFQ69G5FAVV
5	81ARYZ6S41TSV4RRFFQ69G5FAV
6	
7	01aryz6s41tsv4rrffq69g5fav
8	\N
\.
SELECT n, id FROM copy_ids ORDER BY n;
-- With LOG_VERBOSITY verbose, a NOTICE names each value set to NULL.
COPY copy_ids FROM STDIN (FORMAT csv, ON_ERROR set_null, LOG_VERBOSITY verbose);
9,7ZZZZZZZZZZZZZZZZZZZZZZZZZ
10,8ZZZZZZZZZZZZZZZZZZZZZZZZZ
\.
SELECT n, id FROM copy_ids WHERE n >= 9 ORDER BY n;
-- A NOT NULL ulid column still refuses the NULL: not_null_violation (23502).
CREATE TABLE copy_ids_nn (n int, id ulid NOT NULL);
\set VERBOSITY sqlstate
COPY copy_ids_nn FROM STDIN (ON_ERROR set_null);
1	01ARYZ6S41TSV4RRFFQ69G5FAV
2	not a ulid
\.
\set VERBOSITY default
SELECT count(*) FROM copy_ids_nn;
-- A ulid array with one bad element: the whole array is NULL.
CREATE TABLE copy_arrays (n int, ids ulid[]);
COPY copy_arrays FROM STDIN (ON_ERROR set_null);
1	{01ARYZ6S41TSV4RRFFQ69G5FAV,01BX5ZZKBKACTAV9WEVGEMMVRZ}
2	{01ARYZ6S41TSV4RRFFQ69G5FAV,01BX5ZZKBKACTAV9WEVGEMMVRU}
\.
SELECT n, ids FROM copy_arrays ORDER BY n;

-- FORMAT json: a ulid is a JSON string of its text, as a uuid is; NULL is null.
COPY (SELECT n, id, id::uuid AS as_uuid FROM copy_ids WHERE n IN (1, 2) ORDER BY n)
	TO STDOUT (FORMAT json);
COPY (SELECT n, ids FROM copy_arrays ORDER BY n) TO STDOUT (FORMAT json);
COPY (SELECT n, id FROM copy_ids WHERE n IN (1, 8) ORDER BY n) TO STDOUT (FORMAT json, FORCE_ARRAY);
-- What COPY writes as JSON reads back as the same ulids.
CREATE TABLE copy_json_src AS
	SELECT n, gen_ulid() AS id FROM generate_series(1, 1000) n
	UNION ALL VALUES (1001, '00000000000000000000000000'::ulid),
		(1002, '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'), (1003, NULL);
CREATE FUNCTION copy_json_round_trip() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	f text := current_setting('data_directory') || '/copy_ulid.json';
	same bigint;
BEGIN
	EXECUTE format('COPY copy_json_src TO %L (FORMAT json, FORCE_ARRAY)', f);
	SELECT count(*) INTO same
	FROM json_populate_recordset(NULL::copy_json_src, pg_read_file(f)::json) j
	JOIN copy_json_src s ON s.n = j.n AND s.id IS NOT DISTINCT FROM j.id;
	RETURN same;
END
$$;
SELECT copy_json_round_trip();

-- COPY TO of a table hash-partitioned on a ulid: every row, from every partition.
CREATE TABLE copy_hash (id ulid) PARTITION BY HASH (id);
CREATE TABLE copy_hash_0 PARTITION OF copy_hash FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE copy_hash_1 PARTITION OF copy_hash FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO copy_hash VALUES ('01ARYZ6S41TSV4RRFFQ69G5FAV'), ('01BX5ZZKBKACTAV9WEVGEMMVRZ'),
	('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
SELECT count(DISTINCT tableoid) AS partitions_used FROM copy_hash;
COPY copy_hash TO STDOUT;

DROP FUNCTION copy_json_round_trip();
DROP TABLE copy_ids, copy_ids_nn, copy_arrays, copy_json_src, copy_hash;
