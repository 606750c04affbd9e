// postgres.js (npm "postgres", 4.x, and 3.x as "postgres-v3") against the
// ulid type; run by test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - postgres-js: WHAT" or "FAILED - postgres-js: WHAT : WHY" per check;
// exits non-zero if any check failed.  The postgres.js code blocks of
// docs/clients/node.md appear verbatim below (test/check_docs.py checks).
import crypto from 'node:crypto';
import util from 'node:util';

import postgres from 'postgres';
import postgres3 from 'postgres-v3';

// The shared codec (ulid-codec.js): 16 bytes <-> 26 characters <-> uuid text.
import codec from './ulid-codec.js';

const { ulidToBytes, ulidToUuid, bytesToUlid } = codec;

import report from './report.js';

const { reporter, ULID_TEXT } = report;
const { check, expectEqual, done } = reporter('postgres-js');


// What a query that must fail gives: its SQLSTATE (or postgres.js's own
// code) and message; 'no error' if it ran.  A function is called here, so
// that what it throws before the query is sent counts too.
async function failure(query) {
  try {
    await (typeof query === 'function' ? query() : query);
    return 'no error';
  } catch (e) {
    return e.message.startsWith(`${e.code}:`) ? e.message : `${e.code}: ${e.message}`;
  }
}

// Result arrays carry count, columns, ...: compare the rows alone.
const plain = (rows) => rows.map((r) => ({ ...r }));

// ulid_encrypt computed here, to compare with the server's (the node-postgres
// page gives it as a recipe; test.js checks it on 500 ids).
function aes(id, key) {
  const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  return ulidToUuid(bytesToUlid(Buffer.concat([cipher.update(ulidToBytes(id)), cipher.final()])));
}

async function schema(sql) {
  await sql`DROP TABLE IF EXISTS postgresjs_lines, postgresjs_orders`;
  // docs/clients/node.md snippet: postgres.js tables.
  await sql`CREATE TABLE postgresjs_orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text NOT NULL)`;
  await sql`CREATE TABLE postgresjs_lines (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    order_id ulid NOT NULL REFERENCES postgresjs_orders (id),
    qty int NOT NULL)`;
  // End of docs/clients/node.md snippet.
}

