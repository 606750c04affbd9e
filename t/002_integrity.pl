# Nothing stored is lost or altered: amcheck on ulid btree indexes after
# churn and on hash partitions, and a backend killed with SIGKILL during a
# bulk insert while other sessions commit batches.

use strict;
use warnings;

use POSIX ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('integrity');
$node->init;
$node->append_conf('postgresql.conf', qq(
max_wal_size = '2GB'
restart_after_crash = on
));
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION ulid; CREATE EXTENSION amcheck');

# Runs an amcheck query; it passes when the query raised no error and printed
# what was expected.
sub amcheck_is
{
	my ($sql, $expected, $name) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql);
	ok($rc == 0 && $err eq '' && $out eq $expected, $name)
	  or diag "exit status $rc\nstdout: $out\nstderr: $err";
}

# --- amcheck after churn ---------------------------------------------------
$node->safe_psql(
	'postgres', q(
CREATE TABLE churn (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int, note text);
INSERT INTO churn (n, note) SELECT g, 'row ' || g FROM generate_series(1, 1000000) g;
DELETE FROM churn WHERE random() < 0.2;
UPDATE churn SET note = note || ' updated', n = -n WHERE random() < 0.2;
INSERT INTO churn (id, n) SELECT gen_ulid(now() - random() * interval '30 days'), 0 FROM generate_series(1, 100000);
VACUUM churn;
DELETE FROM churn WHERE n % 7 = 0;
VACUUM churn;
));
# REINDEX CONCURRENTLY cannot run inside the transaction block that a
# multi-statement -c string is.
$node->safe_psql('postgres', 'REINDEX INDEX CONCURRENTLY churn_pkey');
amcheck_is(
	q(SELECT 'checked' FROM bt_index_parent_check('churn_pkey', heapallindexed => true)),
	'checked',
	'amcheck: 1M-row ulid primary key after deletes, updates, VACUUM, REINDEX CONCURRENTLY'
);
is( $node->safe_psql(
		'postgres',
		'SELECT count(*) = count(DISTINCT id) AND count(*) > 500000 FROM churn'),
	't',
	'the primary key holds every row, each once');

