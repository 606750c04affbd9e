# ulid in TimescaleDB: a hypertable partitioned by day on its ulid key,
# through ulid_time() as the partitioning function.  Each chunk holds
# exactly its day's ids, inserts by gen_ulid() land in today's chunk,
# drop_chunks drops whole days.  Which forms of a time condition exclude
# chunks, and which scan an index, is asserted form by form: it is what
# docs/partitioning.md tells users to write.  Last, pg_partman's refusal
# of a ulid control column, which the guide names.
#
# TimescaleDB and pg_partman are Debian's packages (bin/setup installs them
# for 17 and 18).  Without TimescaleDB the test is skipped, unless
# ULID_REQUIRE_ENGINES names timescaledb (bin/test sets it on 17 and 18),
# when it fails.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;

# The source tree, whose docs are checked last.
my $root = "$FindBin::RealBin/..";

my $node = PostgreSQL::Test::Cluster->new('timescale');
my $libdir = $node->config_data('--pkglibdir');
if (!-f "$libdir/timescaledb.so")
{
	my $why = "TimescaleDB is not installed for this server ($libdir)";
	if (($ENV{ULID_REQUIRE_ENGINES} // '') =~ /\btimescaledb\b/)
	{
		fail("ULID_REQUIRE_ENGINES names timescaledb: $why");
		done_testing();
		exit;
	}
	plan skip_all => $why;
}

$node->init;
$node->append_conf('postgresql.conf', <<'CONF');
shared_preload_libraries = 'timescaledb'
timescaledb.telemetry_level = off
timezone = 'UTC'
CONF
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION timescaledb; CREATE EXTENSION ulid;');
my $version = $node->safe_psql('postgres',
	q{SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'});
note("TimescaleDB $version");

# 30 days of events, one every 10 minutes, the last day today (UTC), in a
# hypertable chunked by day on ulid_time(id), and in a plain table.
$node->safe_psql('postgres', <<'SQL');
CREATE TABLE events (id ulid PRIMARY KEY DEFAULT gen_ulid(), body text NOT NULL);
SELECT create_hypertable('events', by_range('id', interval '1 day', partition_func => 'ulid_time'));
CREATE TABLE days AS SELECT date_trunc('day', now()) - interval '29 days' AS first;
INSERT INTO events (id, body)
SELECT gen_ulid((SELECT first FROM days) + g * interval '10 minutes'), 'event ' || g
FROM generate_series(0, 30 * 144 - 1) AS g;
CREATE TABLE events_plain AS SELECT * FROM events;
ANALYZE events, events_plain;
SQL

# The chunks and their ranges of time.  With a partitioning function the
# view gives the ranges as integers (microseconds since 1970) and leaves
# range_start and range_end empty.
$node->safe_psql('postgres', <<'SQL');
CREATE VIEW event_chunks AS
SELECT format('%I.%I', chunk_schema, chunk_name)::regclass AS chunk,
       coalesce(range_start, to_timestamp(range_start_integer / 1e6)) AS range_start,
       coalesce(range_end, to_timestamp(range_end_integer / 1e6)) AS range_end
FROM timescaledb_information.chunks WHERE hypertable_name = 'events';
SQL
is( $node->safe_psql('postgres',
		q{SELECT count(*), count(*) FILTER (WHERE range_end - range_start = interval '1 day'
		  AND range_start = date_trunc('day', range_start)) FROM event_chunks}),
	'30|30', 'the hypertable has a chunk a day, each from midnight to midnight: 30');
my $stray = 0;
my $rows = 0;
foreach my $chunk (split /\n/,
	$node->safe_psql('postgres',
		q{SELECT chunk || '|' || range_start || '|' || range_end FROM event_chunks}))
{
	my ($name, $start, $end) = split /\|/, $chunk;
	my ($n, $out) = split /\|/, $node->safe_psql('postgres',
		"SELECT count(*), count(*) FILTER (WHERE ulid_time(id) < '$start' OR ulid_time(id) >= '$end')
		 FROM $name");
	$rows += $n;
	$stray += $out;
}
is("$rows/$stray", '4320/0', 'each chunk holds only ids of its own day, 4,320 rows in all');

$node->safe_psql('postgres',
	q{INSERT INTO events (body) SELECT 'now ' || g FROM generate_series(1, 10) AS g});
is( $node->safe_psql('postgres', <<'SQL'),
SELECT count(*) FROM event_chunks c
WHERE now() >= c.range_start AND now() < c.range_end
  AND (SELECT count(*) FROM events WHERE body LIKE 'now %' AND tableoid = c.chunk) = 10
SQL
	'1', 'ids made by the gen_ulid() default land in the chunk of today');
$node->safe_psql('postgres', q{DELETE FROM events WHERE body LIKE 'now %'});

# chunks_in SQL: the number of chunks EXPLAIN shows for SQL, and whether
# one of them is read through an index.
sub chunks_in
{
	my ($sql) = @_;
	# Seqscans off: whether an index can serve the condition, which a
	# chunk of 144 rows would otherwise not show.
	my $plan = $node->safe_psql('postgres', "SET enable_seqscan TO off; EXPLAIN (COSTS OFF) $sql");
	my %chunks = map { ($_ => 1) } $plan =~ /(_hyper_\d+_\d+_chunk)\b/g;
	my $indexed = $plan =~ /Index (Only )?Scan|Bitmap Index Scan/ ? 'index' : 'no index';
	return (scalar(keys %chunks) . " chunks, $indexed", $plan);
}

# Each form of "the last 10 days": the rows a plain table returns, and the
# chunks and scans the plan shows.  The forms on the key itself are
# compared with ulid_time(id), which TimescaleDB excludes chunks by.
# The windows start at noon, so that their first chunk is read in part:
# TimescaleDB 2.25 and later drop the condition from a chunk that it
# covers whole, which is then read without an index, rightly.
my $day20 = q{(SELECT first FROM days) + interval '20 days'};
my $c20 = $node->safe_psql('postgres', "SELECT $day20 + interval '12 hours'");
my $c21 = $node->safe_psql('postgres', "SELECT $day20 + interval '1 day 12 hours'");
# TimescaleDB excludes chunks by a condition on the column compared with a
# constant of its own type (it applies the partitioning function to the
# constant), and by the chunks' CHECK constraints on ulid_time(id), at plan
# time for constants and when the query starts for now().  A comparison of
# the key with a constant time or tstzrange is the first kind, since ulid
# simplifies it to ulid bounds when planned; with now() it is neither, and
# reads every chunk's index.  "now() - 10 days" falls in the 11th day from
# the end, day 20 at noon in the 10th.
my @forms = (
	[ "ulid_time(id) >= '$c20'", '10 chunks, no index' ],
	[ "ulid_time(id) >= now() - interval '10 days'", '11 chunks, no index' ],
	[ "id >= '$c20'::timestamptz", '10 chunks, index' ],
	[ "id >= '$c20'::timestamptz::ulid", '10 chunks, index' ],
	[ "id >= ulid_min_at('$c20')", '10 chunks, index' ],
	[ "id <\@ tstzrange('$c20', '$c21')", '2 chunks, index' ],
	[ "id >= ulid_min_at('$c20') AND id <= ulid_max_at('$c21')", '2 chunks, index' ],
	[ "id > now() - interval '10 days'", '30 chunks, index' ],
	[ "ulid_time(id) > now() - interval '10 days' AND id > now() - interval '10 days'", '11 chunks, index' ],
);
foreach my $form (@forms)
{
	my ($where, $want) = @$form;
	my $q = "SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM %s WHERE $where";
	is($node->safe_psql('postgres', sprintf($q, 'events')),
		$node->safe_psql('postgres', sprintf($q, 'events_plain')),
		"$where: the rows of a plain table");
	my ($got, $plan) = chunks_in("SELECT * FROM events WHERE $where");
	is($got, $want, "$where: $want in the plan") or diag($plan);
}

# drop_chunks by time drops whole days.
my $dropped = $node->safe_psql('postgres',
	"SELECT count(*) FROM drop_chunks('events', older_than => $day20)");
is($dropped, '20', 'drop_chunks older than day 20 drops 20 chunks');
is( $node->safe_psql('postgres',
		"SELECT (SELECT count(*) FROM events) = (SELECT count(*) FROM events_plain WHERE ulid_time(id) >= $day20)"),
	't', 'the rows left are exactly those of the days kept');

# pg_partman refuses a ulid control column (its check_control_type takes
# only the type names it lists).
SKIP:
{
	skip 'pg_partman is not installed', 1
	  unless -f $node->config_data('--sharedir') . '/extension/pg_partman.control';
	$node->safe_psql('postgres', 'CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman;');
	my ($ret, $out, $err) = $node->psql('postgres', <<'SQL');
CREATE TABLE pm (id ulid NOT NULL DEFAULT gen_ulid()) PARTITION BY RANGE (id);
SELECT partman.create_parent('public.pm', 'id', '1 day');
SQL
	my $pv = $node->safe_psql('postgres',
		q{SELECT extversion FROM pg_extension WHERE extname = 'pg_partman'});
	like($err, qr/only supports partitioning of data types .* Supplied column is of type ulid/,
		"pg_partman $pv refuses a ulid control column");
}

# docs/partitioning.md's TimescaleDB and pg_partman blocks, in a database
# of their own.
$node->safe_psql('postgres', 'CREATE DATABASE docs');
$node->safe_psql('docs', 'CREATE EXTENSION timescaledb; CREATE EXTENSION ulid;');
my @engines = ('timescaledb');
if (-f $node->config_data('--sharedir') . '/extension/pg_partman.control')
{
	$node->safe_psql('docs', 'CREATE SCHEMA partman; CREATE EXTENSION pg_partman SCHEMA partman;');
	push @engines, 'partman';
}
foreach my $engine (@engines)
{
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	my $out = `python3 "$root/test/check_docs.py" --engine $engine --database docs "$root" docs/partitioning.md 2>&1`;
	ok($? == 0 && $out =~ /# docs \($engine\): [1-9]\d* passed, 0 failed/,
		"docs/partitioning.md: every $engine block runs and prints what the guide shows")
	  or diag($out);
}

$node->stop;
done_testing();
