#!/usr/bin/env bash
# Replication and scale-out: logical replication of ulid tables in text and
# binary mode, postgres_fdw pushdown of ulid conditions with and without the
# server option extensions 'ulid', and hash partitions on two shard clusters
# through postgres_fdw.  Five throwaway clusters (test/lib.sh, ports
# 56201-56205); run as root.  Prints "ok - name" or "FAILED - name: why"
# per check and ends with "replication: N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"

[ "$(id -u)" -eq 0 ] || { echo "test/replication.sh runs as root (it starts clusters as postgres)"; exit 1; }
if [ ! -f "/usr/share/postgresql/$PG_MAJOR/extension/ulid.control" ]; then
	"$here/../bin/setup" || { echo "replication: 0 passed, 1 failed (setup)"; exit 1; }
fi

psql_db() {
	local name=$1 db=$2
	shift 2
	psql -X -v ON_ERROR_STOP=1 "$(conninfo "$name" "$db")" "$@"
}
# conn_param NAME KEY: one parameter of the cluster's connection string.
conn_param() { conninfo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

start_cluster pub 56201 "wal_level = logical" &&
	start_cluster sub 56202 "max_logical_replication_workers = 8" "max_worker_processes = 16" &&
	start_cluster front 56203 &&
	start_cluster shard1 56204 &&
	start_cluster shard2 56205 ||
	{ fail "start clusters" "see above"; finish replication; exit; }

##
## Logical replication: one publication, two subscriber databases on the
## same cluster, one subscription in text mode and one in binary mode.
##

modes=(text binary)
# The same digest on every side: row counts and an md5 of every column of
# every row in key order.
digest="SELECT format('%s orders %s, %s notes %s',
	(SELECT count(*) FROM orders),
	(SELECT md5(string_agg(format('%s|%s|%s|%s|%s', id, ref, parent, item, qty), E'\n' ORDER BY id)) FROM orders),
	(SELECT count(*) FROM notes),
	(SELECT md5(string_agg(format('%s|%s|%s', order_id, at, body), E'\n' ORDER BY order_id, at, body)) FROM notes))"

