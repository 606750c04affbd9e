# ulid in a Citus cluster: a coordinator and two workers, then three.  The
# extension and its update reach the workers through the coordinator; a
# table keyed by ulid is distributed by hash, each row on the shard Citus
# says; lookups route to one shard whatever the parameter's type; co-located
# joins are pushed down and repartition joins are right; time windows,
# ordering and aggregates return what one server returns, each shard using
# its index; writes of every kind land once; a rebalance onto a new worker
# under writes loses and alters nothing; a distributed table partitioned by
# month prunes on every shard.  Co-location with a uuid key is refused.
# Last, a new database, and docs/scale-out.md's blocks run in it.
#
# Citus is built by bin/citus (Citus 14.0: PostgreSQL 16 to 18).  Without
# it the test is skipped, unless ULID_REQUIRE_ENGINES names citus (bin/test
# sets it on 17 and 18), when it fails.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use FindBin;

# The source tree, whose docs are checked last.
my $root = "$FindBin::RealBin/..";

my $coord = PostgreSQL::Test::Cluster->new('coordinator');
my $libdir = $coord->config_data('--pkglibdir');
if (!-f "$libdir/citus.so")
{
	my $why = "Citus is not installed for this server ($libdir; bin/citus builds it for 16 to 18)";
	if (($ENV{ULID_REQUIRE_ENGINES} // '') =~ /\bcitus\b/)
	{
		fail("ULID_REQUIRE_ENGINES names citus: $why");
		done_testing();
		exit;
	}
	plan skip_all => $why;
}

my @workers = map { PostgreSQL::Test::Cluster->new("worker$_") } 1 .. 3;
my $spare = pop @workers;    # added in part 7
foreach my $node ($coord, @workers, $spare)
{
	$node->init;
	$node->append_conf('postgresql.conf', <<'CONF');
shared_preload_libraries = 'citus'
citus.enable_statistics_collection = off
max_prepared_transactions = 20
wal_level = logical
max_wal_senders = 10
max_replication_slots = 10
listen_addresses = 'localhost'
CONF
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION citus');
}

$coord->safe_psql('postgres',
	"SELECT citus_set_coordinator_host('" . $coord->host . "', " . $coord->port . ')');
$coord->safe_psql('postgres',
	"SELECT citus_add_node('" . $_->host . "', " . $_->port . ')')
  foreach @workers;
is($coord->safe_psql('postgres', 'SELECT count(*) FROM citus_get_active_worker_nodes()'),
	'2', 'two workers are active');

# on_workers SQL: what SQL returns on each worker, joined by ",".
sub on_workers
{
	my ($sql) = @_;
	return join(',', map { $_->safe_psql('postgres', $sql) } @workers);
}

##
## 1. The extension and its update reach the workers.
##

$coord->safe_psql('postgres', q{CREATE EXTENSION ulid VERSION '1.0'});
is(on_workers(q{SELECT extversion FROM pg_extension WHERE extname = 'ulid'}),
	'1.0,1.0', 'CREATE EXTENSION ulid on the coordinator creates it on the workers');
$coord->safe_psql('postgres', 'ALTER EXTENSION ulid UPDATE');
my $current = $coord->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'ulid'});
is($coord->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'ulid'}),
	$current, "the coordinator is updated to $current");
is(on_workers(q{SELECT extversion FROM pg_extension WHERE extname = 'ulid'}),
	"$current,$current", 'ALTER EXTENSION ulid UPDATE on the coordinator updates the workers');

##
## 2. Distributed, co-located and reference tables; where the rows are.
##

$coord->safe_psql('postgres', <<'SQL');
CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), customer int NOT NULL,
                     currency text NOT NULL, total numeric NOT NULL);
SELECT create_distributed_table('orders', 'id', shard_count => 8);
CREATE TABLE order_lines (order_id ulid NOT NULL, line int NOT NULL, item text NOT NULL,
                          PRIMARY KEY (order_id, line));