async function basics(sql) {
  // docs/clients/node.md snippet: postgres.js queries.
  const [{ id }] = await sql`INSERT INTO postgresjs_orders (item) VALUES (${'tea'}) RETURNING id`;
  // id: '01JX...', a string of 26 characters
  await sql`INSERT INTO postgresjs_orders (id, item) VALUES (${'01563df3-6481-d676-4c61-efb99302bd5b'}, ${'coffee'})`;
  const tea = await sql`SELECT id, item FROM postgresjs_orders WHERE id = ${id}`;
  const coffee = await sql`SELECT id, item FROM postgresjs_orders WHERE id = ${'01563df3-6481-d676-4c61-efb99302bd5b'}::uuid`;
  // coffee: [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]
  const both = await sql`SELECT item FROM postgresjs_orders WHERE id = ANY(${[id, '01ARYZ6S41TSV4RRFFQ69G5FAV']}) ORDER BY id`;
  const listed = await sql`SELECT item FROM postgresjs_orders WHERE id IN ${sql([id, '01563df3-6481-d676-4c61-efb99302bd5b'])}`;
  // End of docs/clients/node.md snippet.

  check('insert with the default, RETURNING id: a 26-character string', typeof id === 'string' && ULID_TEXT.test(id),
    util.inspect(id));
  expectEqual('id = ${id}: the row by its ULID string', plain(tea), [{ id, item: 'tea' }]);
  expectEqual('uuid text inserted untyped; id = ${u}::uuid finds it, read back as the ULID string', plain(coffee),
    [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]);
  expectEqual('id = ANY(${array}) with a JS array of strings, ORDER BY id', plain(both), [{ item: 'coffee' }, { item: 'tea' }]);
  expectEqual('id IN ${sql(list)} with a ULID and a uuid string', plain(listed).map((r) => r.item).sort(), ['coffee', 'tea']);
  const untypedUuid = await sql`SELECT item FROM postgresjs_orders WHERE id = ${'01563df3-6481-d676-4c61-efb99302bd5b'}`;
  expectEqual('id = ${u} with uuid text, untyped: read as ulid input', plain(untypedUuid), [{ item: 'coffee' }]);
  const uuids = [ulidToUuid(id), '01563df3-6481-d676-4c61-efb99302bd5b'];
  const byUuids = await sql`SELECT item FROM postgresjs_orders WHERE id = ANY(${uuids}::uuid[]) ORDER BY id`;
  expectEqual('id = ANY(${uuids}::uuid[]): a list typed uuid', plain(byUuids), [{ item: 'coffee' }, { item: 'tea' }]);
  const lower = await sql`SELECT item FROM postgresjs_orders WHERE id = ${id.toLowerCase()}`;
  expectEqual('id = ${id} with lower-case text', plain(lower), [{ item: 'tea' }]);

  // What postgres.js sends: the server decides the parameter's type.
  const described = await sql`SELECT item FROM postgresjs_orders WHERE id = ${id}`.describe();
  const [{ oid }] = await sql`SELECT 'ulid'::regtype::oid::int AS oid`;
  expectEqual('describe(): the server typed the parameter ulid', described.types, [oid]);
  const col = await sql`SELECT id FROM postgresjs_orders WHERE id = ${id}`.describe();
  expectEqual('describe(): the id column is the ulid oid, with no parser (the text arrives as it is)',
    col.columns.map((c) => [c.type, c.parser]), [[oid, null]]);

  // Prepared statements are the default: named on the server, a ulid
  // parameter.  pg_prepared_statements is the session's: one connection.
  const one = await sql.reserve();
  try {
    await one`SELECT item FROM postgresjs_orders WHERE id = ${id} AND item <> ${'prepared'}`;
    const prepared = await one`SELECT parameter_types::text AS t FROM pg_prepared_statements
      WHERE statement = 'SELECT item FROM postgresjs_orders WHERE id = $1 AND item <> $2'`;
    expectEqual('prepare: true (the default): a named statement with parameters {ulid,text}', plain(prepared),
      [{ t: '{ulid,text}' }]);
  } finally {
    one.release();
  }

  // 200 random values made in JS: inserted, every other one as uuid text, found in one list.
  const made = Array.from({ length: 200 }, () => bytesToUlid(crypto.randomBytes(16)));
  const rows = made.map((m, i) => ({ id: i % 2 ? m : ulidToUuid(m), item: 'random' }));
  await sql`INSERT INTO postgresjs_orders ${sql(rows)}`;
  const found = await sql`SELECT id FROM postgresjs_orders WHERE id = ANY(${made})`;
  expectEqual('200 random values inserted with sql(rows), half as uuid text: ANY finds all, as ULID strings',
    found.map((r) => r.id).sort(), [...made].sort());

  expectEqual('invalid text: 22P02 from the server', await failure(sql`SELECT ${'01ARYZ6S41TSV4RRFFQ69G5FAU'}::ulid`),
    '22P02: invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FAU"');
  expectEqual('a ULID string cast to uuid: 22P02 from the uuid parser',
    await failure(sql`SELECT item FROM postgresjs_orders WHERE id = ${id}::uuid`),
    `22P02: invalid input syntax for type uuid: "${id}"`);
  expectEqual('a parameter typed text (sql.typed(id, 25)): no operator ulid = text',
    await failure(sql`SELECT item FROM postgresjs_orders WHERE id = ${sql.typed(id, 25)}`),
    '42883: operator does not exist: ulid = text');
  expectEqual('sql.array() is gone in 4.x: it throws ARRAY_REMOVED', await failure(() => sql`SELECT ${sql.array([id])}`),
    'ARRAY_REMOVED: sql.array() is removed in v4, pass the array as it is');
  return id;
}

