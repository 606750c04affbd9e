"""asyncpg against the ulid type; run by test/clients/python/run with /usr/bin/python3.

asyncpg prepares every statement and checks each parameter on the client
against the type the server gave it; it reads a type it has no codec for in
text.  Without a codec: the default, str parameters and ulid[] of str, a
foreign key, ordering, a time window, public ids, and the failures (a
uuid.UUID or bytes parameter refused, a ulid inside a ROW() read wrong,
a row type, ulidrange and copy_records_to_table refused).  With the binary
codec of docs/clients/python.md (the 16 bytes of ulid_send and ulid_recv):
the same queries with str, uuid.UUID and bytes, arrays, records, ranges,
COPY, 500 random values both ways, as str and as uuid.UUID; the text-format
codec and what it leaves broken; a pool's init=.  Connects through the libpq
environment to a database where CREATE EXTENSION ulid has run, in a schema
of its own, asyncpg.  Prints "ok - asyncpg: WHAT" or
"FAILED - asyncpg: WHAT : WHY" per check.  The asyncpg code blocks of
docs/clients/python.md appear verbatim below (test/check_docs.py checks).
"""

import asyncio
import datetime
import random

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, run_alone, unb32

ulidcheck.CLIENT = "asyncpg"


# --- docs/clients/python.md snippet: asyncpg, the binary codec -------------
import re
import uuid

import asyncpg

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
# Crockford's Base32 digits, and its aliases I, L and O, as the digits of int(text, 32).
TO_INT32 = str.maketrans(CROCKFORD + "ILO", "0123456789abcdefghijklmnopqrstuv" + "110")


def ulid_bytes(value):
    """The 16 bytes of a ulid given as str (26 characters or the uuid form), uuid.UUID or bytes."""
    if isinstance(value, uuid.UUID):
        return value.bytes
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)  # the server refuses any length but 16
    if not isinstance(value, str):
        raise TypeError(f"expected str, uuid.UUID or bytes, got {type(value).__name__}")
    if len(value) == 36:
        return uuid.UUID(value).bytes  # the uuid form; ValueError if it is not one
    digits = value.upper().translate(TO_INT32)
    if not re.fullmatch("[0-7][0-9a-v]{25}", digits):
        raise ValueError(f"invalid ULID: {value!r}")
    return int(digits, 32).to_bytes(16, "big")


def ulid_text(data):
    """The 26 characters of a ulid's 16 bytes."""
    n = int.from_bytes(data, "big")
    return "".join(CROCKFORD[(n >> 5 * i) & 31] for i in range(25, -1, -1))


async def register_ulid(conn, as_uuid=False, schema="public"):
    """On conn, exchange ulid (and ulid[]) in binary: values come as str, or as
    uuid.UUID with as_uuid=True; parameters may be str, uuid.UUID or bytes."""
    await conn.set_type_codec(
        "ulid", schema=schema, format="binary", encoder=ulid_bytes,
        decoder=(lambda data: uuid.UUID(bytes=data)) if as_uuid else ulid_text)
# --- end of docs/clients/python.md snippet ---------------------------------


SCHEMA = "asyncpg"
SETTINGS = {"search_path": f"{SCHEMA},public"}
ABSENT = "7ZZZZZZZZZZZZZZZZZZZZZZZZY"
# The time of the values the test gives: 2020-01-01, far outside an hour's window.
PAST_MS = 1577836800000


async def connect():
    return await asyncpg.connect(server_settings=SETTINGS)


async def expect_error(what, coro_fn, cls, text):
    """Awaiting coro_fn() must raise cls with text in its message; the error."""
    try:
        got = await coro_fn()
    except Exception as e:  # noqa: BLE001 -- the driver's error, whatever its class
        check(what, isinstance(e, cls) and text in str(e), f"{type(e).__module__}.{type(e).__name__}: {e}")
        return e
    check(what, False, f"no error, got {got!r}")
    return None