SELECT create_distributed_table('order_lines', 'order_id', colocate_with => 'orders');
CREATE TABLE currencies (code text PRIMARY KEY, name text NOT NULL);
SELECT create_reference_table('currencies');
INSERT INTO currencies VALUES ('EUR', 'euro'), ('USD', 'US dollar');

-- 4,000 orders, one every 10 minutes from 2025-06-01, and their copy on
-- the coordinator alone: what one server returns.
INSERT INTO orders (id, customer, currency, total)
SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + g * interval '10 minutes'),
       g % 97, CASE WHEN g % 3 = 0 THEN 'USD' ELSE 'EUR' END, (g % 500) + 0.99
FROM generate_series(1, 4000) AS g;
INSERT INTO order_lines SELECT id, l, 'item ' || l FROM orders, generate_series(1, 2) AS l;
CREATE TABLE orders_one AS SELECT * FROM orders;
ALTER TABLE orders_one ADD PRIMARY KEY (id);
CREATE TABLE order_lines_one AS SELECT * FROM order_lines;
SQL
is( $coord->safe_psql('postgres',
		q{SELECT count(*), count(DISTINCT shardid) FROM citus_shards WHERE table_name = 'orders'::regclass}),
	'8|8', 'orders has 8 shards');
is( $coord->safe_psql('postgres',
		q{SELECT count(DISTINCT colocationid) FROM pg_dist_partition
		  WHERE logicalrelid IN ('orders'::regclass, 'order_lines'::regclass)}),
	'1', 'order_lines is co-located with orders');

