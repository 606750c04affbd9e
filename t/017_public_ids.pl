# Public ids (ulid_encrypt, ulid_decrypt) against what the server cannot
# check alone:
#
# 1. OpenSSL's command line: `openssl enc -aes-128-ecb -nopad` enciphers the
#    16 bytes of 300 ids the server made, under three random keys, and
#    deciphers their public ids, with the same bytes as the functions.
# 2. The key in the server log: a key sent as a bind parameter appears in no
#    line of the log, neither when it is of the wrong length (the error and
#    its STATEMENT line) nor in a statement that succeeds, under the default
#    settings; log_statement = all logs bind parameters, and so the key,
#    unless log_parameter_max_length = 0, as docs/public-ids.md says; and a
#    key written into the SQL as a literal is logged with the statement that
#    failed, which is why the guide says to bind it.
#
# pgbench sends the key as a parameter: with -M extended, a :variable in its
# script becomes $1 and the value of -D travels in the Bind message.

use strict;
use warnings FATAL => 'all';

use IPC::Run ();
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $node = PostgreSQL::Test::Cluster->new('public_ids');
$node->init;
# The server's defaults for what is logged (the test harness logs every
# statement otherwise).
$node->append_conf('postgresql.conf', "log_statement = 'none'");
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION ulid');

# --- 1. openssl enc -------------------------------------------------------
my ($openssl) = grep { -x } map { "$_/openssl" } split /:/, $ENV{PATH};
SKIP:
{
	skip 'no openssl command (Debian package openssl)', 6 unless $openssl;

	$node->safe_psql('postgres',
		'CREATE TABLE ids AS SELECT n, gen_ulid() AS id FROM generate_series(1, 300) n');
	for my $k (1 .. 3)
	{
		my $key = join '', map { sprintf '%02x', int(rand(256)) } 1 .. 16;
		my ($plain, $public) = split /\|/, $node->safe_psql('postgres', qq{
			SELECT string_agg(encode(id::bytea, 'hex'), '' ORDER BY n),
				string_agg(replace(ulid_encrypt(id, '\\x$key')::text, '-', ''), '' ORDER BY n)
			FROM ids});
		my ($out, $err) = ('', '');
		IPC::Run::run([ $openssl, 'enc', '-aes-128-ecb', '-nopad', '-K', $key ],
			'<', \pack('H*', $plain), '>', \$out, '2>', \$err)
		  or die "openssl enc: $err";
		is(unpack('H*', $out), $public,
			"key $k: openssl enc -aes-128-ecb -nopad gives ulid_encrypt's 300 public ids");
		($out, $err) = ('', '');
		IPC::Run::run([ $openssl, 'enc', '-d', '-aes-128-ecb', '-nopad', '-K', $key ],
			'<', \pack('H*', $public), '>', \$out, '2>', \$err)
		  or die "openssl enc -d: $err";
		my $back = $node->safe_psql('postgres', qq{
			SELECT string_agg(encode(ulid_decrypt(
				substr('$public', 32 * (n - 1) + 1, 32)::uuid, '\\x$key')::bytea, 'hex'), '' ORDER BY n)
			FROM ids});
		is($back, unpack('H*', $out),
			"key $k: openssl enc -d and ulid_decrypt give the same 300 ids back");
	}
}

# --- 2. the key in the log --------------------------------------------------
# Keys of distinctive digits, to be searched for in the log.
my $short_key = 'c0ffee' x 5;                       # 15 bytes
my $good_key = 'feedfacecafebeef' . 'deadbeef0badf00d';    # 16 bytes
my $script = $node->basedir . '/encrypt.sql';
open my $fh, '>', $script or die $!;
print $fh "SELECT ulid_encrypt('01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid, :key::bytea);\n";
close $fh;

# Run the script once with the key bound as a parameter; returns pgbench's
# exit status and its stderr.
sub run_bound
{
	my ($hexkey) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run(
		[
			'pgbench', '-n', '-t', '1', '-M', 'extended',
			'-h', $node->host, '-p', $node->port,
			'-D', "key=\\x$hexkey", '-f', $script, 'postgres'
		],
		'>', \$out, '2>', \$err);
	return ($? >> 8, $err);
}

sub log_since
{
	my ($offset) = @_;
	return substr(slurp_file($node->logfile), $offset);
}

my $offset = -s $node->logfile;
my ($rc, $err) = run_bound($short_key);
isnt($rc, 0, 'a 15-byte key bound as a parameter is refused');
like($err, qr/key must be 16 bytes, not 15/, 'the client sees the error');
my $log = log_since($offset);
like($log, qr/ERROR:  key must be 16 bytes, not 15/, 'the server logs the error');
like($log, qr/STATEMENT:  SELECT ulid_encrypt\(.*\$1::bytea\)/,
	'and the statement, with $1 where the key was bound');
unlike($log, qr/c0ffee/i, 'the log holds no byte of the key');

$offset = -s $node->logfile;
($rc, $err) = run_bound($good_key);
is($rc, 0, 'a 16-byte key bound as a parameter works');
unlike(log_since($offset), qr/feedface/i, 'default settings: nothing of it is logged');

# log_statement = all logs a statement's bind parameters...
$node->append_conf('postgresql.conf', "log_statement = 'all'");
$node->reload;
$offset = -s $node->logfile;
run_bound($good_key);
like(log_since($offset), qr/parameters: \$1 = '\\xfeedface/i,
	'log_statement = all logs the bound key with the parameters');
# ...unless log_parameter_max_length = 0.
$node->append_conf('postgresql.conf', 'log_parameter_max_length = 0');
$node->reload;
$offset = -s $node->logfile;
($rc) = run_bound($good_key);
is($rc, 0, 'the statement still runs');
my $quiet = log_since($offset);
like($quiet, qr/ulid_encrypt/, 'log_statement = all still logs the statement');
unlike($quiet, qr/feedface/i, 'but with log_parameter_max_length = 0, not the key');

# A key written into the SQL as a literal is logged with a failed statement.
$offset = -s $node->logfile;
my ($ret, $stdout, $stderr) = $node->psql('postgres',
	"SELECT ulid_encrypt(gen_ulid(), '\\x$short_key')");
isnt($ret, 0, 'a literal 15-byte key is refused too');
like(log_since($offset), qr/STATEMENT:.*c0ffeec0ffee/i,
	'and, written as a literal, the key is in the log with the statement');

$node->stop;
done_testing();
