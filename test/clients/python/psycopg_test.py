"""psycopg 3 against the ulid type; run by test/clients/python/run with /usr/bin/python3.

The default, text and uuid.UUID parameters, text arrays, ordering, 22P02 on
bad text; text and binary formats both ways, binary COPY both ways,
server-side prepared statements, and 2,000 random payloads through
ulid_recv.  Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
PGDATABASE) to a database where CREATE EXTENSION ulid has run, and works in
a schema of its own, psycopg3.  Prints "ok - psycopg: WHAT" or
"FAILED - psycopg: WHAT : WHY" per check; exits non-zero if any check
failed.  The psycopg 3 code blocks of docs/clients/python.md appear verbatim
below (test/check_docs.py checks).
"""

import datetime
import random
import struct

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, expect_sqlstate, unb32

ulidcheck.CLIENT = "psycopg"


# --- docs/clients/python.md snippet: binary adapters ----------------------------
import uuid

import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.types import TypeInfo


class Ulid(bytes):
    """A ULID as its 16 bytes."""


def register_ulid(conn):
    """Send Ulid parameters as binary ulid values; load binary ulid results as Ulid."""
    info = TypeInfo.fetch(conn, "ulid")
    info.register(conn)  # makes ulid[] and copy.set_types(["ulid", ...]) work

    class UlidBinaryDumper(Dumper):
        format = Format.BINARY
        oid = info.oid

        def dump(self, obj):
            return bytes(obj)

    class UlidBinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data):
            return Ulid(data)

    conn.adapters.register_dumper(Ulid, UlidBinaryDumper)
    conn.adapters.register_loader(info.oid, UlidBinaryLoader)
# --- end of docs/clients/python.md snippet --------------------------------------


def readme_text(conn):
    # docs/clients/python.md snippet: text, the default.
    cur = conn.cursor()
    cur.execute("INSERT INTO orders (id, item) VALUES (%s, %s)", ("01ARYZ6S41TSV4RRFFQ69G5FAV", "tea"))
    cur.execute("SELECT id, item FROM orders WHERE id = %s", ("01ARYZ6S41TSV4RRFFQ69G5FAV",))
    row = cur.fetchone()  # ('01ARYZ6S41TSV4RRFFQ69G5FAV', 'tea')
    expect_equal("docs: text insert and select", row, ("01ARYZ6S41TSV4RRFFQ69G5FAV", "tea"))


def readme_uuid(conn):
    # docs/clients/python.md snippet: uuid.UUID parameters.
    order_id = uuid.UUID("01563df3-6481-d676-4c61-efb99302bd5b")  # 01ARYZ6S41TSV4RRFFQ69G5FAV
    cur = conn.cursor()
    cur.execute("SELECT item FROM orders WHERE id = %s", (order_id,))
    row = cur.fetchone()  # ('tea',)
    cur.execute("SELECT id::uuid FROM orders WHERE id = ANY(%s)", ([order_id],))
    back = cur.fetchone()[0]  # UUID('01563df3-6481-d676-4c61-efb99302bd5b')
    expect_equal("docs: select by a uuid.UUID parameter", row, ("tea",))
    expect_equal("docs: = ANY of uuid.UUID values, id::uuid back", back, order_id)
    # The parameter is sent typed uuid, and the primary key still serves it.
    cur.execute("SET enable_seqscan = off")
    plan = "\n".join(r[0] for r in cur.execute("EXPLAIN SELECT item FROM orders WHERE id = %s", (order_id,)))
    check("uuid parameter: the plan uses orders_pkey", "orders_pkey" in plan and "::uuid" in plan, plan)
    cur.execute("RESET enable_seqscan")


