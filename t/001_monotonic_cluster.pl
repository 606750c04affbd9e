# Cluster-wide gen_monotonic_ulid() on a server that preloads the library:
# concurrent clients, alternating sessions, fresh backends, a backend killed
# with SIGKILL during generation; gen_monotonic_ulid_v7() beside it, with a
# cluster-wide state of its own; and the sort support's abbreviation abort
# heuristic, seen through trace_sort.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);

my $node = PostgreSQL::Test::Cluster->new('monotonic');
$node->init;
$node->append_conf('postgresql.conf', qq(
shared_preload_libraries = 'ulid'
restart_after_crash = on
));
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION ulid');

is($node->safe_psql('postgres', 'SELECT ulid_monotonic_scope()'),
	'cluster', 'scope is cluster when preloaded');

# --- 8 clients at once ----------------------------------------------------
# 10 values per transaction, 200,000 values in all; each row records its
# client and a sequence number taken in the same row.
$node->safe_psql('postgres', q(
	CREATE SEQUENCE mono_seq;
	CREATE UNLOGGED TABLE mono (client int, seq bigint, id ulid)));
$node->pgbench(
	'-n -c 8 -j 2 -t 2500', 0,
	[qr{processed: 20000/20000}], [],
	'8 clients: pgbench runs 20,000 transactions',
	{
		'001_mono.pgbench' => q(
INSERT INTO mono SELECT :client_id, nextval('mono_seq'), gen_monotonic_ulid() FROM generate_series(1, 10);
)
	},
	'postgres');
is($node->safe_psql('postgres', 'SELECT count(*) FROM mono'),
	'200000', '8 clients: 200,000 values');
is($node->safe_psql('postgres', 'SELECT count(*) - count(DISTINCT id) FROM mono'),
	'0', '8 clients: no duplicates');
is( $node->safe_psql(
		'postgres', q(
	SELECT count(*) FROM (
		SELECT id, lag(id) OVER (PARTITION BY client ORDER BY seq) AS prev FROM mono) s
	WHERE id <= prev)),
	'0',
	"8 clients: each client's values strictly increase");

# --- two sessions, alternating --------------------------------------------
# A, B, A, B, ...: each call starts after the previous one returned, so each
# value must exceed the one before it.  Canonical ULID text compares like the
# values (fixed width, 0-9 before A-Z), so string comparison is enough.
# BackgroundPsql notes every query and its result; 2,000 of them would bury
# the rest of the verbose output, so they are not written.
my @sessions = map { $node->background_psql('postgres') } 1 .. 2;
my ($prev, $bad, $first_bad) = ('', 0, '');
my $tap_output = Test::More->builder->output;
open my $devnull, '>', '/dev/null' or die "cannot open /dev/null: $!";
Test::More->builder->output($devnull);
for my $i (0 .. 1999)
{
	my $v = $sessions[ $i % 2 ]->query_safe('SELECT gen_monotonic_ulid()');
	if ($prev ne '' && !($v gt $prev))
	{
		$bad++;
		$first_bad ||= "call $i returned $v after $prev";
	}
	$prev = $v;
}
Test::More->builder->output($tap_output);
$_->quit for @sessions;
is($bad, 0,
	'two alternating sessions: 2,000 values, each greater than the last')
  or diag $first_bad;
like($prev, qr/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/,
	'two alternating sessions: values are canonical ULID text');

# --- both generators, concurrent and alternating ---------------------------
# gen_monotonic_ulid_v7() has a shared state of its own: interleaved with
# gen_monotonic_ulid() in every session, each sequence stays strictly
# increasing in call order across the sessions, and every v7 value has the
# version 7 and variant 10 bits.
$node->safe_psql('postgres', q(
	CREATE SEQUENCE mixed_seq;
	CREATE UNLOGGED TABLE mixed (client int, seq bigint, v7 bool, id ulid)));
$node->pgbench(
	'-n -c 8 -j 2 -t 500', 0,
	[qr{processed: 4000/4000}], [],
	'8 clients, both generators: pgbench runs 4,000 transactions',
	{
		'001_mixed.pgbench' => q(
INSERT INTO mixed SELECT :client_id, nextval('mixed_seq'), g % 2 = 0,
	CASE WHEN g % 2 = 0 THEN gen_monotonic_ulid_v7() ELSE gen_monotonic_ulid() END
FROM generate_series(1, 10) g;
)
	},
	'postgres');
