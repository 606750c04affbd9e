# The isolation specs that need a server preloading the library: on such a
# node, gen_monotonic_ulid() is cluster-wide, and test/specs/monotonic_cluster.spec
# pins that its values increase in call order across sessions.
# monotonic.spec (per session, rollbacks; in the Makefile's ISOLATION list,
# so run by make installcheck in backend scope) runs here too, in cluster
# scope, where its promises hold as well.  pg_isolation_regress comes from
# the installation's PGXS directory and runs on the node, where it makes its database.

use strict;
use warnings FATAL => 'all';

use File::Basename qw(dirname);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my @specs = qw(monotonic_cluster monotonic);

my $node = PostgreSQL::Test::Cluster->new('isolation_cluster');
$node->init;
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'ulid'\n");
$node->start;

# The scope the specs run in, seen from a fresh session of the node.
$node->safe_psql('postgres', 'CREATE EXTENSION ulid');
is($node->safe_psql('postgres', 'SELECT ulid_monotonic_scope()'),
	'cluster', 'the node preloads ulid: the monotonic scope is cluster');

# pgxs.mk is in lib/pgxs/src/makefiles; the isolation tester in
# lib/pgxs/src/test/isolation.
chomp(my $pgxs = `pg_config --pgxs`);
chomp(my $bindir = `pg_config --bindir`);
my $isolation_regress =
  dirname(dirname($pgxs)) . '/test/isolation/pg_isolation_regress';
ok(-x $isolation_regress, "pg_isolation_regress found: $isolation_regress");

my $outputdir = "$PostgreSQL::Test::Utils::tmp_check/isolation_cluster";
mkdir $outputdir;
my ($stdout, $stderr);
my $ok = IPC::Run::run(
	[
		$isolation_regress,
		'--host=' . $node->host, '--port=' . $node->port,
		"--bindir=$bindir", '--inputdir=test',
		"--outputdir=$outputdir", '--load-extension=ulid',
		@specs
	],
	'>', \$stdout, '2>', \$stderr);
note $stdout;
ok($ok, "isolation specs in cluster scope: @specs")
  or diag $stderr . (-f "$outputdir/regression.diffs"
	? slurp_file("$outputdir/regression.diffs")
	: "(no regression.diffs)\n");

# The same, as the specs' own sessions saw it: monotonic_cluster.spec's
# first permutation prints the scope, so a pass above means 'cluster' there.
like(slurp_file("$outputdir/results/monotonic_cluster.out"),
	qr/ulid_monotonic_scope\n-+\ncluster /,
	'the spec sessions ran in cluster scope');

$node->stop;
done_testing();