async def day_one(conn, rng):
    """The schema, the default, str parameters, uuid.UUID with a cast, a foreign
    key, ordering and a time window, on a connection with no codec."""
    # docs/clients/python.md snippet: asyncpg, the schema.
    await conn.execute("""
        CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text NOT NULL);
        CREATE TABLE lines (id ulid PRIMARY KEY DEFAULT gen_ulid(),
                            order_id ulid NOT NULL REFERENCES orders, note text);
    """)
    # end of snippet
    ddl = await conn.fetch(
        "SELECT attrelid::regclass::text, attname, format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid) "
        "FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum "
        "WHERE attrelid IN ('orders'::regclass, 'lines'::regclass) AND atttypid = 'ulid'::regtype ORDER BY 1, 2")
    expect_equal("schema: the keys are ulid DEFAULT gen_ulid(), the reference a ulid", [tuple(r) for r in ddl],
                 [("lines", "id", "ulid", "gen_ulid()"), ("lines", "order_id", "ulid", None),
                  ("orders", "id", "ulid", "gen_ulid()")])
    expect_equal("schema: lines.order_id references orders",
                 await conn.fetchval("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'lines'::regclass "
                                     "AND contype = 'f'"), "FOREIGN KEY (order_id) REFERENCES orders(id)")

    # docs/clients/python.md snippet: asyncpg, strings.
    new_id = await conn.fetchval("INSERT INTO orders (item) VALUES ($1) RETURNING id", "tea")  # '01J...': a str
    await conn.execute("INSERT INTO lines (order_id, note) VALUES ($1, $2)", new_id, "green")
    row = await conn.fetchrow("SELECT id, item FROM orders WHERE id = $1", new_id)
    some = await conn.fetch("SELECT item FROM orders WHERE id = ANY($1::ulid[])", [new_id, "01ARYZ6S41TSV4RRFFQ69G5FAV"])
    # end of snippet
    check("no codec: RETURNING id gives a 26-character str",
          type(new_id) is str and len(new_id) == 26, repr(new_id))
    expect_equal("no codec: the str is the server's id::text",
                 await conn.fetchval("SELECT id::text FROM orders WHERE item = 'tea'"), new_id)
    expect_equal("no codec: fetchrow by a str parameter", tuple(row), (new_id, "tea"))
    expect_equal("no codec: = ANY($1::ulid[]) of str", [r["item"] for r in some], ["tea"])
    expect_equal("no codec: = ANY($1) of str, no cast (the server types it ulid[])",
                 await conn.fetchval("SELECT count(*) FROM orders WHERE id = ANY($1)", [new_id, ABSENT]), 1)
    expect_equal("no codec: the parameter in lower case and in the uuid form",
                 await conn.fetchval("SELECT count(*) FROM orders WHERE id = $1 AND id = $2",
                                     new_id.lower(), str(uuid.UUID(bytes=unb32(new_id)))), 1)
    expect_equal("no codec: array_agg(id) is a list of str",
                 await conn.fetchval("SELECT array_agg(id) FROM orders"), [new_id])
    stmt = await conn.prepare("SELECT item FROM orders WHERE id = $1")
    expect_equal("no codec: a prepared statement's parameter is typed ulid, and takes a str",
                 ([t.name for t in stmt.get_parameters()], await stmt.fetchval(new_id)), (["ulid"], "tea"))

    # docs/clients/python.md snippet: asyncpg, uuid.UUID with a cast.
    order_uuid = await conn.fetchval("SELECT id::uuid FROM orders WHERE id = $1", new_id)  # a uuid.UUID
    row = await conn.fetchrow("SELECT item FROM orders WHERE id = $1::uuid", order_uuid)
    some = await conn.fetch("SELECT item FROM orders WHERE id = ANY($1::uuid[])", [order_uuid])
    # end of snippet
    check("no codec: id::uuid is a uuid.UUID with the bytes of the text (own codec)",
          isinstance(order_uuid, uuid.UUID) and order_uuid.bytes == unb32(new_id), repr(order_uuid))
    expect_equal("no codec: id = $1::uuid with a uuid.UUID", tuple(row), ("tea",))
    expect_equal("no codec: = ANY($1::uuid[]) of uuid.UUID", [r["item"] for r in some], ["tea"])
    await conn.execute("SET enable_seqscan = off")
    plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN SELECT item FROM orders WHERE id = $1::uuid", order_uuid))
    check("no codec: the uuid parameter uses orders_pkey", "orders_pkey" in plan, plan)
    await conn.execute("RESET enable_seqscan")

    # Values of a time long past, the vectors (the largest is of the year
    # 10889), and 20 from the default.
    given = [b32(PAST_MS.to_bytes(6, "big") + rng.randbytes(10)) for _ in range(100)] + [t for t, _ in VECTORS]
    await conn.executemany("INSERT INTO orders (id, item) VALUES ($1, 'given')", [(v,) for v in given])
    made = [r["id"] for r in await conn.fetch("INSERT INTO orders (item) SELECT 'made' FROM generate_series(1, 20) "
                                              "RETURNING id")]

    # docs/clients/python.md snippet: asyncpg, a foreign key, order and a time window.
    lines = await conn.fetch("SELECT l.note FROM lines l JOIN orders o ON o.id = l.order_id WHERE o.id = $1", new_id)
    in_order = [r["id"] for r in await conn.fetch("SELECT id FROM orders ORDER BY id")]  # sorted as str
    recent = await conn.fetch("SELECT id FROM orders WHERE id > now() - interval '1 hour'")
    cutoff = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)
    since = await conn.fetch("SELECT id FROM orders WHERE id > $1::timestamptz", cutoff)
    # end of snippet
    expect_equal("no codec: the line joined through the foreign key", [r["note"] for r in lines], ["green"])
    await expect_error("no codec: a line for an absent order: ForeignKeyViolationError (23503)",
                       lambda: conn.execute("INSERT INTO lines (order_id) VALUES ($1)", ABSENT),
                       asyncpg.ForeignKeyViolationError, 'violates foreign key constraint "lines_order_id_fkey"')
    expect_equal("no codec: ORDER BY id is the order of the str (124 values)", in_order, sorted(in_order))
    expect_equal("no codec: every given value comes back as given",
                 sorted(set(in_order) & set(given)), sorted(given))
    window = sorted([new_id, VECTORS[2][0], *made])
    expect_equal("no codec: id > now() - interval '1 hour': the new ids and the one of the future",
                 sorted(r["id"] for r in recent), window)
    expect_equal("no codec: id > $1::timestamptz with a datetime, the same rows",
                 sorted(r["id"] for r in since), window)
    await expect_error("no codec: id > $1 with a datetime, no cast: the server types it ulid, DataError",
                       lambda: conn.fetch("SELECT id FROM orders WHERE id > $1", cutoff),
                       asyncpg.DataError, "(expected str, got datetime)")
    return new_id, order_uuid


