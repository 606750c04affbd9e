# Scale-out with postgres_fdw: which ulid conditions are pushed down to a
# remote server with and without the server option extensions 'ulid', and
# a table hash-partitioned on its ulid key into foreign tables on two
# shards.  Last, the documentation's SQL and plan lines are the ones run and
# checked here.

use strict;
use warnings FATAL => 'all';

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# "front" is the coordinator of the shards "shard1" and "shard2", and
# reads through postgres_fdw the table items, which is on shard1 too.
my %node;
foreach my $name ('front', 'shard1', 'shard2')
{
	$node{$name} = PostgreSQL::Test::Cluster->new($name);
	$node{$name}->init;
	$node{$name}->start;
}
my ($front, $remote) = @node{ 'front', 'shard1' };

# sorted_rows NODE SQL: the rows SQL returns on NODE, sorted, one a line.
sub sorted_rows
{
	my ($node, $sql) = @_;

	return join("\n", sort split(/\n/, $node->safe_psql('postgres', $sql)));
}

##
## postgres_fdw: "front" reads items on shard1 through two foreign
## servers, remote (extensions 'ulid') and remote_plain (no option).
##

$remote->safe_psql('postgres', <<'SQL');
CREATE EXTENSION ulid;
CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref uuid, item text);
INSERT INTO items
SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + g * interval '1 minute'), gen_random_uuid(), 'item ' || g
FROM generate_series(1, 1000) g;
ANALYZE items;
SQL

# Two foreign servers on the same remote: remote learns the extensions
# option; remote_plain never does, so its foreign table (plain.items) shows
# what is not pushed down without it.
my ($host, $port) = ($remote->host, $remote->port);
$front->safe_psql('postgres', <<"SQL");
CREATE EXTENSION ulid;
CREATE EXTENSION postgres_fdw;

CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE SERVER remote_plain FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$host', port '$port', dbname 'postgres');
CREATE USER MAPPING FOR CURRENT_USER SERVER remote;
CREATE USER MAPPING FOR CURRENT_USER SERVER remote_plain;

ALTER SERVER remote OPTIONS (ADD extensions 'ulid');
IMPORT FOREIGN SCHEMA public LIMIT TO (items) FROM SERVER remote INTO public;

CREATE SCHEMA plain;
IMPORT FOREIGN SCHEMA public LIMIT TO (items) FROM SERVER remote_plain INTO plain;
SQL

# The 500th and 501st ids.
my ($x, $y) = split(/\n/,
	$remote->safe_psql('postgres',
		'SELECT id FROM items ORDER BY id OFFSET 499 LIMIT 2'));

my $all = "SELECT count(*), md5(string_agg(format('%s|%s|%s', id, ref, item), ',' ORDER BY id))";
my $want = $remote->safe_psql('postgres', "$all FROM items");
like($want, qr/^1000\|/, 'postgres_fdw: the remote table has 1000 rows');
is($front->safe_psql('postgres', "$all FROM items"),
	$want,
	"postgres_fdw: the foreign table with extensions 'ulid' returns the remote rows"
);
is($front->safe_psql('postgres', "$all FROM plain.items"),
	$want,
	'postgres_fdw: the foreign table without it returns the remote rows');

# fdw_plan SCHEMA QUERY: EXPLAIN (VERBOSE, COSTS OFF) on front, with "items"
# meaning SCHEMA.items (public: through remote; plain: through
# remote_plain).
sub fdw_plan
{
	my ($schema, $query) = @_;

	return $front->safe_psql('postgres',
		"SET search_path = $schema, public;\nEXPLAIN (VERBOSE, COSTS OFF) $query"
	);
}

# same_rows NAME SCHEMA QUERY: QUERY on front through SCHEMA.items returns
# the rows (at least one) that the same query returns on the remote server.
sub same_rows
{
	my ($name, $schema, $query) = @_;
	my $truth = sorted_rows($remote, $query);
	my $got = sorted_rows($front, "SET search_path = $schema, public;\n$query");

	ok($truth ne '' && $got eq $truth, $name)
	  or diag("remote: $truth\nfront: $got");
}

