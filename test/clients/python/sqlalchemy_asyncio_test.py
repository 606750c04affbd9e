"""SQLAlchemy 1.4's asyncio engine on asyncpg against the ulid type; run by test/clients/python/run.

The ULID column type of the SQLAlchemy section (sqlalchemy_test.py) and
asyncpg's binary codec (register_ulid, asyncpg_test.py), registered on each
new connection by the sync engine's "connect" event: metadata.create_all
through run_sync with a foreign key, the id from server_default on commit,
where() and in_() with str and uuid.UUID, a join, order_by, a time window
through text(), public ids, Core with ULID(as_uuid=True), the schema
reflected and created again; and without the codec, what fails (uuid.UUID
in text() and on a reflected column, a ulid in ROW()), and what fails
either way on a reflected column until the type is registered (str sent as
varchar: 42883).  SQLAlchemy's own json and jsonb codecs keep working.
Connects through the libpq environment to a database where CREATE EXTENSION
ulid has run, in a schema of its own, sqla_async.  Prints
"ok - sqlalchemy-asyncio: WHAT" or "FAILED - sqlalchemy-asyncio: WHAT : WHY"
per check.  The SQLAlchemy asyncio code blocks of docs/clients/python.md
appear verbatim below (test/check_docs.py checks).
"""

import asyncio
import datetime
import os
import random
import uuid
import warnings

import asyncpg
import sqlalchemy
from sqlalchemy import exc
from sqlalchemy.types import NullType

# docs/clients/python.md snippet: SQLAlchemy asyncio, the imports of the section.
from sqlalchemy import Column, DateTime, ForeignKey, MetaData, Table, Text, event, func, literal, select, text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from sqlalchemy.orm import declarative_base
# end of snippet

# The two recipes of docs/clients/python.md this one is built of, as the
# other programs run them: SQLAlchemy's ULID type and asyncpg's codec.
from asyncpg_test import register_ulid
from sqlalchemy_test import TO_INT32, ULID

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, unb32

ulidcheck.CLIENT = "sqlalchemy-asyncio"  # after the imports above, which set their own

SCHEMA = "sqla_async"
PAST_MS = 1577836800000  # 2020-01-01, far outside an hour's window


# docs/clients/python.md snippet: SQLAlchemy asyncio, the models.
Base = declarative_base()


class Order(Base):
    __tablename__ = "orders"
    id = Column(ULID, primary_key=True, server_default=text("gen_ulid()"))
    item = Column(Text, nullable=False)


class Line(Base):
    __tablename__ = "lines"
    id = Column(ULID, primary_key=True, server_default=text("gen_ulid()"))
    order_id = Column(ULID, ForeignKey("orders.id"), nullable=False)
    note = Column(Text)
# end of snippet


def make_engine(codec=True):
    # docs/clients/python.md snippet: SQLAlchemy asyncio, the engine.
    engine = create_async_engine("postgresql+asyncpg://",
                                 connect_args={"server_settings": {"search_path": "sqla_async,public"}})
    # end of snippet
    if not codec:
        return engine

    # docs/clients/python.md snippet: SQLAlchemy asyncio, the codec on connect.
    @event.listens_for(engine.sync_engine, "connect")
    def on_connect(dbapi_connection, connection_record):
        dbapi_connection.run_async(register_ulid)  # each new connection, before its first statement
    # end of snippet
    return engine


async def expect_error(what, coro_fn, cls, text):
    """Awaiting coro_fn() must raise cls with text in its message; the error."""
    try:
        got = await coro_fn()
    except Exception as e:  # noqa: BLE001 -- whatever SQLAlchemy raises
        check(what, isinstance(e, cls) and text in str(e), f"{type(e).__module__}.{type(e).__name__}: {e}")
        return e
    check(what, False, f"no error, got {got!r}")
    return None