$node->safe_psql(
	'postgres', q(
CREATE TABLE hashed (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE hashed_2 PARTITION OF hashed FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO hashed (n) SELECT generate_series(1, 300000);
DELETE FROM hashed WHERE n % 5 = 0;
VACUUM hashed;
));
amcheck_is(
	q(SELECT c.relname, bt_index_parent_check(c.oid, heapallindexed => true)
	  FROM pg_inherits i
		JOIN pg_index x ON x.indrelid = i.inhrelid
		JOIN pg_class c ON c.oid = x.indexrelid
	  WHERE i.inhparent = 'hashed'::regclass
	  ORDER BY 1),
	"hashed_0_pkey|\nhashed_1_pkey|\nhashed_2_pkey|",
	"amcheck: hash-partitioned table, every partition's index");

# --- crash during a bulk insert -------------------------------------------
# Batches of 1,000 rows commit one after another in a child process, which
# writes each batch number down once its COMMIT has returned; meanwhile a
# 3M-row insert runs in a transaction that then waits, so that it is surely
# running (and uncommitted) when its backend is killed with SIGKILL.  Every
# batch written down must be there afterwards, the bulk insert must not.
$node->safe_psql('postgres',
	'CREATE TABLE crash (batch int, id ulid PRIMARY KEY DEFAULT gen_ulid())');
my $committed = $node->basedir . '/committed';
my $stop = $node->basedir . '/stop_writer';
append_to_file($committed, '');

my $writer = fork();
die "fork failed: $!" unless defined $writer;
if ($writer == 0)
{
	# The child stops at the first failed batch (the crash), or when told
	# to.  It leaves by _exit, so that no END block of the test stops the
	# node.
	for my $batch (1 .. 100000)
	{
		last if -e $stop;
		my $rc = eval {
			$node->psql('postgres',
				"INSERT INTO crash (batch) SELECT $batch FROM generate_series(1, 1000)"
			);
		};
		last unless defined $rc && $rc == 0;
		append_to_file($committed, "$batch\n");
	}
	POSIX::_exit(0);
}

my $bulk = $node->background_psql('postgres', on_error_stop => 0);
my $victim = $bulk->query_safe('SELECT pg_backend_pid()');
$bulk->query_until(
	qr/inserted/, q(BEGIN;
INSERT INTO crash (batch) SELECT 0 FROM generate_series(1, 3000000);
\echo inserted
SELECT pg_sleep(60);
));

sub committed_batches
{
	return grep { /^\d+$/ } split /\n/, slurp_file($committed);
}
for (1 .. 600)
{
	last if committed_batches() >= 20;
	usleep(100_000);
}
$node->poll_query_until(
	'postgres', qq(
	SELECT state = 'active' AND query LIKE 'SELECT pg_sleep%'
	FROM pg_stat_activity WHERE pid = $victim))
  or die "the bulk insert's session is not waiting in pg_sleep";

my $log_offset = -s $node->logfile;
kill 'KILL', $victim;
append_to_file($stop, '');
waitpid($writer, 0);
eval { $bulk->quit };
$node->wait_for_log(qr/database system is ready to accept connections/,
	$log_offset);
$node->poll_query_until('postgres', 'SELECT true');

ok( $node->log_contains(
		qr/(?:server process|client backend) \(PID $victim\) was terminated by signal 9/,
		$log_offset),
	'kill -9 of the backend running a 3M-row insert: crash restart');
my @batches = committed_batches();
my $n = scalar @batches;
my $batch_array = '{' . join(',', @batches) . '}';
ok($n >= 20, "at least 20 batches committed around the crash ($n)");
is( $node->safe_psql(
		'postgres', qq(
	SELECT count(DISTINCT batch) || ' batches, ' || count(*) || ' rows' FROM crash
	WHERE batch = ANY ('$batch_array'::int[]))),
	"$n batches, " . ($n * 1000) . ' rows',
	"after the crash: all $n committed batches are there, 1,000 rows each");
is($node->safe_psql('postgres', 'SELECT count(*) FROM crash WHERE batch = 0'),
	'0', 'after the crash: no row of the uncommitted bulk insert');
amcheck_is(
	q(SELECT 'checked' FROM bt_index_parent_check('crash_pkey', heapallindexed => true)),
	'checked',
	'after the crash: amcheck clean');

# A conversion that cannot have one of its locks within lock_timeout gives
# up before it has changed anything.  Its locks come first, the referencing
# table's before the table's: an open transaction holds the referencing
# one, and the key is left uuid, its index as it was.
$node->safe_psql('postgres', q{
	CREATE TABLE lt_parent (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
	CREATE TABLE lt_child (pid uuid REFERENCES lt_parent);
	INSERT INTO lt_parent SELECT FROM generate_series(1, 10);
	INSERT INTO lt_child SELECT id FROM lt_parent;
});
my $holder = $node->background_psql('postgres');
$holder->query_safe('BEGIN');
$holder->query_safe('LOCK TABLE lt_child IN ROW EXCLUSIVE MODE');
my ($rc, $out, $err) = $node->psql('postgres',
	"SET lock_timeout = '100ms'; SELECT * FROM ulid_convert_column('lt_parent', 'id')");
like($err, qr/canceling statement due to lock timeout/,
	'ulid_convert_column: lock_timeout ends the wait for a referencing table');
is( $node->safe_psql('postgres', q{
	SELECT format_type(a.atttypid, NULL) || ' ' || oc.opcname
	FROM pg_attribute a, pg_index i JOIN pg_opclass oc ON oc.oid = i.indclass[0]
	WHERE a.attrelid = 'lt_parent'::regclass AND a.attname = 'id' AND i.indexrelid = 'lt_parent_pkey'::regclass}),
	'uuid uuid_ops',
	'ulid_convert_column: after the timeout the key is uuid, its index as it was');
$holder->query_safe('COMMIT');
$holder->quit;
is( $node->safe_psql('postgres', q{SELECT relation FROM ulid_convert_column('lt_parent', 'id')}),
	'lt_parent', 'ulid_convert_column: once the transaction ends, the conversion runs');

$node->stop;
done_testing();