async function foreignKeyAndOrder(sql, id) {
  for (let i = 0; i < 50; i++) await sql`INSERT INTO postgresjs_orders (item) VALUES (${`gen ${i}`})`;
  // docs/clients/node.md snippet: postgres.js foreign key, order, time window.
  await sql`INSERT INTO postgresjs_lines (order_id, qty) VALUES (${id}, 2)`;
  const lines = await sql`SELECT o.item, l.qty FROM postgresjs_lines l JOIN postgresjs_orders o ON o.id = l.order_id
    WHERE l.order_id = ${id}`;
  const newest = await sql`SELECT id FROM postgresjs_orders ORDER BY id DESC LIMIT 10`;
  const lastHour = await sql`SELECT id FROM postgresjs_orders WHERE id > now() - interval '1 hour'`;
  const since = new Date(Date.now() - 3600 * 1000);
  const sinceDate = await sql`SELECT id FROM postgresjs_orders WHERE id > ${since}::timestamptz`;
  // End of docs/clients/node.md snippet.

  expectEqual('a foreign key typed ulid: the line joins its order', plain(lines), [{ item: 'tea', qty: 2 }]);
  expectEqual('a line for an order that does not exist: 23503',
    (await failure(sql`INSERT INTO postgresjs_lines (order_id, qty) VALUES (${bytesToUlid(Buffer.alloc(16, 1))}, 1)`)).slice(0, 6),
    '23503:');

  const all = (await sql`SELECT id FROM postgresjs_orders ORDER BY id`).map((r) => r.id);
  expectEqual('ORDER BY id equals the string order of the ids in JS', all, [...all].sort());
  expectEqual('ORDER BY id DESC LIMIT 10: the last ten', newest.map((r) => r.id), all.slice(-10).reverse());

  // The 51 made by gen_ulid() in this run are in the last hour; the 201
  // made in JS or given as text are from other times (random, 1997).
  const made = new Set((await sql`SELECT id FROM postgresjs_orders WHERE item = 'tea' OR item LIKE 'gen %'`).map((r) => r.id));
  expectEqual('id > now() - interval \'1 hour\': the ids made by gen_ulid() in this run',
    lastHour.map((r) => r.id).filter((x) => made.has(x)).length, 51);
  check('a time window: ${date}::timestamptz gives the same rows',
    util.isDeepStrictEqual(sinceDate.map((r) => r.id).sort(), lastHour.map((r) => r.id).sort()), util.inspect(sinceDate.length));
  // Without the cast the server types the parameter ulid, and reads the date's text as one.
  expectEqual('a time window with a Date and no cast: the date is read as ulid input, 22P02',
    await failure(sql`SELECT id FROM postgresjs_orders WHERE id > ${since}`),
    `22P02: invalid input syntax for type ulid: "${since.toISOString()}"`);
}

