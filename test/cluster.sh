#!/usr/bin/env bash
# Cluster-wide gen_monotonic_ulid(): run by bin/test inside a throwaway
# cluster started with shared_preload_libraries = 'ulid' (pg_virtualenv sets
# PGHOST, PGPORT, PGUSER and PGPASSWORD).  Prints "ok - name" or
# "FAILED - name: why" per check and ends with "cluster: N passed, M failed".
set -uo pipefail
export PGOPTIONS='-c client_min_messages=warning'
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() { echo "FAILED - $1: $2"; failed=$((failed + 1)); }
# check NAME SQL: the query must print exactly "t".
check() {
	local got
	got=$(psql -X -At -v ON_ERROR_STOP=1 -c "$2" 2>&1)
	if [ "$got" = t ]; then pass "$1"; else fail "$1" "$got"; fi
}
sql() { psql -X -At -q -v ON_ERROR_STOP=1 -c "$1"; }

sql "CREATE EXTENSION IF NOT EXISTS ulid"

check "scope is cluster when preloaded" \
	"SELECT ulid_monotonic_scope() = 'cluster'"

# 8 pgbench clients, 10 values per transaction, 200,000 values in all; each
# row records its client and a sequence number taken in the same row.
sql "DROP TABLE IF EXISTS mono; DROP SEQUENCE IF EXISTS mono_seq;
	CREATE SEQUENCE mono_seq;
	CREATE UNLOGGED TABLE mono (client int, seq bigint, id ulid)"
cat > "$work/mono.pgbench" <<'SQL'
INSERT INTO mono SELECT :client_id, nextval('mono_seq'), gen_monotonic_ulid() FROM generate_series(1, 10);
SQL
if pgbench -n -c 8 -j 2 -t 2500 -f "$work/mono.pgbench" >"$work/mono.log" 2>&1; then
	check "8 clients: 200,000 values" "SELECT count(*) = 200000 FROM mono"
	check "8 clients: no duplicates" "SELECT count(DISTINCT id) = count(*) FROM mono"
	check "8 clients: each client's values strictly increase" \
		"SELECT count(*) = 0 FROM (SELECT id, lag(id) OVER (PARTITION BY client ORDER BY seq) AS prev FROM mono) s WHERE id <= prev"
else
	fail "8 clients" "pgbench failed: $(tail -5 "$work/mono.log")"
fi

# Two sessions alternate, A, B, A, B, ...: each call starts after the
# previous one returned, so each value must exceed the one before it.
mkfifo "$work/a.in" "$work/a.out" "$work/b.in" "$work/b.out"
psql -X -At -q <"$work/a.in" >"$work/a.out" 2>&1 &
psql -X -At -q <"$work/b.in" >"$work/b.out" 2>&1 &
exec 3>"$work/a.in" 4<"$work/a.out" 5>"$work/b.in" 6<"$work/b.out"
prev=""
bad=0
for i in $(seq 1 2000); do
	if [ $((i % 2)) -eq 1 ]; then
		echo "SELECT gen_monotonic_ulid();" >&3
		read -r -t 30 v <&4 || { v=timeout; bad=$((bad + 1)); }
	else
		echo "SELECT gen_monotonic_ulid();" >&5
		read -r -t 30 v <&6 || { v=timeout; bad=$((bad + 1)); }
	fi
	# Canonical ULID text compares like the values (fixed width, 0-9 < A-Z).
	if [ -n "$prev" ] && ! [[ "$v" > "$prev" ]]; then
		bad=$((bad + 1))
		[ "$bad" -eq 1 ] && echo "  call $i returned $v after $prev"
	fi
	prev=$v
done
exec 3>&- 5>&- 4<&- 6<&-
wait
if [ "$bad" -eq 0 ] && [[ "$prev" =~ ^[0-7][0-9A-Z]{25}$ ]]; then
	pass "two alternating sessions: 2,000 values, each greater than the last"
else
	fail "two alternating sessions" "$bad values out of order (last: $prev)"
fi

