# Public ids under the server's keys: ulid_encrypt(id), ulid_decrypt(public_id)
# and ulid_decrypt_all(public_id), with the keys in the file that
# ulid.public_id_key_file names.  What the regression suite cannot check
# without a server of its own:
#
# 1. the results are AES-128 under the file's key: `openssl enc
#    -aes-128-ecb -nopad -K <key>` gives the same public ids for 300 ids, and
#    deciphers them back;
# 2. an application role can read the key nowhere (SHOW, current_setting,
#    pg_settings, pg_file_settings, the file itself) and set the file
#    nowhere (SET before and after the library loads, set_config, ALTER
#    ROLE), with the library preloaded and without, in a fresh session and
#    after the library has loaded in it;
# 3. with everything logged (auto_explain with log_min_duration = 0,
#    log_verbose, log_analyze, log_nested_statements; log_statement = all;
#    every parameter; pg_stat_statements), the application's recipes of
#    docs/public-ids.md through the extended protocol, in custom and generic
#    plans, leave in the log and in pg_stat_statements no byte of the key and
#    no ulid of an id looked up by its public id; the same recipes with
#    1.3's two-argument functions and the key bound as a parameter leave
#    both there (the contrast that shows the search finds what it looks for);
# 4. the lookups use the primary key, with custom and generic plans, and
#    find the right rows;
# 5. rotation: a file with a new key first and the old one second makes new
#    public ids under the new key, ulid_decrypt_all() finds rows by public
#    ids of either key, and a session sees the new file from its next
#    transaction, not in the middle of one;
# 6. a file that cannot be used (none set, missing, readable by others, not
#    a key) is an error with its SQLSTATE, and shows nothing of the file;
# 7. a parallel query takes the keys of its transaction (the functions are
#    PARALLEL RESTRICTED).

use strict;
use warnings FATAL => 'all';

use IPC::Run ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# Two random keys, searched for in the log in both cases of their hex digits.
sub random_key { return join '', map { sprintf '%02x', int(rand(256)) } 1 .. 16; }
my $key = random_key();
my $old_key = random_key();

my $node = PostgreSQL::Test::Cluster->new('public_id_key');
$node->init(allows_streaming => 1);
my $keyfile = $node->data_dir . '/ulid_public_id.key';

# Write a key file as an administrator would: a new file, 0600, renamed
# into place.
sub write_keys
{
	my ($content, $mode) = @_;
	my $tmp = "$keyfile.new";
	open my $fh, '>', $tmp or die "$tmp: $!";
	print $fh $content;
	close $fh;
	chmod(defined $mode ? $mode : 0600, $tmp) or die $!;
	rename($tmp, $keyfile) or die $!;
}
write_keys("# ulid public id key, current first\n$key\n");

$node->append_conf('postgresql.conf', qq{
ulid.public_id_key_file = 'ulid_public_id.key'
shared_preload_libraries = 'pg_stat_statements, auto_explain'
log_statement = 'none'
});
$node->start;
$node->safe_psql('postgres', q{
	CREATE EXTENSION ulid;
	CREATE ROLE app LOGIN;
	CREATE TABLE orders (id ulid PRIMARY KEY, n int NOT NULL UNIQUE, total numeric);
	INSERT INTO orders SELECT gen_ulid('2026-01-01 00:00+00'::timestamptz + g * interval '1 second'), g, g
	FROM generate_series(1, 10000) g;
	ANALYZE orders;
	GRANT SELECT ON orders TO app;
});

