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

# The script under test is the one users get: the control file's
# default_version.
my $version = $node->safe_psql('postgres',
	"SELECT default_version FROM pg_available_extensions WHERE name = 'ulid'");
my $sharedir = $node->config_data('--sharedir') . '/extension';
my $script = slurp_file("$sharedir/ulid--$version.sql");

# Every built-in the script names with a pg_catalog qualification.
(my $code = $script) =~ s/--.*$//mg;
my %builtin = map { $_ => 1 } ($code =~ /\bpg_catalog\.(\w+)/g),
  ($code =~ /OPERATOR\(pg_catalog\.([^)\s]+)\)/g);
my $builtins = join(', ', map { "'$_'" } sort keys %builtin);

# plant WHICH: SQL planting, in schema evil, a lookalike of each of those
# built-ins: for a type (WHICH "types"), a domain over it or, for a
# pseudo-type, a shell type of the same name; for a function (WHICH
# "functions"), a LANGUAGE internal alias of the real one with the same
# arguments, so that only the OID a catalog row ends up pointing to tells the
# two apart.  Run by a superuser, with evil off the search_path.
sub plant
{
	my ($which) = @_;
	my $types = $which =~ /types/ ? 'true' : 'false';
	my $functions = $which =~ /functions/ ? 'true' : 'false';

	return <<"SQL";
DO \$plant\$
DECLARE
	n text;
	r record;
BEGIN
	FOREACH n IN ARRAY ARRAY[$builtins]::text[] LOOP
		FOR r IN SELECT typtype FROM pg_type
			WHERE $types AND typname = n AND typnamespace = 'pg_catalog'::regnamespace
		LOOP
			IF r.typtype = 'p' THEN
				EXECUTE format('CREATE TYPE evil.%I', n);
			ELSE
				EXECUTE format('CREATE DOMAIN evil.%I AS pg_catalog.%I', n, n);
			END IF;
		END LOOP;
		-- an operator family (FOR ORDER BY pg_catalog.float_ops): an empty one
		IF $types AND EXISTS (SELECT FROM pg_opfamily
							  WHERE opfname = n AND opfnamespace = 'pg_catalog'::regnamespace
								AND opfmethod = (SELECT oid FROM pg_am WHERE amname = 'btree')) THEN
			EXECUTE format('CREATE OPERATOR FAMILY evil.%I USING btree', n);
		END IF;
		FOR r IN SELECT oid, prosrc FROM pg_proc
			WHERE $functions AND proname = n AND pronamespace = 'pg_catalog'::regnamespace
			  AND prolang = (SELECT oid FROM pg_language WHERE lanname = 'internal')
		LOOP
			EXECUTE format('CREATE FUNCTION evil.%I(%s) RETURNS %s LANGUAGE internal STRICT AS %L',
						   n, pg_get_function_identity_arguments(r.oid),
						   (SELECT prorettype::regtype FROM pg_proc WHERE oid = r.oid), r.prosrc);
		END LOOP;
	END LOOP;
END
\$plant\$;
-- What was planted, to be told apart from what the script creates in evil.
CREATE TABLE public.lookalike AS
	SELECT oid, 'function ' || oid::regprocedure AS what FROM pg_proc
		WHERE pronamespace = 'evil'::regnamespace
	UNION ALL SELECT oid, 'type ' || oid::regtype FROM pg_type
		WHERE typnamespace = 'evil'::regnamespace
	UNION ALL SELECT oid, 'operator ' || oid::regoperator FROM pg_operator
		WHERE oprnamespace = 'evil'::regnamespace
	UNION ALL SELECT oid, 'operator family evil.' || opfname FROM pg_opfamily
		WHERE opfnamespace = 'evil'::regnamespace;
SQL
}

# The catalog checks.  Each lists, as "object column -> lookalike", every
# reference from an object under test (the view subject: classid, objid) to
# something planted (the table lookalike); empty when there is none.
my $families = <<'SQL';
WITH fam AS (
	SELECT objid AS oid FROM subject WHERE classid = 'pg_opfamily'::regclass
	UNION SELECT c.opcfamily FROM pg_opclass c
		JOIN subject s ON s.classid = 'pg_opclass'::regclass AND s.objid = c.oid)
