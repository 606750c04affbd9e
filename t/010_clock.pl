# Clocks that lie, in a real server: the postmaster runs with libfaketime
# preloaded, so it and every backend it forks read a wall clock the test sets
# through a file while the server runs.  In both scopes of
# gen_monotonic_ulid() (backend, and cluster with the library preloaded):
# the clock jumping back an hour under 4 inserting sessions, a clock standing
# still for 100,000 values, restarts and a crash restart while the clock is
# behind the last value handed out, and clocks before 1970 and past the last
# ULID millisecond (10889-08-02 05:31:50.655 UTC).
#
# The clock moves by hours and the checks allow minutes (10 at most) for the
# time a step takes, so a slow machine cannot fail them.
#
# libfaketime is Debian's libfaketime package.  Without it the test is
# skipped, unless ULID_REQUIRE_FAKETIME=1, when it fails.

use strict;
use warnings;

use IPC::Run ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The largest ULID time, 2^48 - 1 ms: 10889-08-02 05:31:50.655 UTC.
my $ulid_max_sec = 281474976710;

# --- libfaketime -----------------------------------------------------------
# The package's own file list first (the native architecture), then the
# multiarch directories.  A candidate counts only if a program it is
# preloaded into really reads the time it is told.
sub find_libfaketime
{
	my @candidates =
	  grep { m{/libfaketime\.so\.1$} } split /\n/,
	  `dpkg -L libfaketime 2>/dev/null`;
	push @candidates,
	  glob('/usr/lib/*/faketime/libfaketime.so.1'),
	  glob('/usr/lib*/faketime/libfaketime.so.1'),
	  glob('/usr/local/lib/faketime/libfaketime.so.1');
	for my $lib (@candidates)
	{
		next unless -f $lib;
		local %ENV = (
			%ENV,
			LD_PRELOAD => $lib,
			FAKETIME => '1000000000',
			FAKETIME_FMT => '%s');
		# The probe is this perl, not date: on 32-bit x86 the server and
		# perl call the 32-bit time functions libfaketime wraps, while
		# Debian 12's date calls __clock_gettime64, which libfaketime
		# 0.9.10 does not wrap.  Run directly, not through a shell: the
		# first process that loads libfaketime creates its shared memory
		# and semaphore (/dev/shm/faketime_*) and removes them when it
		# exits, so a shell that execs the probe would leave them behind.
		my ($out, $err) = ('', '');
		IPC::Run::run([ $^X, '-e', 'print time, "\n"' ], '>', \$out, '2>', \$err);
		return $lib if $out =~ /^1000000000$/m;
	}
	return undef;
}

my $libfaketime = find_libfaketime();
if (!defined $libfaketime)
{
	my $why =
	  'libfaketime is not installed or does not work (Debian packages faketime and libfaketime)';
	if ($ENV{ULID_REQUIRE_FAKETIME})
	{
		fail("ULID_REQUIRE_FAKETIME=1: $why");
		done_testing();
		exit;
	}
	plan skip_all => $why;
}
note "libfaketime: $libfaketime";

# The clock every preloaded process reads: one line, re-read on every time
# call (FAKETIME_NO_CACHE), so a change reaches running backends at once.
# With FAKETIME_FMT=%s an absolute time is Unix seconds and stands still
# ("1000000000"); "+N" or "-N" is real time plus or minus N seconds and
# ticks.  The monotonic clocks stay real, so PostgreSQL's timeouts, latches
# and pg_ctl's waits work whatever the wall clock says, and so do files'
# times (NO_FAKE_STAT): only the wall clock lies.
my $clock_file = PostgreSQL::Test::Utils::tempdir() . '/faketime';
my %faketime_env = (
	LD_PRELOAD => $libfaketime,
	FAKETIME_TIMESTAMP_FILE => $clock_file,
	FAKETIME_NO_CACHE => '1',
	FAKETIME_FMT => '%s',
	FAKETIME_DONT_FAKE_MONOTONIC => '1',
	NO_FAKE_STAT => '1');