# Every row is on the shard that get_shard_id_for_distribution_column names.
my %node_at = map { ($_->port => $_) } ($coord, @workers);
my $misplaced = 0;
my $rows = 0;
foreach my $shard (split /\n/,
	$coord->safe_psql('postgres',
		q{SELECT shardid || ' ' || nodeport FROM citus_shards WHERE table_name = 'orders'::regclass}))
{
	my ($shardid, $port) = split / /, $shard;
	my $ids = $node_at{$port}->safe_psql('postgres',
		"SELECT coalesce(string_agg(id::text, ','), '') FROM orders_$shardid");
	next if $ids eq '';
	$rows += scalar(split /,/, $ids);
	$misplaced += $coord->safe_psql('postgres',
		"SELECT count(*) FROM unnest('{$ids}'::ulid[]) AS id
		 WHERE get_shard_id_for_distribution_column('orders', id) <> $shardid");
}
is("$rows/$misplaced", '4000/0',
	'every row of orders is on the shard get_shard_id_for_distribution_column names');

##
## 3. Routing: one task for a lookup by id, whatever the value's type.
##

my $some = $coord->safe_psql('postgres', 'SELECT id FROM orders_one ORDER BY id OFFSET 1234 LIMIT 1');
my $other = $coord->safe_psql('postgres', 'SELECT id FROM orders_one ORDER BY id OFFSET 2345 LIMIT 1');

# tasks SQL [SETUP]: the Task Count of SQL's distributed plan.
sub tasks
{
	my ($sql, $setup) = @_;
	my $plan = $coord->safe_psql('postgres', ($setup // '') . "EXPLAIN (COSTS OFF) $sql");
	return $plan =~ /Task Count: (\d+)/ ? $1 : "no task count in:\n$plan";
}

is(tasks("SELECT * FROM orders WHERE id = '$some'"), '1', 'a literal id routes to one shard');
foreach my $type ('ulid', 'uuid', 'text')
{
	my $arg = $type eq 'uuid' ? "'$some'::ulid::uuid" : "'$some'";
	# A text parameter is cast: text to ulid is an explicit cast, as for uuid.
	my $param = $type eq 'text' ? '$1::ulid' : '$1';
	my $prep = "PREPARE q_$type($type) AS SELECT total FROM orders WHERE id = $param;";
	# Six executions: the plan cache switches to a generic plan after five.
	is( $coord->safe_psql('postgres',
			$prep . join('', map { "EXECUTE q_$type($arg);" } 1 .. 6)),
		join("\n", ($coord->safe_psql('postgres', "SELECT total FROM orders_one WHERE id = '$some'")) x 6),
		"a prepared lookup by a $type parameter (id = $param) returns the row, six times");
	is(tasks("EXECUTE q_$type($arg)", $prep . join('', map { "EXECUTE q_$type($arg);" } 1 .. 6)),
		'1', "a prepared lookup by a $type parameter routes to one shard, with a generic plan too");
}
my ($ret, $out, $err) = $coord->psql('postgres',
	'PREPARE bare(text) AS SELECT total FROM orders WHERE id = $1');
like($err, qr/operator does not exist: ulid = text/,
	'a text parameter without a cast is refused, as for a uuid column: write $1::ulid');
my $in_shards = $coord->safe_psql('postgres',
	"SELECT count(DISTINCT get_shard_id_for_distribution_column('orders', v))
	 FROM unnest(ARRAY['$some', '$other']::ulid[]) AS v");
is(tasks("SELECT * FROM orders WHERE id = ANY(ARRAY['$some', '$other']::ulid[])"),
	$in_shards, "= ANY of two ids visits only their shards ($in_shards)");

##
## 4. Joins.
##

my $join = q{SELECT count(*), sum(o.total), md5(string_agg(o.id::text || l.item, ',' ORDER BY o.id, l.line))
	FROM %s o JOIN %s l ON l.order_id = o.id JOIN currencies c ON c.code = o.currency
	WHERE c.name = 'euro'};
my $want = $coord->safe_psql('postgres', sprintf($join, 'orders_one', 'order_lines_one'));
like($want, qr/^5334\|/, 'the join on one server: 5,334 lines of euro orders');
is($coord->safe_psql('postgres', sprintf($join, 'orders', 'order_lines')),
	$want, 'a co-located join with a reference table returns what one server returns');
like(
	$coord->safe_psql('postgres', 'EXPLAIN (COSTS OFF) ' . sprintf($join, 'orders', 'order_lines')),
	qr/Task Count: 8\b(?![\s\S]*(?:Repartition|MapMergeJob))/,
	'the co-located join is pushed down to the shards, one task a shard, no repartitioning');

$coord->safe_psql('postgres', <<'SQL');
CREATE TABLE refunds (customer int NOT NULL, order_id ulid NOT NULL, amount numeric NOT NULL);
SELECT create_distributed_table('refunds', 'customer');
INSERT INTO refunds SELECT customer, id, total / 2 FROM orders_one WHERE customer % 5 = 0;
CREATE TABLE refunds_one AS SELECT * FROM refunds;
SQL
my $repart = q{SELECT count(*), sum(r.amount), md5(string_agg(o.id::text, ',' ORDER BY o.id))
	FROM %s o JOIN %s r ON r.order_id = o.id};
is( $coord->safe_psql('postgres',
		'SET citus.enable_repartition_joins TO on; ' . sprintf($repart, 'orders', 'refunds')),
	$coord->safe_psql('postgres', sprintf($repart, 'orders_one', 'refunds_one')),
	'a repartition join with a table distributed by another column returns what one server returns'
);

##
## 5. Time: windows, ordering, aggregates across shards.
##

my @windows = (
	q{id > '2025-06-20 00:00+00'::timestamptz},
	q{id >= '2025-06-10 12:00+00'::timestamptz AND id < '2025-06-10 13:00+00'::timestamptz},
	q{id <@ tstzrange('2025-06-15 00:00+00', '2025-06-16 00:00+00')},
	q{id >= '2025-06-05 00:00+00'::timestamptz::ulid AND id < '2025-06-05 06:00+00'::timestamptz::ulid},
	q{id > now() - (now() - '2025-06-25 00:00+00'::timestamptz)},
);
foreach my $w (@windows)
{
	my $q = "SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM %s WHERE $w";
	my $one = $coord->safe_psql('postgres', sprintf($q, 'orders_one'));
	is($coord->safe_psql('postgres', sprintf($q, 'orders')), $one,
		"$w: the rows one server returns ($one)");
}
# Each shard's task uses its primary key for a window (seqscans off on the
# shards, through SET LOCAL propagation, so that a small shard still shows
# whether its index can serve the condition).
foreach my $w (@windows[ 0 .. 2 ])
{
	my $plan = $coord->safe_psql('postgres', <<"SQL");
SET citus.explain_all_tasks TO on;
SET citus.propagate_set_commands TO 'local';
BEGIN;
SET LOCAL enable_seqscan TO off;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM orders WHERE $w;
COMMIT;
SQL
	my $tasks = () = $plan =~ /-> +Task\b/g;
	my $indexed = () = $plan =~ /Index Cond: .*\bid\b/g;
	ok($tasks == 8 && $indexed == 8,
		"$w: each of the 8 tasks scans its shard's primary key ($indexed index conditions)")
	  or diag($plan);
}

foreach my $q (
	q{SELECT id FROM %s ORDER BY id LIMIT 5},
	q{SELECT id FROM %s ORDER BY id DESC LIMIT 5},
	q{SELECT min(id), max(id), count(*) FROM %s},
	q{SELECT date_trunc('day', ulid_time(id)) AS day, count(*), sum(total) FROM %s GROUP BY 1 ORDER BY 1})
{
	my $one = $coord->safe_psql('postgres', sprintf($q, 'orders_one'));
	is($coord->safe_psql('postgres', sprintf($q, 'orders')),
		$one, sprintf($q, 'orders') . ': what one server returns');
}

##
## 6. Writes: defaults, multi-row INSERT, INSERT ... SELECT, COPY.
##

$coord->safe_psql('postgres', <<'SQL');
INSERT INTO orders (customer, currency, total)
SELECT g, 'EUR', g FROM generate_series(1, 300) AS g;
INSERT INTO orders (customer, currency, total) VALUES (1, 'EUR', 1), (2, 'USD', 2), (3, 'EUR', 3);
INSERT INTO order_lines (order_id, line, item)
SELECT id, 3, 'gift' FROM orders WHERE customer = 1;
SQL
is( $coord->safe_psql('postgres',
		q{SELECT count(*), count(DISTINCT id), count(*) FILTER (WHERE ulid_time(id) > now() - interval '1 hour') FROM orders}),
	'4303|4303|303',
	'303 rows by the default through the coordinator: all new, all distinct, all of now');
is( $coord->safe_psql('postgres',
		q{SELECT count(*) FROM order_lines WHERE line = 3}),
	$coord->safe_psql('postgres', q{SELECT count(*) FROM orders WHERE customer = 1}),
	'INSERT ... SELECT between co-located tables writes a line for each order');

my $dir = PostgreSQL::Test::Utils::tempdir();
$coord->safe_psql('postgres', <<"SQL");
CREATE TABLE batch AS
SELECT gen_ulid('2024-01-01 00:00+00'::timestamptz + g * interval '1 second') AS id,
       g % 7 AS customer, 'EUR'::text AS currency, g::numeric AS total
FROM generate_series(1, 1000) AS g;
COPY (SELECT * FROM batch ORDER BY id LIMIT 500) TO '$dir/half.txt';
COPY (SELECT * FROM batch ORDER BY id OFFSET 500) TO '$dir/half.bin' WITH (FORMAT binary);
COPY orders FROM '$dir/half.txt';
COPY orders FROM '$dir/half.bin' WITH (FORMAT binary);
SQL
is( $coord->safe_psql('postgres',
		q{SELECT count(*), md5(string_agg(format('%s|%s|%s', id, customer, total), ',' ORDER BY id))
		  FROM orders WHERE id < '2025-01-01 00:00+00'::timestamptz}),
	$coord->safe_psql('postgres',
		q{SELECT count(*), md5(string_agg(format('%s|%s|%s', id, customer, total), ',' ORDER BY id)) FROM batch}),
	'COPY in text and in binary through the coordinator: every row once, unchanged');
($ret, $out, $err) = $coord->psql('postgres', "COPY orders FROM '$dir/half.bin' WITH (FORMAT binary)");
like($err, qr/duplicate key value violates unique constraint "orders_pkey/,
	'a second COPY of the same ids is refused by the shards\' primary keys');

##
## 7. Growth: a third worker, the shards moved to it by logical replication
## while a session writes and commits row by row.
##

my $row_sums = q{SELECT count(*), md5(string_agg(format('%s|%s|%s', id, customer, total), ',' ORDER BY id))
	FROM orders WHERE customer >= 0};
my $before = $coord->safe_psql('postgres', $row_sums);
$coord->safe_psql('postgres',
	"SELECT citus_add_node('" . $spare->host . "', " . $spare->port . ')');
is($spare->safe_psql('postgres', q{SELECT extversion FROM pg_extension WHERE extname = 'ulid'}),
	$current, 'a worker added later gets the extension from the coordinator');
# The writer commits row after row until told to stop, so that it writes
# before, during and after the rebalance.
$coord->safe_psql('postgres', <<'SQL');
CREATE TABLE writing (go bool NOT NULL);
INSERT INTO writing VALUES (true);
CREATE PROCEDURE write_orders() LANGUAGE plpgsql AS $$
DECLARE i int := 0;
BEGIN
    WHILE (SELECT go FROM writing) LOOP
        i := i + 1;
        INSERT INTO orders (customer, currency, total) VALUES (-i, 'EUR', i);
        COMMIT;
    END LOOP;
END $$;
SQL
my $written = q{SELECT count(*) FROM orders WHERE customer < 0};
my $writer = $coord->background_psql('postgres');
$writer->query_until(qr/writing/, "\\echo writing\nCALL write_orders();\n");
$coord->poll_query_until('postgres', "SELECT ($written) > 0") or die 'the writer never wrote';
my $at_start = $coord->safe_psql('postgres', $written);
$coord->safe_psql('postgres',
	q{SELECT rebalance_table_shards(shard_transfer_mode => 'force_logical')});
my $at_end = $coord->safe_psql('postgres', $written);
$coord->poll_query_until('postgres', "SELECT ($written) > $at_end") or die 'the writer stopped';
$coord->safe_psql('postgres', 'UPDATE writing SET go = false');
my $acked = $writer->query_safe(
	q{SELECT count(*) = max(-customer) AND count(*) = count(DISTINCT customer), count(*) FROM orders WHERE customer < 0});
$writer->quit;
# The moved shards' old copies, which Citus drops later, dropped now.
$coord->safe_psql('postgres', 'CALL citus_cleanup_orphaned_resources()');
my $moved = $coord->safe_psql('postgres',
	'SELECT count(*) FROM citus_shards WHERE table_name = \'orders\'::regclass AND nodeport = ' . $spare->port);
ok($moved > 0, "the rebalance moved $moved of the 8 shards of orders to the new worker");
my ($complete, $total) = split /\|/, ($acked =~ s/\s+//gr);
ok($complete eq 't' && $at_start < $at_end,
	"every row the writer committed, before ($at_start), during and after the rebalance ($total in all), is there once"
);
is($coord->safe_psql('postgres', $row_sums), $before,
	'the rows stored before the rebalance are all there, unchanged');
my $checked = 0;
$coord->safe_psql('postgres', 'CREATE EXTENSION amcheck');
foreach my $node (@workers, $spare)
{
	# Citus hides shards from pg_class on the workers unless asked not to.
	$checked += $node->safe_psql('postgres', <<'SQL');
SET citus.override_table_visibility TO off;
SELECT count(bt_index_check(c.oid, true)) FROM pg_class c
WHERE c.relkind = 'i' AND c.relname ~ '^(orders|order_lines)_pkey_\d+$'
SQL
}
is($checked, 16, "bt_index_check finds the 16 shard indexes of orders and order_lines sound, heap included");
push @workers, $spare;

##
## 8. A distributed table range-partitioned by month on its key.
##

$coord->safe_psql('postgres', <<'SQL');
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), body text NOT NULL, PRIMARY KEY (id))
PARTITION BY RANGE (id);
CREATE TABLE events_2025_06 PARTITION OF events
    FOR VALUES FROM ('2025-06-01 00:00+00'::timestamptz::ulid) TO ('2025-07-01 00:00+00'::timestamptz::ulid);
SELECT create_distributed_table('events', 'id', colocate_with => 'orders');
CREATE TABLE events_2025_07 PARTITION OF events
    FOR VALUES FROM ('2025-07-01 00:00+00'::timestamptz::ulid) TO ('2025-08-01 00:00+00'::timestamptz::ulid);
INSERT INTO events (id, body)
SELECT gen_ulid('2025-06-16 00:00+00'::timestamptz + g * interval '1 hour'), 'event ' || g
FROM generate_series(0, 719) AS g;
SQL
is( $coord->safe_psql('postgres', <<'SQL'),
SELECT (SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = 'events_2025_07'::regclass),
       (SELECT count(*) FROM events_2025_06), (SELECT count(*) FROM events_2025_07),
       (SELECT count(*) FROM events_2025_06 WHERE ulid_time(id) >= '2025-07-01 00:00+00')
SQL
	'1|360|360|0',
	'a partition made through the coordinator is distributed too; each month holds its rows');
my $plan = $coord->safe_psql('postgres', <<'SQL');
SET citus.explain_all_tasks TO on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM events WHERE id >= '2025-07-02 00:00+00'::timestamptz::ulid;
SQL
my $june = () = $plan =~ /events_2025_06_\d+/g;
my $july = () = $plan =~ /events_2025_07_\d+/g;
ok($june == 0 && $july == 8,
	"a window of July with ulid bounds reads July's partition on each of the 8 shards, never June's")
  or diag($plan);

##
## 9. Co-location with a uuid key is refused.
##

($ret, $out, $err) = $coord->psql('postgres', <<'SQL');
CREATE TABLE legacy (id uuid PRIMARY KEY);
SELECT create_distributed_table('legacy', 'id', colocate_with => 'orders');
SQL
like($err, qr/Distribution column types don't match/i,
	'co-locating a uuid-keyed table with a ulid-keyed one is refused, with Citus\' error');

##
## gen_monotonic_ulid() as a default: evaluated on the coordinator, in order.
##

$coord->safe_psql('postgres', <<'SQL');
CREATE TABLE ticks (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int NOT NULL);
SELECT create_distributed_table('ticks', 'id');
INSERT INTO ticks (n) SELECT g FROM generate_series(1, 500) AS g;
SQL
is( $coord->safe_psql('postgres',
		q{SELECT count(*) FILTER (WHERE id <= lag) FROM
		  (SELECT id, lag(id) OVER (ORDER BY n) FROM ticks) s}),
	'0', 'gen_monotonic_ulid() defaults through the coordinator ascend in the order rows were inserted');

##
## A new database: what it needs on every node; then docs/scale-out.md's
## blocks run in it.
##

foreach my $node ($coord, @workers)
{
	$node->safe_psql('postgres', 'CREATE DATABASE app');
	$node->safe_psql('app', 'CREATE EXTENSION citus');
}
$coord->safe_psql('app',
	"SELECT citus_set_coordinator_host('" . $coord->host . "', " . $coord->port . ')');
$coord->safe_psql('app', "SELECT citus_add_node('" . $_->host . "', " . $_->port . ')')
  foreach @workers;
$coord->safe_psql('app', 'CREATE EXTENSION ulid');
is(join(',', map { $_->safe_psql('app', q{SELECT extversion FROM pg_extension WHERE extname = 'ulid'}) } @workers),
	join(',', map { $current } @workers),
	'in a new database made on every node, CREATE EXTENSION ulid reaches the workers');

{
	local $ENV{PGHOST} = $coord->host;
	local $ENV{PGPORT} = $coord->port;
	my $out = `python3 "$root/test/check_docs.py" --engine citus --database app "$root" docs/scale-out.md 2>&1`;
	ok($? == 0 && $out =~ /# docs \(citus\): [1-9]\d* passed, 0 failed/,
		'docs/scale-out.md: every block runs in the cluster and prints what the guide shows')
	  or diag($out);
}

$_->stop foreach ($coord, @workers);
done_testing();