SQL
my @checks = (
	[   'operators: oprcode, oprrest, oprjoin and their types',
		<<'SQL' ],
SELECT string_agg(format('%s %s -> %s', o.oid::regoperator, r.col, l.what), '; '
				  ORDER BY o.oid, r.col)
FROM subject s JOIN pg_operator o ON s.classid = 'pg_operator'::regclass AND o.oid = s.objid,
	LATERAL (VALUES ('oprcode', o.oprcode::oid), ('oprrest', o.oprrest::oid),
					('oprjoin', o.oprjoin::oid), ('oprleft', o.oprleft),
					('oprright', o.oprright), ('oprresult', o.oprresult)) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
	[   'operator families: pg_amop operators, their types and ORDER BY families',
		$families . <<'SQL' ],
SELECT string_agg(format('%s strategy %s %s -> %s', f.opfname, a.amopstrategy, r.col, l.what),
				  '; ' ORDER BY f.opfname, a.amopstrategy, r.col)
FROM fam JOIN pg_opfamily f ON f.oid = fam.oid JOIN pg_amop a ON a.amopfamily = fam.oid,
	LATERAL (VALUES ('amopopr', a.amopopr), ('amoplefttype', a.amoplefttype),
					('amoprighttype', a.amoprighttype), ('amopsortfamily', a.amopsortfamily)) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
	[   'operator families: pg_amproc support functions and their types',
		$families . <<'SQL' ],
SELECT string_agg(format('%s support %s %s -> %s', f.opfname, a.amprocnum, r.col, l.what),
				  '; ' ORDER BY f.opfname, a.amprocnum, r.col)
FROM fam JOIN pg_opfamily f ON f.oid = fam.oid JOIN pg_amproc a ON a.amprocfamily = fam.oid,
	LATERAL (VALUES ('amproc', a.amproc::oid), ('amproclefttype', a.amproclefttype),
					('amprocrighttype', a.amprocrighttype)) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
	[   'casts: castfunc, castsource, casttarget',
		<<'SQL' ],
SELECT string_agg(format('cast %s -> %s %s -> %s', c.castsource::regtype, c.casttarget::regtype,
						 r.col, l.what), '; ' ORDER BY c.oid, r.col)
FROM subject s JOIN pg_cast c ON s.classid = 'pg_cast'::regclass AND c.oid = s.objid,
	LATERAL (VALUES ('castfunc', c.castfunc), ('castsource', c.castsource),
					('casttarget', c.casttarget)) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
	[   "types: I/O and support functions, element and base types",
		<<'SQL' ],
SELECT string_agg(format('%s %s -> %s', t.oid::regtype, r.col, l.what), '; '
				  ORDER BY t.oid, r.col)
FROM subject s JOIN pg_type t ON s.classid = 'pg_type'::regclass AND t.oid = s.objid,
	LATERAL (VALUES ('typinput', t.typinput::oid), ('typoutput', t.typoutput::oid),
					('typreceive', t.typreceive::oid), ('typsend', t.typsend::oid),
					('typmodin', t.typmodin::oid), ('typmodout', t.typmodout::oid),
					('typanalyze', t.typanalyze::oid), ('typelem', t.typelem),
					('typbasetype', t.typbasetype)) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
	[   'functions: argument, result and support function',
		<<'SQL' ],
SELECT string_agg(format('%s %s -> %s', p.oid::regprocedure, r.col, l.what), '; '
				  ORDER BY p.oid, r.col)
FROM subject s JOIN pg_proc p ON s.classid = 'pg_proc'::regclass AND p.oid = s.objid,
	LATERAL (SELECT 'prorettype', p.prorettype
			 UNION ALL SELECT 'prosupport', p.prosupport::oid
			 UNION ALL SELECT 'proargtypes', a FROM unnest(p.proargtypes::oid[]) a
			 UNION ALL SELECT 'proallargtypes', a FROM unnest(p.proallargtypes) a) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
	[   'aggregates: transition, combine, final functions, sort operator, state type',
		<<'SQL' ],
SELECT string_agg(format('%s %s -> %s', g.aggfnoid::regprocedure, r.col, l.what), '; '
				  ORDER BY g.aggfnoid, r.col)
FROM subject s JOIN pg_aggregate g ON s.classid = 'pg_proc'::regclass AND g.aggfnoid = s.objid,
	LATERAL (VALUES ('aggtransfn', g.aggtransfn::oid), ('aggfinalfn', g.aggfinalfn::oid),
					('aggcombinefn', g.aggcombinefn::oid), ('aggserialfn', g.aggserialfn::oid),
					('aggdeserialfn', g.aggdeserialfn::oid), ('aggmtransfn', g.aggmtransfn::oid),
					('aggminvtransfn', g.aggminvtransfn::oid), ('aggmfinalfn', g.aggmfinalfn::oid),
					('aggsortop', g.aggsortop), ('aggtranstype', g.aggtranstype),
					('aggmtranstype', g.aggmtranstype)) r(col, ref)
	JOIN lookalike l ON l.oid = r.ref
SQL
);

