# Replication of ulid tables: a streaming (physical) standby of the
# publisher, and logical replication into two subscriber databases, one
# subscription in text mode and one in binary mode.  After each change on
# the publisher, the standby and both subscribers hold the same rows.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @modes = ('text', 'binary');

# Tables replicated here: created the same way on the publisher and in both
# subscriber databases (the standby gets them through the WAL).
my $schema = <<'SQL';
CREATE EXTENSION ulid;

-- A ulid primary key (the replica identity), a uuid and a nullable ulid
-- that is not a key.
CREATE TABLE orders (
	id     ulid PRIMARY KEY DEFAULT gen_ulid(),
	ref    uuid NOT NULL DEFAULT gen_random_uuid(),
	parent ulid,
	item   text NOT NULL,
	qty    int NOT NULL
);

-- No key: updates and deletes are matched on every column with each type's
-- default equality, ulid's = among them.
CREATE TABLE notes (
	order_id ulid NOT NULL,
	at       ulid NOT NULL DEFAULT gen_ulid(),
	body     text NOT NULL
);
ALTER TABLE notes REPLICA IDENTITY FULL;
SQL

# The same digest on every side: row counts and an md5 of every column of
# every row in key order.
my $digest = <<'SQL';
SELECT format('%s orders %s, %s notes %s',
	(SELECT count(*) FROM orders),
	(SELECT md5(string_agg(format('%s|%s|%s|%s|%s', id, ref, parent, item, qty), E'\n' ORDER BY id)) FROM orders),
	(SELECT count(*) FROM notes),
	(SELECT md5(string_agg(format('%s|%s|%s', order_id, at, body), E'\n' ORDER BY order_id, at, body)) FROM notes))
SQL

my $pub = PostgreSQL::Test::Cluster->new('pub');
$pub->init(allows_streaming => 'logical');
$pub->start;
$pub->safe_psql('postgres', $schema);
$pub->safe_psql('postgres', <<'SQL');
INSERT INTO orders (item, qty) SELECT 'initial ' || g, g FROM generate_series(1, 100) g;
CREATE PUBLICATION orders_pub FOR TABLE orders, notes;
SQL

# The streaming standby, from a base backup of the publisher.
$pub->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($pub, 'base', has_streaming => 1);
$standby->start;

my $sub = PostgreSQL::Test::Cluster->new('sub');
$sub->init;
$sub->append_conf('postgresql.conf', <<'CONF');
max_logical_replication_workers = 8
max_worker_processes = 16
CONF
$sub->start;

my $pub_connstr = $pub->connstr . ' dbname=postgres';
foreach my $mode (@modes)
{
	my $binary = $mode eq 'binary' ? 'true' : 'false';

	$sub->safe_psql('postgres', "CREATE DATABASE sub_$mode");
	$sub->safe_psql("sub_$mode", $schema);
	$sub->safe_psql("sub_$mode", <<"SQL");
CREATE SUBSCRIPTION orders_$mode CONNECTION '$pub_connstr'
	PUBLICATION orders_pub WITH (binary = $binary)
SQL
}
is( $sub->safe_psql(
		'postgres',
		"SELECT array_agg(subname::text || '=' || subbinary ORDER BY subname) FROM pg_subscription"
	),
	'{orders_binary=true,orders_text=false}',
	'logical replication: orders_binary is a binary subscription, orders_text is not'
);

# compare NAME: the standby and each subscriber database equal the
# publisher; returns the publisher's digest.
sub compare
{
	my ($name) = @_;
	my $want = $pub->safe_psql('postgres', $digest);

	is($standby->safe_psql('postgres', $digest),
		$want, "streaming replication: $name");
	foreach my $mode (@modes)
	{
		is($sub->safe_psql("sub_$mode", $digest),
			$want, "logical replication, $mode mode: $name");
	}
	return $want;
}

# step NAME SQL: run SQL on the publisher, check that it changed something
# (a step that silently did nothing would prove nothing), wait until the
# standby and both subscriptions have applied it, compare.
my $last;

sub step
{
	my ($name, $sql) = @_;

	$pub->safe_psql('postgres', $sql);
	isnt($pub->safe_psql('postgres', $digest),
		$last, "$name: the publisher's tables changed");
	$pub->wait_for_catchup($standby);
	$pub->wait_for_catchup("orders_$_") foreach @modes;
	$last = compare($name);
}

# On PostgreSQL 15 the initial copy is in text form in both modes; the
# changes after it are sent in the subscription's mode.
$sub->wait_for_subscription_sync($pub, "orders_$_", "sub_$_") foreach @modes;
$pub->wait_for_catchup($standby);
$last = compare('initial copy');
like($last, qr/^100 orders /, 'initial copy: the publisher holds 100 orders');

