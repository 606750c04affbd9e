"""psycopg2 against the ulid type; run by test/clients/python/run with /usr/bin/python3.

psycopg2 speaks text only: a ulid arrives as its 26-character str.  Checks
the default, str and uuid.UUID parameters (uuid.UUID needs register_uuid()),
a typecaster that reads ulid and ulid[] as uuid.UUID, arrays, executemany and
execute_values, PREPARE/EXECUTE, ordering, bytea, and 22P02 on bad text.
Connects through the libpq environment to a database where CREATE EXTENSION
ulid has run, in a schema of its own, psycopg2.  Prints "ok - psycopg2: WHAT"
or "FAILED - psycopg2: WHAT : WHY" per check.  The psycopg2 code blocks of
docs/clients/python.md appear verbatim below (test/check_docs.py checks).
"""

import random

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, expect_sqlstate, run_alone, unb32

ulidcheck.CLIENT = "psycopg2"

# docs/clients/python.md snippet: psycopg2, the imports of the section.
import psycopg2
import psycopg2.extras
# end of snippet

import psycopg2.errors  # the test's own


# --- docs/clients/python.md snippet: psycopg2, ulid read as uuid.UUID ------
# Complete: copied alone, it runs (it imports what it uses).
import uuid

import psycopg2.extensions
import psycopg2.extras

# Crockford's Base32 digits as the digits of int(text, 32).
TO_INT32 = str.maketrans("0123456789ABCDEFGHJKMNPQRSTVWXYZ", "0123456789abcdefghijklmnopqrstuv")


def ulid_to_uuid(text):
    """The uuid.UUID with the 16 bytes of a ULID's canonical text."""
    return uuid.UUID(int=int(text.translate(TO_INT32), 32))


def register_ulid(conn):
    """On conn, read ulid and ulid[] as uuid.UUID, and send uuid.UUID as uuid."""
    psycopg2.extras.register_uuid(conn_or_curs=conn)
    with conn.cursor() as cur:
        cur.execute("SELECT 'ulid'::regtype::oid, 'ulid[]'::regtype::oid")
        oid, array_oid = cur.fetchone()
    ulid_type = psycopg2.extensions.new_type(
        (oid,), "ULID", lambda value, cur: None if value is None else ulid_to_uuid(value))
    ulid_array = psycopg2.extensions.new_array_type((array_oid,), "ULID[]", ulid_type)
    psycopg2.extensions.register_type(ulid_type, conn)
    psycopg2.extensions.register_type(ulid_array, conn)
# --- end of docs/clients/python.md snippet --------------------------------