is( $node->safe_psql(
		'postgres', q(
	SELECT count(*), count(*) - count(DISTINCT id),
		count(*) FILTER (WHERE v7 AND NOT (get_byte(id::bytea, 6) >> 4 = 7
										  AND get_byte(id::bytea, 8) >> 6 = 2))
	FROM mixed)),
	'40000|0|0',
	'8 clients, both generators: 40,000 values, no duplicates, every v7 one shaped');
is( $node->safe_psql(
		'postgres', q(
	SELECT count(*) FROM (
		SELECT id, lag(id) OVER (PARTITION BY client, v7 ORDER BY seq) AS prev FROM mixed) s
	WHERE id <= prev)),
	'0',
	"8 clients, both generators: each client's values of each strictly increase");

# Two sessions taking turns, each call one generator or the other (two v7
# calls, then one plain): uuid text compares like the bytes (fixed width,
# lower-case hex), so string comparison is enough, as for ULID text.
@sessions = map { $node->background_psql('postgres') } 1 .. 2;
my %prev_of = (v7 => '', plain => '');
($bad, $first_bad) = (0, '');
Test::More->builder->output($devnull);
for my $i (0 .. 1499)
{
	my $kind = $i % 3 == 2 ? 'plain' : 'v7';
	my $v = $sessions[ $i % 2 ]->query_safe(
		$kind eq 'v7'
		? 'SELECT gen_monotonic_ulid_v7()::uuid'
		: 'SELECT gen_monotonic_ulid()::uuid');
	if ($kind eq 'v7'
		&& $v !~ /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
	{
		$bad++;
		$first_bad ||= "call $i returned $v, not a UUIDv7";
	}
	if ($prev_of{$kind} ne '' && !($v gt $prev_of{$kind}))
	{
		$bad++;
		$first_bad ||= "call $i ($kind) returned $v after $prev_of{$kind}";
	}
	$prev_of{$kind} = $v;
}
Test::More->builder->output($tap_output);
$_->quit for @sessions;
is($bad, 0,
	'two alternating sessions, both generators: 1,500 values, each greater than the last of its generator, v7 ones UUIDv7'
) or diag $first_bad;

# --- fresh backends -------------------------------------------------------
# Each new backend of a server that preloads the library draws its own random
# bytes.  (That a pool inherited through fork() is refilled is checked
# directly by test/unit.c, pool_fork.)
my %randoms;
$randoms{ $node->safe_psql('postgres', 'SELECT substr(gen_ulid()::text, 11)') }
  = 1
  for 1 .. 20;
is(scalar(keys %randoms), 20,
	'fresh backends: 20 distinct random parts (the fork refill itself: test/unit.c pool_fork)'
);

# --- kill -9 of a backend during generation -------------------------------
# After the crash restart the function works and continues above every
# committed value.  An unlogged table is emptied by crash recovery: proof
# that the restart happened.
$node->safe_psql('postgres', q(
	CREATE TABLE crash (id ulid);
	CREATE UNLOGGED TABLE crash_marker AS SELECT 1 AS x));
my $script = $node->basedir . '/001_crash.pgbench';
append_to_file($script,
	"INSERT INTO crash SELECT gen_monotonic_ulid() FROM generate_series(1, 10);\n"
);
my ($bench_out, $bench_err) = ('', '');
my $bench = IPC::Run::start(
	[
		'pgbench', '-n', '-c', '4', '-j', '2', '-T', '10', '-f', $script,
		'-h', $node->host, '-p', $node->port, 'postgres'
	],
	'>', \$bench_out, '2>', \$bench_err);
my $victim;
for (1 .. 100)
{
	$victim = $node->safe_psql(
		'postgres', q(
		SELECT pid FROM pg_stat_activity
		WHERE query LIKE 'INSERT INTO crash %' AND state = 'active'
			AND EXISTS (SELECT FROM crash)
		LIMIT 1));
	last if $victim ne '';
	usleep(100_000);
}
my $log_offset = -s $node->logfile;
ok($victim ne '', 'found a pgbench backend generating values, to kill');
kill 'KILL', $victim if $victim ne '';
$bench->finish;
$node->wait_for_log(qr/database system is ready to accept connections/,
	$log_offset)
  if $victim ne '';
$node->poll_query_until('postgres', 'SELECT true');
ok( $node->log_contains(
		qr/(?:server process|client backend) \(PID $victim\) was terminated by signal 9/,
		$log_offset),
	"the server log shows backend $victim killed with signal 9");
is( $node->safe_psql(
		'postgres',
		'SELECT NOT EXISTS (SELECT FROM crash_marker) AND count(*) > 0 FROM crash'),
	't',
	'after the kill: crash recovery ran, committed rows are there');
is($node->safe_psql('postgres', 'SELECT gen_monotonic_ulid() > max(id) FROM crash'),
	't',
	'after the crash: gen_monotonic_ulid() works and exceeds every committed value');
is( $node->safe_psql(
		'postgres', q(
	SELECT count(*) FROM (
		SELECT id, lag(id) OVER (ORDER BY n) AS prev
		FROM (SELECT n, gen_monotonic_ulid() AS id FROM generate_series(1, 10000) n) s) s2
	WHERE id <= prev)),
	'0',
	'after the crash: 10,000 values, still strictly increasing');
is( $node->safe_psql(
		'postgres', q(
	SELECT count(*) FROM (
		SELECT id, lag(id) OVER (ORDER BY n) AS prev
		FROM (SELECT n, gen_monotonic_ulid_v7() AS id FROM generate_series(1, 10000) n) s) s2
	WHERE id <= prev)),
	'0',
	'after the crash: 10,000 gen_monotonic_ulid_v7() values, strictly increasing');
is($node->safe_psql('postgres', 'SELECT ulid_monotonic_scope()'),
	'cluster', 'after the crash: scope is still cluster');

# --- sort support: the abbreviation abort heuristic -----------------------
# Many copies of 3 values abandon abbreviated keys, and trace_sort says so;
# distinct ids keep them.  Preloading plays no part here.
sub sort_trace
{
	my ($query) = @_;
	my ($out, $err);
	my $rc = $node->psql(
		'postgres',
		"SET trace_sort = on; SET client_min_messages = log; $query",
		stdout => \$out,
		stderr => \$err);
	die "sort query failed: $err" if $rc != 0;
	return $err;
}

my $trace = sort_trace(q(
	SELECT count(*) FROM (
		SELECT (ARRAY['01ARYZ6S41TSV4RRFFQ69G5FAV', '01BX5ZZKBKACTAV9WEVGEMMVRZ',
			'01CRYZ6S41TSV4RRFFQ69G5FAV'])[1 + n % 3]::ulid AS id
		FROM generate_series(1, 100000) n ORDER BY 1) s));
like(
	$trace,
	qr/ulid_abbrev: aborting abbreviation/,
	'sort of 100,000 rows with 3 distinct ids aborts abbreviation');

$trace = sort_trace(q(
	SELECT count(*) FROM (SELECT gen_ulid() FROM generate_series(1, 100000) ORDER BY 1) s));
like($trace, qr/performsort/,
	'sort of 100,000 distinct ids: trace_sort reports the sort');
unlike(
	$trace,
	qr/ulid_abbrev: aborting/,
	'sort of 100,000 distinct ids keeps abbreviated keys');

# The abbreviated key depends on the width of a Datum: 8 bytes (64-bit
# servers, and every server from PostgreSQL 19) hold the first 8 bytes of
# the id; 4 bytes (32-bit servers before 19) hold its time relative to the
# sort's first value (ulid_abbrev.h), as the first 4 bytes, the top 32 bits
# of the time, change once in 65.5 s.  Ids of one minute within one such
# span (from 2026-01-01 00:00:22.528 UTC, 2^16 ms times 26,965,699) would
# all tie on those 4 bytes; with either key they stay distinct, and the
# sort keeps abbreviating.
my $datum_bytes = $node->safe_psql('postgres',
	q(SELECT CASE WHEN typbyval THEN 8 ELSE 4 END FROM pg_type WHERE oid = 'int8'::regtype));
$trace = sort_trace(q(
	SELECT count(*) FROM (
		SELECT gen_ulid(to_timestamp(1767225622.528) + random() * interval '60 s')
		FROM generate_series(1, 100000) ORDER BY 1) s));
unlike(
	$trace,
	qr/ulid_abbrev: aborting/,
	"sort of 100,000 ids of one minute, alike in their first 4 bytes, keeps abbreviated keys ($datum_bytes-byte Datum)"
);
like($trace, qr/performsort/, 'sort of 100,000 ids of one minute: trace_sort reports the sort');

$node->stop;
done_testing();