# pushdown NAME QUERY REMOTE LOCAL: through remote the plan's Remote SQL
# contains REMOTE, and LOCAL (the sign of local work) and any Filter are
# absent; through remote_plain the plan contains LOCAL, not REMOTE.  Both
# return the rows of the same query on the remote server.
sub pushdown
{
	my ($name, $query, $remote_sql, $local) = @_;
	my $p = fdw_plan('public', $query);

	ok( (grep { /^\s*Remote SQL: / && index($_, $remote_sql) >= 0 }
			split(/\n/, $p))
		  && index($p, $local) < 0
		  && $p !~ /Filter: /,
		"postgres_fdw: $name is pushed down with extensions 'ulid'")
	  or diag($p);
	same_rows("postgres_fdw: $name with extensions 'ulid' returns the right rows",
		'public', $query);

	$p = fdw_plan('plain', $query);
	ok(index($p, $local) >= 0 && index($p, $remote_sql) < 0,
		"postgres_fdw: $name is evaluated locally without it")
	  or diag($p);
	same_rows("postgres_fdw: $name without it returns the right rows",
		'plain', $query);
}

pushdown(
	'id = constant',
	"SELECT * FROM items WHERE id = '$x'",
	"WHERE ((id OPERATOR(public.=) '$x'))",
	"Filter: (items.id = '$x'::ulid)");
pushdown(
	'id < constant',
	"SELECT * FROM items WHERE id < '$x'",
	"WHERE ((id OPERATOR(public.<) '$x'))",
	"Filter: (items.id < '$x'::ulid)");
pushdown(
	'id >= timestamptz::ulid (folded to a constant)',
	"SELECT * FROM items WHERE id >= '2025-06-01 12:00+00'::timestamptz::ulid",
	"Remote SQL: SELECT id, ref, item FROM public.items WHERE ((id OPERATOR(public.>=) '01JWNNSVG00000000000000000'))",
	"Filter: (items.id >= '01JWNNSVG00000000000000000'::ulid)");
pushdown(
	'ulid_time(id) >= timestamptz',
	"SELECT * FROM items WHERE ulid_time(id) >= '2025-06-01 12:00+00'",
	"WHERE ((public.ulid_time(id) >= '2025-06-01",
	"Filter: (ulid_time(items.id) >= ");
pushdown(
	'ORDER BY id LIMIT',
	"SELECT * FROM items ORDER BY id LIMIT 5",
	"FROM public.items ORDER BY id ASC NULLS LAST LIMIT 5",
	"Sort Key: items.id");
pushdown(
	'min(id), max(id)',
	"SELECT min(id), max(id) FROM items",
	"Remote SQL: SELECT public.min(id), public.max(id) FROM public.items",
	"Output: min(id), max(id)");
pushdown(
	'id = a OR id = b',
	"SELECT * FROM items WHERE id = '$x' OR id = '$y'",
	"WHERE (((id OPERATOR(public.=) '$x') OR (id OPERATOR(public.=) '$y')))",
	"Filter: ((items.id = '$x'::ulid) OR");

# A parameter of a generic plan is sent as $1::public.ulid.
my $prepared = <<"SQL";
PREPARE q(ulid) AS SELECT count(*) FROM items WHERE id >= \$1;
SET plan_cache_mode = force_generic_plan;
SQL
my $p = $front->safe_psql('postgres',
	"$prepared\nEXPLAIN (VERBOSE, COSTS OFF) EXECUTE q('$x')");
like(
	$p,
	qr/Remote SQL: .*\Q WHERE ((id OPERATOR(public.>=) \E\$1::public\.ulid\)\)/,
	"postgres_fdw: a prepared statement's ulid parameter is pushed down");
is($front->safe_psql('postgres', "$prepared\nEXECUTE q('$x')"),
	'501', 'postgres_fdw: the prepared statement counts the right rows');

# stays_local NAME QUERY LOCAL: even with extensions 'ulid', the plan
# filters locally (LOCAL), and the rows are still right.
sub stays_local
{
	my ($name, $query, $local) = @_;
	my $p = fdw_plan('public', $query);

	ok( index($p, $local) >= 0
		  && !grep({ /^\s*Remote SQL: .*WHERE/ } split(/\n/, $p)),
		"postgres_fdw: $name stays local even with extensions 'ulid'")
	  or diag($p);
	same_rows("postgres_fdw: $name, evaluated locally, returns the right rows",
		'public', $query);
}

# postgres_fdw never ships a non-immutable function.
stays_local(
	'a bound computed from now()',
	"SELECT * FROM items WHERE id >= (now() - interval '50 years')::ulid",
	"Filter: (items.id >= ((now() - '50 years'::interval))::ulid)");

