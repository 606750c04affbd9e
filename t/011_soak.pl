# A bounded soak: 8 pgbench clients insert with gen_ulid() and
# gen_monotonic_ulid() (cluster-wide: the library is preloaded), read by key
# and by time window, update and delete by key; midway a CHECKPOINT and a
# kill -9 of one client's backend, which crash-restarts the server; then a
# second pgbench run after the restart.  Each client writes down every key it
# changes twice: before its COMMIT (pending) and after the COMMIT returned
# (done).  At the end the table is exactly what that log says, amcheck finds
# nothing, no key is there twice, and neither the server nor any client
# reported an error other than the crash's.  Each client is a pgbench of its
# own, so that what it says is read apart from what the others say.
#
# ULID_SOAK_SECONDS (default 20) is pgbench's time, half before the crash and
# half after it.

use strict;
use warnings FATAL => 'all';

use IPC::Run ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);

my $seconds = $ENV{ULID_SOAK_SECONDS} // 20;
die "ULID_SOAK_SECONDS must be a whole number of seconds, at least 4\n"
  unless $seconds =~ /^\d+$/ && $seconds >= 4;
my $half = int($seconds / 2);
my $clients = 8;

my $node = PostgreSQL::Test::Cluster->new('soak');
$node->init;
$node->append_conf('postgresql.conf', qq(
shared_preload_libraries = 'ulid'
restart_after_crash = on
max_connections = 20
));
$node->start;

