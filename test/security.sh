#!/usr/bin/env bash
# Security: the install script under a hostile search_path and planted
# objects, row-level security that still uses the index (LEAKPROOF), and
# what is marked LEAKPROOF.  Ends "security: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
source test/lib.sh

start_cluster sec 56310 || exit 1

# A hostile schema: lookalikes of built-ins the install script uses, each
# recording any call.  If the script ever resolved one, evil.calls fills up
# (or the version test ">= 140000" fails and two BRIN classes go missing).
psql_on sec -q <<'SQL'
CREATE ROLE mallory LOGIN;
CREATE SCHEMA evil AUTHORIZATION mallory;
SET ROLE mallory;
CREATE TABLE evil.calls (what text);
CREATE FUNCTION evil.current_setting(text) RETURNS text LANGUAGE sql
	AS $$ INSERT INTO evil.calls VALUES ('current_setting'); SELECT '0' $$;
CREATE FUNCTION evil.int4_ge_trap(int4, int4) RETURNS bool LANGUAGE sql
	AS $$ INSERT INTO evil.calls VALUES ('>='); SELECT false $$;
CREATE OPERATOR evil.>= (LEFTARG = int4, RIGHTARG = int4, PROCEDURE = evil.int4_ge_trap);
CREATE FUNCTION evil.int4(text) RETURNS int4 LANGUAGE sql
	AS $$ INSERT INTO evil.calls VALUES ('int4'); SELECT 0 $$;
CREATE DOMAIN evil.timestamptz AS text;
CREATE DOMAIN evil.bytea AS text;
GRANT ALL ON SCHEMA evil TO PUBLIC;
GRANT ALL ON evil.calls TO PUBLIC;
RESET ROLE;
SQL
if psql_on sec -q -c "SET search_path = evil, pg_catalog, public" -c "CREATE EXTENSION ulid SCHEMA evil" 2>"$lib_root/err"; then
	pass "CREATE EXTENSION into a hostile schema, search_path = evil, pg_catalog, public"
else
	fail "install under a hostile search_path" "$(cat "$lib_root/err")"
fi
check "no lookalike was called" sec "SELECT count(*) = 0 FROM evil.calls"
check "every built-in the extension's objects use is pg_catalog's" sec \
	"SELECT count(*) = 0 FROM (
		SELECT amproc AS f FROM pg_amproc WHERE amproclefttype = 'evil.ulid'::regtype
		UNION ALL SELECT oprrest FROM pg_operator WHERE oprleft = 'evil.ulid'::regtype
		UNION ALL SELECT oprjoin FROM pg_operator WHERE oprleft = 'evil.ulid'::regtype
		UNION ALL SELECT castfunc FROM pg_cast WHERE castsource = 'evil.ulid'::regtype AND castfunc <> 0) s
	 JOIN pg_proc p ON p.oid = s.f
	 WHERE p.pronamespace <> 'pg_catalog'::regnamespace AND p.proname NOT LIKE 'ulid%'"
check "casts and columns use pg_catalog's types, not the evil domains" sec \
	"SELECT count(*) = 0 FROM pg_cast WHERE (castsource = 'evil.ulid'::regtype OR casttarget = 'evil.ulid'::regtype)
	 AND (castsource IN ('evil.timestamptz'::regtype, 'evil.bytea'::regtype)
		  OR casttarget IN ('evil.timestamptz'::regtype, 'evil.bytea'::regtype))"
check "the version test was not hijacked: all three BRIN classes exist" sec \
	"SELECT count(*) = 3 FROM pg_opclass WHERE opcintype = 'evil.ulid'::regtype
	 AND opcmethod = (SELECT oid FROM pg_am WHERE amname = 'brin')"
psql_on sec -q -c "DROP EXTENSION ulid"

# The contrast: the traps are live.  The same install script with its
# pg_catalog qualifications removed, run as a plain script in a session whose
# search_path puts evil before pg_catalog (as CREATE EXTENSION never does),
# calls them; so the checks above would have caught a hijack.
script=$(ls /usr/share/postgresql/"$PG_MAJOR"/extension/ulid--1.0.sql)
psql_on sec -q -c "CREATE DATABASE contrast"
psql -X -q "$(conninfo sec contrast)" <<'SQL'
CREATE SCHEMA evil;
CREATE TABLE evil.calls (what text);
CREATE FUNCTION evil.current_setting(text) RETURNS text LANGUAGE sql
	AS $$ INSERT INTO evil.calls VALUES ('current_setting'); SELECT '0' $$;
SQL
sed -e '/^\\echo/d' -e 's/pg_catalog\.//g' -e "s|MODULE_PATHNAME|\$libdir/ulid|g" "$script" |
	psql -X -q -v ON_ERROR_STOP=1 "$(conninfo sec contrast)" -c "SET search_path = evil, pg_catalog" -f - >/dev/null 2>&1
got=$(psql -X -At "$(conninfo sec contrast)" -c "SELECT count(*) > 0 FROM evil.calls" 2>&1)
if [ "$got" = t ]; then
	pass "contrast: without its qualifications, under that search_path, the script calls the lookalike"
