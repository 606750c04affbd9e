# Converting a replicated uuid key to ulid with ulid_convert_column(), with
# real subscribers and a streaming standby, as docs/migrating.md ("With
# replication") says to.  Byte for byte the same rows everywhere
# throughout: digests of id::uuid and the other columns are compared across
# the nodes after every step.
#
# 1. The right order, in text and in binary mode: every subscriber first,
#    then the publisher.  Changes made while the subscribers have ulid and
#    the publisher uuid arrive (ulid_in reads uuid's text form, ulid_recv
#    its 16 bytes), and so do those after the publisher's conversion.
# 2. The wrong order: the publisher first.  A text subscriber still on uuid
#    fails in a loop on the ulid text form while the publisher's slot keeps
#    the WAL; converting the subscriber recovers every change.  A binary
#    subscriber still on uuid keeps applying: the 16 bytes are the same.
# 3. Column lists and row filters: core refuses to change the type of a
#    column that a publication's column list or row filter names.  Taking
#    the table out of the publication, converting it and adding it back, in
#    one transaction, keeps a column list (the guide's block, run here); a
#    row filter that names the column cannot come back (core allows no
#    user-defined type in one); a row filter on other columns does not stop
#    the conversion.  The subscriber still receives only the listed columns
#    and filtered rows.
# 4. The streaming standby replays each conversion: replay waits for a
#    standby transaction that holds a lock on the table, then the column is
#    ulid there, the rows are the same, and a lookup by id uses the rebuilt
#    primary key.
#
# ulid_convert_column() itself warns when it converts a published table,
# naming the publications, and refuses a column in a column list or row
# filter before anything changes, giving the statements that convert it.

use strict;
use warnings FATAL => 'all';

use FindBin;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $root = "$FindBin::RealBin/..";

# The publisher's tables, made the same way in each subscriber database (as
# uuid: the subscribers are converted by the test).  The other columns of
# each, for the digests.
my $schema = <<'SQL';
CREATE EXTENSION ulid;

-- 1: the guide's order.
CREATE TABLE accounts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL, n int NOT NULL);
-- 2: the wrong order.
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body text NOT NULL, n int NOT NULL);
-- 3: a column list naming the key; a row filter on another column (which
-- must be part of the replica identity for updates and deletes to be
-- published); a row filter naming the key.
CREATE TABLE customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL, email text);
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), region text NOT NULL, total int NOT NULL);
ALTER TABLE orders REPLICA IDENTITY FULL;
CREATE TABLE tickets (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), subject text NOT NULL);
SQL
my %columns = (
	accounts => 'name, n',
	events => 'body, n',
	customers => 'name, email',
	orders => 'region, total',
	tickets => 'subject');

# The bound of tickets' row filter: the lower half of the uuids.
my $half = '80000000-0000-0000-0000-000000000000';

my $pub = PostgreSQL::Test::Cluster->new('pub');
$pub->init(allows_streaming => 'logical');
$pub->start;
$pub->safe_psql('postgres', $schema);
$pub->safe_psql('postgres', <<"SQL");
CREATE EXTENSION amcheck;
INSERT INTO accounts (name, n) SELECT 'account ' || g, g FROM generate_series(1, 1000) g;
INSERT INTO events (body, n) SELECT 'event ' || g, g FROM generate_series(1, 200) g;
INSERT INTO customers (name, email) SELECT 'customer ' || g, g || '\@example.com' FROM generate_series(1, 200) g;
INSERT INTO orders (region, total) SELECT CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END, g FROM generate_series(1, 200) g;
INSERT INTO tickets (subject) SELECT 'ticket ' || g FROM generate_series(1, 200) g;
CREATE PUBLICATION accounts_pub FOR TABLE accounts;
CREATE PUBLICATION events_pub FOR TABLE events;
CREATE PUBLICATION crm FOR TABLE customers (id, name);
CREATE PUBLICATION eu_orders FOR TABLE orders WHERE (region = 'eu');
CREATE PUBLICATION low_tickets FOR TABLE tickets WHERE (id < '$half');
SQL