# id and ref are both ulid and both indexed; one generator fills each, the
# other generator the other column (updates give ref a new monotonic value).
# version counts the updates of the row.  soak_assert() turns a failed check
# of a read into an ERROR, which the end of the test looks for.
$node->safe_psql(
	'postgres', q{
CREATE EXTENSION ulid;
CREATE EXTENSION amcheck;
CREATE TABLE soak (
	id      ulid PRIMARY KEY,
	ref     ulid NOT NULL,
	client  int NOT NULL,
	version int NOT NULL DEFAULT 0,
	note    text NOT NULL
);
CREATE INDEX soak_ref ON soak (ref);
CREATE FUNCTION soak_assert(ok bool, what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	IF ok IS NOT TRUE THEN
		RAISE EXCEPTION 'soak check failed: %', what;
	END IF;
END
$$;
});
is($node->safe_psql('postgres', 'SELECT ulid_monotonic_scope()'),
	'cluster', 'the server preloads ulid: gen_monotonic_ulid() is cluster-wide');

# --- the log of changed keys ---------------------------------------------
# One line for each step of each change, appended by the client with
# pgbench's \shell (one short write to a file opened O_APPEND, so the lines
# of several clients do not mix):
#   phase client op state id version ref
# op is insert, update or delete; state is pending (written inside the
# transaction, before COMMIT is sent) or done (written after COMMIT
# returned).  A change that committed therefore always has its pending line:
# the key cannot be committed before it is written down.  It has its done
# line unless the client died between COMMIT and the \shell; those changes,
# and the ones whose COMMIT never returned, are the unresolved ones, at most
# one a client, all in the phase that was crashed, and either outcome is
# right for them.  Every other change is known: done means committed, and a
# pending line whose transaction rolled back cannot exist without the crash,
# because pgbench stops a client at its first error.  (The node runs with
# fsync = off, as every test node does: killing a backend crashes processes,
# not the machine, and the WAL of a COMMIT that returned is in the kernel.)
my $log = $node->basedir . '/changes.log';
append_to_file($log, '');

# Rows that exist before pgbench starts, over the time window that the
# scripts read (their times, in the past, reach back $seconds seconds).
my $seeds = $node->safe_psql(
	'postgres', qq{
INSERT INTO soak (id, ref, client, note)
SELECT gen_ulid(now() - random() * interval '$seconds seconds'), gen_monotonic_ulid(), 0, 'seed'
FROM generate_series(1, 5000)
RETURNING id || ' 0 ' || ref});
append_to_file($log,
	join('', map { ("0 0 insert pending $_\n", "0 0 insert done $_\n") }
		  split /\n/, $seeds));

# --- the pgbench scripts ---------------------------------------------------
# :back picks a time in the last :span milliseconds; the key acted on is the
# first one at or after it (the ulid-timestamptz comparison, on the primary
# key).  Updates and deletes lock it with SKIP LOCKED, so two clients never
# wait for each other or pick the same row; a change that found no row
# writes nothing down.
my $pick = q{(SELECT id FROM soak WHERE id >= now() - :back * interval '1 ms' ORDER BY id LIMIT 1};
my %scripts = (
	insert_ulid => [
		25, q{
BEGIN;
INSERT INTO soak (id, ref, client, note) VALUES (gen_ulid(), gen_monotonic_ulid(), :client, repeat('u', :client * 10))
  RETURNING id, version, ref \gset
\shell echo :phase :client insert pending :id :version :ref >> :log
COMMIT;
\shell echo :phase :client insert done :id :version :ref >> :log
}
	],
	insert_monotonic => [
		25, q{
BEGIN;
INSERT INTO soak (id, ref, client, note) VALUES (gen_monotonic_ulid(), gen_ulid(), :client, repeat('m', :client * 10))
  RETURNING id, version, ref \gset
\shell echo :phase :client insert pending :id :version :ref >> :log
COMMIT;
\shell echo :phase :client insert done :id :version :ref >> :log
}
	],
	# A row found by its key is found again by its ref, and only it.
	point_read => [
		20, qq{
\\set back random(0, :span)
SELECT soak_assert(coalesce(bool_and(b.id = a.id), true) AND count(b.id) = count(a.id),
	'point read: ' || string_agg(a.id || ' by ref ' || b.id, ', '))
FROM soak a LEFT JOIN soak b ON b.ref = a.ref
WHERE a.id = $pick);
}
	],
	# One window, four ways, in one snapshot: the comparisons with a time
	# and the range containment (served by the primary key) and
	# ulid_min_at/ulid_max_at count what ulid_time() over every row counts.
	range_read => [
		10, q{
\set back random(0, :span)
\set width random(1, 3000)
SELECT soak_assert(a = b AND a = c AND a = d, format('range read of %s ms: %s %s %s %s', :width, a, b, c, d))
FROM (SELECT
	(SELECT count(*) FROM soak
	  WHERE id >= date_trunc('milliseconds', now()) - (:back + :width) * interval '1 ms'
		AND id < date_trunc('milliseconds', now()) - :back * interval '1 ms') AS a,
	(SELECT count(*) FROM soak
	  WHERE id BETWEEN ulid_min_at(date_trunc('milliseconds', now()) - (:back + :width) * interval '1 ms')
		AND ulid_max_at(date_trunc('milliseconds', now()) - (:back + 1) * interval '1 ms')) AS b,
	(SELECT count(*) FROM soak
	  WHERE id <@ tstzrange(date_trunc('milliseconds', now()) - (:back + :width) * interval '1 ms',
		date_trunc('milliseconds', now()) - :back * interval '1 ms')) AS c,
	(SELECT count(*) FROM soak
	  WHERE ulid_time(id) >= date_trunc('milliseconds', now()) - (:back + :width) * interval '1 ms'
		AND ulid_time(id) < date_trunc('milliseconds', now()) - :back * interval '1 ms') AS d) s;
}
	],
	update => [
		12, qq{
\\set back random(0, :span)
BEGIN;
WITH u AS (
	UPDATE soak SET version = version + 1, ref = gen_monotonic_ulid(), note = md5(note)
	WHERE id = $pick FOR UPDATE SKIP LOCKED)
	RETURNING id, version, ref)
SELECT count(*) AS hit, coalesce(max(id)::text, '-') AS id, coalesce(max(version), 0) AS version,
	coalesce(max(ref)::text, '-') AS ref
FROM u \\gset
\\if :hit
\\shell echo :phase :client update pending :id :version :ref >> :log
\\endif
COMMIT;
\\if :hit
\\shell echo :phase :client update done :id :version :ref >> :log
\\endif
}
	],
	delete => [
		8, qq{
\\set back random(0, :span)
BEGIN;
WITH d AS (
	DELETE FROM soak WHERE id = $pick FOR UPDATE SKIP LOCKED)
	RETURNING id)
SELECT count(*) AS hit, coalesce(max(id)::text, '-') AS id FROM d \\gset
\\if :hit
\\shell echo :phase :client delete pending :id - - >> :log
\\endif
COMMIT;
\\if :hit
\\shell echo :phase :client delete done :id - - >> :log
\\endif
}
	]);
