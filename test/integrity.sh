#!/usr/bin/env bash
# Nothing stored is lost or altered: amcheck after churn, a crash during a
# bulk insert, and pg_dump/pg_restore of every way the type is used.  Uses
# its own throwaway clusters (test/lib.sh); ends "integrity: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
source test/lib.sh

start_cluster main 56300 "max_wal_size = '2GB'" "restart_after_crash = on" || exit 1
psql_on main -q -c "CREATE EXTENSION ulid" -c "CREATE EXTENSION amcheck"

# --- amcheck after churn -------------------------------------------------
psql_on main -q <<'SQL'
CREATE TABLE churn (id ulid PRIMARY KEY DEFAULT gen_monotonic_ulid(), n int, note text);
INSERT INTO churn (n, note) SELECT g, 'row ' || g FROM generate_series(1, 1000000) g;
DELETE FROM churn WHERE random() < 0.2;
UPDATE churn SET note = note || ' updated', n = -n WHERE random() < 0.2;
INSERT INTO churn (id, n) SELECT gen_ulid(now() - random() * interval '30 days'), 0 FROM generate_series(1, 100000);
VACUUM churn;
DELETE FROM churn WHERE n % 7 = 0;
VACUUM churn;
REINDEX INDEX CONCURRENTLY churn_pkey;
SQL
check "amcheck: 1M-row ulid primary key after deletes, updates, VACUUM, REINDEX CONCURRENTLY" main \
	"SELECT bt_index_parent_check('churn_pkey', heapallindexed => true) IS NOT NULL OR true"
check "the primary key holds every row, each once" main \
	"SELECT count(*) = count(DISTINCT id) AND count(*) > 500000 FROM churn"
psql_on main -q <<'SQL'
CREATE TABLE hashed (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int) PARTITION BY HASH (id);
CREATE TABLE hashed_0 PARTITION OF hashed FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE hashed_1 PARTITION OF hashed FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE hashed_2 PARTITION OF hashed FOR VALUES WITH (MODULUS 3, REMAINDER 2);
INSERT INTO hashed (n) SELECT generate_series(1, 300000);
DELETE FROM hashed WHERE n % 5 = 0;
VACUUM hashed;
SQL
check "amcheck: hash-partitioned table, every partition's index" main \
	"SELECT count(*) = 3 FROM (SELECT bt_index_parent_check(c.oid, heapallindexed => true)
		FROM pg_inherits i JOIN pg_index x ON x.indrelid = i.inhrelid JOIN pg_class c ON c.oid = x.indexrelid
		WHERE i.inhparent = 'hashed'::regclass) s"

# --- crash during a bulk insert -----------------------------------------
# Batches of 1,000 rows commit one after another, and each batch number is
# written down once its COMMIT has returned; meanwhile a 3M-row insert runs.
# Its backend is killed with SIGKILL: every batch written down must be there.
psql_on main -q -c "CREATE TABLE crash (batch int, id ulid PRIMARY KEY DEFAULT gen_ulid())"
committed=$lib_root/committed
: >"$committed"
(
	for b in $(seq 1 100000); do
		psql_on main -q -c "INSERT INTO crash (batch) SELECT $b FROM generate_series(1, 1000)" >/dev/null 2>&1 || break
		echo "$b" >>"$committed"
	done
) &
writer=$!
# The big insert then waits inside its transaction, so it is surely running
# (and uncommitted) when it is killed.
psql_on main -q -c "BEGIN" -c "INSERT INTO crash (batch) SELECT 0 FROM generate_series(1, 3000000)" \
	-c "SELECT pg_sleep(60)" -c "COMMIT" >/dev/null 2>&1 &
bulk=$!
victim=""
for i in $(seq 1 100); do
	victim=$(psql_on main -At -c "SELECT pid FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND state = 'active'")
	[ -n "$victim" ] && [ "$(wc -l <"$committed")" -ge 20 ] && break
	sleep 0.1
done
[ -n "$victim" ] && kill -9 "$victim"
wait "$bulk" 2>/dev/null
wait "$writer" 2>/dev/null
for i in $(seq 1 60); do
	psql_on main -At -c "SELECT 1" >/dev/null 2>&1 && break
	sleep 0.5
done
if grep -q "terminated by signal 9" "$lib_root/main/server.log"; then
	pass "kill -9 of the backend running a 3M-row insert: crash restart"
else
	fail "crash" "the server log shows no crash restart"
fi
n=$(wc -l <"$committed")
check "after the crash: all $n committed batches are there, 1,000 rows each, the bulk insert is not" main \
	"SELECT $n >= 20 AND count(DISTINCT batch) = $n AND count(*) = $n * 1000 FROM crash
	 WHERE batch IN (SELECT unnest(string_to_array('$(paste -sd, "$committed")', ',')::int[]))
	 HAVING (SELECT count(*) FROM crash WHERE batch = 0) = 0"