# The streaming standby.  Replay waits as long as a standby query holds a
# lock it needs, rather than cancelling the query after 30 s: part 4 holds
# one on purpose, and no query of this test is ever cancelled.
$pub->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($pub, 'base', has_streaming => 1);
$standby->append_conf('postgresql.conf', 'max_standby_streaming_delay = -1');
$standby->start;

# One subscriber cluster; each subscription in a database of its own,
# named as the subscription is.  A failed apply worker is started again
# after wal_retrieve_retry_interval (5 s by default): part 2 waits for that.
my $sub = PostgreSQL::Test::Cluster->new('sub');
$sub->init;
$sub->append_conf('postgresql.conf', <<'CONF');
max_logical_replication_workers = 10
max_worker_processes = 16
wal_retrieve_retry_interval = '200ms'
CONF
$sub->start;

my %subscriptions = (
	s1_text => [ 'accounts_pub', 'false' ],
	s1_binary => [ 'accounts_pub', 'true' ],
	s2_text => [ 'events_pub', 'false' ],
	s2_binary => [ 'events_pub', 'true' ],
	s3 => [ 'crm, eu_orders, low_tickets', 'false' ]);
my $pub_connstr = $pub->connstr . ' dbname=postgres';
foreach my $s (sort keys %subscriptions)
{
	my ($publications, $binary) = @{ $subscriptions{$s} };

	$sub->safe_psql('postgres', "CREATE DATABASE $s");
	$sub->safe_psql($s, $schema);
	$sub->safe_psql($s, <<"SQL");
CREATE SUBSCRIPTION $s CONNECTION '$pub_connstr'
	PUBLICATION $publications WITH (binary = $binary)
SQL
}
$sub->wait_for_subscription_sync($pub, $_, $_) foreach sort keys %subscriptions;
$pub->wait_for_catchup($standby);

# digest NODE DB TABLE [COLUMNS [WHERE]]: the row count and an md5 of every
# row (the key as uuid text, whatever the column's type, and COLUMNS, by
# default the table's other columns), in key order.
sub digest
{
	my ($node, $db, $table, $cols, $where) = @_;
	$cols //= $columns{$table};
	$where //= 'true';
	return $node->safe_psql($db, <<"SQL");
SELECT format('%s rows, %s', count(*),
	md5(string_agg(ROW(id::uuid, $cols)::text, E'\\n' ORDER BY id::uuid)))
FROM $table WHERE $where
SQL
}

# column_type NODE DB TABLE: the type of TABLE's id, its default and the
# operator class of its primary key.
sub column_type
{
	my ($node, $db, $table) = @_;
	return $node->safe_psql($db, <<"SQL");
SELECT format('%s, default %s, %s', format_type(a.atttypid, a.atttypmod),
	pg_get_expr(d.adbin, d.adrelid), o.opcname)
FROM pg_attribute a
LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary
JOIN pg_opclass o ON o.oid = i.indclass[0]
WHERE a.attrelid = '$table'::regclass AND a.attname = 'id'
SQL
}

# published PUBLICATION: the tables of PUBLICATION on the publisher, each
# with the columns it publishes and its row filter.
sub published
{
	my ($publication) = @_;
	return $pub->safe_psql('postgres', <<"SQL");
SELECT string_agg(format('%s %s %s', tablename, attnames, coalesce(rowfilter, 'all rows')), '; ')
FROM pg_publication_tables WHERE pubname = '$publication'
SQL
}

# convert NODE DB TABLE: ulid_convert_column(TABLE, 'id'); returns psql's
# exit status, the row it returned and its messages (with their SQLSTATEs).
sub convert
{
	my ($node, $db, $table) = @_;
	my ($ret, $out, $err) = $node->psql($db, <<"SQL");
\\set VERBOSITY verbose
SELECT relation, old_default, new_default FROM ulid_convert_column('$table', 'id');
SQL
	return ($ret, $out, $err);
}