# hostile_refs DB NAME: what check NAME finds in database DB.
sub hostile_refs
{
	my ($db, $name) = @_;
	my ($check) = grep { $_->[0] eq $name } @checks;

	return $node->safe_psql($db, $check->[1]);
}

# A hostile schema, owned by an unprivileged role: lookalikes of every
# built-in the script names, and the traps for ulid--1.0.sql's DO block, each
# recording any call.
my $traps = <<'SQL';
CREATE TABLE evil.calls (what text);
CREATE FUNCTION evil.current_setting(pg_catalog.text) RETURNS pg_catalog.text LANGUAGE sql
	AS $$ INSERT INTO evil.calls VALUES ('current_setting'); SELECT '0' $$;
SQL
$node->safe_psql('postgres', <<"SQL");
CREATE ROLE mallory LOGIN;
CREATE SCHEMA evil AUTHORIZATION mallory;
SET ROLE mallory;
$traps
CREATE FUNCTION evil.int4_ge_trap(pg_catalog.int4, pg_catalog.int4) RETURNS pg_catalog.bool
	LANGUAGE sql AS \$\$ INSERT INTO evil.calls VALUES ('>='); SELECT false \$\$;
CREATE OPERATOR evil.>= (LEFTARG = pg_catalog.int4, RIGHTARG = pg_catalog.int4,
						 PROCEDURE = evil.int4_ge_trap);
CREATE FUNCTION evil.int4(pg_catalog.text) RETURNS pg_catalog.int4 LANGUAGE sql
	AS \$\$ INSERT INTO evil.calls VALUES ('int4'); SELECT 0 \$\$;
GRANT ALL ON SCHEMA evil TO PUBLIC;
GRANT ALL ON evil.calls TO PUBLIC;
RESET ROLE;
@{[ plant('types functions') ]}
-- The objects under test: the extension's members.
CREATE VIEW subject AS
	SELECT classid, objid FROM pg_depend
	WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
	  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid');
SQL

query_true("every pg_catalog name in ulid--$version.sql has a lookalike in evil",
	<<"SQL");
SELECT count(*) = 0 FROM unnest(ARRAY[$builtins]::text[]) n
WHERE NOT EXISTS (SELECT FROM pg_type WHERE typname = n AND typnamespace = 'evil'::regnamespace)
  AND NOT EXISTS (SELECT FROM pg_proc WHERE proname = n AND pronamespace = 'evil'::regnamespace)
  AND NOT EXISTS (SELECT FROM pg_operator WHERE oprname = n AND oprnamespace = 'evil'::regnamespace)
  AND NOT EXISTS (SELECT FROM pg_opfamily WHERE opfname = n AND opfnamespace = 'evil'::regnamespace)
SQL

