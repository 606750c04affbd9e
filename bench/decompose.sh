#!/usr/bin/env bash
# Where gen_ulid()'s time goes, as nanoseconds per call above the bare
# count(*) over generate_series(1, 1000000): a function call that does
# nothing (pg_backend_pid()), the clock read alone (clock_timestamp()),
# everything gen_ulid() does but the clock read (gen_ulid() of a fixed time),
# and gen_ulid() itself; gen_random_uuid() for the budget of issue 4's 10x.
# A throwaway cluster with bench/run's memory settings; 15 interleaved rounds
# after a warm-up, medians.  Run as root; ~2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib.sh
start_cluster decompose 56401 "work_mem = 256MB" "max_parallel_workers_per_gather = 0" "jit = off"
psql_on decompose -q -c "CREATE EXTENSION ulid"
cases=("floor:*" "call:pg_backend_pid()" "clock:clock_timestamp()"
	"fixed:gen_ulid('2026-12-02 18:00+00')" "gen_ulid:gen_ulid()" "uuid:gen_random_uuid()")
{
	echo '\timing on'
	for round in $(seq 0 15); do
		for c in "${cases[@]}"; do
			echo "\\echo @${c%%:*} $round"
			echo "SELECT count(${c#*:}) FROM generate_series(1, 1000000);"
		done
	done
} >"$lib_root/q.sql"
psql_on decompose -X -q -At -f "$lib_root/q.sql" |
	awk '$1 ~ /^@/ { name = substr($1, 2); round = $2; next }
		$1 == "Time:" && round > 0 { print name, $2 }' |
	python3 -c '
import statistics, sys
t = {}
for line in sys.stdin:
    name, ms = line.split()
    t.setdefault(name, []).append(float(ms))
m = {k: statistics.median(v) for k, v in t.items()}
floor = m["floor"]
ns = lambda k: m[k] - floor  # ms per 1M calls is ns per call
print("| statement | median ms per 1M | ns per call above the floor |")
print("|---|---:|---:|")
for k, what in [("floor", "count(*), the floor"), ("call", "pg_backend_pid(), a call that does nothing"),
                ("clock", "clock_timestamp(), the clock read"),
                ("fixed", "gen_ulid(fixed time), all but the clock read"),
                ("gen_ulid", "gen_ulid()"), ("uuid", "gen_random_uuid()")]:
    print("| %s | %.1f | %.1f |" % (what, m[k], ns(k)))
budget = m["uuid"] / 10 - floor
print()
print("For 10x gen_random_uuid()'"'"'s rows/s a generator may cost %.1f ns above the floor;"
      " the clock read alone costs %.1f, gen_ulid() %.1f." % (budget, ns("clock"), ns("gen_ulid")))
'