# same_rows NAME TABLE SUBSCRIPTION...: wait until the standby and each
# SUBSCRIPTION have applied all the publisher did, then check that each
# holds the publisher's rows of TABLE; returns the publisher's digest.
sub same_rows
{
	my ($name, $table, @subs) = @_;
	my $want = digest($pub, 'postgres', $table);

	$pub->wait_for_catchup($standby);
	is(digest($standby, 'postgres', $table),
		$want, "$name: the standby holds the publisher's rows");
	foreach my $s (@subs)
	{
		$pub->wait_for_catchup($s);
		is(digest($sub, $s, $table),
			$want, "$name: subscription $s holds the publisher's rows");
	}
	return $want;
}

# step NAME TABLE SQL SUBSCRIPTION...: run SQL on the publisher, check that
# it changed TABLE's rows (a step that did nothing would prove nothing),
# then same_rows().
sub step
{
	my ($name, $table, $sql, @subs) = @_;
	my $before = digest($pub, 'postgres', $table);

	$pub->safe_psql('postgres', $sql);
	isnt(digest($pub, 'postgres', $table),
		$before, "$name: the publisher's rows changed");
	return same_rows($name, $table, @subs);
}

##
## 1. The guide's order: every subscriber, then the publisher.
##

my @s1 = ('s1_text', 's1_binary');
my $rows = same_rows('accounts, initial copy', 'accounts', @s1);
like($rows, qr/^1000 rows, /, 'accounts, initial copy: 1000 rows');

foreach my $s (@s1)
{
	my ($ret, $out, $err) = convert($sub, $s, 'accounts');
	is( "$ret $out",
		'0 accounts|gen_random_uuid()|gen_ulid()',
		"subscription $s: accounts converted first, its default replaced");
	# The table is published nowhere on the subscriber.
	unlike($err, qr/WARNING/,
		"subscription $s: converting an unpublished table warns of nothing");
	is( column_type($sub, $s, 'accounts'),
		'ulid, default gen_ulid(), ulid_ops',
		"subscription $s: accounts.id is ulid, its key rebuilt with ulid_ops");
	is(digest($sub, $s, 'accounts'),
		$rows, "subscription $s: the conversion changed no byte");
}

$rows = step(
	'subscribers ulid, publisher uuid: inserts, updates, key updates, deletes',
	'accounts', <<'SQL', @s1);
INSERT INTO accounts (name, n) SELECT 'between ' || g, 1000 + g FROM generate_series(1, 500) g;
UPDATE accounts SET n = -n WHERE n % 7 = 0;
UPDATE accounts SET id = gen_random_uuid() WHERE n % 11 = 0;
DELETE FROM accounts WHERE n % 13 = 0;
SQL

# Part 4 in passing: a standby transaction holds a lock on accounts while
# the publisher converts it.  Replay of the conversion's ACCESS EXCLUSIVE
# lock waits for it (max_standby_streaming_delay = -1; by default the
# standby would cancel the transaction after 30 s).
my $reader = $standby->background_psql('postgres');
$reader->query_safe('BEGIN');
$reader->query_safe('SELECT count(*) FROM accounts');

my ($ret, $out, $err) = convert($pub, 'postgres', 'accounts');
is( "$ret $out",
	'0 accounts|gen_random_uuid()|gen_ulid()',
	'publisher: accounts converted last, its default replaced');
like($err, qr/WARNING:  01000: table "accounts" is published by publication "accounts_pub"\n.*DETAIL:  A subscriber whose column "id" is still uuid cannot read the ulid text.*\n.*HINT:  Convert the column on each subscriber first/,
	'publisher: the conversion warns that accounts is published, and that subscribers convert first');
is(column_type($pub, 'postgres', 'accounts'),
	'ulid, default gen_ulid(), ulid_ops',
	'publisher: accounts.id is ulid, its key rebuilt with ulid_ops');
my $converted_at = $pub->lsn('insert');