# Fresh backends of a server that preloads the library each draw their own
# random bytes.  (That a pool inherited through fork() is refilled is
# checked directly by test/unit.c, pool_fork.)
randoms=$(for i in $(seq 1 20); do psql -X -At -c "SELECT substr(gen_ulid()::text, 11)"; done | sort -u | wc -l)
if [ "$randoms" -eq 20 ]; then
	pass "fresh backends: 20 distinct random parts (the fork refill itself: test/unit.c pool_fork)"
else
	fail "fresh backends" "only $randoms distinct random parts in 20 backends"
fi

# Crash: kill -9 one backend while 4 clients generate; after the crash restart
# the function works and continues above every committed value.
# An unlogged table is emptied by crash recovery: proof the restart happened.
sql "DROP TABLE IF EXISTS crash, crash_marker; CREATE TABLE crash (id ulid);
	CREATE UNLOGGED TABLE crash_marker AS SELECT 1 AS x"
cat > "$work/crash.pgbench" <<'SQL'
INSERT INTO crash SELECT gen_monotonic_ulid() FROM generate_series(1, 10);
SQL
pgbench -n -c 4 -j 2 -T 10 -f "$work/crash.pgbench" >"$work/crash.log" 2>&1 &
bench=$!
victim=""
for i in $(seq 1 100); do
	victim=$(sql "SELECT pid FROM pg_stat_activity WHERE application_name = 'pgbench' AND state = 'active' LIMIT 1")
	[ -n "$victim" ] && [ "$(sql "SELECT count(*) > 0 FROM crash")" = t ] && break
	sleep 0.1
done
[ -n "$victim" ] && kill -9 "$victim"
wait "$bench"
for i in $(seq 1 60); do
	pg_isready -q && psql -X -At -c "SELECT 1" >/dev/null 2>&1 && break
	sleep 1
done
check "after kill -9 of backend $victim: crash recovery ran, committed rows are there" \
	"SELECT NOT EXISTS (SELECT FROM crash_marker) AND count(*) > 0 FROM crash"
check "after the crash: gen_monotonic_ulid() works and exceeds every committed value" \
	"SELECT gen_monotonic_ulid() > max(id) FROM crash"
check "after the crash: still strictly increasing" \
	"SELECT bool_and(id > prev) FROM (SELECT id, lag(id) OVER (ORDER BY n) prev FROM (SELECT n, gen_monotonic_ulid() id FROM generate_series(1, 10000) n) s) s2 WHERE prev IS NOT NULL"
check "after the crash: scope is still cluster" \
	"SELECT ulid_monotonic_scope() = 'cluster'"

# The sort abort heuristic: many copies of 3 values abandon abbreviated keys,
# and trace_sort says so; distinct ids keep them.
log=$(psql -X -q -c "SET trace_sort = on; SET client_min_messages = log;
	SELECT count(*) FROM (SELECT (ARRAY['01ARYZ6S41TSV4RRFFQ69G5FAV', '01BX5ZZKBKACTAV9WEVGEMMVRZ',
		'01CRYZ6S41TSV4RRFFQ69G5FAV'])[1 + n % 3]::ulid AS id FROM generate_series(1, 100000) n ORDER BY 1) s" 2>&1)
if grep -q 'ulid_abbrev: aborting abbreviation' <<<"$log"; then
	pass "sort of 100,000 rows with 3 distinct ids aborts abbreviation"
else
	fail "sort abort" "no abort message in: $(grep -i abbrev <<<"$log" | head -3)"
fi
log=$(psql -X -q -c "SET trace_sort = on; SET client_min_messages = log;
	SELECT count(*) FROM (SELECT gen_ulid() FROM generate_series(1, 100000) ORDER BY 1) s" 2>&1)
if ! grep -q 'performsort' <<<"$log"; then
	fail "sort of distinct ids" "no trace_sort output: $(head -3 <<<"$log")"
elif grep -q 'ulid_abbrev: aborting' <<<"$log"; then
	fail "sort of distinct ids" "abbreviation was aborted"
else
	pass "sort of 100,000 distinct ids keeps abbreviated keys"
fi

sql "DROP TABLE mono, crash, crash_marker; DROP SEQUENCE mono_seq"
echo "cluster: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
