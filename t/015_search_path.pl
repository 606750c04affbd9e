# Nothing ulid runs with someone else's privileges resolves a function or
# operator through the caller's search_path.
#
# As an attacker works: alice, an ordinary role that owns a database (the
# extension is trusted, so she installs it), plants in schema public
# t/hostile.sql's traps: an operator or function with exact argument types
# for every signature pg_catalog lacks exactly.  A trap returns the right
# answer, records its call and makes alice a superuser when a superuser
# runs it.  Then a superuser with the default search_path updates the
# extension from 1.0, calls every user-facing function, operator and cast,
# both I/O directions, converts alice's uuid tables with every index kind
# (ulid_convert_column's SPI) and fires the event trigger.  No trap may run.
# The contrast: a statement of the superuser's own that needs one runs it,
# so the traps are live.  (The install script under a hostile search_path:
# t/004.  The trusted-language edition under the same traps: t/014.)

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;

my $node = PostgreSQL::Test::Cluster->new('hostile');
$node->init;
$node->append_conf('postgresql.conf', "client_min_messages = warning\n");
# A key for the public-id functions that use the server's (any key will do).
{
	my $keyfile = $node->data_dir . '/ulid_public_id.key';
	open my $fh, '>', $keyfile or die "$keyfile: $!";
	print $fh "000102030405060708090a0b0c0d0e0f\n";
	close $fh;
	chmod 0600, $keyfile or die $!;
	$node->append_conf('postgresql.conf', "ulid.public_id_key_file = 'ulid_public_id.key'\n");
}
$node->start;
my $dir = PostgreSQL::Test::Utils::tempdir('copy');
chmod 0777, $dir;

$node->safe_psql('postgres', q{
	CREATE ROLE alice LOGIN;
	CREATE DATABASE shop OWNER alice;
	REVOKE CREATE ON SCHEMA public FROM PUBLIC;
});
# Extensions of core that the index kinds need, made before the traps.
$node->safe_psql('shop', 'CREATE EXTENSION btree_gist; CREATE EXTENSION btree_gin');
$node->safe_psql('shop', 'ALTER SCHEMA public OWNER TO alice');

# alice installs 1.0 (trusted), makes her tables, then plants.
my $alice = $node->connstr('shop') . ' user=alice';
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $alice, '-c', q{
	CREATE EXTENSION ulid VERSION '1.0';
	CREATE TABLE orders (
		id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
		by_hash uuid, by_brin uuid, by_bloom uuid, by_multi uuid, by_gist uuid, by_gin uuid, n int
		CHECK (n >= 0));
	INSERT INTO orders SELECT u, u, u, u, u, u, u, g
		FROM (SELECT gen_ulid('2024-01-01 00:00+00'::timestamptz + g * interval '1 minute')::uuid AS u, g
			  FROM generate_series(1, 500) g) s;
	CREATE INDEX orders_hash ON orders USING hash (by_hash);
	CREATE INDEX orders_brin ON orders USING brin (by_brin);
	CREATE INDEX orders_bloom ON orders USING brin (by_bloom uuid_bloom_ops) WITH (pages_per_range = 2);
	CREATE INDEX orders_multi ON orders USING brin (by_multi uuid_minmax_multi_ops) WHERE n > 10;
	CREATE INDEX orders_gist ON orders USING gist (by_gist);
	CREATE INDEX orders_gin ON orders USING gin (by_gin);
	CREATE INDEX orders_text ON orders ((id::text)) INCLUDE (n);
	COMMENT ON INDEX orders_bloom IS 'bloom';
	CREATE TABLE lines (order_id uuid REFERENCES orders, note text);
	INSERT INTO lines SELECT id, 'x' FROM orders WHERE n <= 10;
	CREATE TABLE events (id uuid DEFAULT gen_random_uuid(), at date NOT NULL) PARTITION BY RANGE (at);
	CREATE TABLE events_2024 PARTITION OF events FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
	CREATE TABLE events_2025 PARTITION OF events FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
	CREATE INDEX events_bloom ON events USING brin (id uuid_bloom_ops);
	INSERT INTO events (at) SELECT '2024-06-01'::date + g FROM generate_series(1, 400) g;
} ], 'alice installs ulid 1.0 and makes uuid tables with every index kind');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', $alice, '-f', "$FindBin::RealBin/hostile.sql" ],
	'alice plants her traps in schema public');
# The superuser's own queries here are written as ulid's must be (every
# operator with pg_catalog's exact types, or qualified): else they would
# run the traps themselves, as the contrast at the end shows.
my $planted = $node->safe_psql('shop', q{
	SELECT pg_catalog.format('%s operators, %s functions',
		(SELECT count(*) FROM pg_operator WHERE oprnamespace = 'public'::regnamespace::oid AND oprcode::text LIKE 'trap%'),
		(SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace::oid AND prosrc LIKE '%hijacked_by%'
			AND proname::text NOT LIKE 'trap%'))});
ok($planted =~ /^(\d+) operators, (\d+) functions$/ && $1 > 300 && $2 > 300, "planted: $planted");