# A ulid[] constant is shippable only when the array type is itself a member
# of the extension: CREATE EXTENSION records it so from PostgreSQL 17 on,
# before that only the type.  Either way the rows are right.
my $array_member = $front->safe_psql('postgres',
	"SELECT count(*) FROM pg_depend WHERE classid = 'pg_type'::regclass AND objid = 'ulid[]'::regtype AND deptype = 'e'"
);
if ($array_member eq '1')
{
	pushdown(
		'id IN (a, b) (ulid[] is a member of the extension)',
		"SELECT * FROM items WHERE id IN ('$x', '$y')",
		"ANY ('{$x,$y}'::public.ulid[])",
		"Filter: (items.id = ANY ('{$x,$y}'::ulid[]))");
}
else
{
	is($array_member, '0', 'postgres_fdw: ulid[] is not a member of the extension');
	stays_local(
		'id IN (a, b)',
		"SELECT * FROM items WHERE id IN ('$x', '$y')",
		"Filter: (items.id = ANY ('{$x,$y}'::ulid[]))");
}

##
## Sharding: events on front is hash-partitioned on id into four foreign
## tables, two on shard1 and two on shard2.
##

$node{shard1}->safe_psql('postgres', <<'SQL');
CREATE TABLE events_0 (id ulid PRIMARY KEY, body text);
CREATE TABLE events_2 (id ulid PRIMARY KEY, body text);
SQL
$node{shard2}->safe_psql('postgres', <<'SQL');
CREATE EXTENSION ulid;
CREATE TABLE events_1 (id ulid PRIMARY KEY, body text);
CREATE TABLE events_3 (id ulid PRIMARY KEY, body text);
SQL

my ($h1, $p1, $h2, $p2) = (
	$node{shard1}->host, $node{shard1}->port,
	$node{shard2}->host, $node{shard2}->port);
$front->safe_psql('postgres', <<"SQL");
CREATE SERVER shard1 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$h1', port '$p1', dbname 'postgres', extensions 'ulid', batch_size '500');
CREATE SERVER shard2 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '$h2', port '$p2', dbname 'postgres', extensions 'ulid', batch_size '500');
CREATE USER MAPPING FOR CURRENT_USER SERVER shard1;
CREATE USER MAPPING FOR CURRENT_USER SERVER shard2;

CREATE TABLE events (id ulid NOT NULL DEFAULT gen_ulid(), body text) PARTITION BY HASH (id);
CREATE FOREIGN TABLE events_0 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 0) SERVER shard1;
CREATE FOREIGN TABLE events_1 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 1) SERVER shard2;
CREATE FOREIGN TABLE events_2 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 2) SERVER shard1;
CREATE FOREIGN TABLE events_3 PARTITION OF events FOR VALUES WITH (MODULUS 4, REMAINDER 3) SERVER shard2;
SQL
$front->safe_psql('postgres',
	"INSERT INTO events (body) SELECT 'event ' || g FROM generate_series(1, 10000) g"
);

# The shard that holds each remainder's table.
my @shard_of = map { $node{$_} } ('shard1', 'shard2', 'shard1', 'shard2');

my @counts = map {
	$shard_of[$_]->safe_psql('postgres', "SELECT count(*) FROM events_$_")
} 0 .. 3;
note("rows per shard table: @counts");
is($front->safe_psql('postgres', 'SELECT count(*) FROM events'),
	'10000', 'sharding: events holds the 10,000 rows inserted through it');
ok( (grep { $_ >= 2000 && $_ <= 3000 } @counts) == 4
	  && $counts[0] + $counts[1] + $counts[2] + $counts[3] == 10000,
	'sharding: 10,000 inserts through events spread over the 4 shard tables'
) or diag("rows per shard table: @counts");

# Read each foreign partition back (MATERIALIZED keeps the test on the
# coordinator: satisfies_hash_partition() with a local oid would otherwise
# be shipped to the shard).
is( $front->safe_psql(
		'postgres', <<'SQL'),
WITH r0 AS MATERIALIZED (SELECT id FROM events_0), r1 AS MATERIALIZED (SELECT id FROM events_1),
     r2 AS MATERIALIZED (SELECT id FROM events_2), r3 AS MATERIALIZED (SELECT id FROM events_3)
SELECT (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 0, id)) FROM r0)
   AND (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 1, id)) FROM r1)
   AND (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 2, id)) FROM r2)
   AND (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 3, id)) FROM r3)
SQL
	't',
	'sharding: each shard table holds only rows of its remainder (satisfies_hash_partition)'
);

