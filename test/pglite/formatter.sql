-- What test/pglite/psql.mjs must print as pg_regress's psql does: core
-- PostgreSQL only, output the same from 15 to 18.  formatter.out is psql 15's
-- output (the header of test/pglite/regress.mjs says how to remake it).
SELECT 1 AS one, 'text' AS t, NULL AS n, -12.5 AS num, 3::int8 AS big, 2::oid AS o;
SELECT 'a much longer value than its header' AS h, 12345678901234 AS wide_number;
SELECT x, x * 100 AS hundred, repeat('#', x) AS bar FROM generate_series(1, 3) x;
SELECT 'line one
line two' AS multi, 'x' AS after, E'a\nbb\nccc' AS three;
SELECT E'first\nsecond' AS "two
line header", 1 AS plain;
SELECT E'tab\there' AS tab, E'cr\rhere' AS cr, chr(1) AS ctl, E'\u00e9t\u00e9' AS accents;
SELECT '日本語' AS wide, 'x' AS narrow, 'e' || chr(769) AS combining;
SELECT 1 WHERE false;
SELECT;
SELECT NULL AS only_null;
SELECT ARRAY[1, 2] AS arr, '{"a": 1}'::json AS js, true AS yes, '2024-02-29 12:34:56+00'::timestamptz AS ts;

-- Statements across lines, with comments, blank lines and semicolons that
-- end nothing.
SELECT 'a;b' AS quoted, $$c;d$$ AS dollar, $tag$e;$f$tag$ AS tagged,
	-- a comment inside the statement
	(SELECT 1; ) AS broken;
SELECT 'x' AS a /* block ; comment */, "t"."y" FROM (SELECT 2 AS y) "t";

SELECT 1 AS first; SELECT 2 AS second;
SELECT
	'spread'

	AS over_lines;
CREATE FUNCTION fmt_atomic(a int) RETURNS int LANGUAGE sql
BEGIN ATOMIC
	SELECT a + 1;
END;
SELECT fmt_atomic(1);
DROP FUNCTION fmt_atomic(int);

-- Errors: the cursor, on the right line, within 60 columns.
SELECT 1 +;
SELECT 1,
	2,
	nosuchcolumn;
SELECT 'a fairly long string literal to push the error far right', 'more text here', nosuch;
SELECT nosuch, 'a fairly long string literal that goes on and on and on after the error';
SELECT 'padding padding padding padding padding padding padding', nosuch, 'padding padding padding padding padding';
SELECT	'tab',	nosuch;
SELECT 'été 日本', nosuch;
SELECT 1/0;
CREATE TABLE fmt_t (a int PRIMARY KEY, b text);
INSERT INTO fmt_t VALUES (1, 'one');
INSERT INTO fmt_t VALUES (1, 'again');
INSERT INTO fmt_t VALUES (2, 'two') RETURNING *;
DO $$ BEGIN RAISE EXCEPTION 'boom' USING DETAIL = 'the detail', HINT = 'the hint'; END $$;
DO $$ BEGIN RAISE NOTICE 'a notice %', 42 USING DETAIL = 'its detail'; RAISE WARNING 'a warning'; END $$;
DO $$ BEGIN EXECUTE 'SELECT * FROM'; END $$;
CREATE FUNCTION fmt_notice() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
	RAISE NOTICE 'from inside a query';
	RETURN 7;
END $$;
SELECT fmt_notice() AS seven;
BEGIN;
SELECT 1/0;
SELECT 1;
ROLLBACK;
\set VERBOSITY terse
SELECT 1 +;
SELECT 1/0;
\set VERBOSITY sqlstate
SELECT 1/0;
\set VERBOSITY default

-- Variables.
\set v 'it''s'
\set n 42
\set id fmt_t
SELECT :n AS n, :'v' AS v, count(*) FROM :"id";
\set backslash 'a\\b'
SELECT :'backslash' AS escaped, ':n' AS not_in_quotes, :undefined_is_kept;
SELECT 7 AS got, 'x' AS other \gset
SELECT :got AS got, :'other' AS other;
SELECT 'prefixed' AS val \gset p_
SELECT :'p_val' AS p_val;
SELECT 1 WHERE false \gset
\echo echoed :n

-- Expanded.
\x on
SELECT 1 AS a, 'two' AS longer_name, NULL AS n;
SELECT x AS n, repeat('y', x) AS ys, E'multi\nline' AS ml FROM generate_series(1, 2) x;
SELECT 1 WHERE false;
\x off

-- COPY with inline data, an error in the data, COPY TO STDOUT, \copy.
COPY fmt_t FROM STDIN;
3	three
4	four
\.
COPY fmt_t FROM STDIN (FORMAT csv);
5,"five, quoted"
\.
COPY fmt_t FROM STDIN;
6	six
x	bad
\.
COPY (SELECT * FROM fmt_t ORDER BY a) TO STDOUT;
COPY (SELECT * FROM fmt_t ORDER BY a) TO STDOUT (FORMAT csv, HEADER);
\copy fmt_t TO 'results/formatter.copy'
TRUNCATE fmt_t;
\copy fmt_t FROM 'results/formatter.copy'
SELECT * FROM fmt_t ORDER BY a;
\i test/sql/include/plan_has.sql
SELECT pg_temp.plan_has('SELECT * FROM fmt_t WHERE a = 1', 'fmt_t');
DROP TABLE fmt_t;
DROP FUNCTION fmt_notice();