async function arraysAndTypes(sql, id) {
  // ulid[] results: fetch_types (the default) reads the array type at connect.
  const [{ ids }] = await sql`SELECT array_agg(id ORDER BY id) AS ids FROM postgresjs_orders WHERE item = 'tea'`;
  expectEqual('ulid[] result: an array of strings (fetch_types learns the array type)', ids, [id]);
  const bare = postgres({ fetch_types: false, onnotice: () => {} });
  try {
    const [{ ids: literal }] = await bare`SELECT array_agg(id ORDER BY id) AS ids FROM postgresjs_orders WHERE item = 'tea'`;
    expectEqual('ulid[] result with fetch_types: false: the array literal as one string', literal, `{${id}}`);
  } finally {
    await bare.end();
  }

  // A Buffer for a ulid parameter, without a type for ulid: postgres.js
  // writes it as text for the type the server asked for, raw bytes.
  const bytesFailure = await failure(sql`SELECT item FROM postgresjs_orders WHERE id = ${ulidToBytes(id)}`);
  check('a Buffer for a ulid parameter, no custom type: its bytes sent as UTF-8 text, 22P02 (or 22021 for a zero byte)',
    /^(22P02: invalid input syntax for type ulid: |22021: invalid byte sequence for encoding "UTF8": 0x00)/.test(bytesFailure),
    bytesFailure);
  const inferring = postgres({ infer: true, onnotice: () => {} });
  try {
    expectEqual('with infer: true, a Buffer is sent typed bytea: no operator ulid = bytea',
      await failure(inferring`SELECT item FROM postgresjs_orders WHERE id = ${ulidToBytes(id)}`),
      '42883: operator does not exist: ulid = bytea');
  } finally {
    await inferring.end();
  }

  // docs/clients/node.md snippet: postgres.js custom type.
  const db = postgres({
    types: {
      ulid: {
        to: 'ulid', // looked up by name when the pool starts, as is ulid[]
        from: ['ulid'],
        serialize: (x) => (Buffer.isBuffer(x) ? bytesToUlid(x) : x),
        parse: ulidToBytes, // every ulid column now reads as a 16-byte Buffer
      },
    },
  });
  const [row] = await db`SELECT id, item FROM postgresjs_orders WHERE id = ${ulidToBytes(id)}`;
  // row.id: <Buffer 01 93 ...>, 16 bytes
  const [{ all }] = await db`SELECT array_agg(id) AS all FROM postgresjs_orders WHERE id = ANY(${[row.id]})`;
  // all: [<Buffer 01 93 ...>]; ulid[] is parsed with it
  // End of docs/clients/node.md snippet.
  try {
    expectEqual('custom type: the column read as 16 bytes, a Buffer parameter finds the row',
      [row.id, row.item], [ulidToBytes(id), 'tea']);
    expectEqual('custom type: ulid[] parsed element by element, an array of Buffers as a parameter', all, [ulidToBytes(id)]);
    const typed = await db`SELECT ${db.typed.ulid(ulidToBytes(id))} AS x`.describe();
    const [{ oid }] = await db`SELECT 'ulid'::regtype::oid::int AS oid`;
    expectEqual('custom type: db.typed.ulid(x) sends the parameter typed ulid, its oid found by name',
      [typed.types, typed.columns.map((c) => c.type)], [[oid], [oid]]);
    const [{ back }] = await db`SELECT ${db.typed.ulid(ulidToBytes(id))}::text AS back`;
    expectEqual('custom type: db.typed.ulid(Buffer) is sent as its ULID text', back, id);
  } finally {
    await db.end();
  }
  const misnamed = postgres({ types: { ulid: { to: 'ulid_typo', from: ['ulid_typo'], parse: String } }, onnotice: () => {} });
  try {
    expectEqual('a custom type by a name that does not exist: queries fail with TYPE_NOT_FOUND',
      await failure(misnamed`SELECT 1`), 'TYPE_NOT_FOUND: The type ulid_typo does not exist');
  } finally {
    await misnamed.end();
  }
}

async function publicIds(sql, id) {
  process.env.PUBLIC_ID_KEY ??= crypto.randomBytes(16).toString('hex');
  // docs/clients/node.md snippet: postgres.js public ids.
  const key = Buffer.from(process.env.PUBLIC_ID_KEY, 'hex'); // 16 bytes, kept out of the code
  const [{ shown }] = await sql`SELECT ulid_encrypt(id, ${key}) AS shown FROM postgresjs_orders WHERE id = ${id}`;
  // shown: a uuid string, the id's public form
  const [{ item }] = await sql`SELECT item FROM postgresjs_orders WHERE id = ulid_decrypt(${shown}, ${key})`;
  // End of docs/clients/node.md snippet.
  expectEqual('public ids: ulid_encrypt with a Buffer key is AES-128 of the 16 bytes; ulid_decrypt finds the row',
    [shown, item], [aes(id, key), 'tea']);
  const described = await sql`SELECT ulid_encrypt(id, ${key}) FROM postgresjs_orders WHERE id = ${id}`.describe();
  expectEqual('public ids: the key is a bytea parameter', described.types.slice(0, 1), [17]);
  expectEqual('public ids: the key as a hex string is 32 bytes of bytea text: 22023',
    await failure(sql`SELECT ulid_encrypt(${id}, ${key.toString('hex')})`), '22023: key must be 16 bytes, not 32');
}