step(
	'10,000 inserts, the smallest and the largest ulid, 100 monotonic ids, notes',
	<<'SQL');
INSERT INTO orders (parent, item, qty)
SELECT CASE WHEN g % 3 = 0 THEN gen_ulid() END, 'item ' || g, g FROM generate_series(1, 10000) g;
INSERT INTO orders (id, item, qty) VALUES
	('00000000000000000000000000', 'smallest', 0), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'largest', 0);
INSERT INTO orders (id, item, qty) SELECT gen_monotonic_ulid(), 'monotonic ' || g, g FROM generate_series(1, 100) g;
INSERT INTO notes (order_id, body) SELECT id, 'note on ' || item FROM orders WHERE qty % 20 = 5;
SQL

step('updates of non-key columns (a ulid set and cleared)', <<'SQL');
UPDATE orders SET qty = qty + 1, parent = gen_ulid() WHERE qty % 10 = 1;
UPDATE orders SET parent = NULL WHERE qty % 10 = 6;
SQL

step('updates of the ulid key', <<'SQL');
UPDATE orders SET id = gen_ulid() WHERE qty % 10 = 2;
UPDATE orders SET id = ref::ulid WHERE qty % 10 = 3;
UPDATE orders SET id = '7ZZZZZZZZZZZZZZZZZZZZZZZZY' WHERE id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';
SQL

step('deletes by the ulid key', <<'SQL');
DELETE FROM orders WHERE qty % 10 = 4;
DELETE FROM orders WHERE id = '00000000000000000000000000';
SQL

step(
	'updates and deletes under REPLICA IDENTITY FULL (matched with ulid\'s =)',
	<<'SQL');
UPDATE notes SET body = body || ' (edited)' WHERE ulid_hash(order_id) % 2 = 0;
UPDATE notes SET at = gen_ulid() WHERE ulid_hash(at) % 3 = 0;
DELETE FROM notes WHERE ulid_hash(order_id) % 5 = 0;
SQL

##
## The indexes each side built or received, and the hot standby at work.
##

# The publisher's index reaches the standby as pages; the subscribers built
# theirs row by row with ulid's comparison.  amcheck verifies each is in
# ulid's order and holds every row.
$pub->safe_psql('postgres', 'CREATE EXTENSION amcheck');
$pub->wait_for_catchup($standby);
my $check = "SELECT bt_index_check('orders_pkey', true)";
my ($ret, $out, $err) = $standby->psql('postgres', $check);
is($ret, 0, "streaming replication: the standby's orders_pkey passes amcheck")
  or diag($err);
foreach my $mode (@modes)
{
	$sub->safe_psql("sub_$mode", 'CREATE EXTENSION amcheck');
	($ret, $out, $err) = $sub->psql("sub_$mode", $check);
	is($ret, 0,
		"logical replication, $mode mode: the subscriber's orders_pkey passes amcheck"
	) or diag($err);
}

is($standby->safe_psql('postgres', 'SELECT pg_is_in_recovery()'),
	't', 'streaming replication: the standby is a hot standby in recovery');

my $id = $pub->safe_psql('postgres',
	"SELECT id FROM orders WHERE item = 'monotonic 50'");
like(
	$standby->safe_psql(
		'postgres',
		"EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE id = '$id'"),
	qr/Index Scan using orders_pkey/,
	'streaming replication: a lookup by id on the standby uses the primary key'
);
is( $standby->safe_psql(
		'postgres', "SELECT item FROM orders WHERE id = '$id'"),
	'monotonic 50',
	'streaming replication: the lookup by id on the standby finds the row');

# Generating ids writes nothing, so a read-only standby can do it.
is( $standby->safe_psql(
		'postgres', <<'SQL'),
SELECT count(DISTINCT u) = 1000
   AND bool_and(ulid_time(u) BETWEEN date_trunc('milliseconds', now()) AND clock_timestamp())
FROM (SELECT gen_ulid() AS u FROM generate_series(1, 1000)) s
SQL
	't',
	'streaming replication: the standby generates 1000 distinct gen_ulid() of the current time'
);
is( $standby->safe_psql(
		'postgres', <<'SQL'),
SELECT bool_and(u > prev) AND count(*) = 999
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev
	  FROM (SELECT n, gen_monotonic_ulid() AS u FROM generate_series(1, 1000) n) g) s
WHERE prev IS NOT NULL
SQL
	't',
	'streaming replication: gen_monotonic_ulid() on the standby increases strictly'
);

$standby->stop;
$sub->stop;
$pub->stop;

done_testing();
