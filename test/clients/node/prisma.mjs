// Prisma 7 (prisma-client-js with the pg driver adapter, @prisma/adapter-pg)
// against the ulid type; run by test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Copies
// prisma/schema.prisma into $ULID_CLIENT_BUILD and runs prisma generate
// there, so nothing is written here.  Prints "ok - prisma: WHAT" or
// "FAILED - prisma: WHAT : WHY" per check, and "SKIP - prisma: WHY" for the
// commands that need Prisma's schema engine when it cannot be had; exits
// non-zero if any check failed.  The Prisma code blocks of
// docs/clients/node.md appear verbatim here or in prisma/schema.prisma
// (test/check_docs.py checks).
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import util from 'node:util';
import { fileURLToPath } from 'node:url';

import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';

import codec from './ulid-codec.js';

const { ulidToBytes, ulidToUuid, bytesToUlid } = codec;
const here = path.dirname(fileURLToPath(import.meta.url));
const build = path.join(process.env.ULID_CLIENT_BUILD, 'prisma');

import report from './report.js';

const { reporter } = report;
const { check, expectEqual, done } = reporter('prisma');

// The error a promise rejects with: Prisma's error code, and the server's
// SQLSTATE where the driver adapter passed one on (meta.driverAdapterError).
async function failure(promise) {
  try {
    await promise;
    return 'no error';
  } catch (e) {
    const cause = e.meta?.driverAdapterError?.cause;
    return `${e.constructor.name} ${e.code} ${cause?.originalCode ?? '-'}`;
  }
}

