# Real client libraries against the ulid type: every test/clients/LANG/run
# (python: psycopg 3, psycopg2, SQLAlchemy, Django; java: pgjdbc; go: pgx;
# rust: tokio-postgres; node: node-postgres, drizzle-orm).  Each run script
# builds what it needs into a scratch directory and runs its programs against
# this cluster, in a fresh database of its own where CREATE EXTENSION ulid has
# run; it prints one line per check:
#
#   ok - CLIENT: WHAT            a check passed
#   FAILED - CLIENT: WHAT: WHY   a check failed
#   SKIP - CLIENT: WHY           CLIENT's library or toolchain is not installed
#
# and exits non-zero if a check failed or the program broke.  Other lines
# become diagnostics.  A skipped client fails here if it is required:
# ULID_REQUIRE_CLIENTS lists the required clients, or says "all" (bin/test on
# the host requires all of them; bin/setup installs them); a packager's plain
# make installcheck requires none.  ULID_TEST_SEED=N replays the Python
# client's random values; ULID_CLIENT_LANGUAGES="python node" runs only those.

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# prove runs from the top of the tree.  ULID_CLIENT_LANGUAGES picks some.
my @languages = split ' ', ($ENV{ULID_CLIENT_LANGUAGES} // 'go java node python rust');
my %required = map { $_ => 1 } split /[\s,]+/, ($ENV{ULID_REQUIRE_CLIENTS} // '');

my $node = PostgreSQL::Test::Cluster->new('clients');
$node->init;
# JDBC speaks TCP only: the same port on the loopback address too.
$node->append_conf('postgresql.conf', "listen_addresses = '127.0.0.1'");
$node->start;

my %client_env = (
	PGHOST => $node->host,
	PGPORT => $node->port,
	PGTCPHOST => '127.0.0.1',
	PGUSER => $node->safe_psql('postgres', 'SELECT current_user'));

for my $lang (@languages)
{
	unless (-x "test/clients/$lang/run")
	{
		fail("$lang: test/clients/$lang/run is missing or not executable");
		next;
	}
	$node->safe_psql('postgres', "CREATE DATABASE $lang");
	$node->safe_psql($lang, 'CREATE EXTENSION ulid');

	my $build = tempdir("ulid-client-$lang-XXXXXX", TMPDIR => 1, CLEANUP => 1);
	local %ENV = (
		%ENV, %client_env,
		PGDATABASE => $lang,
		ULID_CLIENT_BUILD => $build);
	my $out = '';
	my $started = time;
	IPC::Run::run([ abs_path("test/clients/$lang/run") ],
		'<', \undef, '>&', \$out);
	my $status = $? >> 8;
	$status = 'signal ' . ($? & 127) if $? & 127;

	my ($checks, $failures, $skips) = (0, 0, 0);
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok - (.*)$/)
		{
			pass("$lang: $1");
			$checks++;
		}
		elsif ($line =~ /^FAILED - (.*)$/)
		{
			fail("$lang: $1");
			$checks++;
			$failures++;
		}
		elsif ($line =~ /^SKIP - ([\w-]+): (.*)$/)
		{
			my ($client, $why) = ($1, $2);
			$skips++;
		  SKIP:
			{
				skip "$lang: $client: $why", 1
				  unless $required{all} || $required{$client};
				fail("$lang: $client is required but could not run: $why");
				$failures++;
			}
		}
		else
		{
			diag("$lang: $line");
		}
	}
	ok(($checks > 0 || $skips > 0) && ($status eq '0' || $failures > 0),
		"$lang: reported $checks checks ($skips clients skipped), exit status $status, "
		  . (time - $started) . ' s');
}

$node->stop;
done_testing();