my @script_args;
for my $name (sort keys %scripts)
{
	my ($weight, $text) = @{ $scripts{$name} };
	my $file = $node->basedir . "/$name.pgbench";
	append_to_file($file, $text);
	push @script_args, '-f', "$file\@$weight";
}

# One client's pgbench command line in one phase; the same options from 15 to
# 19.  Each client is a pgbench of its own, with one thread (-c 1 -j 1), and
# the variable client is its number, 0 to 7, which the scripts write down.
# One pgbench with several threads would not do: it writes a message's
# "pgbench:" prefix and its text in separate writes, so its threads'
# messages cut into each other's lines as the scheduler pleases; a stderr
# with one writer holds whole lines in the order they were written.  The
# connections are named soak_pgbench (PGAPPNAME, set where they are
# started), so that a backend of one of the clients can be found in
# pg_stat_activity.
sub pgbench_command
{
	my ($phase, $client, $duration) = @_;
	return [
		'pgbench', '-n',
		'-c', 1,
		'-j', 1,
		'-T', $duration,
		'-h', $node->host,
		'-p', $node->port,
		'-D', "phase=$phase",
		'-D', "client=$client",
		'-D', "log=$log",
		'-D', 'span=' . (1000 * $seconds + 2000),
		@script_args, 'postgres'
	];
}

# Starts the pgbench of each client for one phase; returns, for each, its
# number, the harness, and what it writes to stdout and to stderr.
sub start_clients
{
	my ($phase, $duration) = @_;
	local $ENV{PGAPPNAME} = 'soak_pgbench';
	my @run;
	for my $client (0 .. $clients - 1)
	{
		my $c = { client => $client, out => '', err => '' };
		$c->{run} = IPC::Run::start(pgbench_command($phase, $client, $duration),
			'>', \$c->{out}, '2>', \$c->{err});
		push @run, $c;
	}
	return @run;
}

# Waits for each pgbench of a phase to end and notes its wait status.
sub finish_clients
{
	for my $c (@_)
	{
		$c->{run}->finish;
		$c->{status} = $c->{run}->full_result(0);
	}
}

# The sum over the clients of a number in pgbench's summary.
sub summed
{
	my ($what, @run) = @_;
	my $sum = 0;
	for my $c (@run)
	{
		my ($n) = $c->{out} =~ /\Q$what\E: (\d+)/;
		$sum += $n // 0;
	}
	return $sum;
}

# The log's lines of one phase.
sub phase_lines
{
	my ($phase) = @_;
	return grep { /^$phase / } split /\n/, slurp_file($log);
}

# --- phase 1: CHECKPOINT, then kill -9 of a client's backend -------------
my $start = time;
# -T is only a bound here: the crash ends this run.
my @run1 = start_clients(1, 60 + 10 * $seconds);

sub wait_until
{
	my ($at, $min_done) = @_;
	while (time < $at || grep(/ done /, phase_lines(1)) < $min_done)
	{
		for my $c (@run1)
		{
			die "the pgbench of client $c->{client} stopped early:\n$c->{err}"
			  unless $c->{run}->pumpable;
			$c->{run}->pump_nb;
		}
		usleep(100_000);
	}
}
wait_until($start + $half / 2, 100);
$node->safe_psql('postgres', 'CHECKPOINT');
wait_until($start + $half, 200);

# A backend of a client that is inside a transaction or running a query, if
# one is at that instant.
my $victim = $node->safe_psql(
	'postgres', q{
SELECT pid FROM pg_stat_activity
WHERE application_name = 'soak_pgbench' AND backend_type = 'client backend'
	AND pid <> pg_backend_pid()
ORDER BY state = 'idle', random() LIMIT 1});
die "no pgbench backend found" unless $victim =~ /^\d+$/;
my $crash_offset = -s $node->logfile;
kill 'KILL', $victim or die "kill -9 $victim: $!";
finish_clients(@run1);
$node->wait_for_log(qr/database system is ready to accept connections/,
	$crash_offset);