async def without_codec(conn, new_id, order_uuid):
    """What the text fallback cannot do: the failures the codec prevents."""
    await expect_error("no codec: a uuid.UUID for a ulid parameter: DataError, before anything is sent",
                       lambda: conn.fetchval("SELECT item FROM orders WHERE id = $1", order_uuid),
                       asyncpg.DataError, "invalid input for query argument $1: UUID(")
    await expect_error("... (expected str, got UUID)",
                       lambda: conn.fetchval("SELECT item FROM orders WHERE id = $1", order_uuid),
                       asyncpg.DataError, "(expected str, got UUID)")
    await expect_error("no codec: = ANY($1) of uuid.UUID: DataError, invalid array element",
                       lambda: conn.fetchval("SELECT item FROM orders WHERE id = ANY($1)", [order_uuid]),
                       asyncpg.DataError, "(invalid array element: expected str, got UUID)")
    await expect_error("no codec: 16 bytes for a ulid parameter: DataError",
                       lambda: conn.fetchval("SELECT item FROM orders WHERE id = $1", order_uuid.bytes),
                       asyncpg.DataError, "(expected str, got bytes)")
    # Inside a record asyncpg takes every field in binary, and reads the
    # 16 bytes with the text decoder of a type it does not know: as UTF-8.
    ascii_id = b32(b"0123456789abcdef")
    expect_equal("no codec: a ulid in ROW() comes out as its 16 raw bytes read as UTF-8: a wrong str",
                 await conn.fetchval("SELECT ROW($1::ulid)", ascii_id), ("0123456789abcdef",))
    await expect_error("no codec: ... or UnicodeDecodeError",
                       lambda: conn.fetchval("SELECT ROW(id, item) FROM orders WHERE id = $1", "01ARYZ6S41TSV4RRFFQ69G5FAV"),
                       UnicodeDecodeError, "'utf-8' codec can't decode byte 0xf3")
    await expect_error("no codec: a table's row type: UnsupportedClientFeatureError",
                       lambda: conn.fetch("SELECT o FROM orders o"),
                       asyncpg.UnsupportedClientFeatureError, "text encoding of composite types is not supported")
    await expect_error("no codec: ulidrange: UnsupportedClientFeatureError",
                       lambda: conn.fetchval("SELECT ulidrange($1, NULL)", new_id),
                       asyncpg.UnsupportedClientFeatureError, "text encoding of range types is not supported")
    await expect_error("no codec: copy_records_to_table: InternalClientError, no binary format encoder",
                       lambda: conn.copy_records_to_table("orders", records=[(ABSENT, "copied")]),
                       asyncpg.InternalClientError, "no binary format encoder for type ulid")


