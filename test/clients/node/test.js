// node-postgres against the ulid type; run by t/007_clients.pl.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - NAME" or "FAILED - NAME: WHY" per check; exits non-zero if any check
// failed.  The JavaScript code blocks of docs/clients.md appear verbatim below
// (test/check_docs.py checks).
'use strict';

const crypto = require('crypto');
const util = require('util');
const { Client } = require('pg');

let failures = 0;

function check(name, ok, why = '') {
  if (ok) {
    console.log(`ok - ${name}`);
  } else {
    failures += 1;
    console.log(`FAILED - ${name}: ${String(why).replace(/\s+/g, ' ')}`); // one line per check
  }
}

function expectEqual(name, got, want) {
  check(name, util.isDeepStrictEqual(got, want),
    `got ${util.inspect(got)}, want ${util.inspect(want)}`);
}

// docs/clients.md snippet: from text to bytes and uuid.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

// The 16 bytes of a ULID, from the canonical text the server sends.
function ulidToBytes(text) {
  let n = 0n;
  for (const c of text) n = (n << 5n) | BigInt(CROCKFORD.indexOf(c));
  return Buffer.from(n.toString(16).padStart(32, '0'), 'hex');
}

// The uuid with the same 16 bytes: what id::uuid returns.
function ulidToUuid(text) {
  const hex = ulidToBytes(text).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
// End of docs/clients.md snippet.

// The test's own encoder, the other way: 16 bytes to 26 characters.
function bytesToUlid(bytes) {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let text = '';
  for (let i = 0; i < 26; i++) {
    text = CROCKFORD[Number(n & 31n)] + text;
    n >>= 5n;
  }
  return text;
}

async function readme(client) {
  // docs/clients.md snippet: node-postgres.
  const { rows } = await client.query('INSERT INTO orders (item) VALUES ($1) RETURNING id', ['tea']);
  const id = rows[0].id; // a string: '01JX...', 26 characters
  const found = await client.query('SELECT item FROM orders WHERE id = $1', [id]);

  check('readme: gen_ulid() default returned by RETURNING as a 26-character string',
    typeof id === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id), util.inspect(id));
  expectEqual('readme: select by the returned id', found.rows, [{ item: 'tea' }]);
  const server = await client.query('SELECT id::uuid AS u, id::bytea AS b FROM orders WHERE id = $1', [id]);
  expectEqual('readme: ulidToUuid(id) equals id::uuid', ulidToUuid(id), server.rows[0].u);
  expectEqual('readme: ulidToBytes(id) equals id::bytea', ulidToBytes(id), server.rows[0].b);
}

async function values(client) {
  const known = [
    ['01ARYZ6S41TSV4RRFFQ69G5FAV', '01563df3-6481-d676-4c61-efb99302bd5b'],
    ['00000000000000000000000000', '00000000-0000-0000-0000-000000000000'],
    ['7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  ];
  expectEqual('known values: ulidToUuid', known.map(([t]) => ulidToUuid(t)), known.map(([, u]) => u));
  const r = await client.query('SELECT $1::ulid::uuid AS u, $2::ulid::uuid AS v, $3::ulid::uuid AS w',
    known.map(([t]) => t));
  expectEqual('known values: $1::ulid::uuid', Object.values(r.rows[0]), known.map(([, u]) => u));

  // 200 random values made in JS: parameterized insert, select by id, uuid form.
  const made = Array.from({ length: 200 }, () => bytesToUlid(crypto.randomBytes(16)));
  for (const text of made) {
    await client.query('INSERT INTO orders (id, item) VALUES ($1, $2)', [text, 'js']);
  }
  let ok = true;
  let why = '';
  for (const text of made) {
    const { rows } = await client.query('SELECT id, id::uuid AS u, $1::ulid::uuid AS p FROM orders WHERE id = $1', [text]);
    if (rows.length !== 1 || rows[0].id !== text || rows[0].u !== ulidToUuid(text) || rows[0].p !== ulidToUuid(text)) {
      ok = false;
      why = `${text}: ${util.inspect(rows)}`;
    }
  }
  check('200 random values: inserted, found by id, id::uuid and $1::ulid::uuid equal the uuid computed in JS', ok, why);
  const lower = await client.query('SELECT $1::ulid AS id', [made[1].toLowerCase()]);
  expectEqual('lower-case input comes back canonical', lower.rows[0].id, made[1]);

  // A named (server-side prepared) statement with a ulid parameter.
  ok = true;
  for (const text of made.slice(0, 10)) {
    const { rows } = await client.query({ name: 'by_id', text: 'SELECT id FROM orders WHERE id = $1', values: [text] });
    ok = ok && rows.length === 1 && rows[0].id === text;
  }
  const prepared = await client.query("SELECT parameter_types::text AS t FROM pg_prepared_statements WHERE name = 'by_id'");
  check('named statement: 10 executions find their rows, parameter typed ulid',
    ok && prepared.rows.length === 1 && prepared.rows[0].t === '{ulid}', util.inspect(prepared.rows));

  // Invalid input: the server's SQLSTATE reaches the client.
  try {
    await client.query('SELECT $1::ulid', ['01ARYZ6S41TSV4RRFFQ69G5FAU']);
    check('invalid text fails with 22P02', false, 'accepted');
  } catch (e) {
    expectEqual('invalid text fails with 22P02', e.code, '22P02');
  }
}

async function ordering(client) {
  for (let i = 0; i < 100; i++) {
    await client.query('INSERT INTO orders (item) VALUES ($1)', [`gen ${i}`]);
  }
  const { rows } = await client.query('SELECT id, ulid_time(id) AS t FROM orders ORDER BY id');
  const ids = rows.map((r) => r.id);
  expectEqual('ORDER BY id equals the string order of the ids in JS', [...ids].sort(), ids);
  const byUuid = await client.query('SELECT id FROM orders ORDER BY id::uuid');
  expectEqual('ORDER BY id::uuid is the same order', byUuid.rows.map((r) => r.id), ids);
  check(`${ids.length} ids, all distinct`, new Set(ids).size === ids.length && ids.length === 301, ids.length);
  const times = rows.map((r) => [Number(BigInt(`0x${ulidToBytes(r.id).subarray(0, 6).toString('hex')}`)), r.t.getTime()]);
  check('ulid_time(id) equals the first 6 bytes decoded in JS', times.every(([a, b]) => a === b),
    util.inspect(times.find(([a, b]) => a !== b)));
}

async function main() {
  const client = new Client();
  await client.connect();
  try {
    await client.query('CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)');
    await readme(client);
    await values(client);
    await ordering(client);
    await client.query('DROP TABLE orders');
  } finally {
    await client.end();
  }
  process.exitCode = failures ? 1 : 0;
}

main().catch((e) => {
  console.log(`FAILED - node test: ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
