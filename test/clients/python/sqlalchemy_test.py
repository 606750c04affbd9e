"""SQLAlchemy 1.4 on psycopg2 against the ulid type; run by test/clients/python/run.

A ULID column type (the recipe of docs/clients/python.md), used in a Core
Table and an ORM model: the id filled by server_default=text('gen_ulid()')
and returned on insert, comparisons with str and uuid.UUID, in_() lists,
ordering, the reflection warning (NullType) and its fix, 22P02 on bad text.
Connects through the libpq environment to a database where CREATE EXTENSION
ulid has run, in a schema of its own, sqla.  Prints "ok - sqlalchemy: WHAT"
or "FAILED - sqlalchemy: WHAT : WHY" per check.  The SQLAlchemy code blocks
of docs/clients/python.md appear verbatim below (test/check_docs.py checks).
"""

import random
import warnings

import sqlalchemy
import sqlalchemy.dialects.postgresql
from sqlalchemy import exc

# docs/clients/python.md snippet: SQLAlchemy, the imports of the section.
from sqlalchemy import Column, MetaData, Table, Text, create_engine, select, text
from sqlalchemy.orm import Session, declarative_base
# end of snippet

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, unb32

ulidcheck.CLIENT = "sqlalchemy"


# --- docs/clients/python.md snippet: SQLAlchemy, the ULID type ------------
import uuid

from sqlalchemy.types import UserDefinedType

# Crockford's Base32 digits as the digits of int(text, 32).
TO_INT32 = str.maketrans("0123456789ABCDEFGHJKMNPQRSTVWXYZ", "0123456789abcdefghijklmnopqrstuv")


class ULID(UserDefinedType):
    """A ulid column. Values are 26-character str, or uuid.UUID with as_uuid=True.

    Parameters may be str (either text form) or uuid.UUID.
    """

    cache_ok = True

    def __init__(self, as_uuid=False):
        self.as_uuid = as_uuid

    def get_col_spec(self, **kw):
        return "ULID"

    def bind_processor(self, dialect):
        def process(value):
            # The server reads the uuid text form as a ulid.
            return str(value) if isinstance(value, uuid.UUID) else value
        return process

    def result_processor(self, dialect, coltype):
        if not self.as_uuid:
            return None

        def process(value):
            return None if value is None else uuid.UUID(int=int(value.translate(TO_INT32), 32))
        return process
# --- end of docs/clients/python.md snippet --------------------------------


# docs/clients/python.md snippet: SQLAlchemy, an ORM model.
Base = declarative_base()


class Order(Base):
    __tablename__ = "orders"
    id = Column(ULID, primary_key=True, server_default=text("gen_ulid()"))
    item = Column(Text, nullable=False)
# end of snippet