async def public_ids(conn, rng, new_id):
    key = rng.randbytes(16)
    # docs/clients/python.md snippet: asyncpg, public ids.
    order_id, shown = await conn.fetchrow("SELECT id, ulid_encrypt(id, $1) FROM orders WHERE item = $2", key, "tea")
    row = await conn.fetchrow("SELECT item FROM orders WHERE id = ulid_decrypt($1, $2)", shown, key)
    # end of snippet
    check("public ids: ulid_encrypt with a bytes key gives a uuid.UUID, not the id",
          isinstance(shown, uuid.UUID) and shown.bytes != unb32(order_id), repr(shown))
    expect_equal("public ids: the row back by ulid_decrypt($1, $2)", (order_id, tuple(row)), (new_id, ("tea",)))
    expect_equal("public ids: ulid_decrypt gives the str id back",
                 await conn.fetchval("SELECT ulid_decrypt($1, $2)", shown, key), new_id)
    await expect_error("public ids: the key as hex str: DataError, a bytea parameter takes bytes",
                       lambda: conn.fetchval("SELECT ulid_encrypt($1, $2)", new_id, key.hex()),
                       asyncpg.DataError, "(a bytes-like object is required, not 'str')")
    await expect_error("public ids: a key of 32 bytes: InvalidParameterValueError, key must be 16 bytes",
                       lambda: conn.fetchval("SELECT ulid_encrypt($1, $2)", new_id, key * 2),
                       asyncpg.InvalidParameterValueError, "key must be 16 bytes, not 32")


