# pg_upgrade of a cluster holding ulid data, from an older installed major to
# the one under test: every row identical, amcheck clean, BRIN and hash scans
# agree with sequential scans, rows stay in the hash partition their key
# hashes to, defaults still generate, and ALTER EXTENSION ulid UPDATE runs.
#
# The old major is the oldest other PostgreSQL under /usr/lib/postgresql
# (Debian's layout) that is older than this one and has ulid installed, or
# the one ULID_UPGRADE_FROM names (its installation directory; then it must
# be usable; "none" skips the test).  With none, the test is skipped:
# bin/matrix sets ULID_UPGRADE_FROM for 19, with 18 beside it in one chroot,
# and for 17, from 16 built from source (bin/pgsrc), which bin/pgenv mounts
# in 17's chroot.
use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $new_bindir = `pg_config --bindir`;
chomp $new_bindir;
my $new_major = `pg_config --version`;
$new_major =~ /PostgreSQL (\d+)/ or die "cannot read pg_config --version";
$new_major = $1;

# Whether an installation directory holds a PostgreSQL older than this one
# with ulid installed.
sub usable_old
{
	my ($dir) = @_;
	return 0 unless -x "$dir/bin/initdb" && -x "$dir/bin/pg_config";
	my $version = `$dir/bin/pg_config --version`;
	return 0 unless $version =~ /PostgreSQL (\d+)/ && $1 < $new_major;
	my $sharedir = `$dir/bin/pg_config --sharedir`;
	chomp $sharedir;
	return -f "$sharedir/extension/ulid--1.0.sql";
}

my $old_install = $ENV{ULID_UPGRADE_FROM};
plan skip_all =>
  'ULID_UPGRADE_FROM=none: no upgrade to this major here (bin/matrix says why)'
  if defined $old_install && $old_install eq 'none';
if (defined $old_install && !usable_old($old_install))
{
	fail("ULID_UPGRADE_FROM=$old_install is an older PostgreSQL with ulid installed");
	done_testing();
	exit;
}
if (!defined $old_install)
{
	($old_install) = grep { usable_old($_) }
	  sort { ($a =~ /(\d+)$/)[0] <=> ($b =~ /(\d+)$/)[0] }
	  glob('/usr/lib/postgresql/*');
}
plan skip_all => "no older PostgreSQL with ulid installed beside $new_major"
  unless defined $old_install && usable_old($old_install);
my $old_version = `$old_install/bin/pg_config --version`;
chomp $old_version;
note "upgrading from $old_version to $new_major";

##
## The old cluster: ulid 1.0, every index kind, partitions, defaults.
##

my $old = PostgreSQL::Test::Cluster->new('old', install_path => $old_install);
$old->init;
$old->start;
$old->safe_psql('postgres', <<'SQL');
CREATE EXTENSION ulid VERSION '1.0';
CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int NOT NULL);
INSERT INTO items
	SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 second'), g
	FROM generate_series(1, 20000) g;
INSERT INTO items VALUES ('00000000000000000000000000', 0), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', -1);
-- One table per kind of index, so that with sequential scans off the only
-- way to a row is that index.
CREATE TABLE by_hash AS SELECT * FROM items;
CREATE INDEX by_hash_id ON by_hash USING hash (id);
CREATE TABLE by_minmax AS SELECT * FROM items ORDER BY id;
CREATE INDEX by_minmax_id ON by_minmax USING brin (id) WITH (pages_per_range = 4);
CREATE TABLE by_multi AS SELECT * FROM items ORDER BY id;
CREATE INDEX by_multi_id ON by_multi USING brin (id ulid_minmax_multi_ops) WITH (pages_per_range = 4);
CREATE TABLE by_bloom AS SELECT * FROM items;
CREATE INDEX by_bloom_id ON by_bloom USING brin (id ulid_bloom_ops) WITH (pages_per_range = 4);
CREATE TABLE shards (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int) PARTITION BY HASH (id);
CREATE TABLE shards_0 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 0);
CREATE TABLE shards_1 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 1);
CREATE TABLE shards_2 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 2);
CREATE TABLE shards_3 PARTITION OF shards FOR VALUES WITH (MODULUS 4, REMAINDER 3);
INSERT INTO shards SELECT * FROM items;
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), body text) PARTITION BY RANGE (id);
CREATE TABLE events_2025 PARTITION OF events
	FOR VALUES FROM (MINVALUE) TO ('2026-01-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_2026 PARTITION OF events
	FOR VALUES FROM ('2026-01-01 00:00+00'::timestamptz::ulid) TO (MAXVALUE);
INSERT INTO events
	SELECT gen_ulid('2025-12-31 12:00+00'::timestamptz + g * interval '1 minute'), 'e' || g
	FROM generate_series(1, 2000) g;
SQL

# A second database on the current version: the ulid operator families
# hold uuid members and foreign keys go between ulid and uuid both ways.
# pg_upgrade dumps an extension's families member by member.
$old->safe_psql('postgres', 'CREATE DATABASE current');
$old->safe_psql('current', <<'SQL');
CREATE EXTENSION ulid;
CREATE TABLE orders (id ulid PRIMARY KEY);
INSERT INTO orders SELECT gen_ulid() FROM generate_series(1, 1000);
CREATE TABLE legacy (u uuid PRIMARY KEY);
INSERT INTO legacy SELECT id FROM orders;
CREATE TABLE links (to_order uuid REFERENCES orders (id), to_legacy ulid REFERENCES legacy (u));
INSERT INTO links SELECT id, id FROM orders;
CREATE TABLE bookings (room ulid NOT NULL, during tstzrange NOT NULL,
	EXCLUDE USING gist (room WITH =, during WITH &&));
INSERT INTO bookings SELECT id, tstzrange('2025-01-01 10:00+00', '2025-01-01 11:00+00') FROM orders;
CREATE TABLE posts (id ulid NOT NULL, tags text[] NOT NULL);
INSERT INTO posts SELECT id, ARRAY['t' || (n % 5)]
	FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM orders) s;