def plain(conn, rng):
    """What works with no adapter: str in, str out."""
    # docs/clients/python.md snippet: psycopg2, text.
    cur = conn.cursor()
    cur.execute("INSERT INTO orders (item) VALUES (%s) RETURNING id", ("tea",))
    new_id = cur.fetchone()[0]  # a str of 26 characters
    cur.execute("SELECT item FROM orders WHERE id = %s", (new_id,))
    cur.execute("SELECT count(*) FROM orders WHERE id = ANY(%s::ulid[])", ([new_id],))
    expect_equal("= ANY(%s::ulid[]) of a list of str", cur.fetchone()[0], 1)
    check("default: RETURNING id gives a 26-character str",
          isinstance(new_id, str) and len(new_id) == 26, repr(new_id))
    cur.execute("SELECT item, id::uuid::text, id::bytea FROM orders WHERE id = %s", (new_id,))
    item, as_uuid, as_bytes = cur.fetchone()
    expect_equal("str parameter finds the row", item, "tea")
    expect_equal("id::uuid is the text's bytes (own codec)", uuid.UUID(as_uuid).bytes, unb32(new_id))
    expect_equal("id::bytea is a memoryview of the same 16 bytes", bytes(as_bytes), unb32(new_id))
    cur.execute("SELECT %s::bytea::ulid", (psycopg2.Binary(unb32(new_id)),))
    expect_equal("16 bytes sent as bytea, cast to ulid", cur.fetchone()[0], new_id)

    # A list of str is sent as ARRAY['...'], a text[]: the ulid[] cast is needed.
    err = expect_sqlstate("= ANY(%s) of a list of str without the cast: 42883",
                          lambda: cur.execute("SELECT count(*) FROM orders WHERE id = ANY(%s)", ([new_id],)),
                          "42883", lambda e: e.pgcode)
    check("... with the message 'operator does not exist: ulid = text'",
          err is not None and "operator does not exist: ulid = text" in str(err), str(err))
    cur.execute("CREATE TEMP TABLE core_uuid (id uuid)")
    expect_sqlstate("... as for a core uuid column: 42883, uuid = text",
                    lambda: cur.execute("SELECT * FROM core_uuid WHERE id = ANY(%s)", ([as_uuid],)),
                    "42883", lambda e: e.pgcode)
    # A uuid.UUID cannot be sent before register_uuid().
    try:
        cur.execute("SELECT item FROM orders WHERE id = %s", (uuid.UUID(as_uuid),))
        check("uuid.UUID parameter without register_uuid(): can't adapt", False, "it was sent")
    except psycopg2.ProgrammingError as e:
        expect_equal("uuid.UUID parameter without register_uuid(): can't adapt", str(e), "can't adapt type 'UUID'")

    # executemany and execute_values.
    values = [b32(rng.randbytes(16)) for _ in range(100)] + [t for t, _ in VECTORS]
    cur.executemany("INSERT INTO orders (id, item) VALUES (%s, %s)", [(v, "many") for v in values[:50]])
    bulk_ids = values[50:]
    # docs/clients/python.md snippet: psycopg2, execute_values.
    rows = [(order_id, "bulk") for order_id in bulk_ids]  # bulk_ids: a list of ULIDs as str
    ids = psycopg2.extras.execute_values(
        cur, "INSERT INTO orders (id, item) VALUES %s RETURNING id", rows, fetch=True)
    expect_equal("execute_values ... RETURNING id: the values, as str", [r[0] for r in ids], bulk_ids)
    cur.execute("SELECT id FROM orders WHERE item IN ('many', 'bulk') ORDER BY id")
    got = [r[0] for r in cur.fetchall()]
    expect_equal("executemany and execute_values stored the values", sorted(got), sorted(values))
    expect_equal("ordering: ORDER BY id is the text order (103 values)", got, sorted(values))

    # Server-side prepared statements: psycopg2 has none of its own; SQL PREPARE works.
    # docs/clients/python.md snippet: psycopg2, PREPARE.
    cur.execute("PREPARE order_by_id(ulid) AS SELECT item FROM orders WHERE id = $1")
    cur.execute("EXECUTE order_by_id(%s)", (new_id,))
    ok = cur.fetchone() == ("tea",)
    for v in values[:10]:
        cur.execute("EXECUTE order_by_id(%s)", (v,))
        ok = ok and cur.fetchone() == ("many",)
    check("PREPARE order_by_id(ulid), 11 EXECUTEs with str parameters", ok)

    # Bad text: 22P02.
    err = expect_sqlstate("bad text parameter: SQLSTATE 22P02",
                          lambda: cur.execute("SELECT * FROM orders WHERE id = %s", ("01ARYZ6S41TSV4RRFFQ69G5FA",)),
                          "22P02", lambda e: e.pgcode)
    check("bad text parameter: psycopg2.errors.InvalidTextRepresentation",
          isinstance(err, psycopg2.errors.InvalidTextRepresentation), repr(err))
    expect_sqlstate("bad text through EXECUTE: SQLSTATE 22P02",
                    lambda: cur.execute("EXECUTE order_by_id(%s)", ("ILOU" * 6 + "00",)),
                    "22P02", lambda e: e.pgcode)
    return new_id, values


