// TypeORM (postgres driver, on node-postgres) against the ulid type; run by
// test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  The tables
// are made by TypeORM's own CLI, migration:generate then migration:run, from
// the entities in typeorm-data-source.mjs, into $ULID_CLIENT_BUILD.  Prints
// "ok - typeorm: WHAT" or "FAILED - typeorm: WHAT : WHY" per check; exits
// non-zero if any check failed.  The TypeORM code blocks of
// docs/clients/node.md appear verbatim here or in typeorm-data-source.mjs
// (test/check_docs.py checks).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';

import pg from 'pg';
import { DataSource, EntitySchema, In } from 'typeorm';

import dataSource, { connection, Order, Line } from './typeorm-data-source.mjs';
import codec from './ulid-codec.js';

const { ulidToBytes, ulidToUuid, bytesToUlid } = codec;
const here = path.dirname(fileURLToPath(import.meta.url));
const migrations = path.join(process.env.ULID_CLIENT_BUILD, 'typeorm-migrations');

import report from './report.js';

const { reporter } = report;
const { check, expectEqual, done } = reporter('typeorm');

// The error a promise rejects with, as its class, its driver's SQLSTATE (a
// QueryFailedError carries the pg error on driverError) and message.
async function failure(promise) {
  try {
    await promise;
    return 'no error';
  } catch (e) {
    return `${e.constructor.name} ${e.driverError?.code ?? '-'}: ${e.message}`;
  }
}

// TypeORM's CLI, as a developer runs it: its exit status and output.
function cli(...args) {
  try {
    const out = execFileSync(process.execPath, [path.join(here, 'node_modules/typeorm/cli.js'), ...args,
      '-d', path.join(here, 'typeorm-data-source.mjs')], { encoding: 'utf8', stdio: 'pipe' });
    return { status: 0, out };
  } catch (e) {
    return { status: e.status, out: `${e.stdout}${e.stderr}` };
  }
}

