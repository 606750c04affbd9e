# Security: the install script under a hostile search_path and with planted
# objects, row-level security that still uses the index (LEAKPROOF), and
# which functions are marked LEAKPROOF.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('sec');
$node->init;
$node->append_conf('postgresql.conf', 'client_min_messages = warning');
$node->start;

# query_true NAME SQL: SQL returns true.
sub query_true
{
	my ($name, $sql, $db) = @_;

	is($node->safe_psql($db // 'postgres', $sql), 't', $name);
}

##
## The install script under a hostile search_path.
##

# A hostile schema: lookalikes of built-ins the install script uses, each
# recording any call.  If the script ever resolved one, evil.calls fills up
# (or the version test ">= 140000" fails and two BRIN classes go missing).
my $traps = <<'SQL';
CREATE TABLE evil.calls (what text);
CREATE FUNCTION evil.current_setting(text) RETURNS text LANGUAGE sql
	AS $$ INSERT INTO evil.calls VALUES ('current_setting'); SELECT '0' $$;
SQL
$node->safe_psql('postgres', <<"SQL");
CREATE ROLE mallory LOGIN;
CREATE SCHEMA evil AUTHORIZATION mallory;
SET ROLE mallory;
$traps
CREATE FUNCTION evil.int4_ge_trap(int4, int4) RETURNS bool LANGUAGE sql
	AS \$\$ INSERT INTO evil.calls VALUES ('>='); SELECT false \$\$;
CREATE OPERATOR evil.>= (LEFTARG = int4, RIGHTARG = int4, PROCEDURE = evil.int4_ge_trap);
CREATE FUNCTION evil.int4(text) RETURNS int4 LANGUAGE sql
	AS \$\$ INSERT INTO evil.calls VALUES ('int4'); SELECT 0 \$\$;
CREATE DOMAIN evil.timestamptz AS text;
CREATE DOMAIN evil.bytea AS text;
GRANT ALL ON SCHEMA evil TO PUBLIC;
GRANT ALL ON evil.calls TO PUBLIC;
RESET ROLE;
SQL

my ($ret, $out, $err) = $node->psql('postgres',
	"SET search_path = evil, pg_catalog, public;\n"
	  . "CREATE EXTENSION ulid SCHEMA evil;");
is($ret, 0,
	'CREATE EXTENSION into a hostile schema, search_path = evil, pg_catalog, public'
) or diag($err);
query_true('no lookalike was called', 'SELECT count(*) = 0 FROM evil.calls');
query_true("every built-in the extension's objects use is pg_catalog's", <<'SQL');
SELECT count(*) = 0 FROM (
	SELECT amproc AS f FROM pg_amproc WHERE amproclefttype = 'evil.ulid'::regtype
	UNION ALL SELECT oprrest FROM pg_operator WHERE oprleft = 'evil.ulid'::regtype
	UNION ALL SELECT oprjoin FROM pg_operator WHERE oprleft = 'evil.ulid'::regtype
	UNION ALL SELECT castfunc FROM pg_cast WHERE castsource = 'evil.ulid'::regtype AND castfunc <> 0) s
JOIN pg_proc p ON p.oid = s.f
WHERE p.pronamespace <> 'pg_catalog'::regnamespace AND p.proname NOT LIKE 'ulid%'
SQL
query_true("casts and columns use pg_catalog's types, not the evil domains",
	<<'SQL');
SELECT count(*) = 0 FROM pg_cast
WHERE (castsource = 'evil.ulid'::regtype OR casttarget = 'evil.ulid'::regtype)
  AND (castsource IN ('evil.timestamptz'::regtype, 'evil.bytea'::regtype)
	   OR casttarget IN ('evil.timestamptz'::regtype, 'evil.bytea'::regtype))
SQL
query_true('the version test was not hijacked: all three BRIN classes exist',
	<<'SQL');
SELECT count(*) = 3 FROM pg_opclass
WHERE opcintype = 'evil.ulid'::regtype
  AND opcmethod = (SELECT oid FROM pg_am WHERE amname = 'brin')
SQL
$node->safe_psql('postgres', 'DROP EXTENSION ulid');

# The contrast: the traps are live.  The same install script with its
# pg_catalog qualifications removed, run as a plain script in a session whose
# search_path puts evil before pg_catalog (as CREATE EXTENSION never does),
# calls them; so the checks above would have caught a hijack.
my $script = slurp_file(
	$node->config_data('--sharedir') . '/extension/ulid--1.0.sql');
$script =~ s/^\\echo.*$//mg;
$script =~ s/pg_catalog\.//g;
$script =~ s/MODULE_PATHNAME/\$libdir\/ulid/g;
$node->safe_psql('postgres', 'CREATE DATABASE contrast');
$node->safe_psql('contrast', "CREATE SCHEMA evil;\n$traps");
# Whether the hijacked script gets to its end does not matter, only whether
# it called the lookalike.
($ret, $out, $err) =
  $node->psql('contrast', "SET search_path = evil, pg_catalog;\n$script");
query_true(
	'contrast: without its qualifications, under that search_path, the script calls the lookalike',
	'SELECT count(*) > 0 FROM evil.calls', 'contrast');

# Objects planted in the target schema are never adopted: CREATE without OR
# REPLACE makes the install fail instead.
$node->safe_psql('postgres', <<'SQL');
CREATE SCHEMA trap;
CREATE FUNCTION trap.gen_ulid() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()';
SQL
($ret, $out, $err) =
  $node->psql('postgres', 'CREATE EXTENSION ulid SCHEMA trap');
isnt($ret, 0,
	'a function planted in the target schema makes CREATE EXTENSION fail');
like(
	$err,
	qr/ERROR:  function "gen_ulid" already exists/,
	'the failure names the planted function');
$node->safe_psql('postgres', 'DROP SCHEMA trap CASCADE');

##
## Row-level security: a tenant policy comparing ulid columns, queried by a
## non-superuser, still uses the primary key, because the comparison is
## LEAKPROOF and may run before the policy's own filter.
##

$node->safe_psql('postgres', <<'SQL');
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

# as_alice SQL: SQL's output when run by alice as tenant 01ARYZ6S41TSV4RRFFQ69G5FAV.
sub as_alice
{
	my ($sql) = @_;

	return $node->safe_psql('postgres', <<"SQL");
SET ROLE alice;
SET app.tenant = '01ARYZ6S41TSV4RRFFQ69G5FAV';
$sql
SQL
}

my $lookup =
  "SELECT body FROM docs WHERE id = '01J00000000000000000000000'";
my $plan = as_alice("EXPLAIN (COSTS OFF) $lookup");
like(
	$plan,
	qr/Index Scan using docs_pkey/,
	"RLS: a non-superuser's lookup by id uses the primary key");
like($plan, qr/Filter: \(tenant = /, 'RLS: the policy filters that scan');

# The contrast: were = not LEAKPROOF, the same query could not use the index.
$node->safe_psql('postgres',
	'ALTER FUNCTION ulid_eq(ulid, ulid) NOT LEAKPROOF');
$plan = as_alice("EXPLAIN (COSTS OFF) $lookup");
$node->safe_psql('postgres', 'ALTER FUNCTION ulid_eq(ulid, ulid) LEAKPROOF');
ok( $plan =~ /Seq Scan on docs/ && $plan !~ /docs_pkey/,
	'RLS contrast: with ulid_eq not LEAKPROOF the same query falls back to a scan'
) or diag($plan);

is( as_alice(
		"SELECT string_agg(body, ',') FROM docs
		 WHERE id IN ('01J00000000000000000000000', '01J00000000000000000000001')"
	),
	'mine',
	"RLS: the policy hides the other tenant's row");

##
## LEAKPROOF is on exactly the functions that cannot raise an error for any
## input: the comparisons (a 16-byte compare) and ulid_time (every 48-bit
## time fits a timestamptz).  Called on the extremes they return.
##

is( $node->safe_psql(
		'postgres', <<'SQL'),
SELECT string_agg(proname, ',' ORDER BY proname)
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid') AND p.proleakproof
SQL
	'ulid_cmp,ulid_eq,ulid_ge,ulid_gt,ulid_le,ulid_lt,ulid_ne,ulid_time',
	'LEAKPROOF functions are exactly the comparisons and ulid_time');
query_true('LEAKPROOF functions on the extreme values', <<'SQL');
WITH v(x) AS (VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'))
SELECT count(*) = 4 FROM v a, v b
WHERE ulid_lt(a.x, b.x) IS NOT NULL AND ulid_le(a.x, b.x) IS NOT NULL AND ulid_eq(a.x, b.x) IS NOT NULL
  AND ulid_ne(a.x, b.x) IS NOT NULL AND ulid_ge(a.x, b.x) IS NOT NULL AND ulid_gt(a.x, b.x) IS NOT NULL
  AND ulid_cmp(a.x, b.x) IS NOT NULL AND ulid_time(a.x) IS NOT NULL
SQL

$node->stop;

done_testing();
