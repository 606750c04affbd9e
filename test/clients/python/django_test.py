"""Django 3.2 on psycopg2 against the ulid type; run by test/clients/python/run.

Configured standalone (settings.configure), tables made with the schema
editor, no migrations files.  A UlidField and a UlidAutoField (the recipe of
docs/clients/python.md): a primary key filled by the column's DEFAULT
gen_ulid() and read back on insert, a foreign key to it, lookups exact, in,
gt, ordering, str and uuid.UUID values, Cast to UUIDField, 22P02 on bad
text, and what goes wrong without empty_strings_allowed = False and without
the auto field.  Connects through the libpq environment to a database where
CREATE EXTENSION ulid has run, in a schema of its own, django.  Prints
"ok - django: WHAT" or "FAILED - django: WHAT : WHY" per check.
"""

import os
import random

import django
from django.conf import settings

import ulidcheck
from ulidcheck import VECTORS, b32, check, expect_equal, unb32

ulidcheck.CLIENT = "django"

settings.configure(
    DATABASES={
        "default": {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": os.environ["PGDATABASE"],  # host, port, user: libpq's environment
            "OPTIONS": {"options": "-c search_path=django,public"},
        }
    },
    INSTALLED_APPS=[],
    USE_TZ=True,
)
django.setup()

# docs/clients/python.md snippet: Django, the imports of the section.
from django.db import migrations, models
from django.db.models.functions import Cast
# end of snippet

from django.db import DataError, IntegrityError, connection, transaction  # noqa: E402 (after setup())


# --- docs/clients/python.md snippet: Django, the fields -------------------
import uuid

from django.db import models
from django.db.models.fields import AutoFieldMixin


class UlidField(models.Field):
    """A ulid column. Values are 26-character str; lookups take str or uuid.UUID."""

    description = "ULID"
    empty_strings_allowed = False  # else a missing value is saved as '': 22P02

    def db_type(self, connection):
        return "ulid"

    def get_prep_value(self, value):
        value = super().get_prep_value(value)
        # The server reads the uuid text form as a ulid.
        return str(value) if isinstance(value, uuid.UUID) else value


class UlidAutoField(AutoFieldMixin, UlidField):
    """A ulid primary key that the column's DEFAULT fills, read back on insert."""
# --- end of docs/clients/python.md snippet --------------------------------


# docs/clients/python.md snippet: Django, models.
class Order(models.Model):
    id = UlidAutoField(primary_key=True)
    item = models.TextField()

    class Meta:
        app_label = "shop"


class Line(models.Model):
    id = UlidAutoField(primary_key=True)
    order = models.ForeignKey(Order, on_delete=models.CASCADE)
    ref = UlidField(null=True)

    class Meta:
        app_label = "shop"
# end of snippet


class ReturningField(UlidField):
    db_returning = True  # read back on insert, but still sent


class PlainPk(models.Model):
    """A plain UlidField primary key: Django sends NULL for it."""
    id = ReturningField(primary_key=True)
    item = models.TextField()

    class Meta:
        app_label = "shop"


class LooseField(UlidField):
    empty_strings_allowed = True  # Django's default for a Field


class Loose(models.Model):
    ref = LooseField()

    class Meta:
        app_label = "shop"


def system_checks():
    from django.core import checks
    expect_equal("Django's system checks pass for the models", checks.run_checks(), [])
    name, path, args, kwargs = Order._meta.get_field("id").deconstruct()
    expect_equal("UlidAutoField deconstructs for migrations", (path, kwargs),
                 ("__main__.UlidAutoField", {"primary_key": True, "serialize": False}))


