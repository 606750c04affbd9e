// Kysely (PostgresDialect over node-postgres) against the ulid type; run by
// test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - kysely: WHAT" or "FAILED - kysely: WHAT : WHY" per check; exits
// non-zero if any check failed.  The Kysely code blocks of
// docs/clients/node.md appear verbatim below (test/check_docs.py checks).
import crypto from 'node:crypto';
import util from 'node:util';

import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';

// The shared codec (ulid-codec.js): 16 bytes <-> 26 characters <-> uuid text.
import codec from './ulid-codec.js';

const { ulidToBytes, ulidToUuid, bytesToUlid } = codec;

import report from './report.js';

const { reporter, ULID_TEXT } = report;
const { check, expectEqual, done } = reporter('kysely');


// What must fail gives its SQLSTATE and message (Kysely passes the driver's
// error on as it is), or 'no error'.  A function is called here, so that
// what it throws before anything is sent counts too.
async function failure(query) {
  try {
    await (typeof query === 'function' ? query() : query);
    return 'no error';
  } catch (e) {
    return e.code ? `${e.code}: ${e.message}` : e.message;
  }
}

// ulid_encrypt computed here, to compare with the server's.
function aes(id, key) {
  const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  return ulidToUuid(bytesToUlid(Buffer.concat([cipher.update(ulidToBytes(id)), cipher.final()])));
}