# The extension is installed into the hostile schema itself, so that the
# lookalikes sit on the search_path CREATE EXTENSION gives the script.
my ($ret, $out, $err) = $node->psql('postgres',
	"SET search_path = evil, pg_catalog, public;\n"
	  . "CREATE EXTENSION ulid SCHEMA evil;");
is($ret, 0,
	'CREATE EXTENSION into a hostile schema, search_path = evil, pg_catalog, public'
) or diag($err);
is($node->safe_psql('postgres',
		"SELECT extversion FROM pg_extension WHERE extname = 'ulid'"),
	$version, "the version installed is the default, $version");
query_true('the checks below have operators, opclasses, casts, types, functions and aggregates to look at',
	<<'SQL');
SELECT count(DISTINCT classid) = 5
   AND bool_or(classid = 'pg_proc'::regclass
			   AND (SELECT prokind FROM pg_proc WHERE oid = objid) = 'a')
FROM subject
WHERE classid IN ('pg_type'::regclass, 'pg_proc'::regclass, 'pg_operator'::regclass,
				  'pg_opclass'::regclass, 'pg_cast'::regclass)
SQL
foreach my $check (@checks)
{
	is(hostile_refs('postgres', $check->[0]), '',
		"$version references no lookalike: $check->[0]");
}
$node->safe_psql('postgres', 'DROP EXTENSION ulid');

# The contrast: the checks can fail.  The same script with its pg_catalog
# qualifications removed, run as a plain script in a session whose
# search_path puts evil before pg_catalog (as CREATE EXTENSION never does),
# resolves the lookalikes, and the checks see it.  Type lookalikes stop the
# hijacked script at CREATE TYPE (the I/O functions must take and return
# pg_catalog's types), so the function lookalikes get a database of their
# own, where the script runs to its end.  Whether it does does not matter,
# only what the catalog then references.
(my $stripped = $script) =~ s/^\\echo.*$//mg;
$stripped =~ s/pg_catalog\.//g;
$stripped =~ s/MODULE_PATHNAME/\$libdir\/ulid/g;
my %contrast = (
	contrast_types => ['functions: argument, result and support function'],
	contrast_functions => [
		'operators: oprcode, oprrest, oprjoin and their types',
		'operator families: pg_amproc support functions and their types'
	]);
foreach my $db (sort keys %contrast)
{
	(my $which = $db) =~ s/^contrast_//;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, <<"SQL");
CREATE SCHEMA evil;
@{[ plant($which) ]}
-- The objects under test: whatever the script created in evil.
CREATE VIEW subject AS
SELECT * FROM (
	SELECT 'pg_proc'::regclass AS classid, oid AS objid FROM pg_proc
		WHERE pronamespace = 'evil'::regnamespace
	UNION ALL SELECT 'pg_type'::regclass, oid FROM pg_type
		WHERE typnamespace = 'evil'::regnamespace
	UNION ALL SELECT 'pg_operator'::regclass, oid FROM pg_operator
		WHERE oprnamespace = 'evil'::regnamespace
	UNION ALL SELECT 'pg_opclass'::regclass, oid FROM pg_opclass
		WHERE opcnamespace = 'evil'::regnamespace
	UNION ALL SELECT 'pg_opfamily'::regclass, oid FROM pg_opfamily
		WHERE opfnamespace = 'evil'::regnamespace
	UNION ALL SELECT 'pg_cast'::regclass, c.oid FROM pg_cast c JOIN pg_type t
		ON t.oid IN (c.castsource, c.casttarget) AND t.typnamespace = 'evil'::regnamespace) s
WHERE objid NOT IN (SELECT oid FROM lookalike);
SQL
	$node->psql($db, "SET search_path = evil, pg_catalog, public;\n$stripped");
	foreach my $name (@{ $contrast{$db} })
	{
		isnt(hostile_refs($db, $name), '',
			"contrast, $which planted: the stripped ulid--$version.sql references lookalikes: $name");
	}
}

