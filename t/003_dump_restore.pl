# pg_dump -Fc and pg_restore of a database that uses ulid in every way it
# can be stored: columns, arrays, defaults, a generated column, primary keys,
# hash, BRIN, GIN and GiST indexes, exclusion constraints, a ulidrange
# column, range and hash partitions, foreign keys between ulid and uuid both
# ways, a view comparing them.  The restored data must be
# identical and the restored objects must work.

use strict;
use warnings;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run ();

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;

$node->safe_psql('postgres', 'CREATE DATABASE source');
$node->safe_psql(
	'source', q(
CREATE EXTENSION ulid;
CREATE TABLE items (
	id ulid PRIMARY KEY DEFAULT gen_ulid(),
	parent ulid,
	as_uuid uuid,
	made timestamptz GENERATED ALWAYS AS (ulid_time(id)) STORED,
	tags ulid[]
);
INSERT INTO items (id, parent, as_uuid, tags)
	SELECT gen_ulid(now() - g * interval '1 minute'), CASE WHEN g % 3 = 0 THEN gen_ulid() END,
		gen_random_uuid(), ARRAY[gen_ulid(), gen_ulid()]
	FROM generate_series(1, 20000) g;
INSERT INTO items (id) VALUES ('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
CREATE INDEX items_parent_hash ON items USING hash (parent);
CREATE INDEX items_id_brin ON items USING brin (id);
CREATE INDEX items_id_multi ON items USING brin (id ulid_minmax_multi_ops);
CREATE INDEX items_id_bloom ON items USING brin (id ulid_bloom_ops);
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_monotonic_ulid(), body text) PARTITION BY RANGE (id);
CREATE TABLE events_old PARTITION OF events FOR VALUES FROM (MINVALUE) TO ('2025-01-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_new PARTITION OF events FOR VALUES FROM ('2025-01-01 00:00+00'::timestamptz::ulid) TO (MAXVALUE);
INSERT INTO events (id, body) SELECT gen_ulid('2024-06-01 00:00+00'::timestamptz + g * interval '1 hour'), 'e' || g
	FROM generate_series(1, 10000) g;
CREATE TABLE shards (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE shards_0 PARTITION OF shards FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE shards_1 PARTITION OF shards FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO shards SELECT id, 1 FROM items;
CREATE TABLE legacy (u uuid PRIMARY KEY);
INSERT INTO legacy SELECT as_uuid FROM items WHERE as_uuid IS NOT NULL;
CREATE TABLE links (
	to_item uuid REFERENCES items (id),
	to_legacy ulid REFERENCES legacy (u)
);
INSERT INTO links SELECT id, as_uuid FROM items WHERE as_uuid IS NOT NULL ORDER BY id LIMIT 1000;
CREATE VIEW linked AS
	SELECT i.id, l.u FROM items i JOIN legacy l ON i.as_uuid = l.u WHERE i.id > l.u;
CREATE TABLE bookings (room ulid NOT NULL, during tstzrange NOT NULL,
	EXCLUDE USING gist (room WITH =, during WITH &&));
INSERT INTO bookings SELECT id, tstzrange('2025-01-01 10:00+00', '2025-01-01 11:00+00')
	FROM items ORDER BY id LIMIT 1000;
CREATE TABLE posts (id ulid NOT NULL, tags text[] NOT NULL);
INSERT INTO posts SELECT id, ARRAY['t' || (n % 5)]
	FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM items) s;
CREATE INDEX posts_id_tags ON posts USING gin (id, tags);
CREATE TABLE spans (batch int PRIMARY KEY, ids ulidrange NOT NULL, EXCLUDE USING gist (ids WITH &&));
INSERT INTO spans SELECT g, ulidrange(ulid_min_at('2025-01-01 00:00+00'::timestamptz + g * interval '1 day'),
									  ulid_min_at('2025-01-01 00:00+00'::timestamptz + (g + 1) * interval '1 day'))
	FROM generate_series(1, 100) g;
));

my $dump = $node->basedir . '/source.dump';
$node->command_ok(
	[ 'pg_dump', '-Fc', '-f', $dump, '-d', 'source' ],
	'pg_dump -Fc of a database using ulid in columns, arrays, defaults, keys, indexes and partitions'
);
$node->safe_psql('postgres', 'CREATE DATABASE restored');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', 'restored', $dump ],
	'pg_restore into a new database');

# Row count and a digest of every row in id order, the same in both.
my %rows = (items => 20002, events => 10000, shards => 20002, links => 1000,
	bookings => 1000, posts => 20002, spans => 100);
for my $table (sort keys %rows)
{
	my $query =
	  "SELECT count(*) || ' rows, md5 ' || md5(string_agg(t::text, '|' ORDER BY t::text)) FROM $table t";
	my $source = $node->safe_psql('source', $query);
	my $restored = $node->safe_psql('restored', $query);
	ok($source =~ /^$rows{$table} rows, md5 [0-9a-f]{32}$/ && $restored eq $source,
		"restored $table is identical, row for row ($source)")
	  or diag "restored: $restored";
}