CREATE INDEX posts_id_tags ON posts USING gin (id, tags);
CREATE TABLE spans (ids ulidrange NOT NULL, EXCLUDE USING gist (ids WITH &&));
INSERT INTO spans SELECT ulidrange(ulid_min_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 day'),
								   ulid_min_at('2025-01-01 00:00+00'::timestamptz + (g + 1) * interval '1 day'))
	FROM generate_series(1, 100) g;
SQL
my $gin_query = "SELECT count(*) FROM posts WHERE id > (SELECT id FROM orders ORDER BY id OFFSET 500 LIMIT 1) AND tags @> '{t1}'";
my $gin_before = $old->safe_psql('current', $gin_query);
my $families = <<'SQL';
SELECT f.opfname || ' ' || a.amname || ': ' || count(*)
FROM pg_amop o JOIN pg_opfamily f ON f.oid = o.amopfamily JOIN pg_am a ON a.oid = f.opfmethod
WHERE f.opfname LIKE 'ulid%' GROUP BY f.opfname, a.amname ORDER BY 1
SQL
my $families_before = $old->safe_psql('current', $families);

my @tables = qw(items by_hash by_minmax by_multi by_bloom shards events);
# An ordered checksum of a table: every row, in id order.
sub checksum
{
	my ($node, $table) = @_;
	return $node->safe_psql('postgres',
		"SELECT count(*) || ' ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM $table t");
}
my %before = map { $_ => checksum($old, $_) } @tables;
my $routed = "SELECT string_agg(id || ' ' || tableoid::regclass, ',' ORDER BY id) FROM shards WHERE n % 1000 = 0";
my $partitions_before = $old->safe_psql('postgres', $routed);
my $ids = $old->safe_psql('postgres',
	"SELECT string_agg(quote_literal(id::text), ', ' ORDER BY id) FROM items WHERE n % 997 = 0");
$old->stop;

##
## pg_upgrade
##

my $new = PostgreSQL::Test::Cluster->new('new');
$new->init;
chdir ${PostgreSQL::Test::Utils::tmp_check};
command_ok(
	[
		'pg_upgrade', '--no-sync',
		'-d', $old->data_dir, '-D', $new->data_dir,
		'-b', "$old_install/bin", '-B', $new_bindir,
		'-s', $new->host,
		'-p', $old->port, '-P', $new->port
	],
	"pg_upgrade from $old_version to $new_major");
$new->start;

##
## After
##

foreach my $table (@tables)
{
	is(checksum($new, $table), $before{$table},
		"$table: every row identical after pg_upgrade");
}

$new->safe_psql('postgres', 'CREATE EXTENSION amcheck');
my $btrees = $new->safe_psql('postgres', <<'SQL');
SELECT string_agg(c.relname, ' ' ORDER BY c.relname)
FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND c.relkind = 'i' AND x.indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
SQL
is($btrees, 'items_pkey shards_0_pkey shards_1_pkey shards_2_pkey shards_3_pkey',
	'the btree indexes on ulid are all there');
foreach my $index (split / /, $btrees)
{
	my ($ret, $stdout, $stderr) = $new->psql('postgres',
		"SELECT bt_index_parent_check('$index', heapallindexed => true)");
	ok($ret == 0 && $stderr eq '', "amcheck: $index is clean")
	  or diag($stderr);
}