def make_tables():
    with connection.cursor() as cur:
        cur.execute("DROP SCHEMA IF EXISTS django CASCADE")
        cur.execute("CREATE SCHEMA django")
    with connection.schema_editor() as editor:
        for model in (Order, Line, PlainPk, Loose):
            editor.create_model(model)
        # docs/clients/python.md snippet: Django, the default (as a migration operation).
        set_default = [
            migrations.RunSQL("ALTER TABLE shop_order ALTER COLUMN id SET DEFAULT gen_ulid()"),
            migrations.RunSQL("ALTER TABLE shop_line ALTER COLUMN id SET DEFAULT gen_ulid()"),
        ]
        # end of snippet
        for operation in set_default + [
                migrations.RunSQL("ALTER TABLE shop_plainpk ALTER COLUMN id SET DEFAULT gen_ulid()")]:
            operation.database_forwards("shop", editor, None, None)
    with connection.cursor() as cur:
        cur.execute("SELECT pg_get_expr(adbin, adrelid), format_type(atttypid, atttypmod) FROM pg_attrdef "
                    "JOIN pg_attribute ON attrelid = adrelid AND attnum = adnum "
                    "WHERE adrelid = 'shop_order'::regclass")
        expect_equal("schema editor: shop_order.id is ulid DEFAULT gen_ulid()", cur.fetchall(),
                     [("gen_ulid()", "ulid")])
        cur.execute("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                    "WHERE attrelid = 'shop_line'::regclass AND attname IN ('order_id', 'ref') ORDER BY attname")
        expect_equal("schema editor: the foreign key and the UlidField are ulid", cur.fetchall(),
                     [("ulid",), ("ulid",)])


def orm(rng):
    # docs/clients/python.md snippet: Django, queries.
    order = Order.objects.create(item="tea")
    new_id = order.id  # '01J...': the database default, read back by INSERT ... RETURNING
    same = Order.objects.get(id=new_id)
    some = Order.objects.filter(id__in=[new_id, "01ARYZ6S41TSV4RRFFQ69G5FAV"])
    in_order = Order.objects.order_by("id")
    as_uuid = Order.objects.annotate(u=Cast("id", models.UUIDField())).get(id=new_id).u
    # end of snippet
    expect_equal("the queries of the docs", (same.item, [o.item for o in some], in_order[0].item,
                                             as_uuid.bytes), ("tea", ["tea"], "tea", unb32(new_id)))
    check("create(): the id is the database default, a 26-character str",
          isinstance(order.id, str) and len(order.id) == 26, repr(order.id))
    as_uuid = uuid.UUID(bytes=unb32(order.id))
    expect_equal("get(id=str)", Order.objects.get(id=order.id).item, "tea")
    expect_equal("get(id=uuid.UUID)", Order.objects.get(id=as_uuid).item, "tea")
    expect_equal("filter(id__in=[str, str])",
                 list(Order.objects.filter(id__in=[order.id, "01ARYZ6S41TSV4RRFFQ69G5FAV"]).values_list("item", flat=True)),
                 ["tea"])
    expect_equal("Cast('id', UUIDField()) reads uuid.UUID",
                 Order.objects.annotate(u=Cast("id", models.UUIDField())).get(id=order.id).u, as_uuid)
    line = Line.objects.create(order=order, ref=as_uuid)
    expect_equal("a foreign key to the ulid key, joined", Line.objects.get(order__item="tea").order_id, order.id)
    expect_equal("a UlidField saved from a uuid.UUID reads back as the ULID text",
                 Line.objects.get(id=line.id).ref, order.id)
    expect_equal("a UlidField left empty (null=True) is NULL", Line.objects.create(order=order).ref, None)

    values = [b32(rng.randbytes(16)) for _ in range(100)] + [t for t, _ in VECTORS]
    Order.objects.bulk_create([Order(id=v, item="given") for v in values[:50]])
    Order.objects.bulk_create([Order(id=uuid.UUID(bytes=unb32(v)), item="given") for v in values[50:]])
    # Django 3.2's bulk_create leaves out only a real AutoField: it sends id = NULL.
    try:
        with transaction.atomic():
            Order.objects.bulk_create([Order(item="bulk") for _ in range(10)])
        check("bulk_create() without ids: NULL is inserted, 23502", False, "saved")
    except IntegrityError as e:
        check("bulk_create() without ids: NULL is inserted, 23502",
              e.__cause__.pgcode == "23502" and 'null value in column "id"' in str(e), str(e))
    made = [Order.objects.create(item="bulk") for _ in range(10)]
    check("create() ten times: ten ids from the defaults",
          all(isinstance(o.id, str) and len(o.id) == 26 for o in made) and len({o.id for o in made}) == 10,
          repr([o.id for o in made[:2]]))
    ids = list(Order.objects.order_by("id").values_list("id", flat=True))
    expect_equal("order_by('id') is the text order (114 rows)", ids, sorted(ids))
    expect_equal("the given values, as str and as uuid.UUID, read back as str",
                 sorted(set(ids) & set(values)), sorted(values))
    expect_equal("filter(id__in=[103 uuid.UUID])",
                 Order.objects.filter(id__in=[uuid.UUID(bytes=unb32(v)) for v in values]).count(), 103)
    # Two gen_ulid() values are ordered by their time only: the bound is the
    # last ULID of the millisecond before the order's.
    before = b32((int.from_bytes(unb32(order.id)[:6], "big") - 1).to_bytes(6, "big") + b"\xff" * 10)
    expect_equal("filter(id__gt=the last ULID before the order's millisecond) counts the later defaults",
                 Order.objects.filter(id__gt=before, item="bulk").count(), 10)
    expect_equal("filter(id__lte=that bound) counts none of them",
                 Order.objects.filter(id__lte=before, item="bulk").count(), 0)
    expect_equal("the ids' bytes are id::uuid (own codec)",
                 [uuid.UUID(bytes=unb32(i)) for i in ids],
                 list(Order.objects.order_by("id").annotate(u=Cast("id", models.UUIDField())).values_list("u", flat=True)))


def errors():
    try:
        with transaction.atomic():
            Order.objects.get(id="01ARYZ6S41TSV4RRFFQ69G5FA")
        check("bad text: DataError with SQLSTATE 22P02", False, "no error")
    except DataError as e:
        expect_equal("bad text: DataError with SQLSTATE 22P02", e.__cause__.pgcode, "22P02")

    # Without empty_strings_allowed = False, a missing value is saved as ''.
    try:
        with transaction.atomic():
            Loose.objects.create()
        check("empty_strings_allowed = True: a missing value fails, 22P02", False, "saved")
    except DataError as e:
        check("empty_strings_allowed = True: a missing value fails, 22P02",
              e.__cause__.pgcode == "22P02" and 'invalid input syntax for type ulid: ""' in str(e), str(e))

    # A plain UlidField primary key: Django sends id = NULL, over the default.
    try:
        with transaction.atomic():
            PlainPk.objects.create(item="tea")
        check("a plain UlidField primary key: NULL is inserted, 23502", False, "saved")
    except IntegrityError as e:
        check("a plain UlidField primary key: NULL is inserted, 23502",
              e.__cause__.pgcode == "23502" and 'null value in column "id"' in str(e), str(e))


def main():
    seed = ulidcheck.seed(f"Django {django.get_version()}")
    system_checks()
    make_tables()
    orm(random.Random(seed))
    errors()
    with connection.cursor() as cur:
        cur.execute("DROP SCHEMA django CASCADE")


if __name__ == "__main__":
    ulidcheck.run(main)