async def binary(rng, new_id, order_uuid):
    """The binary codec: str out, str, uuid.UUID and bytes in, arrays,
    records, ranges and COPY."""
    conn = await connect()
    before = await conn.prepare("SELECT $1::ulid")
    # docs/clients/python.md snippet: asyncpg, with the codec.
    await register_ulid(conn)
    row = await conn.fetchrow("SELECT id, item FROM orders WHERE id = $1", order_uuid)  # ('01J...', 'tea')
    some = await conn.fetch("SELECT item FROM orders WHERE id = ANY($1)", [new_id, order_uuid])
    pair = await conn.fetchval("SELECT ROW(id, item) FROM orders WHERE id = $1", new_id)  # ('01J...', 'tea')
    await conn.copy_records_to_table("orders", records=[(uuid.uuid4().bytes, "copied")])
    # end of snippet
    expect_equal("binary: fetchrow by a uuid.UUID parameter, the id back as str", tuple(row), (new_id, "tea"))
    expect_equal("binary: = ANY($1) of str and uuid.UUID mixed", [r["item"] for r in some], ["tea"])
    expect_equal("binary: ROW(id, item) gives the str id", pair, (new_id, "tea"))
    expect_equal("binary: copy_records_to_table with 16 bytes",
                 await conn.fetchval("SELECT count(*) FROM orders WHERE item = 'copied'"), 1)
    for what, value in (("str", new_id), ("lower-case str", new_id.lower()), ("uuid-form str", str(order_uuid)),
                        ("uuid.UUID", order_uuid), ("bytes", order_uuid.bytes), ("bytearray", bytearray(order_uuid.bytes))):
        expect_equal(f"binary: a {what} parameter finds the row",
                     await conn.fetchval("SELECT item FROM orders WHERE id = $1", value), "tea")
    # Crockford's aliases: I and L are 1, O is 0, in either case.
    for alias in ("01ARYZ6S4ITSV4RRFFQ69G5FOV", "01aryz6s4ltsv4rrffq69g5fov"):
        expect_equal(f"binary: the encoder reads {alias} as the server's text input does",
                     await conn.fetchval("SELECT $1::ulid::text = $2::text::ulid::text", alias, alias), True)
    expect_equal("... as 01ARYZ6S41TSV4RRFFQ69G5F0V",
                 await conn.fetchval("SELECT $1::ulid", "01ARYZ6S4ITSV4RRFFQ69G5FOV"), "01ARYZ6S41TSV4RRFFQ69G5F0V")
    for bad in ("01ARYZ6S41TSV4RRFFQ69G5FAU", "81ARYZ6S41TSV4RRFFQ69G5FAV", "01ARYZ6S41TSV4RRFFQ69G5FA", ""):
        await expect_error(f"binary: bad text {bad!r} refused by the encoder: DataError, before anything is sent",
                           lambda: conn.fetchval("SELECT $1::ulid", bad), asyncpg.DataError,
                           f"(invalid ULID: {bad!r})")
    await expect_error("binary: a datetime for a ulid: DataError, expected str, uuid.UUID or bytes",
                       lambda: conn.fetchval("SELECT $1::ulid", datetime.datetime.now()), asyncpg.DataError,
                       "(expected str, uuid.UUID or bytes, got datetime)")
    await expect_error("binary: a bad uuid form: DataError from uuid.UUID",
                       lambda: conn.fetchval("SELECT $1::ulid", str(order_uuid).replace("-", "+")), asyncpg.DataError,
                       "(badly formed hexadecimal UUID string)")
    err = await expect_error("binary: 15 bytes reach ulid_recv: InvalidBinaryRepresentationError (22P03)",
                             lambda: conn.fetchval("SELECT $1::ulid", order_uuid.bytes[:15]),
                             asyncpg.InvalidBinaryRepresentationError, 'invalid length in external "ulid" value')
    expect_equal("... with the detail", getattr(err, "detail", None), "Expected 16 bytes, got 15.")
    await expect_error("binary: register_ulid with a schema that has no ulid: ValueError",
                       lambda: register_ulid(conn, schema="pg_catalog"), ValueError, "unknown type: pg_catalog.ulid")
    expect_equal("binary: NULL both ways, and in an array",
                 tuple(await conn.fetchrow("SELECT NULL::ulid, $1::ulid, $2::ulid[]", None, [None, order_uuid])),
                 (None, None, [None, new_id]))
    expect_equal("binary: array_agg(id) is a list of str (ulid[] needs no codec of its own)",
                 await conn.fetchval("SELECT array_agg(id) FROM orders WHERE item = 'tea'"), [new_id])
    record = await conn.fetchrow("SELECT o FROM orders o WHERE id = $1", new_id)
    expect_equal("binary: a table's row type", (record["o"]["id"], record["o"]["item"]), (new_id, "tea"))
    expect_equal("binary: a ulid in ROW() of its own", await conn.fetchval("SELECT ROW($1::ulid)", b32(b"0123456789abcdef")),
                 (b32(b"0123456789abcdef"),))
    bounds = await conn.fetchval("SELECT ulidrange($1, $2)", order_uuid, ABSENT)
    expect_equal("binary: ulidrange as asyncpg.Range of str", (type(bounds), bounds.lower, bounds.upper),
                 (asyncpg.Range, new_id, ABSENT))
    expect_equal("binary: a ulidrange parameter, from asyncpg.Range of uuid.UUID and str",
                 await conn.fetchval("SELECT $1::ulidrange @> $2::ulid", asyncpg.Range(order_uuid, ABSENT), new_id), True)
    expect_equal("binary: a statement prepared before register_ulid keeps the text codec",
                 await before.fetchval(new_id), new_id)
    await expect_error("... and still refuses a uuid.UUID",
                       lambda: before.fetchval(order_uuid), asyncpg.DataError, "(expected str, got UUID)")

    # 500 random values in by COPY (as str, uuid.UUID and bytes), out as str
    # and as the server's text; bytes out compared with the test's own codec.
    values = [rng.randbytes(16) for _ in range(500)] + [b for _, b in VECTORS]
    forms = [b32(v) if i % 3 == 0 else uuid.UUID(bytes=v) if i % 3 == 1 else v for i, v in enumerate(values)]
    await conn.execute("CREATE TABLE random_ids (id ulid PRIMARY KEY)")
    await conn.copy_records_to_table("random_ids", records=[(f,) for f in forms])
    rows = await conn.fetch("SELECT id, id::text AS t FROM random_ids ORDER BY id")
    expect_equal("binary: 503 values in by COPY as str, uuid.UUID and bytes, out as str; the server's text",
                 [(r["id"], r["t"]) for r in rows], sorted((b32(v), b32(v)) for v in values))
    raw = await connect()
    await raw.set_type_codec("ulid", format="binary", encoder=bytes, decoder=bytes)
    got = [r[0] for r in await raw.fetch("SELECT id FROM random_ids ORDER BY id")]
    expect_equal("binary: what ulid_send sends is the 16 bytes (decoder=bytes, 503 values)", got, sorted(values))
    await raw.close()
    await conn.close()
    # as_uuid=True.
    conn = await connect()
    # docs/clients/python.md snippet: asyncpg, as uuid.UUID.
    await register_ulid(conn, as_uuid=True)
    order_id = await conn.fetchval("SELECT id FROM orders WHERE item = $1", "tea")  # a uuid.UUID
    # end of snippet
    expect_equal("as_uuid: the value is the uuid.UUID of id::uuid", (type(order_id), order_id),
                 (uuid.UUID, await conn.fetchval("SELECT id::uuid FROM orders WHERE item = 'tea'")))
    got = await conn.fetch("SELECT id, id::uuid AS u FROM random_ids ORDER BY id")
    check("as_uuid: 503 values equal id::uuid, in the same order",
          len(got) == 503 and all(r["id"] == r["u"] for r in got), f"{len(got)} rows")
    await conn.execute("SET enable_seqscan = off")
    plan = "\n".join(r[0] for r in await conn.fetch("EXPLAIN SELECT item FROM orders WHERE id = $1", order_id))
    check("as_uuid: a uuid.UUID parameter, typed ulid, uses orders_pkey", "orders_pkey" in plan, plan)
    await conn.close()