ok( $standby->poll_query_until(
		'postgres', <<'SQL'),
SELECT EXISTS (SELECT FROM pg_locks l JOIN pg_stat_activity a USING (pid)
	WHERE a.backend_type = 'startup' AND l.relation = 'accounts'::regclass
	  AND l.mode = 'AccessExclusiveLock' AND NOT l.granted)
SQL
	'standby: replay waits for the ACCESS EXCLUSIVE lock on accounts that a standby transaction blocks'
);
is( $standby->safe_psql(
		'postgres',
		"SELECT pg_last_wal_replay_lsn() < '$converted_at', format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'accounts'::regclass AND attname = 'id'"
	),
	't|uuid',
	'standby: while replay waits, the conversion is not replayed and accounts.id is still uuid'
);
# A query on the table that starts now queues behind replay's lock.
my $late = $standby->background_psql('postgres');
$late->query_until(qr/sent/, "\\echo sent\nSELECT count(*) FROM accounts;\n");
ok( $standby->poll_query_until(
		'postgres', <<'SQL'),
SELECT EXISTS (SELECT FROM pg_locks l JOIN pg_stat_activity a USING (pid)
	WHERE a.backend_type = 'client backend' AND l.relation = 'accounts'::regclass
	  AND l.mode = 'AccessShareLock' AND NOT l.granted)
SQL
	'standby: a query on accounts that starts while replay waits waits too');
$reader->query_safe('COMMIT');
$reader->quit;
ok($late->quit, 'standby: the waiting query runs once replay has passed');
$pub->wait_for_catchup($standby);
is(column_type($standby, 'postgres', 'accounts'),
	'ulid, default gen_ulid(), ulid_ops',
	'standby: once the transaction ends, the conversion is replayed');

is(same_rows('publisher converted', 'accounts', @s1),
	$rows, 'publisher converted: no byte changed anywhere');

$rows = step(
	'ulid everywhere: inserts by gen_ulid(), updates, key updates, deletes',
	'accounts', <<'SQL', @s1);
INSERT INTO accounts (name, n) SELECT 'after ' || g, 2000 + g FROM generate_series(1, 500) g;
UPDATE accounts SET name = name || ' (edited)' WHERE n % 5 = 0;
UPDATE accounts SET id = gen_ulid() WHERE n % 17 = 0;
DELETE FROM accounts WHERE n % 19 = 0;
SQL
is( $sub->safe_psql(
		's1_text',
		"SELECT count(*) > 400 AND bool_and(ulid_time(id) > now() - interval '1 hour') FROM accounts WHERE name LIKE 'after %'"
	),
	't',
	"subscription s1_text: the rows inserted after the conversion have ids of gen_ulid() (this hour's)"
);

##
## 2. The wrong order: the publisher first.
##

$rows = same_rows('events, initial copy', 'events', 's2_text', 's2_binary');
like($rows, qr/^200 rows, /, 'events, initial copy: 200 rows');

my $log_offset = -s $sub->logfile;
($ret, $out, $err) = convert($pub, 'postgres', 'events');
is($ret, 0, 'wrong order: the publisher converts events while its subscribers have uuid');
like($err, qr/WARNING:  01000: table "events" is published by publication "events_pub"/,
	'wrong order: the conversion warned, naming events_pub');
$pub->safe_psql('postgres',
	"INSERT INTO events (body, n) SELECT 'after ' || g, 200 + g FROM generate_series(1, 10) g"
);
my $stuck_at = $pub->lsn('insert');

$sub->wait_for_log(
	qr/invalid input syntax for type uuid: "[0-9A-HJKMNP-TV-Z]{26}"/,
	$log_offset);
pass(
	'wrong order: the text subscriber on uuid fails on the ulid text form (invalid input syntax for type uuid)'
);
is(digest($sub, 's2_text', 'events'),
	$rows, 'wrong order: the text subscriber has applied nothing since');