def binary_unregistered(conn):
    """A binary cursor before register_ulid(): raw bytes out, bytes in only with ::ulid."""
    # docs/clients/python.md snippet: psycopg 3, binary without the adapter.
    cur = conn.cursor(binary=True)
    cur.execute("SELECT id FROM orders WHERE id = %s", ("01ARYZ6S41TSV4RRFFQ69G5FAV",))
    raw = cur.fetchone()[0]  # bytes: the 16 bytes, as in uuid.UUID(bytes=raw)
    cur.execute("SELECT item FROM orders WHERE id = %s::ulid", (raw,))  # bytes go typed bytea
    row = cur.fetchone()  # ('tea',)
    # end of snippet
    check("binary, no adapter: a ulid comes as bytes of length 16",
          type(raw) is bytes and len(raw) == 16, repr(raw))
    expect_equal("binary, no adapter: the bytes are the uuid's and the text's (own codec)",
                 (raw, raw), (cur.execute("SELECT id::uuid FROM orders WHERE id = %s", ("01ARYZ6S41TSV4RRFFQ69G5FAV",)).fetchone()[0].bytes,
                              unb32("01ARYZ6S41TSV4RRFFQ69G5FAV")))
    expect_equal("binary, no adapter: bytes parameter with %s::ulid finds the row", row, ("tea",))
    expect_equal("binary, no adapter: bytes parameter with %b::ulid too",
                 cur.execute("SELECT item FROM orders WHERE id = %b::ulid", (raw,)).fetchone(), ("tea",))
    err = expect_sqlstate("binary, no adapter: bytes parameter in id = %s, no cast: 42883",
                          lambda: cur.execute("SELECT item FROM orders WHERE id = %s", (raw,)),
                          "42883", lambda e: e.sqlstate)
    check("... with the message 'operator does not exist: ulid = bytea'",
          err is not None and str(err).startswith("operator does not exist: ulid = bytea"), str(err))


def readme_binary(conn):
    # docs/clients/python.md snippet: binary, with the adapters registered.
    register_ulid(conn)
    cur = conn.cursor(binary=True)
    cur.execute("INSERT INTO orders (item) VALUES (%s) RETURNING id", ("coffee",))
    new_id = cur.fetchone()[0]  # a Ulid: the 16 bytes
    cur.execute("SELECT item FROM orders WHERE id = %s", (new_id,))
    as_uuid = uuid.UUID(bytes=new_id)  # what id::uuid returns
    check("docs: binary RETURNING gives a 16-byte Ulid",
          type(new_id) is Ulid and len(new_id) == 16, repr(new_id))
    expect_equal("docs: binary select by Ulid parameter", cur.fetchone(), ("coffee",))
    expect_equal("docs: uuid.UUID(bytes=id) equals id::uuid", as_uuid,
                 conn.execute("SELECT %s::uuid", (new_id,)).fetchone()[0])

    # docs/clients/python.md snippet: binary COPY.
    with cur.copy("COPY orders (id, item) TO STDOUT (FORMAT binary)") as copy:
        copy.set_types(["ulid", "text"])
        rows = list(copy.rows())  # [(Ulid, str), ...]
    with cur.copy("COPY orders_archive (id, item) FROM STDIN (FORMAT binary)") as copy:
        copy.set_types(["ulid", "text"])
        for row in rows:
            copy.write_row(row)

    want = conn.execute("SELECT id::text, item FROM orders ORDER BY id").fetchall()
    expect_equal("docs: binary COPY out with set_types",
                 sorted((b32(i), item) for i, item in rows), want)
    expect_equal("docs: binary COPY in with set_types",
                 conn.execute("SELECT id::text, item FROM orders_archive ORDER BY id").fetchall(), want)


