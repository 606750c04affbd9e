-- Sorts of ulid with NULLs and in both directions.  PostgreSQL 19 sorts
-- pass-by-value leading keys with a radix sort, which ulid's abbreviated key
-- (the first 8 bytes as an unsigned integer) is: NULLs are set apart first,
-- then ties on the abbreviated key are ordered by the full comparison.  The
-- expected order is computed without ulid's comparator, from the bytes as
-- text in "C".
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS ulid;
RESET client_min_messages;
SET work_mem = '64MB';

-- 60,000 ids: spread over years, 5,000 sharing their first 8 bytes, and 5,000 NULLs.
CREATE TABLE sortn_ids AS
	SELECT gen_ulid('2000-01-01'::timestamptz + random() * interval '30 years') AS id
	FROM generate_series(1, 50000)
	UNION ALL
	SELECT ('\x0123456789abcdef'::bytea || substr(uuid_send(gen_random_uuid()), 1, 8))::ulid
	FROM generate_series(1, 5000)
	UNION ALL
	SELECT NULL FROM generate_series(1, 5000);
SELECT count(*), count(id), count(DISTINCT id) FROM sortn_ids;
CREATE TABLE sortn_expected AS
	SELECT row_number() OVER (ORDER BY encode(id::bytea, 'hex') COLLATE "C" NULLS LAST) AS pos, id
	FROM sortn_ids;

-- Ascending, NULLs last (the default) and first.
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id) AS pos, id FROM sortn_ids) s
JOIN sortn_expected e USING (pos) WHERE s.id IS DISTINCT FROM e.id;
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id NULLS FIRST) AS pos, id FROM sortn_ids) s
JOIN sortn_expected e ON e.pos = CASE WHEN s.pos <= 5000 THEN s.pos + 55000 ELSE s.pos - 5000 END
WHERE s.id IS DISTINCT FROM e.id;
-- Descending, NULLs first (the default) and last.
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id DESC) AS pos, id FROM sortn_ids) s
JOIN sortn_expected e ON e.pos = CASE WHEN s.pos <= 5000 THEN 55000 + s.pos ELSE 60001 - s.pos END
WHERE s.id IS DISTINCT FROM e.id;
SELECT count(*) AS misplaced FROM (
	SELECT row_number() OVER (ORDER BY id DESC NULLS LAST) AS pos, id FROM sortn_ids) s
JOIN sortn_expected e ON e.pos = CASE WHEN s.pos <= 55000 THEN 55001 - s.pos ELSE s.pos END
WHERE s.id IS DISTINCT FROM e.id;

-- A sort of bare values (an ordered aggregate) takes the same path.
SELECT array_agg(id ORDER BY id) = (SELECT array_agg(id ORDER BY pos) FROM sortn_expected)
	AS same_order
FROM sortn_ids;
SELECT array_agg(id ORDER BY id DESC NULLS LAST) =
	(SELECT array_agg(id ORDER BY pos DESC) FILTER (WHERE id IS NOT NULL) FROM sortn_expected)
		|| (SELECT array_agg(id) FILTER (WHERE id IS NULL) FROM sortn_expected)
	AS same_order
FROM sortn_ids;

RESET work_mem;
DROP TABLE sortn_ids, sortn_expected;