is( $pub->safe_psql(
		'postgres',
		"SELECT confirmed_flush_lsn < '$stuck_at', restart_lsn < '$stuck_at', wal_status FROM pg_replication_slots WHERE slot_name = 's2_text'"
	),
	't|t|reserved',
	"wrong order: the text subscription's slot stays before the insert and keeps the WAL"
);

# The binary subscriber on uuid receives ulid_send's 16 bytes, which
# uuid_recv takes.
$pub->wait_for_catchup('s2_binary');
is( digest($sub, 's2_binary', 'events'),
	digest($pub, 'postgres', 'events'),
	'wrong order: the binary subscriber on uuid applies the inserts');

# More changes while the text subscriber is stuck.
$pub->safe_psql('postgres', <<'SQL');
UPDATE events SET body = body || ' (edited)' WHERE n % 3 = 0;
UPDATE events SET id = gen_ulid() WHERE n % 10 = 0;
DELETE FROM events WHERE n % 7 = 0;
SQL

($ret, $out, $err) = convert($sub, 's2_text', 'events');
is("$ret $out", '0 events|gen_random_uuid()|gen_ulid()',
	'wrong order: the text subscriber converted late');
$rows = same_rows('wrong order, recovered', 'events', 's2_text', 's2_binary');
ok( $pub->poll_query_until(
		'postgres',
		"SELECT confirmed_flush_lsn >= '$stuck_at' FROM pg_replication_slots WHERE slot_name = 's2_text'"
	),
	"wrong order, recovered: the text subscription's slot moves past the insert");

($ret, $out, $err) = convert($sub, 's2_binary', 'events');
is("$ret $out", '0 events|gen_random_uuid()|gen_ulid()',
	'wrong order: the binary subscriber converted late');
step(
	'wrong order, all converted: inserts, updates, deletes',
	'events', <<'SQL', 's2_text', 's2_binary');
INSERT INTO events (body, n) SELECT 'last ' || g, 300 + g FROM generate_series(1, 10) g;
UPDATE events SET n = -n WHERE n % 4 = 0;
DELETE FROM events WHERE n % 9 = 0;
SQL

##
## 3. Column lists and row filters.
##

# What the subscriber of crm, eu_orders and low_tickets must hold: the
# listed columns of every customer, the orders of the eu, the tickets of
# the lower half (or, once the filter is gone, added after).
my %received = (
	customers => [ 'name, NULL::text', 'true' ],
	orders => [ undef, "region = 'eu'" ],
	tickets => [ undef, "id::uuid < '$half' OR subject LIKE 'after %'" ]);

# filtered NAME: s3 holds what the publications publish of each table.
sub filtered
{
	my ($name) = @_;
	$pub->wait_for_catchup('s3');
	foreach my $table (sort keys %received)
	{
		my ($cols, $where) = @{ $received{$table} };
		is( digest($sub, 's3', $table),
			digest($pub, 'postgres', $table, $cols, $where),
			"$name: the subscriber holds what the publications publish of $table");
	}
}

filtered('initial copy');
is( $sub->safe_psql(
		's3',
		"SELECT (SELECT count(*) FROM customers) || ' customers, ' || (SELECT count(*) FROM orders WHERE region = 'eu') || ' eu orders of ' || (SELECT count(*) FROM orders)"
	),
	'200 customers, 100 eu orders of 100',
	'initial copy: every customer and only the orders of the eu');

# The subscriber's tables are published nowhere: converted as they are.
foreach my $table ('customers', 'orders', 'tickets')
{
	($ret, $out, $err) = convert($sub, 's3', $table);
	is("$ret $out", "0 $table|gen_random_uuid()|gen_ulid()",
		"subscriber: $table converted first");
}

my %shape = map { $_ => column_type($pub, 'postgres', $_) } ('customers', 'tickets');
my %publishes = map { $_ => published($_) } ('crm', 'low_tickets');
is($publishes{crm}, 'customers {id,name} all rows',
	'crm publishes the columns id and name of customers');