# ulid--1.0.sql, still installable by version: its DO block calls built-ins
# (current_setting, int4 >=, a cast to int4) that the traps would catch, and
# a hijacked version test would leave two BRIN classes out.
($ret, $out, $err) = $node->psql('postgres',
	"SET search_path = evil, pg_catalog, public;\n"
	  . "CREATE EXTENSION ulid VERSION '1.0' SCHEMA evil;");
is($ret, 0,
	"1.0: CREATE EXTENSION ulid VERSION '1.0' into the hostile schema")
  or diag($err);
query_true('1.0: no lookalike was called', 'SELECT count(*) = 0 FROM evil.calls');
query_true('1.0: the version test was not hijacked: all three BRIN classes exist',
	<<'SQL');
SELECT count(*) = 3 FROM pg_opclass
WHERE opcintype = 'evil.ulid'::regtype
  AND opcmethod = (SELECT oid FROM pg_am WHERE amname = 'brin')
SQL
$node->safe_psql('postgres', 'DROP EXTENSION ulid');

# The 1.0 contrast: the traps are live.  ulid--1.0.sql stripped of its
# qualifications, under that search_path, calls them.
my $script10 = slurp_file("$sharedir/ulid--1.0.sql");
$script10 =~ s/^\\echo.*$//mg;
$script10 =~ s/pg_catalog\.//g;
$script10 =~ s/MODULE_PATHNAME/\$libdir\/ulid/g;
$node->safe_psql('postgres', 'CREATE DATABASE contrast10');
$node->safe_psql('contrast10', "CREATE SCHEMA evil;\n$traps");
$node->psql('contrast10', "SET search_path = evil, pg_catalog;\n$script10");
query_true(
	'1.0 contrast: without its qualifications, under that search_path, the script calls the lookalike',
	'SELECT count(*) > 0 FROM evil.calls', 'contrast10');

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
	join(',',
		sort(
			(map { "timestamptz_ulid_$_" } qw(ge gt le lt)),
			'tstzrange_contains_ulid',
			(map { "ulid_$_" } qw(cmp eq ge gt le lt ne time)),
			'ulid_contained_by_tstzrange',
			(map { "ulid_timestamptz_$_" } qw(ge gt le lt)),
			(map { "ulid_uuid_$_" } qw(cmp eq ge gt le lt ne)),
			(map { "uuid_ulid_$_" } qw(cmp eq ge gt le lt ne)))),
	'LEAKPROOF functions are exactly the comparisons (with uuid and with a time too), tstzrange containment and ulid_time');
query_true('LEAKPROOF functions on the extreme values', <<'SQL');
WITH v(x) AS (VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ'))
SELECT count(*) = 4 FROM v a, v b
WHERE ulid_lt(a.x, b.x) IS NOT NULL AND ulid_le(a.x, b.x) IS NOT NULL AND ulid_eq(a.x, b.x) IS NOT NULL
  AND ulid_ne(a.x, b.x) IS NOT NULL AND ulid_ge(a.x, b.x) IS NOT NULL AND ulid_gt(a.x, b.x) IS NOT NULL
  AND ulid_cmp(a.x, b.x) IS NOT NULL AND ulid_time(a.x) IS NOT NULL
SQL
query_true('LEAKPROOF ulid/uuid comparisons on the extreme values', <<'SQL');
WITH v(x) AS (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), ('ffffffff-ffff-ffff-ffff-ffffffffffff'))
SELECT count(*) = 4 FROM v a, v b
WHERE ulid_uuid_lt(a.x::ulid, b.x) IS NOT NULL AND ulid_uuid_le(a.x::ulid, b.x) IS NOT NULL
  AND ulid_uuid_eq(a.x::ulid, b.x) IS NOT NULL AND ulid_uuid_ne(a.x::ulid, b.x) IS NOT NULL
  AND ulid_uuid_ge(a.x::ulid, b.x) IS NOT NULL AND ulid_uuid_gt(a.x::ulid, b.x) IS NOT NULL
  AND ulid_uuid_cmp(a.x::ulid, b.x) IS NOT NULL
  AND uuid_ulid_lt(a.x, b.x::ulid) IS NOT NULL AND uuid_ulid_le(a.x, b.x::ulid) IS NOT NULL
  AND uuid_ulid_eq(a.x, b.x::ulid) IS NOT NULL AND uuid_ulid_ne(a.x, b.x::ulid) IS NOT NULL
  AND uuid_ulid_ge(a.x, b.x::ulid) IS NOT NULL AND uuid_ulid_gt(a.x, b.x::ulid) IS NOT NULL
  AND uuid_ulid_cmp(a.x, b.x::ulid) IS NOT NULL