# --- 1. openssl enc -------------------------------------------------------
my ($openssl) = grep { -x } map { "$_/openssl" } split /:/, $ENV{PATH};
SKIP:
{
	skip 'no openssl command (Debian package openssl)', 2 unless $openssl;
	my ($plain, $public) = split /\|/, $node->safe_psql('postgres', q{
		SELECT string_agg(encode(id::bytea, 'hex'), '' ORDER BY n),
			string_agg(replace(ulid_encrypt(id)::text, '-', ''), '' ORDER BY n)
		FROM orders WHERE n <= 300}, connstr => $node->connstr('postgres') . ' user=app');
	my ($out, $err) = ('', '');
	IPC::Run::run([ $openssl, 'enc', '-aes-128-ecb', '-nopad', '-K', $key ],
		'<', \pack('H*', $plain), '>', \$out, '2>', \$err)
	  or die "openssl enc: $err";
	is(unpack('H*', $out), $public,
		'openssl enc -aes-128-ecb -nopad under the file\'s key gives ulid_encrypt(id)\'s 300 public ids');
	($out, $err) = ('', '');
	IPC::Run::run([ $openssl, 'enc', '-d', '-aes-128-ecb', '-nopad', '-K', $key ],
		'<', \pack('H*', $public), '>', \$out, '2>', \$err)
	  or die "openssl enc -d: $err";
	is($node->safe_psql('postgres', qq{
		SELECT string_agg(encode(ulid_decrypt(substr('$public', 32 * (n - 1) + 1, 32)::uuid)::bytea, 'hex'), '' ORDER BY n)
		FROM orders WHERE n <= 300}),
		unpack('H*', $out), 'openssl enc -d and ulid_decrypt(public_id) give the same 300 ids back');
}
is($node->safe_psql('postgres', qq{
	SELECT count(*) FROM orders WHERE ulid_encrypt(id) = ulid_encrypt(id, '\\x$key')
		AND ulid_decrypt(ulid_encrypt(id)) = id AND ulid_decrypt_all(ulid_encrypt(id)) = ARRAY[id]}),
	'10000', 'the one-argument forms equal the two-argument forms under the same key, and invert');

# --- 2. the application role can neither read nor set the key --------------
# Everything a role could read of a setting, in a fresh session: before any
# ulid function has loaded the library in it, then after.
my $app = $node->connstr('postgres') . ' user=app';
my $probe = q{
	SHOW ulid.public_id_key_file;
	SELECT current_setting('ulid.public_id_key_file', true);
	SELECT string_agg(concat_ws(' ', name, setting, reset_val, boot_val, sourcefile), ', ') FROM pg_settings WHERE name ~ 'ulid';
	SELECT string_agg(array_to_string(setconfig, ' '), ', ') FROM pg_db_role_setting;
};
sub app_psql
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', $sql, connstr => $app, on_error_stop => 0);
	return ($ret, "$out\n$err");
}
sub no_key_in
{
	my ($text, $name) = @_;
	unlike($text, qr/\Q$key\E|\Q$old_key\E/i, $name);
}

# ALTER SYSTEM, on a server whose configuration does not name the setting
# yet, in a session that has not loaded the library: refused before 17,
# which takes unknown custom settings; after LOAD 'ulid', accepted, as
# docs/public-ids.md says.
{
	my $fresh = PostgreSQL::Test::Cluster->new('alter_system');
	$fresh->init;
	$fresh->start;
	my ($r, $o, $e) = $fresh->psql('postgres', "ALTER SYSTEM SET ulid.public_id_key_file = 'k'");
	if ($fresh->pg_version >= 17)
	{
		is($r, 0, 'ALTER SYSTEM without LOAD: accepted from 17 on');
	}
	else
	{
		like($e, qr/unrecognized configuration parameter "ulid.public_id_key_file"/,
			'ALTER SYSTEM without LOAD: refused before 17');
	}
	($r, $o, $e) = $fresh->psql('postgres', "LOAD 'ulid'; ALTER SYSTEM SET ulid.public_id_key_file = 'k'");
	is($e, '', "ALTER SYSTEM after LOAD 'ulid': accepted");
	$fresh->stop;
}

