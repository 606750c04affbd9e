# Real client libraries against the ulid type: every test/clients/LANG/run
# (python: psycopg 3, psycopg2, SQLAlchemy, Django, asyncpg, SQLAlchemy's
# asyncio engine on asyncpg, and cryptography, which computes ulid_encrypt's
# public ids without the database; java: pgjdbc; go: pgx; rust:
# tokio-postgres; node: node-postgres, drizzle-orm, postgres.js, Kysely,
# Sequelize, TypeORM, Prisma; ruby: ruby-pg, ActiveRecord; php: PDO's pgsql
# driver, Doctrine DBAL).  Each run script builds what it needs into a scratch
# directory and runs its programs against this cluster, in a fresh database of
# its own where CREATE EXTENSION ulid has run; it prints one line per check:
#
#   ok - CLIENT: WHAT            a check passed
#   FAILED - CLIENT: WHAT: WHY   a check failed
#   SKIP - CLIENT: WHY           CLIENT's library or toolchain is not installed;
#                                or, after checks of CLIENT, a piece of it that
#                                cannot run here (Prisma's schema engine): a
#                                skipped test, required or not
#
# and exits non-zero if a check failed or the program broke.  Other lines
# become diagnostics.  Every client must report checks or a SKIP; a run
# script still running after 15 minutes is stopped.  Both fail here.  A
# skipped client fails here if it is required:
# ULID_REQUIRE_CLIENTS lists the required clients, or says "all" (bin/test on
# the host requires all of them; bin/setup installs them); a packager's plain
# make installcheck requires none.  ULID_CLIENT_LANGUAGES picks the
# languages (below: all under bin/test, Python and Node otherwise).
# ULID_TEST_SEED=N replays the Python clients' random values.

use strict;
use warnings;

use Cwd qw(abs_path);
use File::Temp qw(tempdir);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

# The clients of each language's run script; each must report checks, or
# SKIP when it is not required.  prove runs from the top of the tree.
my %clients = (
	go => ['pgx'],
	java => ['pgjdbc'],
	node => [ 'node-postgres', 'drizzle', 'postgres-js', 'kysely', 'sequelize', 'typeorm', 'prisma' ],
	php => [ 'pdo', 'doctrine-dbal' ],
	python => [
		'psycopg', 'psycopg2', 'sqlalchemy', 'django',
		'cryptography', 'asyncpg', 'sqlalchemy-asyncio'
	],
	ruby => [ 'ruby-pg', 'activerecord' ],
	rust => ['tokio-postgres']);
# ULID_CLIENT_LANGUAGES names the languages to run, or says "all" (bin/test
# does).  Unset, as in a packager's make installcheck or pgxn check: Python
# and Node, which build nothing, where their libraries are installed.
my $languages = $ENV{ULID_CLIENT_LANGUAGES} // 'node python';
my @languages = $languages eq 'all' ? sort keys %clients : split ' ', $languages;
my %required = map { $_ => 1 } split /[\s,]+/, ($ENV{ULID_REQUIRE_CLIENTS} // '');
# A run script that takes longer than this (a hung connection, a stuck
# build) is stopped and fails; a cold Rust build takes about a minute.
my $timeout = 900;

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
	my $status;
	eval {
		IPC::Run::run([ abs_path("test/clients/$lang/run") ],
			'<', \undef, '>&', \$out, IPC::Run::timeout($timeout));
		$status = $? & 127 ? 'signal ' . ($? & 127) : $? >> 8;
		1;
	} or $status = "stopped after $timeout s ($@)";

	my ($checks, $failures) = (0, 0);
	my (%reported, %skipped, @pieces);
	for my $line (split /\n/, $out)
	{
		if ($line =~ /^ok - (([\w-]+): .*)$/)
		{
			pass("$lang: $1");
			$reported{$2}++;
			$checks++;
		}
		elsif ($line =~ /^FAILED - (([\w-]+): .*)$/)
		{
			fail("$lang: $1");
			$reported{$2}++;
			$checks++;
			$failures++;
		}
		elsif ($line =~ /^SKIP - ([\w-]+): (.*)$/)
		{
			# A client that reports checks may skip a piece of itself.
			if ($reported{$1})
			{
				push @pieces, "$1: $2";
			}
			else
			{
				$skipped{$1} = $2;
			}
		}
		else
		{
			diag("$lang: $line");
		}
	}
	for my $piece (@pieces)
	{
	  SKIP:
		{
			skip "$lang: $piece", 1;
		}
	}
	for my $client (@{ $clients{$lang} })
	{
		next if $reported{$client} && !exists $skipped{$client};
		if (exists $skipped{$client})
		{
		  SKIP:
			{
				skip "$lang: $client: $skipped{$client}", 1
				  unless $required{all} || $required{$client};
				fail("$lang: $client is required but could not run: $skipped{$client}");
				$failures++;
			}
		}
		else
		{
			fail("$lang: $client reported no check and no SKIP");
			$failures++;
		}
	}
	ok($status eq '0' || $failures > 0,
		"$lang: reported $checks checks, exit status $status, " . (time - $started) . ' s');
}

$node->stop;
done_testing();