// ulid_encrypt without the database: AES-128 of the 16 bytes, one block.
function aes(id, key) {
  const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  const hex = Buffer.concat([cipher.update(ulidToBytes(id)), cipher.final()]).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

async function unregistered() {
  // The same entities in a data source without the registration.
  const plain = new DataSource({ ...connection, entities: [Order, Line] });
  expectEqual('without the registration, initialize() refuses the ulid column',
    await failure(plain.initialize()),
    'DataTypeNotSupportedError -: Data type "ulid" in "Order.id" is not supported by "postgres" database.');
  if (plain.isInitialized) await plain.destroy();
}

async function schema() {
  const client = new pg.Client();
  await client.connect();
  await client.query('DROP TABLE IF EXISTS typeorm_lines, typeorm_orders, typeorm_migrations');
  await client.end();
  fs.rmSync(migrations, { recursive: true, force: true });

  // npx typeorm migration:generate MIGRATIONS/Init -o -d typeorm-data-source.mjs
  const made = cli('migration:generate', path.join(migrations, 'Init'), '-o');
  const files = fs.existsSync(migrations) ? fs.readdirSync(migrations) : [];
  check('migration:generate writes one migration', made.status === 0 && files.length === 1, made.out);
  const text = files.length ? fs.readFileSync(path.join(migrations, files[0]), 'utf8') : '';
  for (const want of [
    'CREATE TABLE "typeorm_orders" ("id" ulid NOT NULL DEFAULT gen_ulid(), "item" text NOT NULL',
    'CREATE TABLE "typeorm_lines" ("id" ulid NOT NULL DEFAULT gen_ulid(), "qty" integer NOT NULL, "order_id" ulid NOT NULL',
    'FOREIGN KEY ("order_id") REFERENCES "typeorm_orders"("id") ON DELETE CASCADE',
  ]) {
    check(`the migration has: ${want}`, text.includes(want), text);
  }

  const ran = cli('migration:run');
  check('migration:run applies it', ran.status === 0 && ran.out.includes('has been executed successfully'), ran.out);

  // The schema loaded back: the database now matches the entities.
  const again = cli('migration:generate', path.join(migrations, 'Again'), '-o', '--check');
  check('migration:generate --check after the run: no changes (the column and its default kept)',
    again.status === 0 && again.out.includes('No changes in database schema were found'), again.out);
  await dataSource.initialize();
  const pending = await dataSource.driver.createSchemaBuilder().log();
  expectEqual('createSchemaBuilder().log() after the run: nothing pending', pending.upQueries.map((q) => q.query), []);
  const columns = await dataSource.query(`SELECT table_name, column_name, udt_name, column_default
    FROM information_schema.columns WHERE table_name LIKE 'typeorm_%' AND udt_name = 'ulid' ORDER BY 1, 2`);
  expectEqual('the tables as made: ulid columns, gen_ulid() on the keys', columns, [
    { table_name: 'typeorm_lines', column_name: 'id', udt_name: 'ulid', column_default: 'gen_ulid()' },
    { table_name: 'typeorm_lines', column_name: 'order_id', udt_name: 'ulid', column_default: null },
    { table_name: 'typeorm_orders', column_name: 'id', udt_name: 'ulid', column_default: 'gen_ulid()' },
  ]);

  // The tempting way round the registration: declare the column uuid.
  // TypeORM then sees a type change, which it makes by dropping the column.
  const OrderAsUuid = new EntitySchema({
    name: 'OrderAsUuid',
    tableName: 'typeorm_orders',
    columns: { id: { type: 'uuid', primary: true, default: () => 'gen_ulid()' }, item: { type: 'text' } },
  });
  const asUuid = new DataSource({ ...connection, entities: [OrderAsUuid] });
  await asUuid.initialize();
  const plan = (await asUuid.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
  await asUuid.destroy();
  check('declared uuid instead: synchronize and migration:generate would drop and re-add the id column',
    plan.includes('ALTER TABLE "typeorm_orders" DROP COLUMN "id"')
      && plan.includes('ALTER TABLE "typeorm_orders" ADD "id" uuid NOT NULL DEFAULT gen_ulid()'), util.inspect(plan));
}

async function queries() {
  const orders = dataSource.getRepository('Order');
  const lines = dataSource.getRepository('Line');

  // docs/clients/node.md snippet: TypeORM queries.
  const tea = await orders.save({ item: 'tea' }); // tea.id: '01JX...', from gen_ulid() by RETURNING
  await orders.save({ id: '01563df3-6481-d676-4c61-efb99302bd5b', item: 'coffee' });
  const coffee = await orders.findOneBy({ id: '01ARYZ6S41TSV4RRFFQ69G5FAV' }); // { id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }
  const same = await orders.findOneBy({ id: '01563df3-6481-d676-4c61-efb99302bd5b' }); // a uuid string finds it too
  const both = await orders.find({ where: { id: In([tea.id, '01563df3-6481-d676-4c61-efb99302bd5b']) }, order: { id: 'ASC' } });
  await lines.save([{ qty: 1, order: tea }, { qty: 2, order: { id: tea.id } }]);
  const withLines = await orders.findOne({ where: { id: tea.id }, relations: { lines: true } });
  // End of docs/clients/node.md snippet.

  check('save() with the default: the id from RETURNING, a 26-character string',
    typeof tea.id === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(tea.id), util.inspect(tea));
  expectEqual('save() with uuid text, findOneBy() by the ULID text', coffee, { id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' });
  expectEqual('findOneBy() by uuid text', same, coffee);
  expectEqual('findOneBy() by lower-case text', await orders.findOneBy({ id: tea.id.toLowerCase() }), { id: tea.id, item: 'tea' });
  expectEqual('find() with In([ulid, uuid]), order by id', both,
    [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }, { id: tea.id, item: 'tea' }]);
  expectEqual('relations: the order with its two lines, keyed by ulid',
    [withLines.id, withLines.lines.map((l) => [l.qty, typeof l.id, l.id.length]).sort()],
    [tea.id, [[1, 'string', 26], [2, 'string', 26]]]);
  const byOrder = await lines.find({ where: { order: { id: ulidToUuid(tea.id) } }, relations: { order: true }, order: { qty: 'ASC' } });
  expectEqual('lines found by their order\'s uuid text, the order joined', byOrder.map((l) => [l.qty, l.order.id]),
    [[1, tea.id], [2, tea.id]]);
  expectEqual('a line of an order that does not exist: the foreign key refuses it (23503)',
    (await failure(lines.save({ qty: 3, order: { id: '01ARYZ6S41TSV4RRFFQ69G5FAW' } }))).split(':')[0],
    'QueryFailedError 23503');
  expectEqual('findOneBy() with invalid text: 22P02 on driverError',
    await failure(orders.findOneBy({ id: 'not a ulid' })),
    'QueryFailedError 22P02: invalid input syntax for type ulid: "not a ulid"');

  // Random ids made in JS, every other one as uuid text; then order.
  const made = Array.from({ length: 100 }, () => bytesToUlid(crypto.randomBytes(16)));
  await orders.insert(made.map((m, i) => ({ id: i % 2 ? m : ulidToUuid(m), item: 'random' })));
  expectEqual('100 random ids, half as uuid text: findBy(In()) finds all',
    (await orders.findBy({ id: In(made) })).length, 100);
  for (let i = 0; i < 20; i++) await orders.save({ item: `gen ${i}` });
  const ordered = (await orders.find({ select: { id: true }, order: { id: 'ASC' } })).map((o) => o.id);
  expectEqual('order: { id: "ASC" } equals the string order of the ids in JS', ordered, [...ordered].sort());
  const reversed = (await orders.find({ select: { id: true }, order: { id: 'DESC' } })).map((o) => o.id);
  expectEqual('order: { id: "DESC" } is the reverse', reversed, [...ordered].reverse());

  // docs/clients/node.md snippet: TypeORM time window.
  const recent = await orders.createQueryBuilder('o')
    .where("o.id > now() - interval '1 hour'") // ulid > timestamptz: the primary key serves it
    .orderBy('o.id')
    .getMany();
  const since = new Date(Date.now() - 3600 * 1000);
  const sinceDate = await orders.createQueryBuilder('o').where('o.id > :since::timestamptz', { since }).getMany();
  // End of docs/clients/node.md snippet.
  // The random ids' times are anywhere up to the year 10889: leave them out.
  const random = new Set(made);
  const generated = ordered.filter((id) => id !== coffee.id && !random.has(id));
  expectEqual('time window with now() - interval: the rows made now, not the 2016 coffee',
    recent.map((o) => o.id).filter((id) => !random.has(id)), generated);
  expectEqual('time window with a Date parameter cast to timestamptz: the same rows',
    sinceDate.map((o) => o.id).filter((id) => !random.has(id)).sort(), generated);
  expectEqual('a Date parameter without the cast is read as ulid text: 22P02',
    (await failure(orders.createQueryBuilder('o').where('o.id > :since', { since }).getMany())).split(':')[0],
    'QueryFailedError 22P02');

  // docs/clients/node.md snippet: TypeORM public ids.
  const key = Buffer.from(process.env.PUBLIC_ID_KEY, 'hex'); // 16 bytes, sent as bytea
  const { shown } = await orders.createQueryBuilder('o')
    .select('ulid_encrypt(o.id, :key)', 'shown')
    .where('o.id = :id', { id: tea.id, key })
    .getRawOne(); // shown: the uuid string an API shows
  const found = await orders.createQueryBuilder('o')
    .where('o.id = ulid_decrypt(:shown, :key)', { shown, key })
    .getOne(); // { id: tea.id, item: 'tea' }
  // End of docs/clients/node.md snippet.
  expectEqual('public id: ulid_encrypt with a Buffer key is AES-128 of the 16 bytes', shown, aes(tea.id, key));
  expectEqual('public id: ulid_decrypt finds the row', found, { id: tea.id, item: 'tea' });
  expectEqual('public id: the key as a hex string is 32 bytes of bytea text: 22023',
    (await failure(orders.createQueryBuilder('o').select('ulid_encrypt(o.id, :key)', 's')
      .where('o.id = :id', { id: tea.id, key: process.env.PUBLIC_ID_KEY }).getRawOne())),
    'QueryFailedError 22023: key must be 16 bytes, not 32');
}

async function main() {
  process.env.PUBLIC_ID_KEY ??= crypto.randomBytes(16).toString('hex');
  try {
    await unregistered();
    await schema();
    await queries();
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - typeorm: the program broke : ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
