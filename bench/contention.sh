#!/usr/bin/env bash
# Lock contention of cluster-wide gen_monotonic_ulid(): 8 pgbench clients
# (-j 2) each calling one generator per transaction, in a throwaway cluster
# with shared_preload_libraries = 'ulid' (so gen_monotonic_ulid() takes the
# shared spinlock every call).  Three interleaved 10 s runs per statement,
# median TPS and the ratio to gen_random_uuid().  Run as root; ~2 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
source test/lib.sh
start_cluster contention 56400 "shared_preload_libraries = 'ulid'" "max_connections = 20"
psql_on contention -q -c "CREATE EXTENSION ulid"
declare -A tps
stmts=("SELECT gen_random_uuid()" "SELECT gen_ulid()" "SELECT gen_monotonic_ulid()")
for round in 1 2 3; do
	for s in "${stmts[@]}"; do
		echo "$s;" >"$lib_root/q.sql"
		t=$(pgbench -n -h "$lib_root/contention" -p 56400 -U postgres -c 8 -j 2 -M prepared -T 10 \
			-f "$lib_root/q.sql" postgres 2>/dev/null | awk '/^tps = / { print $3 }')
		tps[$s]="${tps[$s]:-} $t"
		echo "round $round: $s: $t TPS" >&2
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
base=$(median <<<"${tps[SELECT gen_random_uuid()]}")
echo "| statement (8 clients, preloaded) | TPS (median of 3) | ratio to gen_random_uuid() |"
echo "|---|---:|---:|"
for s in "${stmts[@]}"; do
	m=$(median <<<"${tps[$s]}")
	echo "| \`$s\` | $(printf '%.0f' "$m") | $(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.2f", a / b }') |"
done
