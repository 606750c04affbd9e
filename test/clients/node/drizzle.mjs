// drizzle-orm (node-postgres driver) against the ulid type; run by
// test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - drizzle: WHAT" or "FAILED - drizzle: WHAT : WHY" per check; exits
// non-zero if any check failed.  The drizzle code blocks of
// docs/clients/node.md appear verbatim below (test/check_docs.py checks).
import crypto from 'node:crypto';
import util from 'node:util';

import pg from 'pg';
import { asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { customType, pgTable, text } from 'drizzle-orm/pg-core';

import report from './report.js';

const { reporter } = report;
const { check, expectEqual, done } = reporter('drizzle');

// The shared codec (ulid-codec.js): 16 bytes <-> 26 characters <-> uuid text.
import codec from './ulid-codec.js';

const { ulidToBytes, ulidToUuid, bytesToUlid } = codec;

// docs/clients/node.md snippet: drizzle column type.
const ulid = customType({
  dataType() {
    return 'ulid';
  },
});

const orders = pgTable('drizzle_orders', {
  id: ulid('id').primaryKey().default(sql`gen_ulid()`),
  item: text('item').notNull(),
});
// End of docs/clients/node.md snippet.

// docs/clients/node.md snippet: drizzle bytes column type.
const ulidBytes = customType({
  dataType() {
    return 'ulid';
  },
  fromDriver(value) {
    return ulidToBytes(value); // a Buffer parameter needs no toDriver: it is sent as a binary ulid
  },
});
// End of docs/clients/node.md snippet.

const ordersBytes = pgTable('drizzle_orders', {
  id: ulidBytes('id').primaryKey().default(sql`gen_ulid()`),
  item: text('item').notNull(),
});

// A drizzle error wraps the driver's: the SQLSTATE is on error.cause.
// Returns the error's class, the start of its message and that code.
async function sqlstate(promise) {
  try {
    await promise;
    return 'no error';
  } catch (e) {
    return `${e.constructor.name} ${e.message.split(':')[0]}: ${e.cause?.code}`;
  }
}

async function main() {
  const client = new pg.Client();
  await client.connect();
  const db = drizzle({ client });
  try {
    await db.execute(sql`DROP TABLE IF EXISTS drizzle_orders`);
    await db.execute(sql`CREATE TABLE drizzle_orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text NOT NULL)`);

    // docs/clients/node.md snippet: drizzle queries.
    const [{ id }] = await db.insert(orders).values({ item: 'tea' }).returning({ id: orders.id });
    // id: '01JX...', a string of 26 characters
    await db.insert(orders).values({ id: '01563df3-6481-d676-4c61-efb99302bd5b', item: 'coffee' });
    const tea = await db.select().from(orders).where(eq(orders.id, id));
    const coffee = await db.select().from(orders).where(eq(orders.id, '01563df3-6481-d676-4c61-efb99302bd5b'));
    // coffee: [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]
    const both = await db.select().from(orders).where(inArray(orders.id, [id, '01ARYZ6S41TSV4RRFFQ69G5FAV'])).orderBy(orders.id);
    // End of docs/clients/node.md snippet.

    check('insert with the default, RETURNING id: a 26-character string',
      typeof id === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id), util.inspect(id));
    expectEqual('eq() by the returned text', tea, [{ id, item: 'tea' }]);
    expectEqual('insert and eq() with uuid-form text: read back as the ULID text', coffee,
      [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]);
    expectEqual('inArray() with two ids, orderBy(id)', both,
      [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }, { id, item: 'tea' }]);
    const lower = await db.select({ item: orders.item }).from(orders).where(eq(orders.id, id.toLowerCase()));
    expectEqual('eq() with lower-case text', lower, [{ item: 'tea' }]);
    const q = db.select({ item: orders.item }).from(orders).where(eq(orders.id, id)).toSQL();
    expectEqual('the SQL drizzle sends: the parameter is untyped, no cast',
      [q.sql, q.params], ['select "item" from "drizzle_orders" where "drizzle_orders"."id" = $1', [id]]);

    // 200 random values made in JS: inserted, found, ordered.
    const made = Array.from({ length: 200 }, () => bytesToUlid(crypto.randomBytes(16)));
    await db.insert(orders).values(made.map((m, i) => ({ id: i % 2 ? m : ulidToUuid(m), item: 'random' })));
    const found = await db.select({ id: orders.id }).from(orders).where(inArray(orders.id, made));
    expectEqual('200 random values, every other one inserted as uuid text: inArray finds all', found.length, 200);

    for (let i = 0; i < 50; i++) await db.insert(orders).values({ item: `gen ${i}` });
    const ordered = (await db.select({ id: orders.id }).from(orders).orderBy(asc(orders.id))).map((r) => r.id);
    expectEqual('orderBy(asc(id)) equals the string order of the ids in JS', ordered, [...ordered].sort());
    const reversed = (await db.select({ id: orders.id }).from(orders).orderBy(desc(orders.id))).map((r) => r.id);
    expectEqual('orderBy(desc(id)) is the reverse', reversed, [...ordered].reverse());
    const after = await db.select({ id: orders.id }).from(orders).where(gt(orders.id, ordered[9])).orderBy(orders.id);
    expectEqual('gt(id, text) with orderBy', after.map((r) => r.id), ordered.slice(10));

    // A uuid read through a cast in the select list.
    const [asUuid] = await db.select({ u: sql`${orders.id}::uuid` }).from(orders).where(eq(orders.id, id));
    expectEqual('sql`${orders.id}::uuid` reads the uuid form', asUuid.u, ulidToUuid(id));

    // The same table with the bytes column type.
    const [{ id: newBytes }] = await db.insert(ordersBytes).values({ item: 'bytes' }).returning({ id: ordersBytes.id });
    const byBytes = await db.select().from(ordersBytes).where(eq(ordersBytes.id, ulidToBytes(id)));
    const { rows: [{ t: newText }] } = await client.query('SELECT id::text AS t FROM drizzle_orders WHERE id = $1', [newBytes]);
    check('bytes column type: RETURNING id is 16 bytes that find the row by text',
      Buffer.isBuffer(newBytes) && newBytes.length === 16 && newText === bytesToUlid(newBytes), util.inspect([newBytes, newText]));
    expectEqual('bytes column type: eq() with a Buffer (sent binary) reads the Buffer back', byBytes,
      [{ id: ulidToBytes(id), item: 'tea' }]);
    const someBytes = made.slice(0, 20).map(ulidToBytes);
    const inBytes = await db.select({ id: ordersBytes.id }).from(ordersBytes).where(inArray(ordersBytes.id, someBytes)).orderBy(ordersBytes.id);
    expectEqual('bytes column type: inArray() with 20 Buffers, ordered as their bytes',
      inBytes.map((r) => r.id), [...someBytes].sort(Buffer.compare));
    const inSql = db.select({ id: ordersBytes.id }).from(ordersBytes).where(inArray(ordersBytes.id, someBytes.slice(0, 2))).toSQL().sql;
    check('inArray() writes in ($1, $2), not an array parameter', inSql.endsWith('"drizzle_orders"."id" in ($1, $2)'), inSql);
    expectEqual('bytes column type: a 15-byte Buffer gives 22P03',
      await sqlstate(db.select().from(ordersBytes).where(eq(ordersBytes.id, Buffer.alloc(15)))), 'DrizzleQueryError Failed query: 22P03');

    // docs/clients/node.md snippet: drizzle prepared statement.
    const byId = db.select().from(orders).where(eq(orders.id, sql.placeholder('id'))).prepare('drizzle_order_by_id');
    const rows = await byId.execute({ id });
    // End of docs/clients/node.md snippet.
    const again = await byId.execute({ id: ulidToUuid(id) });
    expectEqual('prepared statement: by text, then by uuid text', [rows, again], [[{ id, item: 'tea' }], [{ id, item: 'tea' }]]);
    const p = await client.query("SELECT parameter_types::text AS t FROM pg_prepared_statements WHERE name = 'drizzle_order_by_id'");
    expectEqual('prepared statement: prepared on the server with a ulid parameter', p.rows, [{ t: '{ulid}' }]);

    // Errors: invalid text is the server's 22P02, wrapped by drizzle.
    expectEqual('eq() with invalid text: 22P02 on error.cause',
      await sqlstate(db.select().from(orders).where(eq(orders.id, '01ARYZ6S41TSV4RRFFQ69G5FAU'))), 'DrizzleQueryError Failed query: 22P02');
    expectEqual('insert with invalid text: 22P02 on error.cause',
      await sqlstate(db.insert(orders).values({ id: 'not a ulid', item: 'x' })), 'DrizzleQueryError Failed query: 22P02');
    expectEqual('insert of a duplicate id: 23505 on error.cause',
      await sqlstate(db.insert(orders).values({ id, item: 'again' })), 'DrizzleQueryError Failed query: 23505');

    // A parser set on the client does not reach drizzle's queries: drizzle
    // passes its own type parsers, which fall back to pg's global ones.
    const { rows: [{ oid }] } = await client.query("SELECT 'ulid'::regtype::oid AS oid");
    client.setTypeParser(oid, ulidToUuid);
    const viaClient = await client.query('SELECT id FROM drizzle_orders WHERE id = $1', [id]);
    const viaDrizzle = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, id));
    expectEqual('client.setTypeParser applies to client.query but not to drizzle',
      [viaClient.rows[0].id, viaDrizzle[0].id], [ulidToUuid(id), id]);

    await db.execute(sql`DROP TABLE drizzle_orders`);
  } finally {
    await client.end();
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - drizzle: the program broke : ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