def orm(engine, rng):
    Base.metadata.create_all(engine)
    ddl = engine.connect().execute(text(
        "SELECT format_type(atttypid, atttypmod), pg_get_expr(adbin, adrelid) FROM pg_attribute "
        "JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum WHERE attrelid = 'orders'::regclass")).fetchall()
    expect_equal("create_all: id is ulid DEFAULT gen_ulid()", ddl, [("ulid", "gen_ulid()")])

    # docs/clients/python.md snippet: SQLAlchemy, the ORM.
    with Session(engine) as session:
        order = Order(item="tea")
        session.add(order)
        session.commit()  # INSERT ... RETURNING orders.id
        new_id = order.id  # '01J...': a str of 26 characters
        same = session.get(Order, new_id)
        # end of snippet
        # docs/clients/python.md snippet: SQLAlchemy, str and uuid.UUID in where() and in_().
        order_uuid = uuid.UUID(int=int(new_id.translate(TO_INT32), 32))  # the same 16 bytes
        by_uuid = session.execute(select(Order).where(Order.id == order_uuid)).scalar_one()
        some = session.execute(select(Order.item).where(Order.id.in_([new_id, order_uuid]))).scalars().all()
        # end of snippet
        check("ORM: the id filled by the server default comes back on commit",
              isinstance(new_id, str) and len(new_id) == 26, repr(new_id))
        check("ORM: session.get by the str id", same is order, repr(same))
        expect_equal("ORM: the docs' order_uuid has the bytes of the text (own codec)",
                     order_uuid.bytes, unb32(new_id))
        check("ORM: where(Order.id == uuid.UUID)", by_uuid is order, repr(by_uuid))
        expect_equal("ORM: Order.id.in_([str, uuid.UUID])", some, ["tea"])

        values = [b32(rng.randbytes(16)) for _ in range(100)] + [t for t, _ in VECTORS]
        session.add_all([Order(id=v, item="given") for v in values[:50]])
        session.add_all([Order(id=uuid.UUID(bytes=unb32(v)), item="given") for v in values[50:]])
        session.add_all([Order(item="default") for _ in range(20)])
        session.commit()
        rows = session.execute(select(Order.id).order_by(Order.id)).scalars().all()
        expect_equal("ORM: 124 rows, given as str and as uuid.UUID, back as str",
                     sorted(set(values) & set(rows)), sorted(values))
        expect_equal("ORM: order_by(Order.id) is the text order", rows, sorted(rows))
        expect_equal("ORM: in_() of 103 uuid.UUID values",
                     session.execute(select(sqlalchemy.func.count()).where(
                         Order.id.in_([uuid.UUID(bytes=unb32(v)) for v in values]))).scalar_one(), 103)
    return new_id, values


def core(engine, new_id):
    # docs/clients/python.md snippet: SQLAlchemy, Core with uuid.UUID values.
    metadata = MetaData()
    orders = Table(
        "orders", metadata,
        Column("id", ULID(as_uuid=True), primary_key=True, server_default=text("gen_ulid()")),
        Column("item", Text, nullable=False),
    )
    with engine.connect() as conn:
        order_id = conn.execute(select(orders.c.id).where(orders.c.item == "tea")).scalar_one()
        # order_id is a uuid.UUID
        conn.execute(select(orders.c.item).where(orders.c.id == order_id)).scalar_one()
        check("Core as_uuid: the value is a uuid.UUID with the bytes of the text",
              isinstance(order_id, uuid.UUID) and order_id.bytes == unb32(new_id), repr(order_id))
        expect_equal("Core as_uuid: equals id::uuid",
                     conn.execute(text("SELECT id::uuid FROM orders WHERE item = 'tea'")).scalar_one(), order_id)
        expect_equal("Core as_uuid: where id == uuid.UUID",
                     conn.execute(select(orders.c.item).where(orders.c.id == order_id)).scalar_one(), "tea")
        expect_equal("Core: where id == str",
                     conn.execute(select(orders.c.item).where(orders.c.id == new_id)).scalar_one(), "tea")
        got = conn.execute(orders.insert().values(item="coffee").returning(orders.c.id)).scalar_one()
        # Two gen_ulid() values are ordered by their time only (bytes 0-5).
        check("Core: insert().returning(id) from the default, as uuid.UUID, not earlier than the first",
              isinstance(got, uuid.UUID) and got != order_id and got.bytes[:6] >= order_id.bytes[:6], repr(got))

        # postgresql.UUID(as_uuid=True) on a ulid column: the str comes through unconverted.
        wrong = Table("orders", MetaData(), Column("id", sqlalchemy.dialects.postgresql.UUID(as_uuid=True),
                                                   primary_key=True), Column("item", Text))
        expect_equal("postgresql.UUID(as_uuid=True) on a ulid column silently gives the str",
                     conn.execute(select(wrong.c.id).where(wrong.c.item == "tea")).scalar_one(), new_id)

        # Bad text: the server's 22P02, as sqlalchemy.exc.DataError.
        try:
            conn.execute(select(orders.c.item).where(orders.c.id == "01ARYZ6S41TSV4RRFFQ69G5FA"))
            check("bad text: DataError with SQLSTATE 22P02", False, "no error")
        except exc.DataError as e:
            expect_equal("bad text: DataError with SQLSTATE 22P02", e.orig.pgcode, "22P02")
        conn.rollback()