# What the traps recorded: calls, names, and whether alice is a superuser.
my $recorded = q{
	SELECT pg_catalog.format('%s calls%s%s',
		(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM public.hijacked),
		coalesce(': ' || (SELECT string_agg(DISTINCT trap, ', ') FROM public.hijacks), ''),
		(SELECT CASE WHEN rolsuper THEN ', alice is a superuser' ELSE '' END FROM pg_roles WHERE rolname = 'alice'))};

# run(name, sql[, expected]): the superuser runs every statement of sql in
# shop, to the end whatever fails, and no trap has run; no statement failed
# but those whose error matches the regex expected (the samples below suit
# most functions, not all).
sub run
{
	my ($name, $sql, $expected) = @_;
	my ($ret, $out, $err) = $node->psql('shop', $sql, on_error_stop => 0);
	my @unexpected = grep { !(defined $expected && /$expected/) } $err =~ /ERROR:  ([^\n]*)/g;
	is(join("\n", @unexpected), '', "$name: no statement failed unexpectedly");
	is($node->safe_psql('shop', $recorded), '0 calls', $name);
	return $out;
}

##
## The update, and every user-facing object.
##

run('ALTER EXTENSION ulid UPDATE from 1.0, as a superuser', 'ALTER EXTENSION ulid UPDATE');
is($node->safe_psql('shop', q{SELECT extversion = default_version FROM pg_extension, pg_available_extensions
	WHERE extname = 'ulid' AND name = 'ulid'}), 't', 'the update reached the default version');