# Sets the clock; written to a new file and renamed over the old one, so that
# a backend never reads half a line.
sub set_clock
{
	my ($spec) = @_;
	my $tmp = "$clock_file.new";
	open my $fh, '>', $tmp or die "cannot write $tmp: $!";
	print $fh "$spec\n";
	close $fh or die "cannot write $tmp: $!";
	rename $tmp, $clock_file or die "cannot rename $tmp: $!";
}

# Runs $code (a start or restart) with libfaketime in the environment, so
# that pg_ctl and the postmaster it starts, and so every backend, preload it.
# The tests' own clients (psql, pgbench) do not.
sub with_faketime
{
	my ($code) = @_;
	local %ENV = (%ENV, %faketime_env);
	delete $ENV{FAKETIME};    # it would win over the file
	$code->();
}

# The server's wall clock as Unix seconds, read by a fresh backend.
sub server_epoch
{
	my ($node) = @_;
	return $node->safe_psql('postgres',
		'SELECT extract(epoch FROM clock_timestamp())::bigint');
}

# Evaluates an expression in the server; returns "value: ..." or, if it
# raised an error, "SQLSTATE: message".
my $try_sql = q{
CREATE FUNCTION try(expr text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	result text;
	state text;
	msg text;
BEGIN
	EXECUTE 'SELECT (' || expr || ')::text' INTO result;
	RETURN 'value: ' || result;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
	RETURN state || ': ' || msg;
END $$;
};

for my $scope ('backend', 'cluster')
{
	set_clock('+0');
	my $node = PostgreSQL::Test::Cluster->new("clock_$scope");
	$node->init;
	$node->append_conf('postgresql.conf', "autovacuum = off\ntimezone = 'UTC'\n");
	$node->append_conf('postgresql.conf',
		"shared_preload_libraries = 'ulid'\nrestart_after_crash = on\n")
	  if $scope eq 'cluster';
	with_faketime(sub { $node->start });
	$node->safe_psql('postgres', "CREATE EXTENSION ulid; $try_sql");
	is($node->safe_psql('postgres', 'SELECT ulid_monotonic_scope()'),
		$scope, "$scope: ulid_monotonic_scope() is $scope");

	# --- the preload works --------------------------------------------------
	# Without this every case below could pass on the real clock.
	set_clock('1000000000');
	is( $node->safe_psql(
			'postgres', q{
		SELECT extract(epoch FROM clock_timestamp())::bigint || ' ' ||
			extract(epoch FROM now())::bigint || ' ' ||
			extract(epoch FROM ulid_time(gen_ulid()))::bigint}),
		'1000000000 1000000000 1000000000',
		"$scope: the fake clock reaches the backend: clock_timestamp(), now() and gen_ulid()'s time read 2001-09-09 01:46:40"
	);
	set_clock('+0');
	my $real = time;
	ok(abs(server_epoch($node) - $real) <= 600,
		"$scope: a new clock reaches the backend at once (back to the real time)");

	# --- the clock jumps back an hour under 4 inserting sessions -----------
	# pgbench's 4 clients insert one row a transaction: the client, a
	# sequence number, the clock and a gen_monotonic_ulid() and a gen_ulid()
	# value.  A transaction lock makes each row's sequence number and
	# values one step, so the sequence gives the order of the calls across
	# sessions.  A client whose row is numbered over 800 then waits on a
	# lock the test holds, until all 4 wait; the test moves the clock back an
	# hour and lets them go.  So at least 800 rows come before the jump,
	# every row numbered from 805 on after it.
	$node->safe_psql('postgres', q{
		CREATE SEQUENCE jump_seq;
		CREATE TABLE jump (client int, seq bigint, clock_at timestamptz, id ulid, plain ulid)});
	my $gate = $node->background_psql('postgres');
	$gate->query_safe('SELECT pg_advisory_lock(42)');
	my $script = $node->basedir . '/jump.pgbench';
	append_to_file($script, q{
BEGIN;
SELECT pg_advisory_xact_lock(7);
INSERT INTO jump VALUES (:client_id, nextval('jump_seq'), clock_timestamp(), gen_monotonic_ulid(), gen_ulid()) RETURNING seq \gset
END;
\if :seq > 800
SELECT pg_advisory_lock_shared(42);
SELECT pg_advisory_unlock_shared(42);
\endif
});
	my ($bench_out, $bench_err) = ('', '');
	my $bench = IPC::Run::start(
		[
			'pgbench', '-n', '-c', '4', '-j', '2', '-t', '1000', '-f',
			$script, '-h', $node->host, '-p', $node->port, 'postgres'
		],
		'>', \$bench_out, '2>', \$bench_err);
	ok( $node->poll_query_until(
			'postgres', q{
		SELECT count(*) = 4 FROM pg_locks
		WHERE locktype = 'advisory' AND objid = 42 AND NOT granted}),
		"$scope, clock jumps back: all 4 clients wait at the gate after 800 rows");
	my $before_jump = time;
	set_clock('-3600');
	ok(abs(server_epoch($node) - ($before_jump - 3600)) <= 600,
		"$scope, clock jumps back: the server's clock is an hour behind");
	$gate->query_safe('SELECT pg_advisory_unlock(42)');
	$gate->quit;
	$bench->finish;
	is($bench->result(0), 0,
		"$scope, clock jumps back: pgbench ends without error")
	  or diag $bench_err;
	like($bench_out, qr{processed: 4000/4000},
		"$scope, clock jumps back: 4,000 rows inserted");

	# A row is before the jump if its clock is within 10 minutes of the
	# real time at the gate, after it if more than 50 minutes behind.
	my $after = "clock_at < to_timestamp($before_jump) - interval '50 minutes'";
	my $before = "clock_at > to_timestamp($before_jump) - interval '10 minutes'";
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*) FILTER (WHERE $before) >= 800,
			count(*) FILTER (WHERE $before) + count(*) FILTER (WHERE $after),
			count(*) FILTER (WHERE seq >= 805 AND NOT $after)
		FROM jump}),
		"t|4000|0",
		"$scope, clock jumps back: 800+ rows before the jump, every row from 805 on after it, seen by every backend"
	);
	my $order = $scope eq 'cluster' ? '' : 'PARTITION BY client';
	my $which =
	  $scope eq 'cluster'
	  ? 'across the 4 sessions in call order'
	  : 'in each session';
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*) FILTER (WHERE id <= prev),
			count(*) FILTER (WHERE ulid_time(id) < ulid_time(prev)),
			count(*) - count(DISTINCT id) FROM (
			SELECT id, lag(id) OVER ($order ORDER BY seq) AS prev FROM jump) s}),
		'0|0|0',
		"$scope, clock jumps back: each gen_monotonic_ulid() value greater than the one before it $which, its time never earlier, no duplicate"
	);
	# After the jump each value keeps the time of the last value before it
	# (the scope's last value) instead of following the clock.
	is( $node->safe_psql(
			'postgres', qq{
		WITH last_before AS (
			SELECT DISTINCT ON (c) c, ulid_time(id) AS t FROM (
				SELECT CASE WHEN '$scope' = 'cluster' THEN 0 ELSE client END AS c, seq, id
				FROM jump WHERE NOT $after) b
			ORDER BY c, seq DESC)
		SELECT count(*) > 0,
			count(*) FILTER (WHERE ulid_time(j.id) <> l.t),
			count(*) FILTER (WHERE ulid_time(j.id) < j.clock_at + interval '50 minutes')
		FROM jump j JOIN last_before l
			ON l.c = CASE WHEN '$scope' = 'cluster' THEN 0 ELSE j.client END
		WHERE $after}),
		't|0|0',
		"$scope, clock jumps back: after the jump gen_monotonic_ulid() keeps the last value's time (an hour ahead of the clock) and increments"
	);
	# gen_ulid() follows the clock: its time is the clock's, so it goes back
	# an hour with it.
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*) FILTER (WHERE abs(extract(epoch FROM ulid_time(plain) - clock_at)) >= 1),
			max(ulid_time(plain)) FILTER (WHERE $after)
				< min(ulid_time(plain)) FILTER (WHERE $before) - interval '50 minutes'
		FROM jump}),
		'0|t',
		"$scope, clock jumps back: gen_ulid() follows the clock, its time goes back an hour"
	);

	# --- a restart while the clock is behind the last value ----------------
	# The last value lives in memory only: after a restart the generator
	# starts from the clock, an hour behind, so its values are lower than
	# those of before the restart.
	set_clock('+0');
	my $sess = $node->background_psql('postgres');
	$sess->query_safe(q{
		CREATE TABLE restart_before AS
			SELECT n, gen_monotonic_ulid() AS id FROM generate_series(1, 1000) n});
	my $restart_at = time;
	set_clock('-3600');
	is( $sess->query_safe(q{
		SELECT ulid_time(v) = (SELECT max(ulid_time(id)) FROM restart_before)
			AND v > (SELECT max(id) FROM restart_before)
		FROM gen_monotonic_ulid() v}),
		't',
		"$scope, restart: clock an hour back, the same session still gets a greater value with the last time"
	);
	if ($scope eq 'backend')
	{
		is( $node->safe_psql(
				'postgres', q{
			SELECT v < (SELECT min(id) FROM restart_before)
				AND abs(extract(epoch FROM ulid_time(v) - clock_timestamp())) < 1
			FROM gen_monotonic_ulid() v}),
			't',
			'backend, restart: a new session starts from the clock, below every value of the session before'
		);
	}
	$sess->quit;
	with_faketime(sub { $node->restart });
	$node->safe_psql('postgres', q{
		CREATE TABLE restart_after AS
			SELECT n, clock_timestamp() AS clock_at, gen_monotonic_ulid() AS id
			FROM generate_series(1, 1000) n});
	is( $node->safe_psql(
			'postgres', qq{
		SELECT bool_and(abs(extract(epoch FROM clock_at - to_timestamp($restart_at - 3600))) < 600),
			bool_and(abs(extract(epoch FROM ulid_time(id) - clock_at)) < 1),
			max(id) < (SELECT min(id) FROM restart_before),
			(SELECT count(DISTINCT id) FROM (SELECT id FROM restart_before
				UNION ALL SELECT id FROM restart_after) u)
		FROM restart_after}),
		't|t|t|2000',
		"$scope, restart: afterwards values carry the clock's time, an hour back, lower than every value before the restart; no error, no duplicate"
	);
	is( $node->safe_psql(
			'postgres', q{
		SELECT count(*) FROM (
			SELECT id, lag(id) OVER (ORDER BY n) AS prev FROM restart_after) s
		WHERE id <= prev}),
		'0',
		"$scope, restart: after it, values increase again");

	if ($scope eq 'cluster')
	{
		# The same through crash restart: a backend killed with SIGKILL,
		# the clock now two hours back.
		set_clock('-7200');
		my $crash_at = time;
		$node->safe_psql('postgres', q{
			CREATE TABLE crash_before AS SELECT gen_monotonic_ulid() AS id});
		is( $node->safe_psql(
				'postgres', q{
			SELECT id > (SELECT max(id) FROM restart_after) FROM crash_before}),
			't',
			'cluster, crash restart: clock two hours back, the value before the crash is still the greatest');
		my $victim = $node->background_psql('postgres');
		my $pid = $victim->query_safe('SELECT pg_backend_pid()');
		my $log_offset = -s $node->logfile;
		kill 'KILL', $pid;
		$node->wait_for_log(qr/database system is ready to accept connections/,
			$log_offset);
		$node->poll_query_until('postgres', 'SELECT true');
		eval { $victim->quit };
		ok( $node->log_contains(
				qr/\(PID $pid\) was terminated by signal 9/, $log_offset),
			"cluster, crash restart: backend $pid killed with signal 9, the server restarted"
		);
		is( $node->safe_psql(
				'postgres', qq{
			SELECT count(*) FILTER (WHERE id >= (SELECT id FROM crash_before)),
				count(*) FILTER (WHERE abs(extract(epoch FROM ulid_time(id) - to_timestamp($crash_at - 7200))) >= 600),
				count(*) - count(DISTINCT id)
			FROM (SELECT gen_monotonic_ulid() AS id FROM generate_series(1, 1000)) s}),
			'0|0|0',
			'cluster, crash restart: afterwards values follow the clock, two hours back, below the value before the crash; no duplicate'
		);
	}

	# --- the clock stands still ---------------------------------------------
	# A day ahead of every value so far, so that the frozen time is the one
	# the generators use.  100,000 gen_monotonic_ulid() values from 4
	# clients, 1,000 a statement, in call order through the transaction lock.
	my $frozen = time + 86400;
	set_clock($frozen);
	$node->safe_psql('postgres', q{
		CREATE SEQUENCE frozen_seq;
		CREATE TABLE frozen (client int, seq bigint, clock_at timestamptz, id ulid)});
	$node->pgbench(
		'-n -c 4 -j 2 -t 25', 0,
		[qr{processed: 100/100}], [],
		"$scope, clock stands still: pgbench ends without error",
		{
			"010_frozen_$scope.pgbench" => q{
BEGIN;
SELECT pg_advisory_xact_lock(7);
INSERT INTO frozen SELECT :client_id, nextval('frozen_seq'), clock_timestamp(), gen_monotonic_ulid()
FROM generate_series(1, 1000);
END;
}
		},
		'postgres');
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*), count(DISTINCT clock_at),
			count(*) FILTER (WHERE clock_at <> to_timestamp($frozen)),
			count(*) FILTER (WHERE ulid_time(id) <> to_timestamp($frozen)),
			count(*) - count(DISTINCT id)
		FROM frozen}),
		'100000|1|0|0|0',
		"$scope, clock stands still: 100,000 gen_monotonic_ulid() values, the clock read the same every time, all of that millisecond, no duplicate"
	);
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(*) FROM (
			SELECT id, lag(id) OVER ($order ORDER BY seq) AS prev FROM frozen) s
		WHERE id <= prev}),
		'0',
		"$scope, clock stands still: each value greater than the one before it $which"
	);
	# gen_ulid() in one session: each value has the counter in bytes 6-7 of
	# the one before plus one, until that counter is at its largest, when it
	# is fresh random bits (ulid_packed.h).  With the clock stopped a run
	# from a random start lasts a uniform 1 to 65,536 values, so 100,000
	# values restart at least once, about 3 times on average, and more than
	# 12 times only if 13 runs fit in 100,000 values: a chance of
	# (100000/65536)^13/13! < 10^-7.
	my ($ulids, $times, $distinct, $descents) = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		SELECT count(*), count(*) FILTER (WHERE ulid_time(id) = to_timestamp($frozen)),
			count(DISTINCT id), count(*) FILTER (WHERE id < prev)
		FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
			FROM (SELECT n, gen_ulid() AS id FROM generate_series(1, 100000) n) g) s});
	is("$ulids|$times|$distinct", '100000|100000|100000',
		"$scope, clock stands still: 100,000 gen_ulid() values in one session, all of the frozen millisecond, all distinct"
	);
	ok($descents >= 1 && $descents <= 12,
		"$scope, clock stands still: gen_ulid() ascends but where its counter ran out (1 to 12 restarts)")
	  or diag "$descents restarts";
	note "$scope: gen_ulid() restarted its ascent $descents times in 100,000 values";

	# --- clocks a ulid cannot hold -----------------------------------------
	my @clock_reading = qw(gen_ulid() gen_ulid_v7() gen_monotonic_ulid()
	  gen_monotonic_ulid_v7());
	my $clock_error = '22008: system clock is outside the range of type ulid';
	my $arg_error = '22008: timestamp out of range for type ulid';

	# An hour before 1970 (ticking: a relative offset; libfaketime's
	# absolute times with FAKETIME_FMT=%s cannot be negative, "-N" is an
	# offset).
	set_clock('-' . (time + 3600));
	ok(server_epoch($node) < 0,
		"$scope, before 1970: the server's clock reads 1969");
	for my $f (@clock_reading)
	{
		is($node->safe_psql('postgres', "SELECT try('$f')"),
			$clock_error, "$scope, before 1970: $f raises 22008, returns nothing");
	}
	is( $node->safe_psql(
			'postgres', q{SELECT try('ulid_time(gen_ulid(''2020-01-01 00:00:00+00''))')}),
		'value: 2020-01-01 00:00:00+00',
		"$scope, before 1970: gen_ulid(timestamptz) does not read the clock, works in range");
	is( $node->safe_psql(
			'postgres', q{SELECT try('gen_ulid(''1969-12-31 23:59:59.999+00'')')}),
		$arg_error,
		"$scope, before 1970: gen_ulid(timestamptz) before 1970 raises 22008");

	# 1970-01-01 00:00:00, the first millisecond, standing still.
	set_clock('0');
	is( $node->safe_psql(
			'postgres', q{
		SELECT ulid_time(gen_ulid()) || ' ' || ulid_time(gen_ulid_v7())}),
		'1970-01-01 00:00:00+00 1970-01-01 00:00:00+00',
		"$scope, 1970-01-01 00:00:00: gen_ulid() and gen_ulid_v7() work, time 0");
	# gen_monotonic_ulid(): in cluster scope the clock is behind the last
	# value (the frozen time), which keeps its time; a new backend-scope
	# session takes the clock's.
	is( $node->safe_psql('postgres', 'SELECT ulid_time(gen_monotonic_ulid())'),
		$scope eq 'cluster'
		? $node->safe_psql('postgres', "SELECT to_timestamp($frozen)")
		: '1970-01-01 00:00:00+00',
		"$scope, 1970-01-01 00:00:00: gen_monotonic_ulid() works, with "
		  . ($scope eq 'cluster' ? 'the last value\'s time' : 'time 0'));

	# The last second a ulid holds, 10889-08-02 05:31:50, standing still,
	# then the next one.  (A whole second: libfaketime's absolute times
	# have no fraction, so .655 itself cannot be set.)  A server that asks
	# the time through a 32-bit time_t (Debian 12's i386 build) reads no
	# clock past 2038-01-19 03:14:07 UTC, so no clock can take it there:
	# those checks are skipped, and the bound is tested by the unit tests
	# and gen_ulid(timestamptz) on every machine.
	set_clock(2**31 + 3600);
	my $reads_past_2038 = server_epoch($node) eq 2**31 + 3600;
  SKIP:
	{
		skip "$scope: this server's clock calls take a 32-bit time_t, which ends in 2038",
		  4 + scalar(@clock_reading)
		  unless $reads_past_2038;
	set_clock($ulid_max_sec);
	is( $node->safe_psql(
			'postgres', q{
		SELECT ulid_time(gen_ulid()) || ' ' || ulid_time(gen_ulid_v7()) || ' ' ||
			ulid_time(gen_monotonic_ulid()) || ' ' || ulid_time(gen_monotonic_ulid_v7())}),
		join(' ', ('10889-08-02 05:31:50+00') x 4),
		"$scope, 10889-08-02 05:31:50: all four generators work, with that time");
	set_clock($ulid_max_sec + 1);
	is(server_epoch($node), $ulid_max_sec + 1,
		"$scope, 10889-08-02 05:31:51: the server's clock reads it");
	for my $f (@clock_reading)
	{
		is($node->safe_psql('postgres', "SELECT try('$f')"),
			$clock_error,
			"$scope, 10889-08-02 05:31:51: $f raises 22008, returns nothing");
	}
	is( $node->safe_psql(
			'postgres', q{
		SELECT try('ulid_time(gen_ulid(''10889-08-02 05:31:50.655+00''))') || ' / ' ||
			try('gen_ulid(''10889-08-02 05:31:50.656+00'')')}),
		"value: 10889-08-02 05:31:50.655+00 / $arg_error",
		"$scope, 10889-08-02 05:31:51: gen_ulid(timestamptz) works up to .655, raises 22008 past it");
	# Once the clock is past the end, the monotonic generator in the same
	# session (whose last value is in range) raises 22008 too rather than
	# counting on from its last value.
	my $past_end = $node->background_psql('postgres');
	set_clock($ulid_max_sec);
	$past_end->query_safe('SELECT gen_monotonic_ulid()');
	set_clock($ulid_max_sec + 3600);
	is($past_end->query_safe(q{SELECT try('gen_monotonic_ulid()')}),
		$clock_error,
		"$scope, past the end: gen_monotonic_ulid() with a last value in range still raises 22008");
	$past_end->quit;
	}

	set_clock('+0');
	$node->stop;
}

done_testing();