// docs/clients/node.md snippet: Kysely migration.
const migrations = {
  '2026_01_orders': {
    async up(db) {
      await db.schema
        .createTable('kysely_orders')
        .addColumn('id', sql`ulid`, (col) => col.primaryKey().defaultTo(sql`gen_ulid()`))
        .addColumn('item', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('kysely_lines')
        .addColumn('id', sql`ulid`, (col) => col.primaryKey().defaultTo(sql`gen_ulid()`))
        .addColumn('order_id', sql`ulid`, (col) => col.notNull().references('kysely_orders.id'))
        .addColumn('qty', 'integer', (col) => col.notNull())
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('kysely_lines').execute();
      await db.schema.dropTable('kysely_orders').execute();
    },
  },
};
// End of docs/clients/node.md snippet.

// The tables as Kysely's introspection reads them, and each column's type
// and default as the catalog has them.
async function readSchema(db) {
  const tables = (await db.introspection.getTables()).filter((t) => t.name.startsWith('kysely_') && !t.name.includes('migration'));
  const catalog = await sql`SELECT attrelid::regclass::text AS t, attname, format_type(atttypid, atttypmod) AS type,
      pg_get_expr(adbin, adrelid) AS "default"
    FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
    WHERE attrelid IN ('kysely_orders'::regclass, 'kysely_lines'::regclass) AND attnum > 0 AND NOT attisdropped
    ORDER BY 1, attnum`.execute(db);
  const fk = await sql`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = 'kysely_lines'::regclass AND contype = 'f'`.execute(db);
  return {
    tables: tables.map((t) => [t.name, t.columns.map((c) => [c.name, c.dataType, c.isNullable, c.hasDefaultValue])]).sort(),
    catalog: catalog.rows.map((r) => [r.t, r.attname, r.type, r.default]),
    fk: fk.rows.map((r) => r.def),
  };
}

async function migrate(db) {
  await sql`DROP TABLE IF EXISTS kysely_lines, kysely_orders, kysely_migration, kysely_migration_lock`.execute(db);

  // The first thing one writes: a column type Kysely does not list.
  expectEqual("addColumn('id', 'ulid'): Kysely refuses a data type it does not know",
    await failure(() => db.schema.createTable('kysely_orders').addColumn('id', 'ulid')),
    'invalid column data type "ulid"');
  const compiled = migrationSql(db);
  expectEqual("addColumn('id', sql`ulid`, ...): the SQL it sends", compiled,
    'create table "kysely_orders" ("id" ulid default gen_ulid() primary key, "item" text not null)');

  // docs/clients/node.md snippet: Kysely migrator.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  // End of docs/clients/node.md snippet.
  expectEqual('migrateToLatest: the migration ran', [error, results.map((r) => [r.migrationName, r.status])],
    [undefined, [['2026_01_orders', 'Success']]]);

  const first = await readSchema(db);
  expectEqual('introspection.getTables(): ulid columns, not nullable, the keys with a default', first.tables, [
    ['kysely_lines', [['id', 'ulid', false, true], ['order_id', 'ulid', false, false], ['qty', 'int4', false, false]]],
    ['kysely_orders', [['id', 'ulid', false, true], ['item', 'text', false, false]]],
  ]);
  expectEqual('the catalog: ulid columns, DEFAULT gen_ulid() on both keys', first.catalog, [
    ['kysely_lines', 'id', 'ulid', 'gen_ulid()'], ['kysely_lines', 'order_id', 'ulid', null], ['kysely_lines', 'qty', 'integer', null],
    ['kysely_orders', 'id', 'ulid', 'gen_ulid()'], ['kysely_orders', 'item', 'text', null],
  ]);
  expectEqual('the foreign key: kysely_lines.order_id references kysely_orders(id)', first.fk,
    ['FOREIGN KEY (order_id) REFERENCES kysely_orders(id)']);

  // Down and up again: the same schema from the migrations.
  const down = await migrator.migrateDown();
  const gone = await sql`SELECT to_regclass('kysely_orders') AS t`.execute(db);
  const up = await migrator.migrateToLatest();
  expectEqual('migrateDown drops the tables, migrateToLatest makes them again',
    [down.error, down.results.map((r) => r.direction), gone.rows, up.error],
    [undefined, ['Down'], [{ t: null }], undefined]);
  expectEqual('after down and up: the same introspection, catalog and foreign key', await readSchema(db), first);
}

function migrationSql(db) {
  return db.schema
    .createTable('kysely_orders')
    .addColumn('id', sql`ulid`, (col) => col.primaryKey().defaultTo(sql`gen_ulid()`))
    .addColumn('item', 'text', (col) => col.notNull())
    .compile().sql;
}

async function queries(db) {
  // docs/clients/node.md snippet: Kysely queries.
  const { id } = await db.insertInto('kysely_orders').values({ item: 'tea' }).returning('id').executeTakeFirstOrThrow();
  // id: '01JX...', a string of 26 characters
  await db.insertInto('kysely_orders').values({ id: '01563df3-6481-d676-4c61-efb99302bd5b', item: 'coffee' }).execute();
  const tea = await db.selectFrom('kysely_orders').selectAll().where('id', '=', id).execute();
  const coffee = await db.selectFrom('kysely_orders').selectAll()
    .where('id', '=', sql`${'01563df3-6481-d676-4c61-efb99302bd5b'}::uuid`).execute();
  // coffee: [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]
  const both = await db.selectFrom('kysely_orders').select('item')
    .where('id', 'in', [id, '01563df3-6481-d676-4c61-efb99302bd5b']).orderBy('id').execute();
  // End of docs/clients/node.md snippet.

  check('insert with the default, returning(id): a 26-character string', typeof id === 'string' && ULID_TEXT.test(id),
    util.inspect(id));
  expectEqual("where('id', '=', id)", tea, [{ id, item: 'tea' }]);
  expectEqual("uuid text inserted; where('id', '=', sql`${u}::uuid`) finds it, read back as the ULID string", coffee,
    [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]);
  expectEqual("where('id', 'in', [ULID, uuid]) with orderBy('id')", both, [{ item: 'coffee' }, { item: 'tea' }]);
  const untyped = await db.selectFrom('kysely_orders').select('item').where('id', '=', '01563df3-6481-d676-4c61-efb99302bd5b').execute();
  expectEqual("where('id', '=', uuid text): untyped, read as ulid input", untyped, [{ item: 'coffee' }]);
  const uuids = [ulidToUuid(id), '01563df3-6481-d676-4c61-efb99302bd5b'];
  const byUuids = await db.selectFrom('kysely_orders').select('item').where('id', '=', sql`any(${uuids}::uuid[])`).orderBy('id').execute();
  expectEqual("where('id', '=', sql`any(${uuids}::uuid[])`): a list typed uuid", byUuids, [{ item: 'coffee' }, { item: 'tea' }]);
  const q = db.selectFrom('kysely_orders').select('item').where('id', 'in', [id, id]).compile();
  expectEqual('the SQL Kysely sends: untyped parameters, no cast', [q.sql, q.parameters],
    ['select "item" from "kysely_orders" where "id" in ($1, $2)', [id, id]]);

  const made = Array.from({ length: 200 }, () => bytesToUlid(crypto.randomBytes(16)));
  await db.insertInto('kysely_orders').values(made.map((m, i) => ({ id: i % 2 ? m : ulidToUuid(m), item: 'random' }))).execute();
  const found = await db.selectFrom('kysely_orders').select('id').where('id', 'in', made).execute();
  expectEqual("200 random values inserted, half as uuid text: where('id', 'in', ...) finds all, as ULID strings",
    found.map((r) => r.id).sort(), [...made].sort());

  const [{ ids }] = (await sql`SELECT array_agg(id ORDER BY id) AS ids FROM kysely_orders WHERE id = ${id}`.execute(db)).rows;
  expectEqual('ulid[] result (node-postgres does not know the type): the array literal as one string', ids, `{${id}}`);
  const [{ ids: list }] = (await sql`SELECT array_agg(id ORDER BY id)::text[] AS ids FROM kysely_orders WHERE id = ${id}`.execute(db)).rows;
  expectEqual('array_agg(id)::text[]: an array of strings', list, [id]);

  // The fix node-postgres offers, given to the pool Kysely uses.
  const [{ arrayOid }] = (await sql`SELECT 'ulid[]'::regtype::oid AS "arrayOid"`.execute(db)).rows;
  const types = new pg.TypeOverrides();
  types.setTypeParser(arrayOid, pg.types.getTypeParser(1009)); // parse as text[]
  const parsing = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ types }) }) });
  try {
    const [{ ids: parsed }] = (await sql`SELECT array_agg(id ORDER BY id) AS ids FROM kysely_orders WHERE id = ${id}`.execute(parsing)).rows;
    expectEqual('ulid[] result through a pool with pg.TypeOverrides for the ulid[] oid: an array of strings', parsed, [id]);
  } finally {
    await parsing.destroy();
  }

  expectEqual('invalid text: 22P02 from the server, the driver\'s error as it is',
    await failure(db.selectFrom('kysely_orders').select('item').where('id', '=', '01ARYZ6S41TSV4RRFFQ69G5FAU').execute()),
    '22P02: invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FAU"');
  expectEqual('a duplicate id: 23505',
    (await failure(db.insertInto('kysely_orders').values({ id, item: 'again' }).execute())).slice(0, 6), '23505:');
  return id;
}