async def day_one(engine, rng):
    # docs/clients/python.md snippet: SQLAlchemy asyncio, create_all.
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    # end of snippet
    async with engine.connect() as conn:
        ddl = (await conn.execute(text(
            "SELECT attrelid::regclass::text, attname, format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid) "
            "FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum "
            "WHERE attrelid IN ('orders'::regclass, 'lines'::regclass) AND atttypid = 'ulid'::regtype "
            "ORDER BY 1, 2"))).all()
        expect_equal("create_all: the keys are ulid DEFAULT gen_ulid(), the reference a ulid", [tuple(r) for r in ddl],
                     [("lines", "id", "ulid", "gen_ulid()"), ("lines", "order_id", "ulid", None),
                      ("orders", "id", "ulid", "gen_ulid()")])
        expect_equal("create_all: lines.order_id references orders",
                     (await conn.execute(text("SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                                              "WHERE conrelid = 'lines'::regclass AND contype = 'f'"))).scalar_one(),
                     "FOREIGN KEY (order_id) REFERENCES orders(id)")

    # docs/clients/python.md snippet: SQLAlchemy asyncio, the session.
    async with AsyncSession(engine, expire_on_commit=False) as session:
        order = Order(item="tea")
        session.add(order)
        await session.commit()  # INSERT ... RETURNING orders.id
        new_id = order.id  # '01J...': a str of 26 characters
        session.add(Line(order_id=new_id, note="green"))
        await session.commit()
        # end of snippet
        check("ORM: the id filled by the server default comes back on commit, a str",
              isinstance(new_id, str) and len(new_id) == 26, repr(new_id))

        # Values of a time long past, the vectors (the largest is of the
        # year 10889), given as str and as uuid.UUID; 20 from the default.
        given = [b32(PAST_MS.to_bytes(6, "big") + rng.randbytes(10)) for _ in range(100)] + [t for t, _ in VECTORS]
        session.add_all([Order(id=v, item="given") for v in given[:50]])
        session.add_all([Order(id=uuid.UUID(bytes=unb32(v)), item="given") for v in given[50:]])
        made = [Order(item="made") for _ in range(20)]
        session.add_all(made)
        await session.commit()

        # docs/clients/python.md snippet: SQLAlchemy asyncio, queries.
        order_uuid = uuid.UUID(int=int(new_id.translate(TO_INT32), 32))  # the same 16 bytes
        same = await session.get(Order, new_id)
        by_uuid = (await session.execute(select(Order).where(Order.id == order_uuid))).scalar_one()
        some = (await session.execute(select(Order.item).where(Order.id.in_([new_id, order_uuid])))).scalars().all()
        notes = (await session.execute(select(Line.note).join(Order).where(Order.id == new_id))).scalars().all()
        in_order = (await session.execute(select(Order.id).order_by(Order.id))).scalars().all()
        recent = (await session.execute(
            select(Order.id).where(text("orders.id > now() - interval '1 hour'")))).scalars().all()
        # end of snippet
        check("ORM: session.get by the str id", same is order, repr(same))
        check("ORM: where(Order.id == uuid.UUID)", by_uuid is order, repr(by_uuid))
        expect_equal("ORM: Order.id.in_([str, uuid.UUID])", some, ["tea"])
        expect_equal("ORM: the line joined through the foreign key", notes, ["green"])
        expect_equal("ORM: 124 rows, given as str and as uuid.UUID, back as str",
                     sorted(set(given) & set(in_order)), sorted(given))
        expect_equal("ORM: order_by(Order.id) is the order of the str", in_order, sorted(in_order))
        window = sorted([new_id, VECTORS[2][0], *(o.id for o in made)])
        expect_equal("ORM: text(\"orders.id > now() - interval '1 hour'\"): the new ids and the one of the future",
                     sorted(recent), window)
        expect_equal("ORM: in_() of 103 uuid.UUID values",
                     (await session.execute(select(func.count()).where(
                         Order.id.in_([uuid.UUID(bytes=unb32(v)) for v in given])))).scalar_one(), 103)

        # A datetime compared with Order.id is bound as a ULID, which it is not.
        cutoff = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=1)
        await expect_error("ORM: Order.id > a datetime: bound as ULID, the codec refuses it (DBAPIError)",
                           lambda: session.execute(select(Order.id).where(Order.id > cutoff)),
                           exc.DBAPIError, "(expected str, uuid.UUID or bytes, got datetime)")
        await session.rollback()
        # docs/clients/python.md snippet: SQLAlchemy asyncio, a window from a datetime.
        since = (await session.execute(
            select(Order.id).where(Order.id > literal(cutoff, DateTime(timezone=True))))).scalars().all()
        # end of snippet
        expect_equal("ORM: Order.id > literal(datetime, DateTime(timezone=True)): the same rows",
                     sorted(since), window)

        await expect_error("ORM: a line for an absent order: IntegrityError (23503)",
                           lambda: session.execute(Line.__table__.insert().values(order_id="7ZZZZZZZZZZZZZZZZZZZZZZZZY")),
                           exc.IntegrityError, 'violates foreign key constraint "lines_order_id_fkey"')
        await session.rollback()
        err = await expect_error("ORM: bad text: refused by the codec, DBAPIError",
                                 lambda: session.execute(select(Order).where(Order.id == "01ARYZ6S41TSV4RRFFQ69G5FA")),
                                 exc.DBAPIError, "(invalid ULID: '01ARYZ6S41TSV4RRFFQ69G5FA')")
        expect_equal("... with e.orig.pgcode 22000 (asyncpg's DataError, raised before sending)",
                     getattr(getattr(err, "orig", None), "pgcode", None), "22000")
        await session.rollback()

        key = rng.randbytes(16)
        os.environ["PUBLIC_ID_KEY"] = key.hex()
        # docs/clients/python.md snippet: SQLAlchemy asyncio, public ids.
        key = bytes.fromhex(os.environ["PUBLIC_ID_KEY"])  # 16 bytes, kept out of the code
        shown = (await session.execute(select(func.ulid_encrypt(Order.id, key)).where(Order.id == new_id))).scalar_one()
        back = (await session.execute(select(Order).where(Order.id == func.ulid_decrypt(shown, key)))).scalar_one()
        # end of snippet
        check("public ids: ulid_encrypt(Order.id, bytes) is a uuid.UUID, not the id",
              isinstance(shown, uuid.UUID) and shown != order_uuid, repr(shown))
        check("public ids: the order back by ulid_decrypt", back is order, repr(back))
        expect_equal("public ids: the key is bound as bytea, never written into the SQL",
                     str(select(func.ulid_encrypt(Order.id, key)).compile(engine.sync_engine)).count(key.hex()), 0)
    return new_id, order_uuid


async def core(engine, new_id, order_uuid):
    # docs/clients/python.md snippet: SQLAlchemy asyncio, Core with uuid.UUID values.
    orders = Table(
        "orders", MetaData(),
        Column("id", ULID(as_uuid=True), primary_key=True, server_default=text("gen_ulid()")),
        Column("item", Text, nullable=False),
    )
    async with engine.connect() as conn:
        order_id = (await conn.execute(select(orders.c.id).where(orders.c.item == "tea"))).scalar_one()
        # order_id is a uuid.UUID
        # end of snippet
        expect_equal("Core as_uuid: the value is the uuid.UUID of the id", (type(order_id), order_id),
                     (uuid.UUID, order_uuid))
        got = (await conn.execute(orders.insert().values(item="coffee").returning(orders.c.id))).scalar_one()
        check("Core: insert().returning(id) from the default, as uuid.UUID, not earlier than the first",
              isinstance(got, uuid.UUID) and got != order_id and got.bytes[:6] >= order_id.bytes[:6], repr(got))
        await conn.rollback()

        # text() binds take the driver's types: a uuid.UUID goes through the codec.
        expect_equal("codec: text() with a uuid.UUID parameter for a ulid",
                     (await conn.execute(text("SELECT item FROM orders WHERE id = :id"), {"id": order_uuid})).scalar_one(),
                     "tea")
        expect_equal("codec: a ulid in ROW() is the str id",
                     (await conn.execute(text("SELECT ROW(id, item) FROM orders WHERE id = :id"),
                                         {"id": new_id})).scalar_one(), (new_id, "tea"))
        # SQLAlchemy's asyncpg dialect registers json and jsonb codecs of its own on connect.
        expect_equal("codec: SQLAlchemy's json and jsonb codecs still decode",
                     tuple((await conn.execute(text("""SELECT '{"a": 1}'::jsonb, '[2]'::json"""))).one()),
                     ({"a": 1}, [2]))
    async with engine.connect() as a, engine.connect() as b:
        pids = {(await c.execute(text("SELECT pg_backend_pid()"))).scalar_one() for c in (a, b)}
        backs = [(await c.execute(text("SELECT CAST(:id AS ulid)"), {"id": order_uuid})).scalar_one() for c in (a, b)]
    expect_equal("codec: two connections held at once, both with the codec", (len(pids), backs), (2, [new_id, new_id]))


async def without_codec(new_id, order_uuid):
    """An engine with no codec: the ULID type carries the ORM, text() and
    reflected columns do not."""
    engine = make_engine(codec=False)
    async with AsyncSession(engine) as session:
        expect_equal("no codec: ORM where(Order.id == uuid.UUID) works (the ULID type sends its text)",
                     (await session.execute(select(Order.item).where(Order.id == order_uuid))).scalar_one(), "tea")
        expect_equal("no codec: ORM Order.id.in_([str, uuid.UUID]) works too",
                     (await session.execute(select(Order.item).where(Order.id.in_([new_id, order_uuid])))).scalars().all(),
                     ["tea"])
    async with engine.connect() as conn:
        await expect_error("no codec: text() with a uuid.UUID parameter: DBAPIError, expected str, got UUID",
                           lambda: conn.execute(text("SELECT item FROM orders WHERE id = :id"), {"id": order_uuid}),
                           exc.DBAPIError, "(expected str, got UUID)")
        await conn.rollback()
        await expect_error("no codec: a ulid in ROW(): its 16 raw bytes read as UTF-8, UnicodeDecodeError",
                           lambda: conn.execute(text("SELECT ROW(id) FROM orders WHERE id = :id"),
                                                {"id": "01ARYZ6S41TSV4RRFFQ69G5FAV"}),
                           UnicodeDecodeError, "'utf-8' codec can't decode byte 0xf3")
        await conn.rollback()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reflected = await conn.run_sync(lambda sync_conn: Table("orders", MetaData(), autoload_with=sync_conn))
        expect_equal("no codec: reflection warns", [str(w.message) for w in caught if issubclass(w.category, exc.SAWarning)],
                     ["Did not recognize type 'ulid' of column 'id'"])
        await expect_error("no codec: a reflected (NullType) column == uuid.UUID: DBAPIError",
                           lambda: conn.execute(select(reflected.c.item).where(reflected.c.id == order_uuid)),
                           exc.DBAPIError, "(expected str, got UUID)")
        await conn.rollback()
        await expect_error("no codec: a reflected column in_() of uuid.UUID: DBAPIError",
                           lambda: conn.execute(select(reflected.c.item).where(reflected.c.id.in_([order_uuid]))),
                           exc.DBAPIError, "(expected str, got UUID)")
        await conn.rollback()
    await engine.dispose()
    return reflected


async def reflection(engine, new_id, order_uuid, plain_reflected):
    """A reflected column: str is sent as varchar until ulid is registered;
    then the schema reflects as ULID and is created again elsewhere."""
    async with engine.connect() as conn:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", exc.SAWarning)  # shown above
            reflected = await conn.run_sync(lambda sync_conn: Table("orders", MetaData(), autoload_with=sync_conn))
        check("reflection: NullType", isinstance(reflected.c.id.type, NullType), repr(reflected.c.id.type))
        expect_equal("codec: a reflected (NullType) column == uuid.UUID works",
                     (await conn.execute(select(reflected.c.item).where(reflected.c.id == order_uuid))).scalar_one(), "tea")
        for what, table in (("with the codec", reflected), ("without", plain_reflected)):
            await expect_error(f"a reflected (NullType) column == str, {what}: 42883, str is bound as varchar",
                               lambda: conn.execute(select(table.c.item).where(table.c.id == new_id)),
                               exc.ProgrammingError, "operator does not exist: ulid = character varying")
            await conn.rollback()

    from sqlalchemy.dialects.postgresql.base import ischema_names

    ischema_names["ulid"] = ULID
    copy = MetaData()
    async with engine.begin() as conn:
        # docs/clients/python.md snippet: SQLAlchemy asyncio, reflection.
        metadata = MetaData()
        await conn.run_sync(metadata.reflect)  # with ischema_names["ulid"] = ULID, as above
        # end of snippet
        orders = metadata.tables["orders"]
        check("reflection with ischema_names['ulid']: ULID columns",
              isinstance(orders.c.id.type, ULID) and isinstance(metadata.tables["lines"].c.order_id.type, ULID),
              repr(orders.c.id.type))
        expect_equal("reflection with ULID: a reflected column == str",
                     (await conn.execute(select(orders.c.item).where(orders.c.id == new_id))).scalar_one(), "tea")
        # The schema, reflected, created again in another: what SQLAlchemy has for a dump.
        for table in metadata.sorted_tables:
            table.to_metadata(copy, schema=f"{SCHEMA}_copy")
        await conn.execute(text(f"DROP SCHEMA IF EXISTS {SCHEMA}_copy CASCADE"))
        await conn.execute(text(f"CREATE SCHEMA {SCHEMA}_copy"))
        await conn.run_sync(copy.create_all)
        shape = text(
            "SELECT c.relname, attname, format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid), attnotnull, "
            "(SELECT string_agg(pg_get_constraintdef(k.oid), ', ' ORDER BY conname) FROM pg_constraint k "
            " WHERE conrelid = c.oid AND attnum = ANY(conkey)) "
            "FROM pg_class c JOIN pg_attribute ON attrelid = c.oid LEFT JOIN pg_attrdef ON adrelid = c.oid AND adnum = attnum "
            "WHERE relnamespace = CAST(:schema AS regnamespace) AND relkind = 'r' AND attnum > 0 ORDER BY 1, 2")
        original = (await conn.execute(shape, {"schema": SCHEMA})).all()
        again = (await conn.execute(shape, {"schema": f"{SCHEMA}_copy"})).all()
        expect_equal("reflected and created again: the same columns, types, defaults and constraints",
                     [tuple(r) for r in again],
                     [tuple(r) if r[5] is None else (*r[:5], r[5].replace("REFERENCES orders", f"REFERENCES {SCHEMA}_copy.orders"))
                      for r in original])
        check("... and ulid DEFAULT gen_ulid() among them",
              ("orders", "id", "ulid", "gen_ulid()", True, "PRIMARY KEY (id)") in [tuple(r) for r in again],
              repr(again))
        await conn.execute(text(f"DROP SCHEMA {SCHEMA}_copy CASCADE"))


async def main():
    rng = random.Random(ulidcheck.seed(f"SQLAlchemy {sqlalchemy.__version__}, asyncpg {asyncpg.__version__}"))
    # The schema exists before the engine's first connection, when the
    # dialect reads its default schema (current_schema()) once for all.
    admin = await asyncpg.connect()
    await admin.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE; CREATE SCHEMA {SCHEMA}")
    engine = make_engine()
    new_id, order_uuid = await day_one(engine, rng)
    await core(engine, new_id, order_uuid)
    plain_reflected = await without_codec(new_id, order_uuid)
    await reflection(engine, new_id, order_uuid, plain_reflected)
    await engine.dispose()
    await admin.execute(f"DROP SCHEMA {SCHEMA} CASCADE")
    await admin.close()


if __name__ == "__main__":
    ulidcheck.run(lambda: asyncio.run(main()))