for my $preloaded (0, 1)
{
	my $setup = $preloaded ? 'ulid preloaded' : 'ulid not preloaded';
	if ($preloaded)
	{
		$node->append_conf('postgresql.conf',
			"shared_preload_libraries = 'pg_stat_statements, auto_explain, ulid'");
		$node->restart;
	}
	my ($ret, $before) = app_psql($probe);
	like($before, qr/ulid_public_id\.key/, "$setup, a fresh session: the role sees the file's name");
	no_key_in($before, "$setup, a fresh session: and nothing of the key");
	($ret, my $after) = app_psql("SELECT ulid_encrypt(gen_ulid()) IS NOT NULL AS loaded; $probe");
	like($after, qr/ulid_public_id\.key/, "$setup, after the library loads: the role sees the file's name");
	no_key_in($after, "$setup, after the library loads: and nothing of the key");

	my ($r1, $file) = app_psql("SELECT pg_read_file('ulid_public_id.key')");
	like($file, qr/permission denied for function pg_read_file/, "$setup: the role cannot read the file");
	my ($r2, $fs) = app_psql("SELECT * FROM pg_file_settings");
	like($fs, qr/permission denied/, "$setup: nor pg_file_settings");

	# A file of the role's own, pointed to in every way a role could.
	my $own = $node->basedir . '/app.key';
	open my $fh, '>', $own or die $!;
	print $fh ('0' x 32) . "\n";
	close $fh;
	chmod 0600, $own;
	my $server_result = $node->safe_psql('postgres',
		"SELECT ulid_encrypt('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid, '\\x$key')");
	($ret, my $set_before) = app_psql(
		"SET ulid.public_id_key_file = '$own'; SELECT ulid_encrypt('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid); SHOW ulid.public_id_key_file");
	like($set_before, qr/\Q$server_result\E/,
		"$setup: SET before the library loads: the server's key is used all the same");
	unlike($set_before, qr/app\.key/, "$setup: and the setting is the server's");
	($ret, my $set_after) = app_psql(
		"SELECT ulid_encrypt(gen_ulid()) IS NOT NULL; SET ulid.public_id_key_file = '$own'");
	like($set_after, qr/parameter "ulid.public_id_key_file" cannot be changed now/,
		"$setup: SET after it loads is refused");
	($ret, my $set_config) = app_psql(
		"SELECT ulid_encrypt(gen_ulid()) IS NOT NULL; SELECT set_config('ulid.public_id_key_file', '$own', true)");
	like($set_config, qr/cannot be changed now/, "$setup: so is set_config");
	($ret, my $alter_role) = app_psql("ALTER ROLE app SET ulid.public_id_key_file = '$own'");
	like($alter_role, qr/permission denied to set parameter "ulid.public_id_key_file"|parameter "ulid.public_id_key_file" cannot be changed now/,
		"$setup: ALTER ROLE app SET is refused");
}

# --- 3. everything logged --------------------------------------------------
$node->append_conf('postgresql.conf', q{
auto_explain.log_min_duration = 0
auto_explain.log_analyze = on
auto_explain.log_verbose = on
auto_explain.log_nested_statements = on
log_statement = 'all'
log_min_duration_statement = 0
log_parameter_max_length = -1
log_parameter_max_length_on_error = -1
pg_stat_statements.track = 'all'
});
$node->append_conf('postgresql.conf', 'auto_explain.log_parameter_max_length = -1')
  if $node->pg_version >= 16;
$node->restart;
$node->safe_psql('postgres', 'CREATE EXTENSION pg_stat_statements');

# The rows looked up by their public ids, and what would give them away:
# their ulid text, their uuid text and their 32 hex digits.
my @looked_up = (17, 4242, 9999);
my %public;
my @secrets;
for my $n (@looked_up)
{
	my ($id, $as_uuid, $public_id) = split /\|/, $node->safe_psql('postgres',
		"SELECT id, id::uuid, ulid_encrypt(id) FROM orders WHERE n = $n");
	$public{$n} = $public_id;
	(my $hex = $as_uuid) =~ s/-//g;
	push @secrets, $id, $as_uuid, $hex;
}
my %old_public = map {
	$_ => $node->safe_psql('postgres', "SELECT ulid_encrypt(id, '\\x$old_key') FROM orders WHERE n = $_")
} @looked_up;

