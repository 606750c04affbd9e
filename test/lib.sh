# test/lib.sh: sourced by the integration tests (test/*.sh) that need their
# own servers.  Throwaway clusters with initdb and pg_ctl in a temporary
# directory, run as the postgres user, reached through a Unix socket in that
# directory (no TCP), all stopped and removed when the script exits.  Unlike
# pg_virtualenv, any number of them can run at once.
#
#   start_cluster NAME PORT [postgresql.conf lines...]
#       starts cluster NAME; afterwards "psql_on NAME ..." and
#       "conninfo NAME" (a libpq connection string) reach it.
#   pass NAME / fail NAME WHY / check NAME CLUSTER SQL (SQL must print "t")
#   finish LABEL   prints "LABEL: N passed, M failed" and sets the exit status.

PG_MAJOR=${PG_MAJOR:-15}
PG_BIN=/usr/lib/postgresql/$PG_MAJOR/bin
export PGOPTIONS='-c client_min_messages=warning'

lib_root=$(mktemp -d /tmp/ulid-test.XXXXXX)
chmod 755 "$lib_root"
declare -A lib_port
lib_clusters=()
passed=0
failed=0

lib_cleanup() {
	for name in "${lib_clusters[@]}"; do
		runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$lib_root/$name/data" -m immediate stop >/dev/null 2>&1
	done
	rm -rf "$lib_root"
}
trap lib_cleanup EXIT

start_cluster() {
	local name=$1 port=$2 dir=$lib_root/$1
	shift 2
	mkdir -p "$dir"
	chown postgres: "$dir"
	runuser -u postgres -- "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust \
		-E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; return 1; }
	{
		echo "listen_addresses = ''"
		echo "port = $port"
		echo "unix_socket_directories = '$dir'"
		echo "fsync = off"
		echo "logging_collector = off"
		for line in "$@"; do echo "$line"; done
	} >>"$dir/data/postgresql.conf"
	lib_port[$name]=$port
	lib_clusters+=("$name")
	runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null ||
		{ tail -20 "$dir/server.log"; return 1; }
}

conninfo() { echo "host=$lib_root/$1 port=${lib_port[$1]} user=postgres dbname=${2:-postgres}"; }
psql_on() {
	local name=$1
	shift
	psql -X -v ON_ERROR_STOP=1 "$(conninfo "$name")" "$@"
}

pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "FAILED - $1: $2"; failed=$((failed + 1)); }
check() {
	local got
	got=$(psql_on "$2" -At -c "$3" 2>&1)
	if [ "$got" = t ]; then pass "$1"; else fail "$1" "$got"; fi
}
finish() {
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