// Prisma's CLI in the build directory: its exit status and output.  Every
// command first makes sure that the schema engine, a native binary, is in
// node_modules/@prisma/engines, and downloads it if not; generate never runs
// it, so for generate the variable names a file that is there instead.
function prisma(args, env = {}) {
  try {
    const out = execFileSync(process.execPath, [path.join(here, 'node_modules/prisma/build/index.js'), ...args], {
      cwd: build, encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CHECKPOINT_DISABLE: '1', ...env },
    });
    return { status: 0, out };
  } catch (e) {
    return { status: e.status, out: `${e.stdout}${e.stderr}` };
  }
}
const noEngine = { PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false' };

// ulid_encrypt without the database: AES-128 of the 16 bytes, one block.
function aes(id, key) {
  const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  const hex = Buffer.concat([cipher.update(ulidToBytes(id)), cipher.final()]).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The connection as a URL, which Prisma's CLI and examples use; a socket
// directory in PGHOST goes in the host parameter.
const url = `postgresql://${encodeURIComponent(process.env.PGUSER)}@localhost:${process.env.PGPORT}/`
  + `${encodeURIComponent(process.env.PGDATABASE)}?host=${encodeURIComponent(process.env.PGHOST)}`;

// The tables, as a migration would make them: Prisma's own migrate cannot
// run here (schemaEngine() below).  The same SQL is on docs/clients/node.md.
const TABLES = `
DROP TABLE IF EXISTS prisma_lines, prisma_orders, prisma_uuid_orders;
CREATE TABLE prisma_orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text NOT NULL);
CREATE TABLE prisma_lines (
    id ulid PRIMARY KEY DEFAULT gen_ulid(),
    qty integer NOT NULL,
    order_id ulid NOT NULL REFERENCES prisma_orders (id) ON DELETE CASCADE
);
CREATE TABLE prisma_uuid_orders (id uuid PRIMARY KEY DEFAULT gen_ulid()::uuid, item text NOT NULL);`;

function generate() {
  fs.rmSync(build, { recursive: true, force: true });
  fs.mkdirSync(build, { recursive: true });
  fs.symlinkSync(path.join(here, 'node_modules'), path.join(build, 'node_modules'));
  const schema = fs.readFileSync(path.join(here, 'prisma/schema.prisma'), 'utf8');

  // Prisma's type for a column it does not know, Unsupported("ulid"), cannot
  // be a key.
  fs.writeFileSync(path.join(build, 'unsupported.prisma'), schema.replace(
    'id    String @id @default(dbgenerated("gen_ulid()"))',
    'id    Unsupported("ulid") @id @default(dbgenerated("gen_ulid()"))'));
  const refused = prisma(['generate', '--schema', 'unsupported.prisma'], noEngine);
  check('a key declared Unsupported("ulid"): generate refuses the model (P1012)',
    refused.status !== 0 && refused.out.includes('P1012')
      && refused.out.includes('Each model must have at least one unique criteria that has only required fields'), refused.out);

  fs.writeFileSync(path.join(build, 'schema.prisma'), schema);
  const made = prisma(['generate', '--schema', 'schema.prisma'], noEngine);
  check('prisma generate (prisma-client-js) writes the client, with no schema engine',
    made.status === 0 && fs.existsSync(path.join(build, 'generated/index.js')), made.out);
  return made.status === 0;
}

// db pull, the schema's dump, needs the schema engine; so do db push and
// migrate.  Where it cannot be had, say which file the CLI wants: the URL it
// tried, or (where it stopped before trying, unable to write into
// node_modules) the URL made as the CLI makes it, from the engines' commit
// and this machine's platform (@prisma/get-platform, which the CLI uses).
async function schemaEngine() {
  const pulled = prisma(['db', 'pull', '--print', '--schema', 'schema.prisma', '--url', url]);
  if (pulled.status === 0) {
    check('db pull reads the ulid key as Unsupported("ulid")', pulled.out.includes('Unsupported("ulid")'), pulled.out);
    return;
  }
  if (!/binaries\.prisma\.sh|Can't write to .*@prisma\/engines/.test(pulled.out)) {
    check('db pull', false, pulled.out);
    return;
  }
  const require = createRequire(import.meta.url);
  const { enginesVersion } = require('@prisma/engines-version');
  const platform = await require('@prisma/get-platform').getBinaryTargetForCurrentPlatform().catch(() => '<platform>');
  const wanted = pulled.out.match(/https:\/\/binaries\.prisma\.sh\/\S+?(?=\.sha256|\s)/)?.[0]
    ?? `https://binaries.prisma.sh/all_commits/${enginesVersion}/${platform}/schema-engine.gz`;
  console.log(`SKIP - prisma: db pull, db push and migrate need Prisma's schema engine, a native binary that the CLI `
    + `downloads from ${wanted}, a host the tests cannot reach (the CLI: ${pulled.out.match(/Error: (.*)/)?.[1]})`);
}

async function queries(PrismaClient) {
  // docs/clients/node.md snippet: Prisma client.
  const adapter = new PrismaPg({ connectionString: process.env.DATABASE_URL });
  const prisma = new PrismaClient({ adapter });
  // End of docs/clients/node.md snippet.
  try {
    // docs/clients/node.md snippet: Prisma queries.
    const tea = await prisma.order.create({ data: { item: 'tea', lines: { create: [{ qty: 1 }, { qty: 2 }] } } });
    // tea.id: '01JX...', a string of 26 characters from gen_ulid()
    await prisma.order.create({ data: { id: '01563df3-6481-d676-4c61-efb99302bd5b', item: 'coffee' } });
    const coffee = await prisma.order.findUnique({ where: { id: '01ARYZ6S41TSV4RRFFQ69G5FAV' } });
    const same = await prisma.order.findUnique({ where: { id: '01563df3-6481-d676-4c61-efb99302bd5b' } });
    const both = await prisma.order.findMany({
      where: { id: { in: [tea.id, '01563df3-6481-d676-4c61-efb99302bd5b'] } },
      orderBy: { id: 'asc' },
    });
    const withLines = await prisma.order.findUnique({ where: { id: tea.id }, include: { lines: true } });
    // End of docs/clients/node.md snippet.

    check('create with the default: the id from RETURNING, a 26-character string',
      typeof tea.id === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(tea.id), util.inspect(tea));
    expectEqual('create with uuid text, findUnique by the ULID text', coffee, { id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' });
    expectEqual('findUnique by uuid text', same, coffee);
    expectEqual('findUnique by lower-case text', await prisma.order.findUnique({ where: { id: tea.id.toLowerCase() } }),
      { id: tea.id, item: 'tea' });
    expectEqual('findMany with in: [ulid, uuid], orderBy id', both,
      [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }, { id: tea.id, item: 'tea' }]);
    expectEqual('nested create and include: two lines keyed by ulid, orderId the order\'s ULID text',
      withLines.lines.map((l) => [l.qty, l.orderId, l.id.length]).sort(), [[1, tea.id, 26], [2, tea.id, 26]]);
    expectEqual('lines filtered on their order by uuid text',
      (await prisma.line.findMany({ where: { order: { id: ulidToUuid(tea.id) } }, orderBy: { qty: 'asc' } })).map((l) => l.qty), [1, 2]);
    expectEqual('a line of an order that does not exist: the foreign key refuses it (P2003)',
      await failure(prisma.line.create({ data: { qty: 3, orderId: '01ARYZ6S41TSV4RRFFQ69G5FAW' } })),
      'PrismaClientKnownRequestError P2003 23503');
    expectEqual('findUnique with invalid text: P2007, the server\'s 22P02',
      await failure(prisma.order.findUnique({ where: { id: 'not a ulid' } })), 'PrismaClientKnownRequestError P2007 22P02');
    expectEqual('create with a duplicate id: P2002',
      await failure(prisma.order.create({ data: { id: tea.id, item: 'again' } })), 'PrismaClientKnownRequestError P2002 23505');
    expectEqual('mode: "insensitive" is ILIKE, which ulid has not: P2039, 42883',
      await failure(prisma.order.findMany({ where: { id: { equals: tea.id, mode: 'insensitive' } } })),
      'PrismaClientKnownRequestError P2039 42883');

    // Random ids made in JS, every other one as uuid text; then order.
    const made = Array.from({ length: 100 }, () => bytesToUlid(crypto.randomBytes(16)));
    await prisma.order.createMany({ data: made.map((m, i) => ({ id: i % 2 ? m : ulidToUuid(m), item: 'random' })) });
    expectEqual('createMany of 100 random ids, half as uuid text: findMany with in finds all',
      await prisma.order.count({ where: { id: { in: made } } }), 100);
    for (let i = 0; i < 20; i++) await prisma.order.create({ data: { item: `gen ${i}` } });
    const ordered = (await prisma.order.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((o) => o.id);
    expectEqual('orderBy: { id: "asc" } equals the string order of the ids in JS', ordered, [...ordered].sort());
    const reversed = (await prisma.order.findMany({ select: { id: true }, orderBy: { id: 'desc' } })).map((o) => o.id);
    expectEqual('orderBy: { id: "desc" } is the reverse', reversed, [...ordered].reverse());
    expectEqual('gt with ULID text: the ids after it',
      (await prisma.order.findMany({ select: { id: true }, where: { id: { gt: ordered[9] } }, orderBy: { id: 'asc' } })).map((o) => o.id),
      ordered.slice(10));

    // docs/clients/node.md snippet: Prisma raw queries.
    const recent = await prisma.$queryRaw`SELECT id, item FROM prisma_orders WHERE id > now() - interval '1 hour' ORDER BY id`;
    const rows = await prisma.$queryRaw`SELECT id, item FROM prisma_orders WHERE id = ${tea.id}`; // [{ id: tea.id, item: 'tea' }]
    const many = await prisma.$queryRaw`SELECT id FROM prisma_orders WHERE id = ANY(${[tea.id, coffee.id]}) ORDER BY id`;
    // End of docs/clients/node.md snippet.
    const random = new Set(made); // their times are anywhere up to the year 10889
    expectEqual('$queryRaw time window: the rows made now as strings, not the 2016 coffee',
      recent.filter((o) => !random.has(o.id)).map((o) => o.id), ordered.filter((id) => id !== coffee.id && !random.has(id)));
    expectEqual('$queryRaw with a string parameter, no cast: the ulid column as a string', rows, [{ id: tea.id, item: 'tea' }]);
    expectEqual('$queryRaw with = ANY(an array of strings)', many, [{ id: coffee.id }, { id: tea.id }]);

    // docs/clients/node.md snippet: Prisma public ids.
    const key = Buffer.from(process.env.PUBLIC_ID_KEY, 'hex'); // 16 bytes, sent as bytea
    const [{ shown }] = await prisma.$queryRaw`SELECT ulid_encrypt(id, ${key}) AS shown FROM prisma_orders WHERE id = ${tea.id}`;
    // shown: the uuid string an API shows
    const found = await prisma.$queryRaw`SELECT id, item FROM prisma_orders WHERE id = ulid_decrypt(${shown}, ${key})`;
    // found: [{ id: tea.id, item: 'tea' }]
    // End of docs/clients/node.md snippet.
    expectEqual('public id: ulid_encrypt with a Buffer key is AES-128 of the 16 bytes', shown, aes(tea.id, key));
    expectEqual('public id: ulid_decrypt finds the row', found, [{ id: tea.id, item: 'tea' }]);
    const [{ again }] = await prisma.$queryRaw`SELECT ulid_encrypt(id, ${new Uint8Array(key)}) AS again FROM prisma_orders WHERE id = ${tea.id}`;
    expectEqual('public id: a Uint8Array key works as the Buffer does', again, shown);
    expectEqual('public id: the key as a hex string is 32 bytes of bytea text: P2010, 22023',
      await failure(prisma.$queryRaw`SELECT ulid_encrypt(id, ${process.env.PUBLIC_ID_KEY}) FROM prisma_orders WHERE id = ${tea.id}`),
      'PrismaClientKnownRequestError P2010 22023');

    // The other way: a uuid column holding ULIDs, which Prisma knows.
    const kept = await prisma.uuidOrder.create({ data: { item: 'tea' } });
    const [{ text }] = await prisma.$queryRaw`SELECT id::ulid::text AS text FROM prisma_uuid_orders WHERE id = ${kept.id}::uuid`;
    check('@db.Uuid column with gen_ulid()::uuid: Prisma reads uuid text, whose bytes are the ULID\'s',
      ulidToUuid(text) === kept.id, util.inspect([kept, text]));
  } finally {
    await prisma.$disconnect();
  }
}

async function main() {
  process.env.PUBLIC_ID_KEY ??= crypto.randomBytes(16).toString('hex');
  process.env.DATABASE_URL ??= url;
  const client = new pg.Client();
  await client.connect();
  await client.query(TABLES);
  await client.end();

  const generated = generate();
  await schemaEngine();
  if (generated) {
    const { PrismaClient } = createRequire(import.meta.url)(path.join(build, 'generated'));
    await queries(PrismaClient);
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - prisma: the program broke : ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