def adapted(conn, new_id, values):
    """With register_ulid(conn): uuid.UUID both ways."""
    # docs/clients/python.md snippet: psycopg2, uuid.UUID.
    register_ulid(conn)
    cur = conn.cursor()
    cur.execute("SELECT id, item FROM orders WHERE id = %s", (new_id,))
    order_id, item = cur.fetchone()  # (UUID('0190...'), 'tea')
    cur.execute("SELECT item FROM orders WHERE id = %s", (order_id,))
    cur.execute("SELECT array_agg(id) FROM orders WHERE id = ANY(%s)", ([order_id],))
    ids = cur.fetchone()[0]  # [UUID('0190...')]
    check("registered: a ulid column reads as uuid.UUID",
          isinstance(order_id, uuid.UUID) and order_id.bytes == unb32(new_id), repr(order_id))
    expect_equal("registered: a ulid[] column reads as a list of uuid.UUID", ids, [order_id])
    cur.execute("SELECT item FROM orders WHERE id = %s", (order_id,))
    expect_equal("registered: a uuid.UUID parameter finds the row", cur.fetchone(), ("tea",))
    cur.execute("SELECT id, id::text AS t, id::uuid AS u FROM orders ORDER BY id")
    rows = cur.fetchall()
    check("registered: every row, as uuid.UUID, equals id::uuid and decodes id::text",
          len(rows) == 104 and all(a == c and a.bytes == unb32(b) for a, b, c in rows), f"{len(rows)} rows")
    expect_equal("registered: ORDER BY id is the uuid.UUID order", [r[0] for r in rows], sorted(r[0] for r in rows))
    cur.execute("SELECT NULL::ulid, ARRAY[NULL, %s]::ulid[]", (new_id,))
    expect_equal("registered: NULL and NULL in an array", cur.fetchone(), (None, [None, order_id]))
    as_uuids = [ulid_to_uuid(v) for v in values]
    cur.execute("SELECT count(*) FROM orders WHERE id = ANY(%s)", (as_uuids,))
    expect_equal("registered: = ANY(%s) of 103 uuid.UUID (sent as uuid[])", cur.fetchone()[0], 103)
    # The uuid.UUID parameter is sent as '...'::uuid; the primary key serves it.
    cur.execute("SET enable_seqscan = off")
    cur.execute("EXPLAIN SELECT item FROM orders WHERE id = %s", (order_id,))
    plan = "\n".join(r[0] for r in cur.fetchall())
    check("registered: the uuid parameter uses orders_pkey", "orders_pkey" in plan, plan)
    cur.execute("RESET enable_seqscan")
    expect_equal("the adapter's codec agrees with the test's on the vectors",
                 [ulid_to_uuid(t).bytes for t, _ in VECTORS], [b for _, b in VECTORS])


def adapter_alone():
    """The adapter block of the docs, copied alone into a fresh interpreter, runs."""
    code = ulidcheck.snippet(__file__, "psycopg2, ulid read as uuid.UUID") + """
conn = psycopg2.connect("")
register_ulid(conn)
cur = conn.cursor()
cur.execute("SELECT '01ARYZ6S41TSV4RRFFQ69G5FAV'::ulid, %s::ulid::text",
            (uuid.UUID("01563df3-6481-d676-4c61-efb99302bd5b"),))
print(cur.fetchone())
"""
    status, out, err = run_alone(code)
    expect_equal("the docs' adapter block alone, in a fresh interpreter: it imports what it uses",
                 (status, out.strip(), err),
                 (0, "(UUID('01563df3-6481-d676-4c61-efb99302bd5b'), '01ARYZ6S41TSV4RRFFQ69G5FAV')", ""))


def main():
    seed = ulidcheck.seed(f"psycopg2 {psycopg2.__version__}")
    conn = psycopg2.connect("")
    conn.autocommit = True
    cur = conn.cursor()
    cur.execute("DROP SCHEMA IF EXISTS psycopg2 CASCADE")
    cur.execute("CREATE SCHEMA psycopg2")
    cur.execute("SET search_path = psycopg2, public")
    cur.execute("CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)")
    new_id, values = plain(conn, random.Random(seed))
    adapted(conn, new_id, values)
    adapter_alone()
    cur.execute("DROP SCHEMA psycopg2 CASCADE")
    conn.close()


if __name__ == "__main__":
    ulidcheck.run(main)
