#!/usr/bin/env bash
# Real clients against the ulid type: psycopg 3 (text and binary formats,
# binary COPY both ways, server-side prepared statements, 2,000 random
# payloads through ulid_recv) and node-postgres (text parameters, RETURNING,
# ordering, the uuid form), and a check that the README's client snippets are
# code these tests run.  Installs Debian's python3-psycopg and node's pg (into
# test/clients/node/node_modules, from package-lock.json) if missing, starts
# its own cluster on port 56100 and ends with "clients: N passed, M failed".
# Run as root, after the extension is installed.  ULID_TEST_SEED=N replays
# the Python tests' random values.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
clients=$root/test/clients
python=/usr/bin/python3 # Debian's python, which python3-psycopg installs into

# run_client LABEL COMMAND...: the client's "ok - " and "FAILED - " lines
# count as checks; its other output is shown.  A client that exits non-zero
# without reporting a failed check, or reports no check at all, is a failure.
run_client() {
	local label=$1 line checks=0 failures=0 rc=none
	shift
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass "$label: ${line#ok - }"; checks=$((checks + 1)) ;;
		"FAILED - "*)
			fail "$label" "${line#FAILED - }"
			checks=$((checks + 1)) failures=$((failures + 1))
			;;
		"__exit_status__ "*) rc=${line#__exit_status__ } ;;
		*) echo "  $line" ;;
		esac
	done < <("$@" 2>&1; echo "__exit_status__ $?")
	if [ "$checks" -eq 0 ]; then
		fail "$label" "ran no check (exit status $rc)"
	elif [ "$rc" != 0 ] && [ "$failures" -eq 0 ]; then
		fail "$label" "exited with status $rc"
	fi
}

# Install what is missing.
if ! "$python" -c 'import psycopg' 2>/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q python3-psycopg >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && apt-get install -y -q python3-psycopg >/dev/null; }
fi
if ! command -v npm >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	{ apt-get update -q && apt-get install -y -q nodejs npm; } >/dev/null
fi
if ! (cd "$clients/node" && node -e 'require("pg")' 2>/dev/null); then
	(cd "$clients/node" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

start_cluster clients 56100 || { fail "start cluster" "see above"; finish clients; exit; }
for db in py js; do
	psql_on clients -q -c "CREATE DATABASE $db" &&
		psql -X -q -v ON_ERROR_STOP=1 "$(conninfo clients $db)" -c "CREATE EXTENSION ulid" ||
		{ fail "CREATE EXTENSION ulid" "see above"; finish clients; exit; }
done

export PGHOST=$lib_root/clients PGPORT=${lib_port[clients]} PGUSER=postgres
PGDATABASE=py run_client psycopg "$python" "$clients/psycopg_test.py"
PGDATABASE=js run_client node node "$clients/node/test.js"
run_client snippets "$python" "$clients/check_snippets.py" "$root"

finish clients