check "after the crash: amcheck clean" main \
	"SELECT bt_index_parent_check('crash_pkey', heapallindexed => true) IS NOT NULL OR true"

# --- pg_dump and pg_restore ----------------------------------------------
psql_on main -q <<'SQL'
CREATE DATABASE source;
\c source
CREATE EXTENSION ulid;
CREATE TABLE items (
	id ulid PRIMARY KEY DEFAULT gen_ulid(),
	parent ulid,
	as_uuid uuid,
	made timestamptz GENERATED ALWAYS AS (ulid_time(id)) STORED,
	tags ulid[]
);
INSERT INTO items (id, parent, as_uuid, tags)
	SELECT gen_ulid(now() - g * interval '1 minute'), CASE WHEN g % 3 = 0 THEN gen_ulid() END,
		gen_random_uuid(), ARRAY[gen_ulid(), gen_ulid()]
	FROM generate_series(1, 20000) g;
INSERT INTO items (id) VALUES ('00000000000000000000000000'), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ');
CREATE INDEX items_parent_hash ON items USING hash (parent);
CREATE INDEX items_id_brin ON items USING brin (id);
CREATE INDEX items_id_multi ON items USING brin (id ulid_minmax_multi_ops);
CREATE INDEX items_id_bloom ON items USING brin (id ulid_bloom_ops);
CREATE TABLE events (id ulid NOT NULL DEFAULT gen_monotonic_ulid(), body text) PARTITION BY RANGE (id);
CREATE TABLE events_old PARTITION OF events FOR VALUES FROM (MINVALUE) TO ('2025-01-01 00:00+00'::timestamptz::ulid);
CREATE TABLE events_new PARTITION OF events FOR VALUES FROM ('2025-01-01 00:00+00'::timestamptz::ulid) TO (MAXVALUE);
INSERT INTO events (id, body) SELECT gen_ulid('2024-06-01 00:00+00'::timestamptz + g * interval '1 hour'), 'e' || g
	FROM generate_series(1, 10000) g;
CREATE TABLE shards (id ulid PRIMARY KEY, n int) PARTITION BY HASH (id);
CREATE TABLE shards_0 PARTITION OF shards FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE shards_1 PARTITION OF shards FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO shards SELECT id, 1 FROM items;
SQL
dump=$lib_root/source.dump
if pg_dump -Fc -f "$dump" "$(conninfo main source)" 2>"$lib_root/dump.log"; then
	pass "pg_dump -Fc of a database using ulid in columns, arrays, defaults, keys, indexes and partitions"
else
	fail "pg_dump" "$(cat "$lib_root/dump.log")"
fi
psql_on main -q -c "CREATE DATABASE restored"
if pg_restore --exit-on-error -d "$(conninfo main restored)" "$dump" 2>"$lib_root/restore.log"; then
	pass "pg_restore into a new database"
else
	fail "pg_restore" "$(head -5 "$lib_root/restore.log")"
fi
src=$(conninfo main source)
r=$(conninfo main restored)
for t in items events shards; do
	q="SELECT count(*) || ' rows, md5 ' || md5(string_agg(t::text, '|' ORDER BY t.id)) FROM $t t"
	a=$(psql -X -At "$src" -c "$q" 2>&1)
	b=$(psql -X -At "$r" -c "$q" 2>&1)
	if [[ "$a" =~ ^[0-9]+\ rows ]] && [ "$a" = "$b" ]; then
		pass "restored $t is identical, row for row ($a)"
	else
		fail "restored $t" "$a vs $b"
	fi
done
got=$(psql -X -At "$r" -c "SELECT count(*) FROM pg_indexes WHERE tablename = 'items'")
[ "$got" = 5 ] && pass "restored indexes: primary key, hash, three BRIN" || fail "restored indexes" "$got"
got=$(psql -X -At -q "$r" -c "INSERT INTO items DEFAULT VALUES RETURNING ulid_time(id) > now() - interval '1 minute'")
[ "$got" = t ] && pass "restored default gen_ulid() works" || fail "restored default" "$got"
got=$(psql -X -At -q "$r" -c "INSERT INTO events (body) VALUES ('new') RETURNING tableoid::regclass")
[ "$got" = events_new ] && pass "restored range partitions route new rows" || fail "restored partitions" "$got"
got=$(psql -X -At "$r" -c "SELECT bool_and(satisfies_hash_partition('shards'::regclass, 2, 0, id)) FROM shards_0")
[ "$got" = t ] && pass "restored hash partitions hold the rows their hash says" || fail "restored hash partitions" "$got"

finish integrity
