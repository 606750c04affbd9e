# Real clients against the ulid type: the programs in test/clients/, psycopg 3
# (text and binary formats, binary COPY both ways, server-side prepared
# statements, 2,000 random payloads through ulid_recv) and node-postgres (text
# parameters, RETURNING, ordering, the uuid form).  Each "ok - NAME" or
# "FAILED - NAME: WHY" line a client prints is one check here.  Installing
# the clients' libraries is bin/setup's job; if one is missing, this test
# fails and says so under bin/test, and skips it elsewhere.  ULID_TEST_SEED=N replays the Python client's random
# values.

use strict;
use warnings;

use Cwd qw(abs_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# prove runs from the top of the tree.
my $clients = abs_path('test/clients');
my $python = '/usr/bin/python3';    # Debian's, where python3-psycopg lives

my $node = PostgreSQL::Test::Cluster->new('clients');
$node->init;
$node->start;
for my $db ('py', 'js')
{
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	$node->safe_psql($db, 'CREATE EXTENSION ulid');
}

# The clients connect through the libpq environment.
my %client_env = (
	PGHOST => $node->host,
	PGPORT => $node->port,
	PGUSER => $node->safe_psql('postgres', 'SELECT current_user'));

# Runs a client program; every "ok - " and "FAILED - " line it prints becomes
# a TAP check, its other output a diagnostic.  A client that reports no check,
# or exits non-zero without reporting a failed check, is a failure too.
sub run_client
{
	my ($label, $database, @command) = @_;
	my ($out, $checks, $failures) = ('', 0, 0);

	local %ENV = (%ENV, %client_env, PGDATABASE => $database);
	IPC::Run::run(\@command, '<', \undef, '>&', \$out);
	my $status = $? >> 8;
	$status = 'signal ' . ($? & 127) if $? & 127;

	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok - (.*)$/)
		{
			pass("$label: $1");
			$checks++;
		}
		elsif ($line =~ /^FAILED - (.*)$/)
		{
			fail("$label: $1");
			$checks++;
			$failures++;
		}
		else
		{
			diag("$label: $line");
		}
	}
	ok($checks > 0 && ($status eq '0' || $failures > 0),
		"$label: reported $checks checks, exit status $status");
	return;
}

# Whether a client's library is there.  bin/test requires the clients
# (ULID_REQUIRE_CLIENTS=1): a missing one fails.  Elsewhere (a packager's
# plain make installcheck) it is skipped, and says why.
sub client_ready
{
	my ($have, $what) = @_;
	SKIP:
	{
		skip "$what is not installed (bin/setup installs it)", 1
		  unless $have || $ENV{ULID_REQUIRE_CLIENTS};
		ok($have, "$what is installed")
		  or diag "$what is missing: run bin/setup";
	}
	return $have;
}

# psycopg 3 from Debian, for Debian's python3.
run_client('psycopg', 'py', $python, "$clients/psycopg_test.py")
  if client_ready(system($python, '-c', 'import psycopg') == 0,
	'psycopg: python3-psycopg');

# node-postgres, installed by npm ci into test/clients/node/node_modules.
run_client('node', 'js', 'node', "$clients/node/test.js")
  if client_ready(
	-d "$clients/node/node_modules/pg"
	  && system('node', '-e', "require('$clients/node/node_modules/pg')") == 0,
	'node: node and test/clients/node/node_modules/pg');

$node->stop;
done_testing();