is( $node->safe_psql(
		'restored',
		"SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes WHERE tablename = 'items'"
	),
	'items_id_bloom items_id_brin items_id_multi items_parent_hash items_pkey',
	'restored indexes: primary key, hash, three BRIN');
is( $node->safe_psql(
		'restored',
		"INSERT INTO items DEFAULT VALUES RETURNING ulid_time(id) > now() - interval '1 minute'"
	),
	't',
	'restored default gen_ulid() works');
is( $node->safe_psql(
		'restored',
		"INSERT INTO events (body) VALUES ('new') RETURNING tableoid::regclass"),
	'events_new',
	'restored range partitions route new rows');
is( $node->safe_psql(
		'restored',
		"SELECT count(*) > 0 AND bool_and(satisfies_hash_partition('shards'::regclass, 2, 0, id)) FROM shards_0"
	),
	't',
	'restored hash partitions hold the rows their hash says');

# Foreign keys between ulid and uuid, both ways, are restored and enforced.
my ($ret, $out, $err) = $node->psql('restored',
	"INSERT INTO links (to_item) VALUES ('00000000-0000-0000-0000-000000000001')");
like($err, qr/violates foreign key constraint "links_to_item_fkey"/,
	'restored foreign key from a uuid column to a ulid key is enforced');
($ret, $out, $err) = $node->psql('restored',
	"INSERT INTO links (to_legacy) VALUES ('00000000000000000000000001')");
like($err, qr/violates foreign key constraint "links_to_legacy_fkey"/,
	'restored foreign key from a ulid column to a uuid key is enforced');
# The GiST and GIN classes and the range type are restored with their
# indexes: the exclusion constraints hold, the GIN index answers.
($ret, $out, $err) = $node->psql('restored',
	'INSERT INTO bookings SELECT room, during FROM bookings ORDER BY room LIMIT 1');
like($err, qr/conflicting key value violates exclusion constraint/,
	'restored exclusion constraint on (ulid WITH =, tstzrange WITH &&) is enforced');
($ret, $out, $err) = $node->psql('restored',
	'INSERT INTO spans SELECT 1000, ids FROM spans WHERE batch = 50');
like($err, qr/conflicting key value violates exclusion constraint/,
	'restored exclusion constraint on a ulidrange is enforced');
my $gin_query = "SELECT count(*) FROM posts WHERE id > (SELECT id FROM items ORDER BY id OFFSET 5000 LIMIT 1) AND tags @> '{t1}'";
like( $node->safe_psql('restored', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $gin_query"),
	qr/Bitmap Index Scan on posts_id_tags/, 'restored multi-column GIN index (ulid, text[]) is used');
is( $node->safe_psql('restored', "SET enable_seqscan = off; $gin_query"),
	$node->safe_psql('source', "SET enable_indexscan = off; SET enable_bitmapscan = off; $gin_query"),
	'restored GIN index finds the rows a sequential scan of the source finds');
is( $node->safe_psql('restored', 'SELECT count(*) FROM linked'),
	$node->safe_psql('source', 'SELECT count(*) FROM linked'),
	'restored view comparing ulid with uuid gives the same rows');

# The event trigger warns once for each column default that generates uuids,
# not once for each statement that leaves it: pg_restore makes a table that
# inherits one (INHERITS) and then sets the inherited column's default again
# (ALTER TABLE ONLY ... SET DEFAULT), and makes a partition as a table of its
# own before attaching it.  (1.2 warned twice for the inheriting table.)
$node->safe_psql('postgres', 'CREATE DATABASE warned');
($ret, $out, $err) = $node->psql('warned', q{
	CREATE EXTENSION ulid;
	CREATE TABLE parent (id ulid DEFAULT gen_random_uuid(), n int);
	CREATE TABLE child (x int) INHERITS (parent);
	CREATE TABLE part (id ulid DEFAULT gen_random_uuid(), k int) PARTITION BY LIST (k);
	CREATE TABLE part1 PARTITION OF part FOR VALUES IN (1)});
my @made = $err =~ /default of ulid column "id" of table "(\w+)" generates uuids/g;
is(join(' ', @made), 'parent part', 'made by hand: one warning for each default set, none for what inherits it');
my $warned_dump = $node->basedir . '/warned.dump';
$node->command_ok([ 'pg_dump', '-Fc', '-f', $warned_dump, '-d', 'warned' ], 'pg_dump of the tables with uuid defaults');
$node->safe_psql('postgres', 'CREATE DATABASE warned_restored');
my ($restore_out, $restore_err);
IPC::Run::run([ 'pg_restore', '-v', '-d', $node->connstr('warned_restored'), $warned_dump ],
	'>', \$restore_out, '2>', \$restore_err);
my @restored = sort $restore_err =~ /default of ulid column "id" of table "(\w+)" generates uuids/g;
is(join(' ', @restored), 'child parent part part1',
	'pg_restore -v: one warning for each table\'s column, none twice');

$node->stop;
done_testing();