# wait_for_catchup: until both subscriptions have applied everything the
# publisher has written (its current WAL position), at most 60 s.
wait_for_catchup() {
	local lsn i
	lsn=$(psql_on pub -At -c "SELECT pg_current_wal_lsn()") || return 1
	for i in $(seq 1 300); do
		[ "$(psql_on pub -At -c "SELECT count(*) = ${#modes[@]} FROM pg_stat_replication
			WHERE application_name LIKE 'orders\_%' AND state = 'streaming' AND replay_lsn >= '$lsn'")" = t ] && return 0
		sleep 0.2
	done
	return 1
}

# wait_for_sync: until every table of both subscriptions has finished its
# initial copy, at most 60 s.
wait_for_sync() {
	local mode i
	for mode in "${modes[@]}"; do
		for i in $(seq 1 301); do
			[ "$(psql_db sub "sub_$mode" -At -c "SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')")" = t ] && break
			[ "$i" -eq 301 ] && return 1
			sleep 0.2
		done
	done
	wait_for_catchup
}

# compare NAME: each subscriber database equals the publisher, and the step
# changed something (a step that silently did nothing would prove nothing).
last=""
compare() {
	local want got mode
	want=$(psql_on pub -At -c "$digest")
	if [ "$want" = "$last" ]; then
		fail "logical replication: $1" "the publisher's tables did not change"
		return
	fi
	last=$want
	for mode in "${modes[@]}"; do
		got=$(psql_db sub "sub_$mode" -At -c "$digest" 2>&1)
		if [ "$got" = "$want" ]; then
			pass "logical replication, $mode mode: $1 (${want%% orders*} orders, $(sed -E 's/.*, ([0-9]+) notes.*/\1/' <<<"$want") notes)"
		else
			fail "logical replication, $mode mode: $1" "publisher: $want; subscriber: $got"
		fi
	done
}

# step NAME SQL: run SQL on the publisher, wait, compare both subscribers.
# After one wait has timed out, the later steps fail without waiting.
lagging=no
step() {
	if ! psql_on pub -q -c "$2"; then
		fail "logical replication: $1" "the publisher rejected the change"
		return
	fi
	if [ "$lagging" = yes ]; then
		fail "logical replication: $1" "not checked: the subscribers stopped catching up before"
		return
	fi
	if ! wait_for_catchup; then
		lagging=yes
		fail "logical replication: $1" "no catch-up within 60 s; subscriber log: $(grep -E 'ERROR|FATAL' "$lib_root/sub/server.log" | tail -3)"
		return
	fi
	compare "$1"
}

psql_on pub -q -f "$here/replication/schema.sql"
psql_on pub -q <<'SQL'
INSERT INTO orders (item, qty) SELECT 'initial ' || g, g FROM generate_series(1, 100) g;
CREATE PUBLICATION orders_pub FOR TABLE orders, notes;
SQL
for mode in "${modes[@]}"; do
	binary=false
	[ "$mode" = binary ] && binary=true
	psql_on sub -q -c "CREATE DATABASE sub_$mode" &&
		psql_db sub "sub_$mode" -q -f "$here/replication/schema.sql" &&
		psql_db sub "sub_$mode" -q -c "CREATE SUBSCRIPTION orders_$mode CONNECTION '$(conninfo pub)'
			PUBLICATION orders_pub WITH (binary = $binary)"
done
check "logical replication: orders_binary is a binary subscription, orders_text is not" sub \
	"SELECT array_agg(subname::text || '=' || subbinary ORDER BY subname) = '{orders_binary=true,orders_text=false}' FROM pg_subscription"

# On PostgreSQL 15 the initial copy is in text form in both modes; the
# changes after it are sent in the subscription's mode.
if wait_for_sync; then
	compare "initial copy"
else
	lagging=yes
	fail "logical replication: initial copy" "no sync within 60 s; subscriber log: $(grep -E 'ERROR|FATAL' "$lib_root/sub/server.log" | tail -3)"
fi

step "10,000 inserts, the smallest and the largest ulid, 100 monotonic ids, notes" "
INSERT INTO orders (parent, item, qty)
SELECT CASE WHEN g % 3 = 0 THEN gen_ulid() END, 'item ' || g, g FROM generate_series(1, 10000) g;
INSERT INTO orders (id, item, qty) VALUES
	('00000000000000000000000000', 'smallest', 0), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'largest', 0);
INSERT INTO orders (id, item, qty) SELECT gen_monotonic_ulid(), 'monotonic ' || g, g FROM generate_series(1, 100) g;
INSERT INTO notes (order_id, body) SELECT id, 'note on ' || item FROM orders WHERE qty % 20 = 5;"

step "updates of non-key columns (a ulid set and cleared)" "
UPDATE orders SET qty = qty + 1, parent = gen_ulid() WHERE qty % 10 = 1;
UPDATE orders SET parent = NULL WHERE qty % 10 = 6;"

step "updates of the ulid key" "
UPDATE orders SET id = gen_ulid() WHERE qty % 10 = 2;
UPDATE orders SET id = ref::ulid WHERE qty % 10 = 3;
UPDATE orders SET id = '7ZZZZZZZZZZZZZZZZZZZZZZZZY' WHERE id = '7ZZZZZZZZZZZZZZZZZZZZZZZZZ';"

step "deletes by the ulid key" "
DELETE FROM orders WHERE qty % 10 = 4;
DELETE FROM orders WHERE id = '00000000000000000000000000';"

step "updates and deletes under REPLICA IDENTITY FULL (matched with ulid's =)" "
UPDATE notes SET body = body || ' (edited)' WHERE ulid_hash(order_id) % 2 = 0;
UPDATE notes SET at = gen_ulid() WHERE ulid_hash(at) % 3 = 0;
DELETE FROM notes WHERE ulid_hash(order_id) % 5 = 0;"

##
## postgres_fdw: "front" reads the table items on "pub" through two foreign
## servers, remote (extensions 'ulid') and remote_plain (no option).
##

psql_on pub -q <<'SQL'
CREATE TABLE items (id ulid PRIMARY KEY DEFAULT gen_ulid(), ref uuid, item text);
INSERT INTO items
SELECT gen_ulid('2025-06-01 00:00+00'::timestamptz + g * interval '1 minute'), gen_random_uuid(), 'item ' || g
FROM generate_series(1, 1000) g;
ANALYZE items;
SQL
psql_on front -q -v host="$(conn_param pub host)" -v port="$(conn_param pub port)" -f "$here/replication/fdw.sql"

x=$(psql_on pub -At -c "SELECT id FROM items ORDER BY id OFFSET 499 LIMIT 1")
y=$(psql_on pub -At -c "SELECT id FROM items ORDER BY id OFFSET 500 LIMIT 1")

# plan SCHEMA QUERY: EXPLAIN (VERBOSE, COSTS OFF) on front, with "items"
# meaning SCHEMA.items (public: through remote; plain: through remote_plain).
plan() { psql_on front -At -q -c "SET search_path = $1, public" -c "EXPLAIN (VERBOSE, COSTS OFF) $2" 2>&1; }
# result SCHEMA QUERY: the rows, sorted, on front.
result() { psql_on front -At -q -c "SET search_path = $1, public" -c "$2" 2>&1 | sort; }
truth() { psql_on pub -At -c "$1" 2>&1 | sort; }

got=$(psql_on front -At -c "SELECT count(*), md5(string_agg(format('%s|%s|%s', id, ref, item), ',' ORDER BY id)) FROM items")
got_plain=$(psql_on front -At -c "SELECT count(*), md5(string_agg(format('%s|%s|%s', id, ref, item), ',' ORDER BY id)) FROM plain.items")
want=$(psql_on pub -At -c "SELECT count(*), md5(string_agg(format('%s|%s|%s', id, ref, item), ',' ORDER BY id)) FROM items")
if [ "$got" = "$want" ] && [ "$got_plain" = "$want" ] && [ "${want%%|*}" = 1000 ]; then
	pass "postgres_fdw: both foreign tables return the remote table's 1000 rows"
else
	fail "postgres_fdw: foreign tables return the remote rows" "remote: $want; with extensions: $got; without: $got_plain"
fi

# pushdown NAME QUERY REMOTE LOCAL: through remote the plan's Remote SQL
# contains REMOTE, LOCAL (the sign of local work) is absent, and the rows are
# those of the same query on the remote cluster; through remote_plain the
# plan contains LOCAL and the same rows come back.
pushdown() {
	local name=$1 query=$2 remote=$3 local=$4 p want
	want=$(truth "$query")
	p=$(plan public "$query")
	if grep '^ *Remote SQL: ' <<<"$p" | grep -qF -- "$remote" && ! grep -qF -- "$local" <<<"$p" &&
		! grep -q 'Filter: ' <<<"$p" && [ "$(result public "$query")" = "$want" ]; then
		pass "postgres_fdw: $name is pushed down with extensions 'ulid'"
	else
		fail "postgres_fdw: $name is pushed down with extensions 'ulid'" "$p"
	fi
	p=$(plan plain "$query")
	if grep -qF -- "$local" <<<"$p" && ! grep -qF -- "$remote" <<<"$p" && [ "$(result plain "$query")" = "$want" ]; then
		pass "postgres_fdw: $name is evaluated locally without it"
	else
		fail "postgres_fdw: $name is evaluated locally without it" "$p"
	fi
}

pushdown "id = constant" "SELECT * FROM items WHERE id = '$x'" \
	"WHERE ((id OPERATOR(public.=) '$x'))" "Filter: (items.id = '$x'::ulid)"
pushdown "id < constant" "SELECT * FROM items WHERE id < '$x'" \
	"WHERE ((id OPERATOR(public.<) '$x'))" "Filter: (items.id < '$x'::ulid)"
pushdown "id >= timestamptz::ulid (folded to a constant)" \
	"SELECT * FROM items WHERE id >= '2025-06-01 12:00+00'::timestamptz::ulid" \
	"Remote SQL: SELECT id, ref, item FROM public.items WHERE ((id OPERATOR(public.>=) '01JWNNSVG00000000000000000'))" \
	"Filter: (items.id >= '01JWNNSVG00000000000000000'::ulid)"
pushdown "ulid_time(id) >= timestamptz" "SELECT * FROM items WHERE ulid_time(id) >= '2025-06-01 12:00+00'" \
	"WHERE ((public.ulid_time(id) >= '2025-06-01" "Filter: (ulid_time(items.id) >= "
pushdown "ORDER BY id LIMIT" "SELECT * FROM items ORDER BY id LIMIT 5" \
	"FROM public.items ORDER BY id ASC NULLS LAST LIMIT 5" "Sort Key: items.id"
pushdown "min(id), max(id)" "SELECT min(id), max(id) FROM items" \
	"Remote SQL: SELECT public.min(id), public.max(id) FROM public.items" "Output: min(id), max(id)"
pushdown "id = a OR id = b" "SELECT * FROM items WHERE id = '$x' OR id = '$y'" \
	"WHERE (((id OPERATOR(public.=) '$x') OR (id OPERATOR(public.=) '$y')))" "Filter: ((items.id = '$x'::ulid) OR"

# A parameter of a generic plan is sent as $1::public.ulid.
p=$(psql_on front -At -q -c "PREPARE q(ulid) AS SELECT * FROM items WHERE id >= \$1" \
	-c "SET plan_cache_mode = force_generic_plan" -c "EXPLAIN (VERBOSE, COSTS OFF) EXECUTE q('$x')" 2>&1)
n=$(psql_on front -At -q -c "PREPARE q(ulid) AS SELECT count(*) FROM items WHERE id >= \$1" \
	-c "SET plan_cache_mode = force_generic_plan" -c "EXECUTE q('$x')" 2>&1)
if grep -qF "WHERE ((id OPERATOR(public.>=) \$1::public.ulid))" <<<"$p" && [ "$n" = 501 ]; then
	pass "postgres_fdw: a prepared statement's ulid parameter is pushed down"
else
	fail "postgres_fdw: a prepared statement's ulid parameter is pushed down" "$p ($n rows)"
fi

# stays_local NAME QUERY LOCAL: even with extensions 'ulid', the plan filters
# locally (LOCAL), and the rows are still right.
stays_local() {
	local p
	p=$(plan public "$2")
	if grep -qF -- "$3" <<<"$p" && ! grep 'Remote SQL: ' <<<"$p" | grep -q WHERE && [ "$(result public "$2")" = "$(truth "$2")" ]; then
		pass "postgres_fdw: $1 stays local even with extensions 'ulid'"
	else
		fail "postgres_fdw: $1 stays local even with extensions 'ulid'" "$p"
	fi
}
# postgres_fdw never ships a non-immutable function.
stays_local "a bound computed from now()" "SELECT * FROM items WHERE id >= (now() - interval '1 day')::ulid" \
	"Filter: (items.id >= ((now() - '1 day'::interval))::ulid)"
# A ulid[] constant is not shippable: the implicit array type is not a
# member of the extension.
check "postgres_fdw: ulid[] is not a member of the extension" front \
	"SELECT NOT EXISTS (SELECT FROM pg_depend WHERE classid = 'pg_type'::regclass AND objid = 'ulid[]'::regtype AND deptype = 'e')"
stays_local "id IN (a, b)" "SELECT * FROM items WHERE id IN ('$x', '$y')" \
	"Filter: (items.id = ANY ('{$x,$y}'::ulid[]))"

##
## Sharding: events on front is hash-partitioned on id into four foreign
## tables, two on shard1 and two on shard2.
##

psql_on shard1 -q <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE events_0 (id ulid PRIMARY KEY, body text);
CREATE TABLE events_2 (id ulid PRIMARY KEY, body text);
SQL
psql_on shard2 -q <<'SQL'
CREATE EXTENSION ulid;
CREATE TABLE events_1 (id ulid PRIMARY KEY, body text);
CREATE TABLE events_3 (id ulid PRIMARY KEY, body text);
SQL
psql_on front -q -v shard1_host="$(conn_param shard1 host)" -v shard1_port="$(conn_param shard1 port)" \
	-v shard2_host="$(conn_param shard2 host)" -v shard2_port="$(conn_param shard2 port)" \
	-f "$here/replication/shards.sql"
psql_on front -q -c "INSERT INTO events (body) SELECT 'event ' || g FROM generate_series(1, 10000) g"

shard_of=(shard1 shard2 shard1 shard2)
counts=()
for r in 0 1 2 3; do
	counts[r]=$(psql_on "${shard_of[r]}" -At -c "SELECT count(*) FROM events_$r")
done
total=$(psql_on front -At -c "SELECT count(*) FROM events")
even=yes
for c in "${counts[@]}"; do
	[[ "$c" =~ ^[0-9]+$ ]] && [ "$c" -ge 2000 ] && [ "$c" -le 3000 ] || even=no
done
if [ "$total" = 10000 ] && [ "$even" = yes ] && [ $((counts[0] + counts[1] + counts[2] + counts[3])) = 10000 ]; then
	pass "sharding: 10,000 inserts through events spread over the 4 shard tables (${counts[*]})"
else
	fail "sharding: 10,000 inserts through events spread over the 4 shard tables" "events: $total; shards: ${counts[*]}"
fi

# Read each foreign partition back (MATERIALIZED keeps the test on the
# coordinator: satisfies_hash_partition() with a local oid would otherwise
# be shipped to the shard).
check "sharding: each shard table holds only rows of its remainder (satisfies_hash_partition)" front "
WITH r0 AS MATERIALIZED (SELECT id FROM events_0), r1 AS MATERIALIZED (SELECT id FROM events_1),
     r2 AS MATERIALIZED (SELECT id FROM events_2), r3 AS MATERIALIZED (SELECT id FROM events_3)
SELECT (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 0, id)) FROM r0)
   AND (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 1, id)) FROM r1)
   AND (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 2, id)) FROM r2)
   AND (SELECT bool_and(satisfies_hash_partition('events'::regclass, 4, 3, id)) FROM r3)"