else
	fail "contrast" "the unqualified script did not call evil.current_setting: $got"
fi

# Objects planted in the target schema are never adopted: CREATE without OR
# REPLACE makes the install fail instead.
psql_on sec -q -c "CREATE SCHEMA trap" \
	-c "CREATE FUNCTION trap.gen_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()'"
if psql_on sec -q -c "CREATE EXTENSION ulid SCHEMA trap" 2>"$lib_root/err"; then
	fail "planted function" "the install adopted trap.gen_ulid()"
elif grep -q 'already exists' "$lib_root/err"; then
	pass "a function planted in the target schema makes CREATE EXTENSION fail: $(head -1 "$lib_root/err" | sed 's/^.*ERROR: *//')"
else
	fail "planted function" "$(cat "$lib_root/err")"
fi
psql_on sec -q -c "DROP SCHEMA trap CASCADE"

# Row-level security: a tenant policy comparing ulid columns, queried by a
# non-superuser, still uses the primary key, because the comparison is
# LEAKPROOF and may run before the policy's own filter.
psql_on sec -q <<'SQL'
CREATE EXTENSION ulid;
CREATE ROLE alice LOGIN;
CREATE TABLE docs (id ulid PRIMARY KEY DEFAULT gen_ulid(), tenant ulid NOT NULL, body text);
INSERT INTO docs (tenant, body)
	SELECT CASE WHEN g % 2 = 0 THEN '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid ELSE '01BX5ZZKBKACTAV9WEVGEMMVRZ'::ulid END, 'doc ' || g
	FROM generate_series(1, 100000) g;
INSERT INTO docs VALUES ('01J00000000000000000000000', '01ARYZ6S41TSV4RRFFQ69G5FAV', 'mine'),
	('01J00000000000000000000001', '01BX5ZZKBKACTAV9WEVGEMMVRZ', 'not mine');
ANALYZE docs;
ALTER TABLE docs ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_only ON docs USING (tenant = current_setting('app.tenant')::ulid);
GRANT SELECT ON docs TO alice;
SQL
rls_plan() {
	psql_on sec -At -q -c "SET ROLE alice" -c "SET app.tenant = '01ARYZ6S41TSV4RRFFQ69G5FAV'" \
		-c "EXPLAIN (COSTS OFF) SELECT body FROM docs WHERE id = '01J00000000000000000000000'" 2>&1
}
plan=$(rls_plan)
if grep -q 'Index Scan using docs_pkey' <<<"$plan" && grep -q 'Filter: (tenant = ' <<<"$plan"; then
	pass "RLS: a non-superuser's lookup by id uses the primary key, the policy filters"
else
	fail "RLS index use" "$plan"
fi
# The contrast: were = not LEAKPROOF, the same query could not use the index.
psql_on sec -q -c "ALTER FUNCTION ulid_eq(ulid, ulid) NOT LEAKPROOF"
plan=$(rls_plan)
psql_on sec -q -c "ALTER FUNCTION ulid_eq(ulid, ulid) LEAKPROOF"
if grep -q 'docs_pkey' <<<"$plan" || ! grep -q 'Seq Scan on docs' <<<"$plan"; then
	fail "RLS contrast" "expected a sequential scan without LEAKPROOF: $plan"
else
	pass "RLS contrast: with ulid_eq not LEAKPROOF the same query falls back to a scan"
fi
got=$(psql_on sec -At -q -c "SET ROLE alice" -c "SET app.tenant = '01ARYZ6S41TSV4RRFFQ69G5FAV'" \
	-c "SELECT string_agg(body, ',') FROM docs WHERE id IN ('01J00000000000000000000000', '01J00000000000000000000001')" 2>&1)
[ "$got" = mine ] && pass "RLS: the policy hides the other tenant's row" || fail "RLS filter" "$got"

# LEAKPROOF is on exactly the functions that cannot raise an error for any
# input: the comparisons (a 16-byte compare) and ulid_time (every 48-bit
# time fits a timestamptz).  Called on the extremes they return.
check "LEAKPROOF functions are exactly the comparisons and ulid_time" sec \
	"SELECT string_agg(proname, ',' ORDER BY proname) = 'ulid_cmp,ulid_eq,ulid_ge,ulid_gt,ulid_le,ulid_lt,ulid_ne,ulid_time'
	 FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
	 WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND p.proleakproof"
check "LEAKPROOF functions on the extreme values" sec \
	"WITH v(x) AS (VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'))
	 SELECT count(*) = 4 FROM v a, v b
	 WHERE ulid_lt(a.x, b.x) IS NOT NULL AND ulid_le(a.x, b.x) IS NOT NULL AND ulid_eq(a.x, b.x) IS NOT NULL
	   AND ulid_ne(a.x, b.x) IS NOT NULL AND ulid_ge(a.x, b.x) IS NOT NULL AND ulid_gt(a.x, b.x) IS NOT NULL
	   AND ulid_cmp(a.x, b.x) IS NOT NULL AND ulid_time(a.x) IS NOT NULL"

finish security