# A sample of each type that the extension's functions take.
my %sample = (
	ulid => q{'01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid},
	uuid => q{'01563df3-6481-d676-4c61-efb99302bd5b'::uuid},
	'timestamp with time zone' => q{'2024-05-06 07:08:09.123+00'::timestamptz},
	tstzrange => q{tstzrange('2024-01-01 00:00+00', '2025-01-01 00:00+00')},
	ulidrange => q{ulidrange('01ARYZ6S41TSV4RRFFQ69G5FAV', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ')},
	ulidmultirange => q{ulidmultirange(ulidrange('01ARYZ6S41TSV4RRFFQ69G5FAV', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'))},
	bytea => q{'\x01563df36481d6764c61efb99302bd5b'::bytea},
	text => q{'01ARYZ6S41TSV4RRFFQ69G5FAV'::text},
	boolean => 'true',
	integer => '1',
	bigint => '1::bigint',
	'double precision' => '1::float8',
	name => q{'id'::name});

# The functions that the samples do not suit, with arguments they take.
my %arguments = (
	'ulidrange(ulid,ulid,text)' => q{'01ARYZ6S41TSV4RRFFQ69G5FAV', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ', '[)'},
	'ulid_from_objectid(text)' => q{'507f1f77bcf86cd799439011'::text},
	'ulid_from_objectid(bytea)' => q{'\x507f1f77bcf86cd799439011'::bytea},
	'ulid_to_objectid(ulid)' => q{'0179R95T6RQKW6SNWS8E812000'::ulid});

# Every function of the extension that takes only those (I/O, support and
# estimator functions take internal or cstring, and run in what follows).
my @calls;
for my $row (split /\n/, $node->safe_psql('shop', q{
	SELECT p.oid::regprocedure, coalesce(string_agg(format_type(t.type, NULL), ',' ORDER BY t.n), '')
	FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
	LEFT JOIN pg_catalog.unnest(p.proargtypes::oid[]) WITH ORDINALITY t(type, n) ON true
	WHERE d.classid = 'pg_proc'::regclass::oid AND d.deptype = 'e' AND p.prokind = 'f'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')
	  AND p.prorettype NOT IN ('internal'::regtype::oid, 'trigger'::regtype::oid, 'event_trigger'::regtype::oid)
	GROUP BY p.oid}))
{
	my ($proc, $types) = split /\|/, $row;
	my ($fname) = $proc =~ /^([^(]+)/;
	my @types = grep { $_ ne '' } split /,/, $types;
	if (exists $arguments{$proc})
	{
		push @calls, "SELECT $fname($arguments{$proc});";
		next;
	}
	next if grep { !exists $sample{$_} } @types;
	push @calls, "SELECT $fname(" . join(', ', map { $sample{$_} } @types) . ');';
}
ok(@calls > 40, scalar(@calls) . ' functions called with samples of their argument types');
run('every function called by a superuser', join("\n", @calls));

# Every operator, with samples of its two types.
my @ops;
for my $row (split /\n/, $node->safe_psql('shop', q{
	SELECT o.oprname, format_type(o.oprleft, NULL), format_type(o.oprright, NULL)
	FROM pg_depend d JOIN pg_operator o ON o.oid = d.objid
	WHERE d.classid = 'pg_operator'::regclass::oid AND d.deptype = 'e' AND o.oprkind = 'b'
	  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'ulid')}))
{
	my ($op, $l, $r) = split /\|/, $row;
	next unless exists $sample{$l} && exists $sample{$r};
	push @ops, "SELECT $sample{$l} $op $sample{$r};";
}
ok(@ops > 25, scalar(@ops) . ' operators used');
run('every operator used by a superuser', join("\n", @ops));

# Every cast to or from the extension's types, and both I/O directions: text
# and binary (COPY), and the aggregates.
my @casts = map { my ($s, $t) = split /\|/; exists $sample{$s} ? "SELECT $sample{$s}::$t;" : () }
  split /\n/, $node->safe_psql('shop', q{
	SELECT format_type(castsource, NULL), format_type(casttarget, NULL) FROM pg_cast
	WHERE castsource IN ('ulid'::regtype::oid, 'ulidrange'::regtype::oid)
	   OR casttarget IN ('ulid'::regtype::oid, 'ulidrange'::regtype::oid)});
ok(@casts >= 6, scalar(@casts) . ' casts');
run('every cast, text and binary I/O, the aggregates', join("\n", @casts, qq{
	CREATE TEMP TABLE io (id ulid, r ulidrange);
	INSERT INTO io SELECT gen_ulid(), ulidrange(gen_ulid('2024-01-01 00:00+00'), gen_ulid()) FROM generate_series(1, 100);
	INSERT INTO io VALUES ('01563df3-6481-d676-4c61-efb99302bd5b', NULL);
	SELECT id::text, r::text FROM io;
	COPY io TO '$dir/io.bin' (FORMAT binary);
	COPY io FROM '$dir/io.bin' (FORMAT binary);
	COPY io TO '$dir/io.txt';
	COPY io FROM '$dir/io.txt';
	SELECT min(id), max(id), count(DISTINCT id) FROM io;
	SELECT * FROM io WHERE id > now() - interval '1 hour' AND id <@ tstzrange(now() - interval '1 day', NULL);
}));

##
## ulid_convert_column, as a migration run by a superuser would.
##

run('ulid_convert_column_dry_run: the tables below, before their conversion',
	q{SELECT * FROM ulid_convert_column_dry_run('public.orders', 'id');
	  SELECT * FROM ulid_convert_column_dry_run('public.lines', 'order_id');
	  SELECT * FROM ulid_convert_column_dry_run('public.events', 'id')});
run('ulid_convert_column: a table with btree, hash, BRIN (minmax, bloom, minmax-multi), GiST, GIN and expression indexes',
	q{SELECT * FROM ulid_convert_column('public.orders', 'id');
	  SELECT * FROM ulid_convert_column('public.orders', 'by_hash');
	  SELECT * FROM ulid_convert_column('public.orders', 'by_brin');
	  SELECT * FROM ulid_convert_column('public.orders', 'by_bloom');
	  SELECT * FROM ulid_convert_column('public.orders', 'by_multi');
	  SELECT * FROM ulid_convert_column('public.orders', 'by_gist');
	  SELECT * FROM ulid_convert_column('public.orders', 'by_gin');
	  SELECT * FROM ulid_convert_column('public.lines', 'order_id')});
run('ulid_convert_column: a partitioned table with a partitioned BRIN bloom index',
	q{SELECT * FROM ulid_convert_column('public.events', 'id')});
is( $node->safe_psql('shop', q{
	SELECT string_agg(pg_catalog.format('%s %s', a.attname, format_type(a.atttypid, NULL)), ', ' ORDER BY a.attnum)
	FROM pg_attribute a WHERE a.attrelid = 'orders'::regclass::oid AND a.attnum > 0 AND a.attname <> 'n'}),
	'id ulid, by_hash ulid, by_brin ulid, by_bloom ulid, by_multi ulid, by_gist ulid, by_gin ulid',
	'the conversions ran: every column is ulid');
is( $node->safe_psql('shop', q{
	SELECT string_agg(pg_catalog.format('%s %s', c.relname, oc.opcname), ', ' ORDER BY c.relname)
	FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_opclass oc ON oc.oid = i.indclass[0]
	WHERE c.relname IN ('orders_bloom', 'orders_multi', 'events_bloom')}),
	'events_bloom ulid_bloom_ops, orders_bloom ulid_bloom_ops, orders_multi ulid_minmax_multi_ops',
	'and made the BRIN bloom and minmax-multi indexes again with ulid\'s classes');

run('the event trigger, on DDL that leaves a uuid generator on a ulid column',
	q{CREATE TABLE warned (id ulid DEFAULT gen_random_uuid(), other ulid);
	  ALTER TABLE warned ALTER COLUMN other SET DEFAULT gen_random_uuid();
	  CREATE SCHEMA s CREATE TABLE e (id ulid DEFAULT gen_random_uuid())});

##
## The contrast: the traps are live.
##

$node->psql('shop', q{SELECT 31::bigint & 31, unnest('{1}'::oid[])});
like($node->safe_psql('shop', $recorded),
	qr/^[1-9]\d* calls: function unnest\(oid\[\]\), operator &\(bigint, integer\), alice is a superuser$/,
	'the contrast: a superuser\'s own bigint & integer and unnest(oid[]) run the traps, and make alice a superuser');

done_testing();