# The recipes, each a pgbench script run through the extended protocol, the
# parameters bound: twice as an unnamed statement, then 8 times as a
# prepared one on one connection (the first five executions get custom
# plans, with the parameters' values in them, the rest a generic plan).
my %recipes_1_4 = (
	page => 'SELECT ulid_encrypt(id) AS public_id, total FROM orders ORDER BY id DESC LIMIT 3;',
	lookup => 'SELECT total FROM orders WHERE id = ulid_decrypt(:p1::uuid);',
	list => 'SELECT total FROM orders WHERE id IN (SELECT ulid_decrypt(p) FROM unnest(:ps::uuid[]) AS p) ORDER BY id;',
	rotating => 'SELECT total FROM orders WHERE id = ANY (ulid_decrypt_all(:p1::uuid));',
	filter => 'SELECT n FROM orders WHERE ulid_encrypt(id) = :p2::uuid;',
	sort => 'SELECT n FROM orders WHERE n <= 100 ORDER BY ulid_encrypt(id) LIMIT 2;',
);
my %recipes_1_3 = (
	page => 'SELECT ulid_encrypt(id, :key::bytea) AS public_id, total FROM orders ORDER BY id DESC LIMIT 3;',
	lookup => 'SELECT total FROM orders WHERE id = ulid_decrypt(:p1::uuid, :key::bytea);',
	list => 'SELECT total FROM orders WHERE id IN (SELECT ulid_decrypt(p, :key::bytea) FROM unnest(:ps::uuid[]) AS p) ORDER BY id;',
	filter => 'SELECT n FROM orders WHERE ulid_encrypt(id, :key::bytea) = :p2::uuid;',
);

sub run_recipes
{
	my ($recipes, $name) = @_;
	my $offset = -s $node->logfile;
	$node->safe_psql('postgres', 'SELECT pg_stat_statements_reset()');
	for my $recipe (sort keys %$recipes)
	{
		my $script = $node->basedir . "/$name-$recipe.sql";
		open my $fh, '>', $script or die $!;
		print $fh $recipes->{$recipe} . "\n";
		close $fh;
		# -M extended: an unnamed statement, planned again at each
		# execution with the parameters' values, as most drivers do;
		# -M prepared: one named statement, custom plans then a generic one.
		for my $run ([ 'extended', 2 ], [ 'prepared', 8 ])
		{
			my ($out, $err) = ('', '');
			IPC::Run::run(
				[
					'pgbench', '-n', '-M', $run->[0], '-t', $run->[1],
					'-h', $node->host, '-p', $node->port, '-U', 'app',
					'-D', "key=\\x$key",
					'-D', "p1=$public{4242}", '-D', "p2=$public{17}",
					'-D', "ps={$public{17},$public{9999}}",
					'-f', $script, 'postgres'
				],
				'>', \$out, '2>', \$err)
			  or die "pgbench $name $recipe $run->[0]: $err";
		}
	}
	my $log = substr(slurp_file($node->logfile), $offset);
	my $statements = $node->safe_psql('postgres',
		"SELECT string_agg(query, E'\\n') FROM pg_stat_statements WHERE query ~ 'orders'");
	return ($log, $statements);
}

my ($log, $statements) = run_recipes(\%recipes_1_4, 'v14');
my $p4242 = $public{4242};
# The log is the one the test means: every recipe's plan is in it, custom
# and generic.
like($log, qr/Index Cond: \((?:orders\.)?id = ulid_decrypt\('\Q$p4242\E'::uuid\)\)/,
	'1.4: the log holds the lookup\'s custom plan, with the public id');
like($log, qr/Index Cond: \((?:orders\.)?id = ulid_decrypt\(\$1\)\)/,
	'1.4: and its generic plan');