def reflection(engine, new_id):
    # Without the type registered: a warning, and NullType.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reflected = Table("orders", MetaData(), autoload_with=engine)
    messages = [str(w.message) for w in caught if issubclass(w.category, exc.SAWarning)]
    expect_equal("reflection without registration: the warning", messages,
                 ["Did not recognize type 'ulid' of column 'id'"])
    check("reflection without registration: NullType",
          isinstance(reflected.c.id.type, sqlalchemy.types.NullType), repr(reflected.c.id.type))
    with engine.connect() as conn:
        expect_equal("NullType column: where id == str still works",
                     conn.execute(select(reflected.c.item).where(reflected.c.id == new_id)).scalar_one(), "tea")
        # The psycopg2 dialect registers psycopg2's uuid adapter itself.
        expect_equal("NullType column: where id == uuid.UUID works too",
                     conn.execute(select(reflected.c.item).where(
                         reflected.c.id == uuid.UUID(bytes=unb32(new_id)))).scalar_one(), "tea")
        # in_() of str and of uuid.UUID, with a value that matches nothing.
        absent = "7ZZZZZZZZZZZZZZZZZZZZZZZZY"
        for what, values in (("str", [new_id, absent]),
                             ("uuid.UUID", [uuid.UUID(bytes=unb32(new_id)), uuid.UUID(bytes=unb32(absent))])):
            expect_equal(f"NullType column: in_() of {what}",
                         conn.execute(select(reflected.c.item).where(reflected.c.id.in_(values))).scalars().all(),
                         ["tea"])
        # A mix: the server reads the whole IN list as uuid, and the ULID text is not a uuid.
        try:
            conn.execute(select(reflected.c.item).where(reflected.c.id.in_([new_id, uuid.UUID(bytes=unb32(absent))])))
            check("NullType column: in_() of str and uuid.UUID mixed fails, 22P02 for type uuid", False, "no error")
        except exc.DataError as e:
            check("NullType column: in_() of str and uuid.UUID mixed fails, 22P02 for type uuid",
                  e.orig.pgcode == "22P02" and f'invalid input syntax for type uuid: "{new_id}"' in str(e), str(e))
        conn.rollback()
    try:
        str(sqlalchemy.schema.CreateTable(reflected).compile(engine))
        check("NullType column: no DDL from the reflected table", False, "DDL compiled")
    except exc.CompileError as e:
        expect_equal("NullType column: no DDL from the reflected table", str(e),
                     "(in table 'orders', column 'id'): Can't generate DDL for NullType(); "
                     "did you forget to specify a type on this Column?")

    # docs/clients/python.md snippet: SQLAlchemy, reflection.
    from sqlalchemy.dialects.postgresql.base import ischema_names

    ischema_names["ulid"] = ULID
    # end of snippet
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        reflected = Table("orders", MetaData(), autoload_with=engine)
    expect_equal("reflection with ischema_names['ulid']: no warning", [str(w.message) for w in caught if issubclass(w.category, exc.SAWarning)], [])
    check("reflection with ischema_names['ulid']: the column is ULID",
          isinstance(reflected.c.id.type, ULID), repr(reflected.c.id.type))
    ddl = str(sqlalchemy.schema.CreateTable(reflected).compile(engine))
    check("reflected with ULID: the DDL says ULID and the default", "id ULID DEFAULT gen_ulid() NOT NULL" in ddl, ddl)


def main():
    seed = ulidcheck.seed(f"SQLAlchemy {sqlalchemy.__version__}")
    # docs/clients/python.md snippet: SQLAlchemy, the engine.
    engine = create_engine("postgresql+psycopg2://", future=True,
                       connect_args={"options": "-c search_path=sqla,public"})
    # end of snippet
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS sqla CASCADE"))
        conn.execute(text("CREATE SCHEMA sqla"))
    new_id, _ = orm(engine, random.Random(seed))
    core(engine, new_id)
    reflection(engine, new_id)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA sqla CASCADE"))


if __name__ == "__main__":
    ulidcheck.run(main)