// postgres.js 3.x: what differs.  It typed parameters from their JS values.
async function version3(id) {
  const sql = postgres3({ onnotice: () => {} });
  try {
    const ids = [id];
    const since = new Date(Date.now() - 3600 * 1000);
    // docs/clients/node.md snippet: postgres.js 3.x.
    const a = await sql`SELECT item FROM postgresjs_orders WHERE id = ANY(${ids})`; // works
    const b = await sql`SELECT item FROM postgresjs_orders WHERE id = ANY(${sql.array(ids)}::ulid[])`; // works
    const c = await sql`SELECT id FROM postgresjs_orders WHERE id > ${since}`; // a Date is sent typed timestamptz
    // End of docs/clients/node.md snippet.
    const [{ agg }] = await sql`SELECT array_agg(id) AS agg FROM postgresjs_orders WHERE id = ${id}`;
    expectEqual('3.x: ulid[] result: an array of strings (fetch_types)', agg, [id]);
    expectEqual('3.x: ANY(${ids}) and ANY(${sql.array(ids)}::ulid[])', [plain(a), plain(b)], [[{ item: 'tea' }], [{ item: 'tea' }]]);
    check('3.x: a time window with a Date and no cast works (the Date is typed timestamptz)', c.some((r) => r.id === id),
      util.inspect(c.length));
    expectEqual('3.x: sql.array(strings) without a cast is text[]: no operator ulid = text',
      await failure(sql`SELECT item FROM postgresjs_orders WHERE id = ANY(${sql.array(ids)})`),
      '42883: operator does not exist: ulid = text');
    expectEqual('3.x: a Buffer is sent typed bytea: no operator ulid = bytea',
      await failure(sql`SELECT item FROM postgresjs_orders WHERE id = ${ulidToBytes(id)}`),
      '42883: operator does not exist: ulid = bytea');

    // docs/clients/node.md snippet: postgres.js 3.x custom type.
    const [{ oid }] = await sql`SELECT 'ulid'::regtype::oid::int AS oid`; // differs from database to database
    const db = postgres3({
      types: {
        ulid: { to: oid, from: [oid], serialize: (x) => (Buffer.isBuffer(x) ? bytesToUlid(x) : x), parse: ulidToBytes },
      },
    });
    // End of docs/clients/node.md snippet.
    try {
      const [row] = await db`SELECT id FROM postgresjs_orders WHERE id = ${db.typed.ulid(ulidToBytes(id))}`;
      const [{ all }] = await db`SELECT array_agg(id) AS all FROM postgresjs_orders WHERE id = ${id}`;
      expectEqual('3.x: a custom type by oid: Buffers both ways, ulid[] parsed', [row.id, all], [ulidToBytes(id), [ulidToBytes(id)]]);
    } finally {
      await db.end();
    }
    const [{ shown }] = await sql`SELECT ulid_encrypt(${id}, ${Buffer.from(process.env.PUBLIC_ID_KEY, 'hex')}) AS shown`;
    expectEqual('3.x: public ids with a Buffer key (sent typed bytea)', shown, aes(id, Buffer.from(process.env.PUBLIC_ID_KEY, 'hex')));
  } finally {
    await sql.end();
  }
}

async function main() {
  // The libpq environment (PGHOST, ...) as postgres.js reads it; no NOTICE
  // lines (DROP TABLE IF EXISTS) among the checks.
  const sql = postgres({ onnotice: () => {} });
  try {
    await schema(sql);
    const id = await basics(sql);
    await foreignKeyAndOrder(sql, id);
    await arraysAndTypes(sql, id);
    await publicIds(sql, id);
    await version3(id);
    await sql`DROP TABLE postgresjs_lines, postgresjs_orders`;
  } finally {
    await sql.end();
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - postgres-js: the program broke : ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