SQL
query_true('LEAKPROOF time comparisons and tstzrange containment on the extreme values', <<'SQL');
WITH v(x) AS (VALUES ('00000000000000000000000000'::ulid), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')),
t(ts) AS (VALUES ('-infinity'::timestamptz), ('infinity'), ('4713-01-01 00:00:00+00 BC'),
	('294276-12-31 23:59:59.999999+00'), ('1970-01-01 00:00:00+00'), ('10889-08-02 05:31:50.655+00')),
r(rg) AS (VALUES ('empty'::tstzrange), ('(,)'), ('[-infinity,infinity]'),
	(tstzrange('4713-01-01 00:00:00+00 BC', '294276-12-31 23:59:59.999999+00', '()')))
SELECT count(*) = 2 * 6 * 4 FROM v, t, r
WHERE ulid_timestamptz_lt(x, ts) IS NOT NULL AND ulid_timestamptz_le(x, ts) IS NOT NULL
  AND ulid_timestamptz_ge(x, ts) IS NOT NULL AND ulid_timestamptz_gt(x, ts) IS NOT NULL
  AND timestamptz_ulid_lt(ts, x) IS NOT NULL AND timestamptz_ulid_le(ts, x) IS NOT NULL
  AND timestamptz_ulid_ge(ts, x) IS NOT NULL AND timestamptz_ulid_gt(ts, x) IS NOT NULL
  AND ulid_contained_by_tstzrange(x, rg) IS NOT NULL AND tstzrange_contains_ulid(rg, x) IS NOT NULL
SQL

##
## Row-level security and a time window: "id > now() - interval" as a
## non-owner uses the primary key, the policy filtering what it reads.
## (1.1's time comparisons were not LEAKPROOF: a sequential scan.)  200,000
## rows two days old and more, 20 of the last 20 seconds, half of each
## alice's: the window of an hour holds her 10.
##

$node->safe_psql('postgres', <<'SQL');
CREATE TABLE recent (id ulid PRIMARY KEY, tenant ulid NOT NULL, body text);
INSERT INTO recent
	SELECT gen_ulid(now() - CASE WHEN g <= 20 THEN g * interval '1 second'
								 ELSE interval '2 days' + g * interval '1 second' END),
		CASE WHEN g % 2 = 0 THEN '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid ELSE '01BX5ZZKBKACTAV9WEVGEMMVRZ'::ulid END,
		'doc ' || g
	FROM generate_series(1, 200000) g;
ANALYZE recent;
ALTER TABLE recent ENABLE ROW LEVEL SECURITY;
CREATE POLICY tenant_only ON recent USING (tenant = current_setting('app.tenant')::ulid);
GRANT SELECT ON recent TO alice;
SQL
foreach my $query (
	"SELECT body FROM recent WHERE id > now() - interval '1 hour'",
	"SELECT body FROM recent WHERE now() - interval '1 hour' <= id",
	"SELECT body FROM recent WHERE id <@ tstzrange(now() - interval '1 hour', NULL)")
{
	$plan = as_alice("EXPLAIN (COSTS OFF) $query");
	like($plan, qr/recent_pkey/, "RLS: $query uses the primary key")
	  or diag($plan);
	is(as_alice("SELECT count(*) FROM ($query) s"),
		'10', "RLS: $query returns the tenant's 10 rows of the window");
}

$node->stop;

done_testing();