# The same, on the shards, from ulid_hash_extended alone: PostgreSQL hashes
# a one-column key as hash_combine64(0, ulid_hash_extended(id,
# 0x7A5B22367996DCFD)) = h + 0x49a0f4dd15e5a8e3, whose remainder modulo 4 is
# that of h + 3.
foreach my $r (0 .. 3)
{
	is( $shard_of[$r]->safe_psql(
			'postgres',
			"SELECT count(*) > 0 AND bool_and((ulid_hash_extended(id, x'7A5B22367996DCFD'::bigint) % 4 + 7) % 4 = $r) FROM events_$r"
		),
		't',
		"sharding: events_$r on "
		  . $shard_of[$r]->name
		  . " holds only ids with (ulid_hash_extended(id, seed) + 3) mod 4 = $r"
	);
}

my $id = $node{shard2}
  ->safe_psql('postgres', 'SELECT id FROM events_3 ORDER BY body LIMIT 1');
$p = $front->safe_psql('postgres',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id = '$id'");
ok( (() = $p =~ /Foreign Scan/g) == 1
	  && $p !~ /Append/
	  && index($p,
		"Remote SQL: SELECT id, body FROM public.events_3 WHERE ((id OPERATOR(public.=) '$id'))"
	  ) >= 0,
	'sharding: WHERE id = constant is planned as one Foreign Scan, on the partition that holds the row'
) or diag($p);
is($front->safe_psql('postgres', "SELECT count(*) FROM events WHERE id = '$id'"),
	'1', 'sharding: WHERE id = constant finds the row');

$p = $front->safe_psql('postgres', <<"SQL");
PREPARE q(ulid) AS SELECT * FROM events WHERE id = \$1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE q('$id');
SQL
ok( $p =~ /Subplans Removed: 3/
	  && $p =~ /Foreign Scan on events_3/
	  && (() = $p =~ /Foreign Scan/g) == 1,
	'sharding: a prepared lookup by id is pruned to one partition at execution'
) or diag($p);

$p = $front->safe_psql('postgres',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= '$id'");
is( scalar(() = $p =~ /\QWHERE ((id OPERATOR(public.>=) '$id'))\E/g),
	4,
	'sharding: a range on id visits all 4 partitions, filtered on the shards')
  or diag($p);
my $n = $front->safe_psql('postgres',
	"SELECT count(*) FROM events WHERE id >= '$id'");
my $m = 0;
$m += $shard_of[$_]
  ->safe_psql('postgres', "SELECT count(*) FROM events_$_ WHERE id >= '$id'")
  foreach 0 .. 3;
ok($n > 0 && $n == $m,
	"sharding: the range on id returns the shards' matching rows ($m)");

my ($ret, $out, $err) = $front->psql('postgres',
	"INSERT INTO events (id, body) VALUES ('$id', 'again')");
like(
	$err,
	qr/duplicate key value violates unique constraint "events_3_pkey"/,
	"sharding: a duplicate id through events is rejected by its shard's primary key"
);

($ret, $out, $err) =
  $front->psql('postgres', 'CREATE UNIQUE INDEX ON events (id)');
like(
	$err,
	qr/cannot create unique index on partitioned table "events"/,
	'sharding: events itself cannot have a unique index (its partitions are foreign tables)'
);

# Changing an id through events updates the row where it is: postgres_fdw
# does not move it to the partition of its new id, where lookups go.
my $new = $front->safe_psql('postgres', <<'SQL');
SELECT u FROM (SELECT gen_ulid() AS u FROM generate_series(1, 100)) s
WHERE NOT satisfies_hash_partition('events'::regclass, 4, 3, u) LIMIT 1
SQL
$front->safe_psql('postgres',
	"UPDATE events SET id = '$new' WHERE id = '$id'");
is( $node{shard2}->safe_psql(
		'postgres', "SELECT count(*) FROM events_3 WHERE id = '$new'"),
	'1',
	'sharding: an id changed through events stays on its old shard');
is($front->safe_psql('postgres', "SELECT count(*) FROM events WHERE id = '$new'"),
	'0', 'sharding: a lookup by the changed id misses the row');
$front->safe_psql('postgres', <<"SQL");
DELETE FROM events_3 WHERE id = '$new';
INSERT INTO events (id, body) VALUES ('$new', 'moved');
SQL
is($front->safe_psql('postgres', "SELECT count(*) FROM events WHERE id = '$new'"),
	'1',
	'sharding: deleted and inserted again through events, the row is found by its new id'
);

$_->stop foreach values %node;

done_testing();