like($publishes{low_tickets}, qr/^tickets \{id,subject\} \(id < /,
	'low_tickets publishes the tickets whose id is in the lower half');

# A column that a column list or a row filter names: refused, with
# SQLSTATE 0A000 and the publication named (core's ALTER TABLE does so;
# the lead's check up front does too).
foreach my $case ([ 'customers', 'crm' ], [ 'tickets', 'low_tickets' ])
{
	my ($table, $publication) = @$case;
	($ret, $out, $err) = convert($pub, 'postgres', $table);
	isnt($ret, 0, "$table: converting a column that $publication names is refused");
	like($err, qr/ERROR:  0A000: .*publication/s,
		"$table: the refusal is SQLSTATE 0A000 about a publication");
	like($err, qr/\b$publication\b/, "$table: the refusal names $publication");
	like($err, qr/ERROR:  0A000: cannot convert column "id" of table "$table"\n.*DETAIL:  Publication "$publication" names it in its (column list|row filter)/,
		"$table: refused up front by the conversion, naming the column and $publication");
	like($err, qr/HINT:  .*In one transaction: ALTER PUBLICATION $publication DROP TABLE $table; SELECT \* FROM ulid_convert_column\('$table', 'id'\); ALTER PUBLICATION $publication ADD TABLE $table/,
		"$table: the hint gives the statements that convert it");
	is(column_type($pub, 'postgres', $table),
		$shape{$table}, "$table: refused, the column is as it was");
	is(published($publication), $publishes{$publication},
		"$table: refused, $publication is as it was");
}

# A row filter on another column does not stop the conversion, nor does
# the conversion change it.
my $eu_orders = published('eu_orders');
($ret, $out, $err) = convert($pub, 'postgres', 'orders');
is("$ret $out", '0 orders|gen_random_uuid()|gen_ulid()',
	'orders: a row filter on another column does not stop the conversion');
like($err, qr/WARNING:  01000: table "orders" is published by publication "eu_orders"/,
	'orders: the conversion warned, naming eu_orders');
is(published('eu_orders'), $eu_orders, 'orders: eu_orders still filters on region');

# The route for a column list: the guide's block, run by the docs checker
# in the publisher's database.
{
	local $ENV{PGHOST} = $pub->host;
	local $ENV{PGPORT} = $pub->port;
	my $docs = `python3 "$root/test/check_docs.py" --engine replication --database postgres "$root" docs/migrating.md 2>&1`;
	ok($? == 0 && $docs =~ /# docs \(replication\): [1-9]\d* passed, 0 failed/,
		"docs/migrating.md: the guide's route for a column list runs and prints what it shows")
	  or diag($docs);
}
is(column_type($pub, 'postgres', 'customers'),
	'ulid, default gen_ulid(), ulid_ops',
	'customers: converted by the route');
is(published('crm'), $publishes{crm},
	'customers: crm publishes the same columns again');

# The same route cannot give a row filter that names the column back: core
# allows no user-defined type in a row filter.  All of it is rolled back.
($ret, $out, $err) = $pub->psql('postgres', <<"SQL");
BEGIN;
ALTER PUBLICATION low_tickets DROP TABLE tickets;
SELECT * FROM ulid_convert_column('tickets', 'id');
ALTER PUBLICATION low_tickets ADD TABLE tickets WHERE (id::uuid < '$half');
COMMIT;
SQL
like($err, qr/invalid publication WHERE expression.*User-defined types are not allowed/s,
	'tickets: a row filter cannot name the column once it is ulid');
is(column_type($pub, 'postgres', 'tickets'),
	$shape{tickets}, 'tickets: the failed route is rolled back, the column is as it was');
is(published('low_tickets'), $publishes{low_tickets},
	'tickets: the failed route is rolled back, low_tickets still filters');

# Without the filter it goes through: the subscriber receives every new
# ticket from then on.
$pub->safe_psql('postgres', <<'SQL');
BEGIN;
ALTER PUBLICATION low_tickets DROP TABLE tickets;
SELECT * FROM ulid_convert_column('tickets', 'id');
ALTER PUBLICATION low_tickets ADD TABLE tickets;
COMMIT;
SQL
is(column_type($pub, 'postgres', 'tickets'),
	'ulid, default gen_ulid(), ulid_ops',
	'tickets: converted by the route, without the filter');
is(published('low_tickets'), 'tickets {id,subject} all rows',
	'tickets: low_tickets publishes every row now');

my %before = map { $_ => digest($pub, 'postgres', $_) } sort keys %received;
$pub->safe_psql('postgres', <<'SQL');
INSERT INTO customers (name, email) SELECT 'after ' || g, 'after' || g || '@example.com' FROM generate_series(1, 50) g;
UPDATE customers SET name = name || ' (edited)', email = NULL WHERE name LIKE '%5';
UPDATE customers SET id = gen_ulid() WHERE name LIKE '%7';
DELETE FROM customers WHERE name LIKE '%3';
INSERT INTO orders (region, total) SELECT CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END, 1000 + g FROM generate_series(1, 50) g;
UPDATE orders SET region = 'eu' WHERE region = 'us' AND total % 3 = 0;
UPDATE orders SET region = 'us' WHERE region = 'eu' AND total % 5 = 0;
UPDATE orders SET total = -total WHERE total % 7 = 0;
DELETE FROM orders WHERE total % 11 = 0;
INSERT INTO tickets (subject) SELECT 'after ' || g FROM generate_series(1, 50) g;
UPDATE tickets SET subject = subject || ' (edited)' WHERE subject LIKE 'after %' AND subject LIKE '%5';
DELETE FROM tickets WHERE subject LIKE 'after %' AND subject LIKE '%9';
SQL
foreach my $table (sort keys %received)
{
	isnt(digest($pub, 'postgres', $table),
		$before{$table}, "after the conversions: the publisher's $table changed");
}
filtered('after the conversions');
is( $sub->safe_psql(
		's3',
		"SELECT (SELECT count(*) FROM customers WHERE email IS NOT NULL) || ' emails, ' || (SELECT count(*) FROM orders WHERE region <> 'eu') || ' orders outside the eu, ' || (SELECT count(*) FROM tickets WHERE subject LIKE 'after %' AND id::uuid >= '$half') || ' new tickets of the upper half'"
	),
	'0 emails, 0 orders outside the eu, '
	  . $pub->safe_psql('postgres',
		"SELECT count(*) FROM tickets WHERE subject LIKE 'after %' AND id::uuid >= '$half'")
	  . ' new tickets of the upper half',
	'after the conversions: no email and no order outside the eu reached the subscriber; every new ticket did'
);

##
## 4. The streaming standby, after all of it.
##

$pub->wait_for_catchup($standby);
foreach my $table (sort keys %columns)
{
	is(column_type($standby, 'postgres', $table),
		column_type($pub, 'postgres', $table),
		"standby: $table.id, its default and its key's class are the publisher's");
	is(digest($standby, 'postgres', $table),
		digest($pub, 'postgres', $table),
		"standby: $table holds the publisher's rows");
}
($ret, $out, $err) =
  $standby->psql('postgres', "SELECT bt_index_check('accounts_pkey', true)");
is($ret, 0, "standby: the converted accounts_pkey passes amcheck, every row in it")
  or diag($err);

my $id = $pub->safe_psql('postgres',
	"SELECT id FROM accounts WHERE name = 'after 251'");
like($id, qr/^[0-9A-HJKMNP-TV-Z]{26}$/, 'publisher: an id of accounts, as ulid text');
like(
	$standby->safe_psql(
		'postgres', <<"SQL"),
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT name FROM accounts WHERE id = '$id';
SQL
	qr/Index (Only )?Scan using accounts_pkey/,
	'standby: a lookup by id uses the converted primary key');
is( $standby->safe_psql(
		'postgres', "SELECT name FROM accounts WHERE id = '$id'"),
	'after 251',
	'standby: the lookup by id finds the row');

$standby->stop;
$sub->stop;
$pub->stop;

done_testing();