def round_trips(conn, rng):
    samples = VECTORS + [(b32(b), b) for b in (rng.randbytes(16) for _ in range(200))]
    conn.execute("CREATE TABLE t (n int PRIMARY KEY, id ulid, how text)")

    # Text parameters in, text results out.
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO t VALUES (%s, %s, 'text')",
                        [(n, text) for n, (text, _) in enumerate(samples)])
        cur.execute("SELECT n, id, id::uuid FROM t WHERE how = 'text' ORDER BY n")
        got = cur.fetchall()
    expect_equal("text: values read back as text", [r[1] for r in got], [t for t, _ in samples])
    expect_equal("text: id::uuid is the same 16 bytes", [r[2].bytes for r in got], [b for _, b in samples])
    expect_equal("text: lower case and I/L/O read as canonical",
                 conn.execute("SELECT %s::ulid::text", ("01aryz6s4ltsv4rrffq69g5fav",)).fetchone()[0],
                 "01ARYZ6S41TSV4RRFFQ69G5FAV")

    # Binary parameters in, binary results out.
    base = len(samples)
    with conn.cursor(binary=True) as cur:
        cur.executemany("INSERT INTO t VALUES (%s, %s, 'binary')",
                        [(base + n, Ulid(b)) for n, (_, b) in enumerate(samples)])
        cur.execute("SELECT id, id::uuid, id::text FROM t WHERE how = 'binary' ORDER BY n")
        got = cur.fetchall()
        check("binary: results are Ulid", all(type(r[0]) is Ulid for r in got), repr(got[0]))
        expect_equal("binary: values read back as the same bytes", [r[0] for r in got], [b for _, b in samples])
        expect_equal("binary: id::uuid is the same 16 bytes", [r[1].bytes for r in got], [b for _, b in samples])
        expect_equal("binary: id::text is the Base32 of the bytes", [r[2] for r in got], [t for t, _ in samples])

        # Across formats: what went in as text comes out in binary, and back.
        cur.execute("SELECT a.id, b.id FROM t a JOIN t b ON b.n = a.n + %s WHERE a.how = 'text' ORDER BY a.n",
                    (base,))
        pairs = cur.fetchall()
        check("text in, binary out: every row matches its binary twin",
              len(pairs) == base and all(a == b for a, b in pairs), f"{len(pairs)} pairs")
        cur.execute("SELECT count(*) FROM t WHERE id = ANY(%b)", ([Ulid(b) for _, b in samples],))
        expect_equal("binary: ulid[] parameter (%b)", cur.fetchone()[0], 2 * base)
        cur.execute("SELECT array_agg(id ORDER BY n) FROM t WHERE how = 'binary'")
        expect_equal("binary: ulid[] result", cur.fetchone()[0], [b for _, b in samples])

        # The time in the first 6 bytes of a generated value is ulid_time().
        cur.execute("SELECT id, ulid_time(id) FROM (SELECT gen_ulid() AS id) s")
        gen, ts = cur.fetchone()
        ms = int.from_bytes(gen[:6], "big")
        expect_equal("binary: gen_ulid() bytes 0-5 are ulid_time() in ms",
                     ms, (ts - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(milliseconds=1))

    # Server-side prepared statements with a ulid parameter, several times.
    with conn.cursor(binary=True) as cur:
        ok = True
        for text, b in samples[:10]:
            cur.execute("SELECT id::text FROM t WHERE id = %s AND how = 'binary'", (Ulid(b),), prepare=True)
            ok = ok and cur.fetchall() == [(text,)]
        check("prepared, binary parameter: 10 executions find their rows", ok)
    ok = True
    for text, b in samples[10:20]:
        cur = conn.execute("SELECT id FROM t WHERE id = %s AND how = 'text'", (text,), prepare=True)
        ok = ok and cur.fetchall() == [(text,)]
    check("prepared, text parameter: 10 executions find their rows", ok)
    for n in range(5):
        conn.execute("INSERT INTO t VALUES (%s, %s, 'prepared')", (10000 + n, Ulid(samples[n][1])), prepare=True)
    expect_equal("prepared insert: 5 rows with the right values",
                 conn.execute("SELECT array_agg(id::text ORDER BY n) FROM t WHERE how = 'prepared'").fetchone()[0],
                 [t for t, _ in samples[:5]])
    check("prepared statements are server-side, their ulid parameters typed ulid",
          conn.execute("SELECT count(*) = 3 AND bool_and(parameter_types::text LIKE '%ulid}') "
                       "FROM pg_prepared_statements WHERE statement LIKE 'SELECT id%how%' "
                       "OR statement LIKE 'INSERT INTO t %prepared%'").fetchone()[0],
          conn.execute("SELECT string_agg(parameter_types::text, ' ') FROM pg_prepared_statements").fetchone()[0])

    # Automatic preparation: psycopg prepares a query on its 5th execution
    # (prepare_threshold, default 5); str parameters go untyped, so the server
    # types the prepared statement's parameter ulid.
    expect_equal("auto-prepare: the connection's prepare_threshold is psycopg's default",
                 conn.prepare_threshold, 5)
    got = [conn.execute("SELECT n FROM t WHERE id = %s AND how = 'text'", (text,)).fetchall()
           for text, _ in samples[20:28]]
    expect_equal("auto-prepare: 8 executions of one query with str parameters find their rows",
                 got, [[(20 + i,)] for i in range(8)])
    expect_equal("auto-prepare: the query was prepared on the server, its parameter typed ulid",
                 conn.execute("SELECT parameter_types::text FROM pg_prepared_statements "
                              "WHERE statement = 'SELECT n FROM t WHERE id = $1 AND how = ''text'''").fetchall(),
                 [("{ulid}",)])

    copies(conn, samples)


def copies(conn, samples):
    # COPY (FORMAT binary) in through write_row with set_types.
    conn.execute("CREATE TABLE c (n int, id ulid)")
    with conn.cursor() as cur:
        with cur.copy("COPY c (n, id) FROM STDIN (FORMAT binary)") as copy:
            copy.set_types(["int4", "ulid"])
            for n, (_, b) in enumerate(samples):
                copy.write_row((n, Ulid(b)))
    expect_equal("COPY FROM binary with write_row: values stored",
                 conn.execute("SELECT array_agg(id::text ORDER BY n) FROM c").fetchone()[0],
                 [t for t, _ in samples])

    # COPY (FORMAT binary) out through read_row with set_types.
    got = []
    with conn.cursor() as cur:
        with cur.copy("COPY (SELECT n, id FROM c ORDER BY n) TO STDOUT (FORMAT binary)") as copy:
            copy.set_types(["int4", "ulid"])
            while (row := copy.read_row()) is not None:
                got.append(row)
    expect_equal("COPY TO binary with read_row: values read", got,
                 [(n, b) for n, (_, b) in enumerate(samples)])

    # Raw binary COPY, parsed and built by hand: each ulid field is 16 bytes.
    raw = b""
    with conn.cursor() as cur:
        with cur.copy("COPY (SELECT id FROM c ORDER BY n) TO STDOUT (FORMAT binary)") as copy:
            for chunk in copy:
                raw += bytes(chunk)
    fields, pos = [], 19  # signature (11), flags (4), header extension length (4)
    while struct.unpack_from("!h", raw, pos)[0] == 1:
        size = struct.unpack_from("!i", raw, pos + 2)[0]
        fields.append(raw[pos + 6:pos + 6 + size])
        pos += 6 + size
    check("raw COPY TO binary: header, 16-byte fields, trailer",
          raw[:11] == b"PGCOPY\n\xff\r\n\x00" and raw[pos:] == b"\xff\xff"
          and fields == [b for _, b in samples], f"{len(fields)} fields")

    def raw_copy_in(payload):
        stream = b"PGCOPY\n\xff\r\n\x00" + bytes(8) + struct.pack("!hi", 1, len(payload)) + payload + b"\xff\xff"
        with conn.cursor() as cur:
            with cur.copy("COPY c (id) FROM STDIN (FORMAT binary)") as copy:
                copy.write(stream)

    text, b = samples[0]
    conn.execute("TRUNCATE c")
    raw_copy_in(b)
    expect_equal("raw COPY FROM binary: a 16-byte field is stored",
                 conn.execute("SELECT id::text FROM c").fetchone()[0], text)
    for size in (15, 17):
        try:
            raw_copy_in(bytes(size))
            check(f"raw COPY FROM binary: a {size}-byte field is rejected", False, "accepted")
        except psycopg.Error as e:
            expect_equal(f"raw COPY FROM binary: a {size}-byte field is rejected with 22P03", e.sqlstate, "22P03")


def fuzz(conn, rng):
    """2,000 random payloads of 0-32 bytes, each a binary parameter of type ulid."""
    sizes = list(range(33)) + [rng.choice((16, rng.randrange(33))) for _ in range(2000 - 33)]
    accepted = rejected = 0
    problems = []
    for i, size in enumerate(sizes):
        payload = rng.randbytes(size)
        try:
            got = conn.execute("SELECT %b::ulid::text", (Ulid(payload),), prepare=i % 2 == 0).fetchone()[0]
            if size != 16:
                problems.append(f"{size} bytes {payload.hex()} accepted as {got}")
            elif got != b32(payload) or unb32(got) != payload:
                problems.append(f"{payload.hex()} read as {got}, want {b32(payload)}")
            else:
                accepted += 1
        except psycopg.Error as e:
            if size == 16:
                problems.append(f"16 bytes {payload.hex()} rejected: {e.sqlstate} {e}")
            elif e.sqlstate != "22P03" or not isinstance(e, psycopg.errors.InvalidBinaryRepresentation):
                problems.append(f"{size} bytes {payload.hex()}: {e.sqlstate} {e}")
            else:
                rejected += 1
    check(f"fuzz: {sizes.count(16)} 16-byte payloads round-trip, "
          f"{2000 - sizes.count(16)} others fail with 22P03",
          not problems and accepted + rejected == 2000, "; ".join(problems[:5]))
    # Typed ulid, the payloads reach ulid_recv itself (typed bytea, they
    # would go through the bytea cast, which fails with 22P03 too).  psycopg
    # 3.1 forgets a prepared statement whose execution failed and prepares it
    # again under a new name, so there are several.
    types = conn.execute("SELECT parameter_types::text FROM pg_prepared_statements "
                         "WHERE statement = 'SELECT $1::ulid::text'").fetchall()
    check("fuzz: the parameter is typed ulid, not bytea", types and set(types) == {("{ulid}",)}, repr(types))
    check("fuzz: the connection is still usable",
          conn.execute("SELECT 1").fetchone() == (1,) and not conn.broken, str(conn.info.status))


def everyday(conn, rng):
    """The default, text arrays, ordering and bad input, with no adapters registered."""
    # docs/clients/python.md snippet: psycopg 3, the default and arrays.
    cur = conn.execute("INSERT INTO orders (item) VALUES (%s) RETURNING id", ("tea",))
    new_id = cur.fetchone()[0]  # '01J...': a str of 26 characters
    cur = conn.execute("SELECT id::uuid FROM orders WHERE id = %s", (new_id,))
    as_uuid = cur.fetchone()[0]  # uuid.UUID with the same 16 bytes
    cur = conn.execute("SELECT count(*) FROM orders WHERE id = ANY(%s)", ([new_id, "01ARYZ6S41TSV4RRFFQ69G5FAV"],))
    check("default: RETURNING id gives a 26-character str",
          isinstance(new_id, str) and len(new_id) == 26, repr(new_id))
    expect_equal("default: id::uuid has the bytes of the text (own codec)", as_uuid.bytes, unb32(new_id))
    expect_equal("default: str back to the server finds the row, as uuid too",
                 conn.execute("SELECT count(*) FROM orders WHERE id = %s AND id = %s", (new_id, as_uuid)).fetchone()[0], 1)
    expect_equal("= ANY(%s) of a list of str", cur.fetchone()[0], 2)

    # Ordering: ORDER BY id is the order of the text, and of the uuid.
    conn.execute("CREATE TABLE ord (id ulid PRIMARY KEY DEFAULT gen_ulid())")
    values = [b32(rng.randbytes(16)) for _ in range(100)] + [t for t, _ in VECTORS]
    with conn.cursor() as cur:
        cur.executemany("INSERT INTO ord (id) VALUES (%s)", [(v,) for v in values])
        cur.execute("INSERT INTO ord SELECT FROM generate_series(1, 50)")
        cur.execute("SELECT id, id::uuid AS u FROM ord ORDER BY id")
        rows = cur.fetchall()
    texts = [r[0] for r in rows]
    expect_equal("ordering: ORDER BY id is the text order (153 values)", texts, sorted(texts))
    expect_equal("ordering: ORDER BY id is the uuid order", [r[1] for r in rows], sorted(r[1] for r in rows))
    check("ordering: every value as uuid has the bytes of its text",
          all(u.bytes == unb32(t) for t, u in rows) and len(rows) == 153, f"{len(rows)} rows")

    # Bad text: 22P02, through a plain and a prepared statement.
    err = expect_sqlstate("bad text parameter: SQLSTATE 22P02",
                          lambda: conn.execute("SELECT * FROM orders WHERE id = %s", ("01ARYZ6S41TSV4RRFFQ69G5FA",)),
                          "22P02", lambda e: e.sqlstate)
    check("bad text parameter: psycopg.errors.InvalidTextRepresentation, with the detail",
          isinstance(err, psycopg.errors.InvalidTextRepresentation)
          and err.diag.message_detail == "Expected 26 characters, got 25.", repr(err))
    expect_sqlstate("bad text parameter, prepared: SQLSTATE 22P02",
                    lambda: conn.execute("SELECT * FROM orders WHERE id = %s", ("U1ARYZ6S41TSV4RRFFQ69G5FAV",), prepare=True),
                    "22P02", lambda e: e.sqlstate)
    check("after the errors the connection is usable",
          conn.execute("SELECT 1").fetchone() == (1,), str(conn.info.status))


def main():
    seed = ulidcheck.seed(f"psycopg {psycopg.__version__}")
    with psycopg.connect(autocommit=True) as conn:
        # Tables of this program in a schema of its own.
        conn.execute("DROP SCHEMA IF EXISTS psycopg3 CASCADE")
        conn.execute("CREATE SCHEMA psycopg3")
        conn.execute("SET search_path = psycopg3, public")
        conn.execute("CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)")
        conn.execute("CREATE TABLE orders_archive (id ulid PRIMARY KEY, item text)")
        readme_text(conn)
        readme_uuid(conn)
        binary_unregistered(conn)
        readme_binary(conn)
        everyday(conn, random.Random(seed))
        round_trips(conn, random.Random(seed))
        fuzz(conn, random.Random(seed))
        conn.execute("DROP SCHEMA psycopg3 CASCADE")


if __name__ == "__main__":
    ulidcheck.run(main)