async function foreignKeyAndOrder(db, id) {
  for (let i = 0; i < 50; i++) await db.insertInto('kysely_orders').values({ item: `gen ${i}` }).execute();
  // docs/clients/node.md snippet: Kysely foreign key, order, time window.
  await db.insertInto('kysely_lines').values({ order_id: id, qty: 2 }).execute();
  const lines = await db.selectFrom('kysely_lines').innerJoin('kysely_orders', 'kysely_orders.id', 'kysely_lines.order_id')
    .select(['kysely_orders.item', 'kysely_lines.qty']).where('kysely_lines.order_id', '=', id).execute();
  const newest = await db.selectFrom('kysely_orders').select('id').orderBy('id', 'desc').limit(10).execute();
  const lastHour = await db.selectFrom('kysely_orders').select('id').where('id', '>', sql`now() - interval '1 hour'`).execute();
  const since = new Date(Date.now() - 3600 * 1000);
  const sinceDate = await db.selectFrom('kysely_orders').select('id').where('id', '>', sql`${since}::timestamptz`).execute();
  // End of docs/clients/node.md snippet.

  expectEqual('a foreign key typed ulid: innerJoin finds the line and its order', lines, [{ item: 'tea', qty: 2 }]);
  expectEqual('a line for an order that does not exist: 23503',
    (await failure(db.insertInto('kysely_lines').values({ order_id: bytesToUlid(Buffer.alloc(16, 1)), qty: 1 }).execute())).slice(0, 6),
    '23503:');
  const all = (await db.selectFrom('kysely_orders').select('id').orderBy('id').execute()).map((r) => r.id);
  expectEqual("orderBy('id') equals the string order of the ids in JS", all, [...all].sort());
  expectEqual("orderBy('id', 'desc').limit(10): the last ten", newest.map((r) => r.id), all.slice(-10).reverse());
  const genMade = new Set((await db.selectFrom('kysely_orders').select('id').where((eb) => eb.or([
    eb('item', '=', 'tea'), eb('item', 'like', 'gen %')])).execute()).map((r) => r.id));
  expectEqual("where('id', '>', sql`now() - interval '1 hour'`): the ids made by gen_ulid() in this run",
    lastHour.filter((r) => genMade.has(r.id)).length, 51);
  expectEqual('a time window with sql`${date}::timestamptz`: the same rows',
    sinceDate.map((r) => r.id).sort(), lastHour.map((r) => r.id).sort());
  // node-postgres sends a Date as text, untyped: the server reads it as ulid input.
  const dateFailure = await failure(db.selectFrom('kysely_orders').select('id').where('id', '>', since).execute());
  check('a time window with a Date and no cast: the date\'s text read as ulid input, 22P02',
    dateFailure.startsWith('22P02: invalid input syntax for type ulid: "'), dateFailure);
}