my $ready_offset = -s $node->logfile;
$node->poll_query_until('postgres', 'SELECT true');
my $phase1_time = time - $start;

ok( $node->log_contains(
		qr/(?:server process|client backend) \(PID $victim\) was terminated by signal 9/,
		$crash_offset),
	"phase 1: kill -9 of backend $victim after a CHECKPOINT: crash restart");

# pgbench stops a client at its first error, and the crash ends every
# connection: each client's pgbench must have exited with status 2 (its
# client aborted), having said once that its client (client 0, to a pgbench
# of one client) aborted because the connection was lost, and said nothing
# else but the crash's messages.  Each of these stderrs has one writer, so
# its lines are whole and in order, however the pgbenches were scheduled; a
# line is read without the "pgbench: error: " before pgbench's own messages
# and the tab before the continuation lines of libpq's.  An abort for any
# other reason (an ERROR from soak_assert(), a \gset that found no row, a
# \shell that failed) or any other message fails the check.
my $connection_lost = join '|',
  'perhaps the backend died while processing',
  'SQL command send failed',
  'server closed the connection unexpectedly',
  'no connection to the server',
  'could not (?:send data to|receive data from) server: .*';
my @crash_messages = (
	qr/^Run was aborted; the above results are incomplete\.$/,
	qr/^WARNING:  terminating connection because of crash of another server process$/,
	qr/^DETAIL:  The postmaster has commanded this server process to roll back/,
	qr/^HINT:  In a moment you should be able to reconnect/,
	qr/^server closed the connection unexpectedly$/,
	qr/^This probably means the server terminated abnormally$/,
	qr/^before or while processing the request\.$/,
	qr/^$/);
my @wrong1;
for my $c (@run1)
{
	my ($aborted, $other) = (0, 0);
	for my $line (split /\n/, $c->{err})
	{
		(my $text = $line) =~ s/^(?:pgbench: (?:error: )?)?\s*//;
		if ($text =~
			/^client 0 (?:aborted in command \d+ \(SQL\) of script \d+; |script \d+ aborted in command \d+ query \d+: )(?:$connection_lost)$/
		  )
		{
			$aborted++;
		}
		elsif (!grep { $text =~ $_ } @crash_messages)
		{
			$other++;
		}
	}
	push @wrong1, $c unless $c->{status} == 2 << 8 && $aborted == 1 && !$other;
}
ok(!@wrong1,
	"phase 1: each of the $clients clients lost its connection to the crash (exit status 2), said so once and reported nothing else"
  )
  or diag map { "client $_->{client}: wait status $_->{status}, stderr:\n$_->{err}\n" } @wrong1;

my @lines1 = phase_lines(1);
my $done1 = grep { / done / } @lines1;
diag sprintf(
	"phase 1: %.1f s, %d transactions, %d changes written down done, %d pending only",
	$phase1_time, summed('number of transactions actually processed', @run1),
	$done1, @lines1 - 2 * $done1);

# --- phase 2: after the restart, a run without a single error ------------
my $start2 = time;
my @run2 = start_clients(2, $seconds - $half);
finish_clients(@run2);
my $tx2 = summed('number of transactions actually processed', @run2);
my @wrong2 = grep {
	     $_->{status} != 0
	  || $_->{err} ne ''
	  || $_->{out} !~ /number of transactions actually processed: \d+/
	  || $_->{out} =~ /number of failed transactions: [1-9]/
} @run2;
ok(!@wrong2 && $tx2 > 0,
	"phase 2: the $clients clients ran $tx2 transactions after the restart, no error")
  or diag map { "client $_->{client}: wait status $_->{status}\nstdout:\n$_->{out}\nstderr:\n$_->{err}\n" } @wrong2;
diag sprintf("phase 2: %.1f s", time - $start2);