like($log, qr/Index Cond: \((?:orders\.)?id = ANY \(ulid_decrypt_all\(/, '1.4: and the rotating lookup\'s');
like($log, qr/Output: ulid_encrypt\((?:orders\.)?id\)/, '1.4: and the page\'s, verbose');
# ("Parameters:" from 17 on.)
like($log, qr/parameters: \$1 = '\Q$p4242\E'/i, '1.4: and every parameter');
like($statements, qr/ulid_decrypt\(\$1::uuid\)/, '1.4: pg_stat_statements has the statements');
no_key_in($log, '1.4: the log holds no byte of the key');
no_key_in($statements, '1.4: pg_stat_statements holds none');
for my $s (@secrets)
{
	unlike($log, qr/\Q$s\E/i, "1.4: the log holds no ulid looked up by its public id ($s)");
	unlike($statements, qr/\Q$s\E/i, "1.4: nor does pg_stat_statements ($s)");
}

# The contrast: 1.3's recipes, the key bound as a parameter, with the
# logging of parameters off: auto_explain's custom plans carry it all the same.
$node->append_conf('postgresql.conf', 'log_parameter_max_length = 0');
$node->append_conf('postgresql.conf', 'auto_explain.log_parameter_max_length = 0')
  if $node->pg_version >= 16;
$node->reload;
($log, $statements) = run_recipes(\%recipes_1_3, 'v13');
unlike($log, qr/parameters: /i, '1.3: no parameters line is logged');
like($log, qr/Output: ulid_encrypt\((?:orders\.)?id, '\\x$key'::bytea\)/i,
	'1.3: but the key bound as a parameter is in the custom plan auto_explain logs');
like($log, qr/Index Cond: \((?:orders\.)?id = '$secrets[3]'::ulid\)/,
	'1.3: and the lookup, folded at plan time, logs the ulid of the public id');
like($node->safe_psql('postgres', qq{
	PREPARE page(bytea) AS SELECT ulid_encrypt(id, \$1) FROM orders ORDER BY id DESC LIMIT 3;
	EXPLAIN (VERBOSE, COSTS OFF) EXECUTE page('\\x$key');}, connstr => $app),
	qr/ulid_encrypt\(id, '\\x$key'::bytea\)/i, '1.3: EXPLAIN EXECUTE shows the key too');
# A key written into an index expression is in the catalog for every role.
$node->safe_psql('postgres', "CREATE INDEX orders_public ON orders (ulid_encrypt(id, '\\x$old_key'))");
like($node->safe_psql('postgres', "SELECT indexdef FROM pg_indexes WHERE indexname = 'orders_public'",
	connstr => $app), qr/\Q$old_key\E/, '1.3: a key in an index expression: pg_indexes shows it to every role');
$node->safe_psql('postgres', 'DROP INDEX orders_public');

# --- 4. the lookups use the primary key and find the right rows ------------
for my $mode ('force_custom_plan', 'force_generic_plan')
{
	my $plans = $node->safe_psql('postgres', qq{
		SET plan_cache_mode = $mode;
		PREPARE one(uuid) AS SELECT n FROM orders WHERE id = ulid_decrypt(\$1);
		PREPARE several(uuid[]) AS SELECT n FROM orders WHERE id IN (SELECT ulid_decrypt(p) FROM unnest(\$1) AS p) ORDER BY n;
		PREPARE rotating(uuid) AS SELECT n FROM orders WHERE id = ANY (ulid_decrypt_all(\$1));
		EXPLAIN (COSTS OFF) EXECUTE one('$public{4242}');
		EXPLAIN (COSTS OFF) EXECUTE several('{$public{17},$public{9999}}');
		EXPLAIN (COSTS OFF) EXECUTE rotating('$public{4242}');
		EXECUTE one('$public{4242}');
		EXECUTE several('{$public{17},$public{9999}}');
		EXECUTE rotating('$public{4242}');
		EXECUTE one(gen_random_uuid());
	});
	my @pkey = ($plans =~ /Index Scan using orders_pkey on orders/g);
	is(scalar @pkey, 3, "$mode: the three lookups use orders_pkey");
	like($plans, qr/\n4242\n17\n9999\n4242$/, "$mode: and find the rows, and a made-up public id none");
}

# Who can read the key all the same, as docs/public-ids.md says: a member of
# pg_read_server_files, and a base backup.
$node->safe_psql('postgres', 'CREATE ROLE reader LOGIN IN ROLE pg_read_server_files');
like($node->safe_psql('postgres', "CREATE TEMP TABLE k (line text); COPY k FROM 'ulid_public_id.key'; TABLE k",
	connstr => $node->connstr('postgres') . ' user=reader'), qr/\Q$key\E/,
	'a member of pg_read_server_files reads the file with COPY');
$node->backup('with_key');
ok(-f $node->backup_dir . '/with_key/ulid_public_id.key', 'pg_basebackup copies a key file in the data directory');

# --- 5. rotation -----------------------------------------------------------
# A new key first, the old one second: the old public ids are found by
# ulid_decrypt_all() (the current key's candidate first), new public ids are
# the new key's, and a session sees the new file from its next transaction.
write_keys("$old_key\n");
open my $rotated, '>', "$keyfile.rotated" or die $!;
print $rotated "$key\n\n$old_key\n";
close $rotated;
chmod 0600, "$keyfile.rotated";
my $rotation = $node->safe_psql('postgres', qq{
	SELECT ulid_encrypt(id) = ulid_encrypt(id, '\\x$old_key') FROM orders WHERE n = 4242;
	BEGIN;
	SELECT ulid_encrypt(id) = ulid_encrypt(id, '\\x$old_key') FROM orders WHERE n = 4242;
	\\! mv '$keyfile.rotated' '$keyfile'
	SELECT ulid_encrypt(id) = ulid_encrypt(id, '\\x$old_key') FROM orders WHERE n = 4242;
	COMMIT;
	SELECT ulid_encrypt(id) = ulid_encrypt(id, '\\x$key') FROM orders WHERE n = 4242;
});
is($rotation, "t\nt\nt\nt", 'a session uses the new file from its next transaction, not within one');
is($node->safe_psql('postgres', qq{
	SELECT string_agg(n::text, ',' ORDER BY n) FROM orders
	WHERE id = ANY (ulid_decrypt_all('$old_public{17}')) OR id = ANY (ulid_decrypt_all('$public{9999}'))}),
	'17,9999', 'with the old key second, ulid_decrypt_all() finds rows by old and new public ids');
is($node->safe_psql('postgres', qq{
	SELECT (ulid_decrypt_all(p))[1] = ulid_decrypt(p) AND (ulid_decrypt_all(p))[2] = ulid_decrypt(p, '\\x$old_key')
	FROM (VALUES ('$old_public{17}'::uuid)) AS v(p)}),
	't', 'its candidates are the current key\'s, then the previous key\'s');
is($node->safe_psql('postgres', "SELECT count(*) FROM orders WHERE id = ulid_decrypt('$old_public{17}')"),
	'0', 'ulid_decrypt(public_id) takes the current key only');
write_keys("$key\n");
is($node->safe_psql('postgres', "SELECT count(*) FROM orders WHERE id = ANY (ulid_decrypt_all('$old_public{17}'))"),
	'0', 'once the old key is removed from the file, its public ids find nothing');

# --- 6. a file that cannot be used -----------------------------------------
sub key_error
{
	my ($sql) = @_;
	my ($ret, $out, $err) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql", connstr => $app);
	return $err;
}
my $probe_call = "SELECT ulid_encrypt('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid)";
write_keys("$key\n", 0644);
my $err = key_error($probe_call);
like($err, qr/ERROR:  F0000: public id key file "ulid_public_id.key" cannot be used\nDETAIL:  Others can access it/,
	'a file others can read: config_file_error, and why');
no_key_in($err, 'the message shows nothing of the key');
write_keys("$key\nnot-a-key-$old_key\n");
$err = key_error($probe_call);
like($err, qr/F0000: .*\nDETAIL:  Line 2 is not a key: a key is 32 hexadecimal digits\./,
	'a line that is not a key: its number, not its text');
no_key_in($err, 'nothing of either line shown');
write_keys("$key\n", 0640);
like(key_error($probe_call), qr/F0000: .*\nDETAIL:  Others can access it/,
	'group-readable and owned by the server\'s user: refused too');
unlink $keyfile;
mkdir $keyfile or die $!;
like(key_error($probe_call), qr/F0000: .*\nDETAIL:  It is not a regular file\./, 'a directory');
rmdir $keyfile or die $!;
write_keys(join('', map { random_key() . "\n" } 1 .. 17));
like(key_error($probe_call), qr/F0000: .*\nDETAIL:  It holds more than 16 keys\./, 'more than 16 keys');
write_keys("# only a comment\n\n");
like(key_error($probe_call), qr/F0000: .*\nDETAIL:  It holds no key\./, 'no key');
unlink $keyfile;
like(key_error($probe_call), qr/ERROR:  58P01: could not open public id key file "ulid_public_id.key": No such file/,
	'a missing file: undefined_file');
$node->safe_psql('postgres', q{ALTER SYSTEM SET ulid.public_id_key_file = ''; SELECT pg_reload_conf()});
$err = key_error("SELECT ulid_decrypt(gen_random_uuid())");
like($err, qr/ERROR:  55000: no key for public ids is configured\n.*HINT:  Set ulid.public_id_key_file/s,
	'no file set: object_not_in_prerequisite_state, with a hint');
write_keys("$key\n");
$node->safe_psql('postgres', q{ALTER SYSTEM RESET ulid.public_id_key_file; SELECT pg_reload_conf()});

# --- 7. parallel queries ---------------------------------------------------
# The functions are PARALLEL RESTRICTED: a transaction that has used the keys
# keeps them in a parallel query after the file is replaced, as each worker
# would read the file itself.  (Marked PARALLEL SAFE, the second count is 0:
# the workers, the leader not participating, read the new key.)
my $forced = $node->pg_version >= 16 ? 'debug_parallel_query' : 'force_parallel_mode';
open my $next, '>', "$keyfile.next" or die $!;
print $next "$old_key\n";
close $next;
chmod 0600, "$keyfile.next";
my $parallel = $node->safe_psql('postgres', qq{
	SET $forced = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
	SET parallel_leader_participation = off;
	BEGIN;
	SELECT count(*) FROM orders WHERE ulid_encrypt(id) = ulid_encrypt(id, '\\x$key');
	\\! mv '$keyfile.next' '$keyfile'
	SELECT count(*) FROM orders WHERE ulid_encrypt(id) = ulid_encrypt(id, '\\x$key')
		AND ulid_decrypt(ulid_encrypt(id)) = id AND id = ANY (ulid_decrypt_all(ulid_encrypt(id)));
	COMMIT;
	SELECT count(*) FROM orders WHERE ulid_encrypt(id) = ulid_encrypt(id, '\\x$old_key');
});
is($parallel, "10000\n10000\n10000",
	'with parallel plans forced, a transaction keeps its keys after the file is replaced; the next takes the new one');
is($node->safe_psql('postgres', qq{
	SET $forced = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
	SELECT count(*) FROM orders WHERE n > 0}), '10000', 'the same settings make a parallel plan of the table (the control)');
like($node->safe_psql('postgres', qq{
	SET $forced = on; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
	EXPLAIN (COSTS OFF) SELECT count(*) FROM orders WHERE n > 0}), qr/Gather/, 'a Gather, that is');

$node->stop;
done_testing();