async function publicIds(db, id) {
  process.env.PUBLIC_ID_KEY ??= crypto.randomBytes(16).toString('hex');
  // docs/clients/node.md snippet: Kysely public ids.
  const key = Buffer.from(process.env.PUBLIC_ID_KEY, 'hex'); // 16 bytes, kept out of the code
  const { shown } = await db.selectFrom('kysely_orders').select(sql`ulid_encrypt(id, ${key})`.as('shown'))
    .where('id', '=', id).executeTakeFirstOrThrow();
  const found = await db.selectFrom('kysely_orders').select('item')
    .where('id', '=', sql`ulid_decrypt(${shown}, ${key})`).execute();
  // found: [{ item: 'tea' }]
  // End of docs/clients/node.md snippet.
  expectEqual('public ids: ulid_encrypt with a Buffer key (a bytea parameter) is AES-128 of the 16 bytes; ulid_decrypt finds the row',
    [shown, found], [aes(id, key), [{ item: 'tea' }]]);
  expectEqual('public ids: the key as a hex string is 32 bytes of bytea text: 22023',
    await failure(db.selectFrom('kysely_orders').select(sql`ulid_encrypt(id, ${key.toString('hex')})`.as('p')).execute()),
    '22023: key must be 16 bytes, not 32');
}

async function main() {
  // docs/clients/node.md snippet: Kysely connection.
  const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool() }) }); // PGHOST ... from the environment
  // End of docs/clients/node.md snippet.
  try {
    await migrate(db);
    const id = await queries(db);
    await foreignKeyAndOrder(db, id);
    await publicIds(db, id);
    await sql`DROP TABLE kysely_lines, kysely_orders, kysely_migration, kysely_migration_lock`.execute(db);
  } finally {
    await db.destroy();
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - kysely: the program broke : ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