# --- amcheck -------------------------------------------------------------
my @indexes = split /\n/, $node->safe_psql(
	'postgres', q{
SELECT DISTINCT i.indexrelid::regclass
FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indexrelid
WHERE i.indrelid = 'soak'::regclass AND a.atttypid = 'ulid'::regtype
ORDER BY 1});
is(scalar @indexes, 2, 'amcheck: the two ulid indexes are found (' . join(', ', @indexes) . ')');
for my $index (@indexes)
{
	my ($rc, $out, $err) = $node->psql('postgres',
		"SELECT bt_index_check('$index', true), bt_index_parent_check('$index', true)");
	ok($rc == 0 && $err eq '',
		"amcheck: bt_index_check and bt_index_parent_check of $index, heapallindexed")
	  or diag "exit status $rc\nstderr: $err";
}
my ($heap_rc, $heap_out, $heap_err) = $node->psql('postgres',
	"SELECT blkno, offnum, attnum, msg FROM verify_heapam('soak', check_toast => true)");
ok($heap_rc == 0 && $heap_err eq '' && $heap_out eq '',
	'amcheck: verify_heapam finds nothing in the table')
  or diag "exit status $heap_rc\nstdout: $heap_out\nstderr: $heap_err";

# The first ten of a list, a line each.
sub first_ten
{
	my @l = @_;
	return join("\n", @l[0 .. ($#l < 9 ? $#l : 9)]);
}

# --- the table against the log ------------------------------------------
# Read with a sequential scan, so that a row is counted even if an index
# lost it (amcheck's heapallindexed says whether one did).
my $noindex = 'SET enable_indexscan = off; SET enable_indexonlyscan = off; SET enable_bitmapscan = off;';
my ($rows, $distinct_ids, $distinct_refs) = split /\|/, $node->safe_psql('postgres',
	"$noindex SELECT count(*), count(DISTINCT id), count(DISTINCT ref) FROM soak");
ok($rows == $distinct_ids && $rows == $distinct_refs,
	"no duplicate: $rows rows, $distinct_ids distinct ids, $distinct_refs distinct refs");

my %row;    # id => [version, ref]
for (split /\n/, $node->safe_psql('postgres', "$noindex SELECT id, version, ref FROM soak"))
{
	my ($id, $version, $ref) = split /\|/;
	$row{$id} = [ $version, $ref ];
}

# Each change is one (phase, client, op, id, version), with its pending and
# done lines.  (A change rolled back by the crash may be made again in phase
# 2: the same op, id and version, written down by another client.)
my (%change, @malformed);
for my $line (split /\n/, slurp_file($log))
{
	my @f = split / /, $line;
	if (@f != 7 || $f[2] !~ /^(?:insert|update|delete)$/ || $f[3] !~ /^(?:pending|done)$/)
	{
		push @malformed, $line;
		next;
	}
	my ($phase, $client, $op, $state, $id, $version, $ref) = @f;
	my $c = $change{"$phase $client $op $id $version"} //=
	  { phase => $phase, client => $client, op => $op, id => $id, version => $version, ref => $ref };
	$c->{$state}++;
	push @malformed, $line
	  if $c->{$state} > 1 || $c->{ref} ne $ref || ($state eq 'done' && !$c->{pending});
}
my @unresolved = grep { !$_->{done} } values %change;
my %unresolved_by_client;
$unresolved_by_client{ $_->{client} }++ for @unresolved;
ok( !@malformed
	  && !grep({ $_->{phase} != 1 } @unresolved)
	  && !grep({ $_ > 1 } values %unresolved_by_client),
	scalar(keys %change) . ' changes written down, each once; '
	  . scalar(@unresolved) . ' without their done line, all of phase 1, at most one a client')
  or diag "malformed or repeated lines:\n", first_ten(@malformed),
  "\nunresolved:\n", join("\n", map { "$_->{phase} $_->{client} $_->{op} $_->{id}" } @unresolved);

# What the log says of each key: inserted (done, or only pending), deleted
# (done, or only pending), and its versions, each with the changes that
# returned it.
my %key;
for my $c (values %change)
{
	my $k = $key{ $c->{id} } //= { inserted => 0, versions => {} };
	if ($c->{op} eq 'delete')
	{
		$k->{ $c->{done} ? 'deleted' : 'maybe_deleted' } = 1;
		next;
	}
	$k->{inserted} = 1 if $c->{op} eq 'insert' && $c->{done};
	$k->{maybe_inserted} = 1 if $c->{op} eq 'insert';
	push @{ $k->{versions}{ $c->{version} } }, $c;
}

my (@missing, @not_deleted, @unknown, @wrong_version);
my ($present_checked, $absent_checked, $uncertain) = (0, 0, 0);
for my $id (sort keys %key)
{
	my $k = $key{$id};
	if ($k->{deleted})
	{
		$absent_checked++;
		push @not_deleted, $id if $row{$id};
	}
	elsif ($k->{inserted} && !$k->{maybe_deleted})
	{
		$present_checked++;
		push @missing, $id unless $row{$id};
	}
	else
	{
		$uncertain++;
	}
}
for my $id (sort keys %row)
{
	my $k = $key{$id};
	unless ($k && $k->{maybe_inserted})
	{
		push @unknown, $id;
		next;
	}
	# Updates of a row are serialized by its lock, so the committed ones
	# returned versions 1, 2, ... up to the row's, once each: each of those
	# was written down, no version was done twice, none done is above the
	# row's, and the row holds the ref that its last update returned.
	my ($version, $ref) = @{ $row{$id} };
	my $v = $k->{versions};
	my @done = map { $_->{version} } grep { $_->{done} } map { @$_ } values %$v;
	my %seen;
	push @wrong_version, "$id: version $version, ref $ref"
	  if !grep({ $_->{ref} eq $ref } @{ $v->{$version} // [] })
	  || grep({ $_ > $version || $seen{$_}++ } @done)
	  || grep({ !$v->{$_} } 0 .. $version);
}
ok(!@missing, "every key written down as inserted and not deleted is there ($present_checked keys)")
  or diag scalar(@missing) . " missing, the first:\n" . first_ten(@missing);
ok(!@not_deleted, "every key written down as deleted is gone ($absent_checked keys)")
  or diag scalar(@not_deleted) . " still there, the first:\n" . first_ten(@not_deleted);
ok(!@unknown, "every row's key was written down ($rows rows; $uncertain keys left undecided by an unresolved insert or delete)")
  or diag scalar(@unknown) . " rows nobody inserted, the first:\n" . first_ten(@unknown);
ok(!@wrong_version, "every row holds the version and ref of its last update ($rows rows)")
  or diag scalar(@wrong_version) . " rows, the first:\n" . first_ten(@wrong_version);

# --- errors ----------------------------------------------------------------
# Every ERROR, FATAL, PANIC or WARNING in the server's log, whatever the
# phase and whatever log_line_prefix is.  The only ones allowed: connections refused while the server
# recovered from the crash, between the kill and "ready to accept
# connections"; and the cancellation of an autovacuum of the table, which
# the server does by design when a lock request waits for it (here,
# bt_index_parent_check()'s ShareLock).
my @bad_log;
my $autovacuum_canceled = 0;
my $offset = 0;
for my $line (split /\n/, slurp_file($node->logfile))
{
	my $at = $offset;
	$offset += length($line) + 1;
	next unless $line =~ /\b(?:ERROR|FATAL|PANIC|WARNING):  /;
	next
	  if $at >= $crash_offset
	  && $at < $ready_offset
	  && $line =~ /FATAL:  the database system is (?:in recovery mode|starting up|not yet accepting connections)/;
	if ($line =~ /ERROR:  canceling autovacuum task$/)
	{
		$autovacuum_canceled++;
		next;
	}
	push @bad_log, $line;
}
ok(!@bad_log,
	"the server logged no error but the crash's ($autovacuum_canceled autovacuums canceled for a lock)")
  or diag join("\n", @bad_log);

my %ops;
$ops{"$_->{op}"}++ for grep { $_->{done} && $_->{phase} } values %change;
diag sprintf(
	"%d s of pgbench in all; changes done: %d inserts, %d updates, %d deletes; "
	  . "%d rows at the end, %d keys checked present, %d absent",
	$seconds, $ops{insert} // 0, $ops{update} // 0, $ops{delete} // 0,
	$rows, $present_checked, $absent_checked);

$node->stop;
done_testing();