async def text_codec(new_id, order_uuid):
    """format='text': uuid.UUID parameters work; records and COPY do not."""
    conn = await connect()
    # docs/clients/python.md snippet: asyncpg, the text format.
    await conn.set_type_codec("ulid", schema="public", format="text", encoder=str, decoder=str)
    row = await conn.fetchrow("SELECT item FROM orders WHERE id = $1", order_uuid)  # sent as the uuid form
    # end of snippet
    expect_equal("text codec: a uuid.UUID parameter, sent as its text", tuple(row), ("tea",))
    expect_equal("text codec: results are the server's str",
                 await conn.fetchval("SELECT array_agg(id) FROM orders WHERE id = ANY($1)", [order_uuid, new_id]), [new_id])
    ascii_id = b32(b"0123456789abcdef")
    expect_equal("text codec: a ulid in ROW() is still its 16 raw bytes read as UTF-8",
                 await conn.fetchval("SELECT ROW($1::ulid)", ascii_id), ("0123456789abcdef",))
    await expect_error("text codec: a table's row type still UnsupportedClientFeatureError",
                       lambda: conn.fetch("SELECT o FROM orders o"),
                       asyncpg.UnsupportedClientFeatureError, "text encoding of composite types is not supported")
    await expect_error("text codec: ulidrange still UnsupportedClientFeatureError",
                       lambda: conn.fetchval("SELECT ulidrange($1, NULL)", new_id),
                       asyncpg.UnsupportedClientFeatureError, "text encoding of range types is not supported")
    await expect_error("text codec: copy_records_to_table still InternalClientError",
                       lambda: conn.copy_records_to_table("orders", records=[(ABSENT, "copied")]),
                       asyncpg.InternalClientError, "no binary format encoder for type ulid")
    await conn.close()