# Each index alone against a sequential scan of the same table: a range and
# a set of ids (the bloom class answers only equality).
my $range = "id >= '2026-01-01 02:00+00'::timestamptz::ulid AND id < '2026-01-01 03:00+00'::timestamptz::ulid";
my $set = "id IN ($ids)";
foreach my $case (
	[ 'by_hash', 'hash', $set ],
	[ 'by_minmax', 'BRIN minmax', $range ],
	[ 'by_multi', 'BRIN minmax-multi', $range ],
	[ 'by_bloom', 'BRIN bloom', $set ])
{
	my ($table, $kind, $where) = @$case;
	my $q = "SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM $table WHERE $where";
	my $seq = $new->safe_psql('postgres', "SET enable_indexscan = off; SET enable_bitmapscan = off; $q");
	my $plan = $new->safe_psql('postgres', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $q");
	my $idx = $new->safe_psql('postgres', "SET enable_seqscan = off; $q");
	ok($plan =~ /${table}_id/ && $seq =~ /^[1-9]\d* / && $idx eq $seq,
		"$kind index scan finds the same rows as a sequential scan ($seq)")
	  or diag("index: $idx\nseq: $seq\n$plan");
}

is( $new->safe_psql(
		'postgres', <<'SQL'),
SELECT bool_and(satisfies_hash_partition('shards'::regclass, 4, r, id))
FROM (SELECT id, substr(tableoid::regclass::text, 8)::int AS r FROM shards) s
SQL
	't',
	'every row sits in the hash partition its key hashes to');
$new->safe_psql('postgres', <<'SQL');
CREATE TABLE moved AS SELECT * FROM shards WHERE n % 1000 = 0;
DELETE FROM shards WHERE n % 1000 = 0;
INSERT INTO shards SELECT * FROM moved;
SQL
is($new->safe_psql('postgres', $routed), $partitions_before,
	'the same keys inserted again route to the same partitions');

like(
	$new->safe_psql(
		'postgres',
		"INSERT INTO items (n) VALUES (20001) RETURNING ulid_time(id) > now() - interval '1 minute'"),
	qr/^t$/m,
	'the column default gen_ulid() still generates');
is( $new->safe_psql(
		'postgres',
		"INSERT INTO events (body) VALUES ('new') RETURNING tableoid::regclass"),
	'events_2026',
	'range partitions by time route a new row');

is($new->safe_psql('current', $families), $families_before,
	'the ulid operator families keep every member, uuid ones included');
is( $new->safe_psql('current',
		"SELECT bool_and(amvalidate(oid)) FROM pg_opclass WHERE opcintype = 'ulid'::regtype"),
	't', 'the ulid operator classes validate');
my ($ret, $out, $err) = $new->psql('current',
	"INSERT INTO links VALUES ('00000000-0000-0000-0000-000000000001', NULL)");
like($err, qr/violates foreign key constraint "links_to_order_fkey"/,
	'a foreign key from a uuid column to a ulid key is enforced after pg_upgrade');
($ret, $out, $err) = $new->psql('current',
	"INSERT INTO links VALUES (NULL, '00000000000000000000000001')");
like($err, qr/violates foreign key constraint "links_to_legacy_fkey"/,
	'a foreign key from a ulid column to a uuid key is enforced after pg_upgrade');

($ret, $out, $err) = $new->psql('current',
	'INSERT INTO bookings SELECT room, during FROM bookings ORDER BY room LIMIT 1');
like($err, qr/conflicting key value violates exclusion constraint/,
	'a GiST exclusion constraint on (ulid, tstzrange) is enforced after pg_upgrade');
($ret, $out, $err) = $new->psql('current', 'INSERT INTO spans SELECT ids FROM spans LIMIT 1');
like($err, qr/conflicting key value violates exclusion constraint/,
	'a GiST exclusion constraint on a ulidrange is enforced after pg_upgrade');
is($new->safe_psql('current', "SET enable_seqscan = off; $gin_query"), $gin_before,
	'the multi-column GIN index finds the same rows after pg_upgrade');

$new->safe_psql('postgres', 'ALTER EXTENSION ulid UPDATE');
is( $new->safe_psql(
		'postgres',
		"SELECT extversion = (SELECT default_version FROM pg_available_extensions WHERE name = 'ulid') FROM pg_extension WHERE extname = 'ulid'"
	),
	't',
	'ALTER EXTENSION ulid UPDATE brings 1.0 to the default version');
is(checksum($new, 'by_hash'), $before{by_hash},
	'after the update the rows are still identical');

$new->stop;
done_testing();