# The same, on the shards, from ulid_hash_extended alone: PostgreSQL hashes a
# one-column key as hash_combine64(0, ulid_hash_extended(id, 0x7A5B22367996DCFD))
# = h + 0x49a0f4dd15e5a8e3, whose remainder modulo 4 is that of h + 3.
for r in 0 1 2 3; do
	check "sharding: events_$r on ${shard_of[r]} holds only ids with (ulid_hash_extended(id, seed) + 3) mod 4 = $r" "${shard_of[r]}" \
		"SELECT count(*) > 0 AND bool_and((ulid_hash_extended(id, x'7A5B22367996DCFD'::bigint) % 4 + 7) % 4 = $r) FROM events_$r"
done

id=$(psql_on shard2 -At -c "SELECT id FROM events_3 ORDER BY body LIMIT 1")
p=$(psql_on front -At -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id = '$id'" 2>&1)
n=$(psql_on front -At -c "SELECT count(*) FROM events WHERE id = '$id'" 2>&1)
if [ "$(grep -c 'Foreign Scan' <<<"$p")" = 1 ] && ! grep -q Append <<<"$p" &&
	grep -qF "Remote SQL: SELECT id, body FROM public.events_3 WHERE ((id OPERATOR(public.=) '$id'))" <<<"$p" && [ "$n" = 1 ]; then
	pass "sharding: WHERE id = constant is planned as one Foreign Scan, on the partition that holds the row"
else
	fail "sharding: WHERE id = constant prunes to one partition" "$p ($n rows)"
fi

p=$(psql_on front -At -q -c "PREPARE q(ulid) AS SELECT * FROM events WHERE id = \$1" \
	-c "SET plan_cache_mode = force_generic_plan" -c "EXPLAIN (COSTS OFF) EXECUTE q('$id')" 2>&1)
if grep -q "Subplans Removed: 3" <<<"$p" && grep -q "Foreign Scan on events_3" <<<"$p" && [ "$(grep -c 'Foreign Scan' <<<"$p")" = 1 ]; then
	pass "sharding: a prepared lookup by id is pruned to one partition at execution"
else
	fail "sharding: a prepared lookup by id is pruned at execution" "$p"
fi

p=$(psql_on front -At -c "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM events WHERE id >= '$id'" 2>&1)
n=$(psql_on front -At -c "SELECT count(*) FROM events WHERE id >= '$id'")
m=0
for r in 0 1 2 3; do
	m=$((m + $(psql_on "${shard_of[r]}" -At -c "SELECT count(*) FROM events_$r WHERE id >= '$id'")))
done
if [ "$(grep -c "WHERE ((id OPERATOR(public.>=) '$id'))" <<<"$p")" = 4 ] && [ "$n" = "$m" ]; then
	pass "sharding: a range on id visits all 4 partitions, filtered on the shards ($n rows)"
else
	fail "sharding: a range on id visits all 4 partitions, filtered on the shards" "$p ($n rows, shards $m)"
fi

out=$(psql_on front -c "INSERT INTO events (id, body) VALUES ('$id', 'again')" 2>&1)
if grep -q 'duplicate key value violates unique constraint "events_3_pkey"' <<<"$out"; then
	pass "sharding: a duplicate id through events is rejected by its shard's primary key"
else
	fail "sharding: a duplicate id through events is rejected by its shard's primary key" "$out"
fi

out=$(psql_on front -c "CREATE UNIQUE INDEX ON events (id)" 2>&1)
if grep -q 'cannot create unique index on partitioned table "events"' <<<"$out"; then
	pass "sharding: events itself cannot have a unique index (its partitions are foreign tables)"
else
	fail "sharding: events itself cannot have a unique index" "$out"
fi

# Changing an id through events updates the row where it is: postgres_fdw
# does not move it to the partition of its new id, where lookups go.
new=$(psql_on front -At -c "SELECT u FROM (SELECT gen_ulid() AS u FROM generate_series(1, 100)) s
	WHERE NOT satisfies_hash_partition('events'::regclass, 4, 3, u) LIMIT 1")
psql_on front -q -c "UPDATE events SET id = '$new' WHERE id = '$id'"
stuck=$(psql_on shard2 -At -c "SELECT count(*) FROM events_3 WHERE id = '$new'")
seen=$(psql_on front -At -c "SELECT count(*) FROM events WHERE id = '$new'")
if [ "$stuck" = 1 ] && [ "$seen" = 0 ]; then
	pass "sharding: an id changed through events stays on its old shard, where a lookup by id misses it"
else
	fail "sharding: an id changed through events stays on its old shard" "on events_3: $stuck; found by id: $seen"
fi
psql_on front -q -c "DELETE FROM events_3 WHERE id = '$new'" -c "INSERT INTO events (id, body) VALUES ('$new', 'moved')"
check "sharding: deleted and inserted again through events, the row is found by its new id" front \
	"SELECT count(*) = 1 FROM events WHERE id = '$new'"

##
## The README's "Replication and scale-out" section: every SQL statement in
## it is run above, and every plan line it quotes is one the checks above
## look for.
##

doc=$here/../README.md
out=$(python3 - "$doc" "$here/replication.sh" "$here"/replication/*.sql <<'PY' 2>&1
import re, sys
doc = open(sys.argv[1]).read()
section = doc.split("## Replication and scale-out", 1)[1].split("\n## ", 1)[0]
def norm(s):
    return re.sub(r"\s+", " ", re.sub(r"--[^\n]*", "", s)).strip()
tests = norm("\n".join(open(f).read() for f in sys.argv[2:]))
blocks, lang, lines = [], None, []
for line in section.splitlines():
    if lang is None and line.startswith("```"):
        lang, lines = line[3:].strip(), []
    elif lang is not None and line.strip() == "```":
        blocks.append((lang, "\n".join(lines)))
        lang = None
    elif lang is not None:
        lines.append(line)
wanted = []
for lang, text in blocks:
    if lang == "sql":
        wanted += [s.strip() for s in norm(text).split(";") if s.strip()]
    else:
        wanted += [norm(l) for l in text.splitlines() if re.match(r"\s*(Remote SQL|Filter):", l)]
for w in wanted:
    if w not in tests:
        print("not run by test/replication.sh:", w)
print(len(wanted), sum(w not in tests for w in wanted))
PY
)
if [[ "$(tail -1 <<<"$out")" =~ ^([0-9]+)\ 0$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
	pass "the documentation's ${BASH_REMATCH[1]} SQL statements and plan lines are run and checked here ($(basename "$doc"))"
else
	fail "the documentation's SQL is run here ($(basename "$doc"))" "$out"
fi

finish replication