async def pools(order_uuid, new_id):
    """init= gives every connection of a pool the codec, as it opens."""
    async def holds_codec(pool):
        async with pool.acquire() as a, pool.acquire() as b:
            pids = {await a.fetchval("SELECT pg_backend_pid()"), await b.fetchval("SELECT pg_backend_pid()")}
            backs = [await c.fetchval("SELECT $1::ulid", order_uuid) for c in (a, b)]
        return len(pids), backs

    # docs/clients/python.md snippet: asyncpg, a pool.
    pool = await asyncpg.create_pool(init=register_ulid)  # init runs on each connection as it opens
    async with pool.acquire() as conn:
        back = await conn.fetchval("SELECT $1::ulid", order_uuid)  # '01J...'
    # end of snippet
    expect_equal("pool with init=register_ulid: a uuid.UUID parameter, a str back", back, new_id)
    expect_equal("pool with init=: two connections held at once, both with the codec",
                 await holds_codec(pool), (2, [new_id, new_id]))
    await pool.expire_connections()
    expect_equal("pool with init=: connections opened after expire_connections() too",
                 await holds_codec(pool), (2, [new_id, new_id]))
    await pool.close()
    pool = await asyncpg.create_pool(min_size=1, max_size=1)
    async with pool.acquire() as conn:
        await expect_error("pool without init=: its connections refuse a uuid.UUID for a ulid",
                           lambda: conn.fetchval("SELECT $1::ulid", order_uuid), asyncpg.DataError,
                           "(expected str, got UUID)")
    await pool.close()


def codec_alone():
    """The codec block of the docs, copied alone into a fresh interpreter, runs."""
    code = ulidcheck.snippet(__file__, "asyncpg, the binary codec") + """
async def main():
    conn = await asyncpg.connect()
    await register_ulid(conn)
    print(await conn.fetchrow("SELECT $1::ulid, $2::ulid::uuid", uuid.UUID("01563df3-6481-d676-4c61-efb99302bd5b"),
                              "01ARYZ6S41TSV4RRFFQ69G5FAV"))

import asyncio
asyncio.run(main())
"""
    status, out, err = run_alone(code)
    expect_equal("the docs' codec block alone, in a fresh interpreter: it imports what it uses",
                 (status, out.strip(), err),
                 (0, "<Record ulid='01ARYZ6S41TSV4RRFFQ69G5FAV' uuid=UUID('01563df3-6481-d676-4c61-efb99302bd5b')>", ""))
    expect_equal("the codec agrees with the test's own on the vectors, both ways",
                 ([ulid_bytes(t) for t, _ in VECTORS], [ulid_text(b) for _, b in VECTORS]),
                 ([b for _, b in VECTORS], [t for t, _ in VECTORS]))


async def main():
    rng = random.Random(ulidcheck.seed(f"asyncpg {asyncpg.__version__}"))
    admin = await asyncpg.connect()
    await admin.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE; CREATE SCHEMA {SCHEMA}")
    conn = await connect()
    new_id, order_uuid = await day_one(conn, rng)
    await without_codec(conn, new_id, order_uuid)
    await public_ids(conn, rng, new_id)
    await conn.close()
    await binary(rng, new_id, order_uuid)
    await text_codec(new_id, order_uuid)
    await pools(order_uuid, new_id)
    codec_alone()
    await admin.execute(f"DROP SCHEMA {SCHEMA} CASCADE")
    await admin.close()


if __name__ == "__main__":
    ulidcheck.run(lambda: asyncio.run(main()))
