// node-postgres against the ulid type; run by test/clients/node/run.
//
// Connects through the libpq environment (PGHOST, PGPORT, PGUSER,
// PGDATABASE) to a database where CREATE EXTENSION ulid has run.  Prints
// "ok - node-postgres: WHAT" or "FAILED - node-postgres: WHAT : WHY" per
// check; exits non-zero if any check failed.  The node-postgres code blocks
// of docs/clients/node.md appear verbatim below (test/check_docs.py checks).
'use strict';

const crypto = require('crypto');
const util = require('util');
const pg = require('pg');

const { Client } = pg;

const { reporter } = require('./report.js');
const { check, expectEqual, done } = reporter('node-postgres');

const { CROCKFORD, ulidToBytes, ulidToUuid, bytesToUlid } = require('./ulid-codec.js');

async function readme(client) {
  // docs/clients/node.md snippet: node-postgres.
  const { rows } = await client.query('INSERT INTO orders (item) VALUES ($1) RETURNING id', ['tea']);
  const id = rows[0].id; // a string: '01JX...', 26 characters
  const found = await client.query('SELECT item FROM orders WHERE id = $1', [id]);

  check('readme: gen_ulid() default returned by RETURNING as a 26-character string',
    typeof id === 'string' && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(id), util.inspect(id));
  expectEqual('readme: select by the returned id', found.rows, [{ item: 'tea' }]);
  const server = await client.query('SELECT id::uuid AS u, id::bytea AS b FROM orders WHERE id = $1', [id]);
  expectEqual('readme: ulidToUuid(id) equals id::uuid', ulidToUuid(id), server.rows[0].u);
  expectEqual('readme: ulidToBytes(id) equals id::bytea', ulidToBytes(id), server.rows[0].b);
  return id;
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
    check('invalid text fails with 22P02', e.code === '22P02' && e.message.startsWith('invalid input syntax for type ulid: '),
      `${e.code} ${e.message}`);
  }
}

// ulidToBytes reads what ulid input reads, and throws where it fails.  The
// server's answer for a string: its 16 bytes, or the SQLSTATE.
async function serverBytes(client, text) {
  try {
    return (await client.query('SELECT $1::ulid::bytea AS b', [text])).rows[0].b;
  } catch (e) {
    return e.code;
  }
}

function jsBytes(text) {
  try {
    return ulidToBytes(text);
  } catch (e) {
    return e.message.startsWith('invalid ULID: ') ? '22P02' : e.message;
  }
}

async function decoder(client) {
  const accepted = [
    '01aryz6s41tsv4rrffq69g5fav', // lower case
    '01ArYz6S41tSv4RrFfQ69g5FaV', // mixed
    '0IARYZ6S41TSV4RRFFQ69G5FAV', // I for 1
    '0iARYZ6S41TSV4RRFFQ69G5FAV',
    '0LARYZ6S41TSV4RRFFQ69G5FAV', // L for 1
    '0lARYZ6S41TSV4RRFFQ69G5FAV',
    'O1ARYZ6S41TSV4RRFFQ69G5FAV', // O for 0
    'o1ARYZ6S41TSV4RRFFQ69G5FAV',
    'OOOOOOOOOOOOOOOOOOOOOOOOOO',
    '7ilLIoOzzzzzzzzzzzzzzzzzzz',
  ];
  const server = [];
  for (const text of accepted) server.push(await serverBytes(client, text));
  expectEqual('ulidToBytes on lower case and the aliases I, L, O equals $1::ulid::bytea',
    accepted.map(jsBytes), server);
  const uuids = [];
  for (const text of accepted) uuids.push((await client.query('SELECT $1::ulid::uuid AS u', [text])).rows[0].u);
  expectEqual('ulidToUuid on lower case and the aliases equals $1::ulid::uuid', accepted.map(ulidToUuid), uuids);
  expectEqual('ulidToUuid on lower case equals the upper case', ulidToUuid('01aryz6s41tsv4rrffq69g5fav'),
    '01563df3-6481-d676-4c61-efb99302bd5b');

  const refused = [
    '01ARYZ6S41TSV4RRFFQ69G5FA', // 25 characters
    '01ARYZ6S41TSV4RRFFQ69G5FAVV', // 27
    '',
    '81ARYZ6S41TSV4RRFFQ69G5FAV', // first character above 7: more than 128 bits
    'Z1ARYZ6S41TSV4RRFFQ69G5FAV',
    '01ARYZ6S41TSV4RRFFQ69G5FAU', // U is not Base32
    '01ARYZ6S41TSV4RRFFQ69G5FAu',
    '01ARYZ6S41TSV4RRFFQ69G5FA-',
    '01ARYZ6S41TSV4RRFFQ69G5FA ',
    '01ARYZ6S41TSV4RRFFQ69G5FA\u00e9', // 26 characters, 27 bytes
    '01ARYZ6S41TSV4RRFFQ69G5F\u00e9', // 25 characters, 26 bytes
    '01ARYZ6S41TSV4RRFFQ69G5FA\uff21', // a full-width A
  ];
  const refusedBy = [];
  for (const text of refused) refusedBy.push(await serverBytes(client, text));
  expectEqual('ulidToBytes throws on wrong lengths, first character above 7, U, non-ASCII; the server says 22P02',
    [refused.map(jsBytes), refusedBy], [refused.map(() => '22P02'), refused.map(() => '22P02')]);
  let thrown = 0;
  for (const bad of refused) {
    try {
      ulidToUuid(bad);
    } catch (e) {
      thrown += 1;
    }
  }
  expectEqual('ulidToUuid throws on each of them too', thrown, refused.length);
  // The one input the server reads and ulidToBytes does not: the uuid form.
  const uuidText = '01563df3-6481-d676-4c61-efb99302bd5b';
  expectEqual('the uuid text form: the server reads it, ulidToBytes throws',
    [jsBytes(uuidText), (await serverBytes(client, uuidText)).toString('hex')], ['22P02', uuidText.replace(/-/g, '')]);

  // Random strings of 25 to 27 characters: Base32 of either case with the
  // aliases, half of them with U, u and - mixed in.  Both decoders agree on
  // every one, value or refusal.
  const pool = `${CROCKFORD}${CROCKFORD.toLowerCase()}IiLlOoUu8Z-`;
  let agree = 0;
  let accepts = 0;
  let why = '';
  for (let n = 0; n < 400; n++) {
    const length = [25, 26, 26, 26, 26, 26, 27][n % 7];
    let text = '01234567Oo89Zz'[crypto.randomInt(n % 3 ? 10 : 14)]; // a third may start above 7
    for (let i = 1; i < length; i++) {
      text += pool[crypto.randomInt(n % 2 ? pool.length - 5 : pool.length)];
    }
    const [js, srv] = [jsBytes(text), await serverBytes(client, text)];
    if (util.isDeepStrictEqual(js, srv)) {
      agree += 1;
      accepts += Buffer.isBuffer(js) ? 1 : 0;
    } else {
      why = `${text}: ${util.inspect(js)} vs ${util.inspect(srv)}`;
    }
  }
  check(`400 random strings: ulidToBytes and the server agree (${accepts} read, ${400 - accepts} refused)`,
    agree === 400 && accepts > 50 && accepts < 350, why);
}

async function uuidForm(client) {
  // docs/clients/node.md snippet: the uuid text form.
  await client.query('INSERT INTO orders (id, item) VALUES ($1, $2)', ['01563df3-6481-d676-4c61-efb99302bd5b', 'coffee']);
  const byText = await client.query('SELECT id, item FROM orders WHERE id = $1', ['01ARYZ6S41TSV4RRFFQ69G5FAV']);
  // byText.rows: [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]
  const byUuid = await client.query('SELECT id::uuid AS id FROM orders WHERE id = $1::uuid', ['01563df3-6481-d676-4c61-efb99302bd5b']);
  // byUuid.rows: [{ id: '01563df3-6481-d676-4c61-efb99302bd5b' }]
  // End of docs/clients/node.md snippet.

  expectEqual('uuid-form text inserted untyped, found by the ULID text', byText.rows,
    [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV', item: 'coffee' }]);
  expectEqual('id = $1::uuid with uuid text, id::uuid read back as the uuid string', byUuid.rows,
    [{ id: '01563df3-6481-d676-4c61-efb99302bd5b' }]);
  const untyped = await client.query('SELECT id FROM orders WHERE id = $1', ['01563df3-6481-d676-4c61-efb99302bd5b']);
  expectEqual('id = $1 with uuid text (untyped, read as ulid input)', untyped.rows, [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV' }]);
  const lower = await client.query('SELECT id FROM orders WHERE id = $1', ['01aryz6s41tsv4rrffq69g5fav']);
  expectEqual('id = $1 with lower-case text', lower.rows, [{ id: '01ARYZ6S41TSV4RRFFQ69G5FAV' }]);

  // The uuid-typed comparison uses the primary key's index.
  await client.query('SET enable_seqscan = off');
  const plan = await client.query('EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE id = $1::uuid', ['01563df3-6481-d676-4c61-efb99302bd5b']);
  const planArr = await client.query('EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE id = ANY($1::uuid[])', [['01563df3-6481-d676-4c61-efb99302bd5b']]);
  await client.query('RESET enable_seqscan');
  const usesIndex = (p) => p.rows.some((r) => /orders_pkey/.test(r['QUERY PLAN']));
  check('id = $1::uuid and id = ANY($1::uuid[]) use the primary key index', usesIndex(plan) && usesIndex(planArr),
    util.inspect([plan.rows, planArr.rows]));

  // A ULID's text cast to uuid is the uuid parser's error, not ours.
  try {
    await client.query('SELECT item FROM orders WHERE id = $1::uuid', ['01ARYZ6S41TSV4RRFFQ69G5FAV']);
    check('ULID text as $1::uuid fails with 22P02 (uuid input)', false, 'accepted');
  } catch (e) {
    check('ULID text as $1::uuid fails with 22P02 (uuid input)',
      e.code === '22P02' && /type uuid/.test(e.message), `${e.code} ${e.message}`);
  }
}

async function arrays(client, id) {
  // docs/clients/node.md snippet: arrays.
  const ids = [id, '01563df3-6481-d676-4c61-efb99302bd5b']; // the tea's ULID, the coffee's uuid
  const { rows } = await client.query('SELECT item FROM orders WHERE id = ANY($1) ORDER BY item', [ids]);
  // rows: [{ item: 'coffee' }, { item: 'tea' }]; a JS array is sent as an array literal
  // End of docs/clients/node.md snippet.
  expectEqual('id = ANY($1) with a JS array of a ULID and a uuid string', rows, [{ item: 'coffee' }, { item: 'tea' }]);

  const [first, second] = (await client.query('SELECT id FROM orders ORDER BY id LIMIT 2')).rows.map((r) => r.id);
  const plain = await client.query('SELECT id FROM orders WHERE id = ANY($1) ORDER BY id', [[first, second]]);
  expectEqual('id = ANY($1) with a JS array of ULID strings', plain.rows.map((r) => r.id), [first, second]);

  const mixed = [first, ulidToUuid(second)];
  for (const [sql, values] of [
    ['SELECT id FROM orders WHERE id = ANY($1) ORDER BY id', [mixed]],
    ['SELECT id FROM orders WHERE id = ANY($1::ulid[]) ORDER BY id', [mixed]],
    ['SELECT id FROM orders WHERE id = ANY($1::uuid[]) ORDER BY id', [[ulidToUuid(first), ulidToUuid(second)]]],
    ['SELECT id FROM orders WHERE id <> ALL($1) AND id <= $2 ORDER BY id', [[first], second]],
  ]) {
    const r = await client.query(sql, values);
    expectEqual(`${sql.replace('SELECT id FROM orders WHERE ', '').replace(' ORDER BY id', '')} with ${JSON.stringify(values[0])}`,
      r.rows.map((x) => x.id), sql.includes('ALL') ? [second] : [first, second]);
  }

  // ulid[] results: node-postgres does not know the type, so the literal comes back.
  const raw = await client.query('SELECT array_agg(id ORDER BY id) AS ids FROM orders WHERE id = ANY($1)', [[first, second]]);
  expectEqual('ulid[] result without a parser is the array literal string', raw.rows[0].ids, `{${first},${second}}`);
  const text = await client.query('SELECT array_agg(id ORDER BY id)::text[] AS ids FROM orders WHERE id = ANY($1)', [[first, second]]);
  expectEqual('ulid[]::text[] result is a JS array of strings', text.rows[0].ids, [first, second]);

  // Buffers inside an array are sent as bytea escapes, which ulid input refuses.
  try {
    await client.query('SELECT id FROM orders WHERE id = ANY($1)', [[ulidToBytes(first)]]);
    check('an array of Buffers fails with 22P02', false, 'accepted');
  } catch (e) {
    check('an array of Buffers fails with 22P02', e.code === '22P02', `${e.code} ${e.message}`);
  }
}

async function prepared(client, id) {
  // docs/clients/node.md snippet: a prepared statement.
  const byId = { name: 'order-by-id', text: 'SELECT item FROM orders WHERE id = $1' };
  const first = await client.query({ ...byId, values: [id] }); // parsed and prepared once
  const again = await client.query({ ...byId, values: [ulidToUuid(id)] }); // reused on this connection
  // End of docs/clients/node.md snippet.
  expectEqual('named statement: by the ULID text and by the uuid text, same row', [first.rows, again.rows],
    [[{ item: 'tea' }], [{ item: 'tea' }]]);
  const p = await client.query("SELECT parameter_types::text AS t FROM pg_prepared_statements WHERE name = 'order-by-id'");
  expectEqual('named statement: prepared on the server with a ulid parameter', p.rows, [{ t: '{ulid}' }]);
}

// docs/clients/node.md snippet: public ids.
// ulid_encrypt(id, key): AES-128 of the ULID's 16 bytes as one block, no
// padding, under a 16-byte Buffer key; the public id as a uuid string.
function publicId(id, key) {
  const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  const hex = Buffer.concat([cipher.update(ulidToBytes(id)), cipher.final()]).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ulid_decrypt(publicId, key): the ULID's 26 characters.
function ulidOfPublicId(publicId, key) {
  const hex = publicId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`invalid public id: "${publicId}"`);
  const decipher = crypto.createDecipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  return bytesToUlid(Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]));
}
// End of docs/clients/node.md snippet.

// FIPS-197, appendix C.1: this key enciphers the block 00112233...ff to 69c4e0d8...
const FIPS_KEY = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
const FIPS_BLOCK = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
const FIPS_OUT = '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a';

// What throws, as its message; what does not, as 'no error'.
function thrown(fn) {
  try {
    fn();
    return 'no error';
  } catch (e) {
    return e.message;
  }
}

// The server's SQLSTATE and message for a query that must fail.
async function serverError(client, text, values) {
  try {
    await client.query(text, values);
    return ['no error'];
  } catch (e) {
    return [e.code, e.message];
  }
}

// Public ids computed here against ulid_encrypt and ulid_decrypt on the
// server, the key a bind parameter (a Buffer, sent as bytea); then the
// mistakes the comparison catches.
async function publicIds(client) {
  const key = crypto.randomBytes(16);
  const otherKey = crypto.randomBytes(16);
  const fipsUlid = bytesToUlid(FIPS_BLOCK);
  expectEqual('public ids: FIPS-197 C.1 through publicId and ulidOfPublicId',
    [publicId(fipsUlid, FIPS_KEY), ulidOfPublicId(FIPS_OUT, FIPS_KEY)], [FIPS_OUT, fipsUlid]);
  const fips = await client.query('SELECT ulid_encrypt($1::ulid, $2) AS p', [fipsUlid, FIPS_KEY]);
  expectEqual('public ids: FIPS-197 C.1, ulid_encrypt($1::ulid, $2) on the server agrees', fips.rows[0].p, FIPS_OUT);
  expectEqual('public ids: ulidOfPublicId reads upper case and throws on a malformed public id',
    [ulidOfPublicId(FIPS_OUT.toUpperCase(), FIPS_KEY), thrown(() => ulidOfPublicId(`${FIPS_OUT}00`, FIPS_KEY)),
      thrown(() => ulidOfPublicId(FIPS_OUT.replace('a', 'z'), FIPS_KEY))],
    [fipsUlid, `invalid public id: "${FIPS_OUT}00"`, `invalid public id: "${FIPS_OUT.replace('a', 'z')}"`]);

  // Ids the server made, the smallest and the largest ULID among them.
  await client.query('CREATE TABLE public_ids (id ulid PRIMARY KEY DEFAULT gen_ulid(), n int)');
  await client.query('INSERT INTO public_ids (n) SELECT g FROM generate_series(1, 500) g');
  await client.query("INSERT INTO public_ids VALUES ('00000000000000000000000000', 0), ('7ZZZZZZZZZZZZZZZZZZZZZZZZZ', 501)");
  const { rows } = await client.query('SELECT id, ulid_encrypt(id, $1) AS p, n FROM public_ids ORDER BY id', [key]);
  check('public ids: 502 from the server, all distinct', rows.length === 502 && new Set(rows.map((r) => r.p)).size === 502,
    rows.length);
  let bad = rows.filter((r) => publicId(r.id, key) !== r.p);
  check('public ids: publicId(id, key) equals ulid_encrypt(id, $1) for each of the 502', bad.length === 0,
    util.inspect(bad.slice(0, 3)));
  bad = rows.filter((r) => ulidOfPublicId(r.p, key) !== r.id);
  check("public ids: ulidOfPublicId(the server's public id, key) gives each id back", bad.length === 0,
    util.inspect(bad.slice(0, 3)));

  // Rows found by public ids made here; every other one by a named (prepared) statement.
  const sample = rows.filter((r, i) => i % 13 === 5);
  const found = [];
  for (const [i, r] of sample.entries()) {
    const text = 'SELECT n FROM public_ids WHERE id = ulid_decrypt($1, $2)';
    const values = [publicId(r.id, key), key];
    found.push((await client.query(i % 2 ? { name: 'by-public-id', text, values } : { text, values })).rows);
  }
  expectEqual(`public ids: WHERE id = ulid_decrypt($1, $2) with ${sample.length} public ids made in JS finds their rows`,
    found, sample.map((r) => [{ n: r.n }]));
  await client.query('SET enable_seqscan = off');
  const plan = await client.query('EXPLAIN (COSTS OFF) SELECT n FROM public_ids WHERE id = ulid_decrypt($1, $2)',
    [rows[0].p, key]);
  await client.query('RESET enable_seqscan');
  check('public ids: ... served by the primary key (EXPLAIN with the parameters bound)',
    plan.rows.some((r) => /public_ids_pkey/.test(r['QUERY PLAN'])), util.inspect(plan.rows));
  const stranger = publicId(rows[1].id, otherKey);
  expectEqual('public ids: a public id made under another key finds no row, and decrypts to another ULID',
    [(await client.query('SELECT n FROM public_ids WHERE id = ulid_decrypt($1, $2)', [stranger, key])).rows,
      ulidOfPublicId(stranger, key) === rows[1].id], [[], false]);

  // The bytes in the other order: the cipher works, the ids differ (but for
  // the smallest and largest ULID, which read the same both ways).
  const littleEndian = (id) => {
    const cipher = crypto.createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
    return Buffer.concat([cipher.update(ulidToBytes(id).reverse()), cipher.final()]).toString('hex');
  };
  const asymmetric = rows.filter((r) => !ulidToBytes(r.id).equals(ulidToBytes(r.id).reverse()));
  expectEqual(`public ids: little-endian bytes: none of the ${asymmetric.length} other public ids is the server's`,
    asymmetric.filter((r) => littleEndian(r.id) === r.p.replace(/-/g, '')).map((r) => r.id), []);

  // Padding left on (createCipheriv's default): 32 bytes out, not a uuid;
  // and a decipher with padding on gets no id back.
  const padded = crypto.createCipheriv('aes-128-ecb', FIPS_KEY, null);
  const out = Buffer.concat([padded.update(FIPS_BLOCK), padded.final()]);
  expectEqual('public ids: padding left on: 32 bytes out, 64 hex digits, which no uuid is',
    [out.length, (await serverError(client, 'SELECT $1::uuid', [out.toString('hex')]))[0]], [32, '22P02']);
  let lost = 0;
  for (const r of rows) {
    const decipher = crypto.createDecipheriv('aes-128-ecb', key, null);
    try {
      const back = Buffer.concat([decipher.update(Buffer.from(r.p.replace(/-/g, ''), 'hex')), decipher.final()]);
      lost += back.length < 16 ? 1 : 0; // the padding checked out: bytes of the id were taken for it
    } catch (e) {
      lost += 1; // bad decrypt: the last bytes are not padding
    }
  }
  expectEqual(`public ids: padding left on in the decipher: none of the ${rows.length} gives its 16 bytes back`,
    lost, rows.length);

  // A key of another length: Node and the server both refuse it.
  const longKey = Buffer.concat([key, key]);
  expectEqual('public ids: a 32-byte key: publicId throws, the server says 22023',
    [thrown(() => publicId(rows[0].id, longKey)),
      await serverError(client, 'SELECT ulid_encrypt($1::ulid, $2)', [rows[0].id, longKey])],
    ['Invalid key length', ['22023', 'key must be 16 bytes, not 32']]);
  // The key as a hex string: sent untyped, read as bytea's text: 32 bytes.
  expectEqual('public ids: the key as a hex string is 32 bytes to the server: 22023',
    await serverError(client, 'SELECT ulid_encrypt($1::ulid, $2)', [rows[0].id, key.toString('hex')]),
    ['22023', 'key must be 16 bytes, not 32']);

  process.env.PUBLIC_ID_KEY = key.toString('hex');
  await docsPublicIds(client);
  await client.query('DROP TABLE public_ids');
}

async function docsPublicIds(client) {
  // docs/clients/node.md snippet: public ids, with node-postgres.
  const key = Buffer.from(process.env.PUBLIC_ID_KEY, 'hex'); // 16 bytes, kept out of the code
  const { rows: [{ id, shown }] } = await client.query(
    'SELECT id, ulid_encrypt(id, $1) AS shown FROM orders WHERE item = $2', [key, 'tea']);
  // shown: the uuid string an API shows, publicId(id, key); ulidOfPublicId(shown, key) is id
  const found = await client.query('SELECT item FROM orders WHERE id = ulid_decrypt($1, $2)', [shown, key]);
  // found.rows: [{ item: 'tea' }]
  // End of docs/clients/node.md snippet.
  expectEqual("docs: the tea's public id, computed in JS both ways, and its row by ulid_decrypt",
    [shown, ulidOfPublicId(shown, key), found.rows], [publicId(id, key), id, [{ item: 'tea' }]]);
}

async function bytes(id) {
  // A client of its own: type parsers are set per client.
  const client = new Client();
  await client.connect();
  try {
    // docs/clients/node.md snippet: 16 bytes.
    const { rows: [{ oid }] } = await client.query("SELECT 'ulid'::regtype::oid AS oid");
    client.setTypeParser(oid, ulidToBytes); // every ulid column now reads as a 16-byte Buffer

    const { rows } = await client.query('SELECT id, item FROM orders WHERE id = $1', [id]);
    const bytes = rows[0].id; // <Buffer 01 93 ...>, 16 bytes
    const same = await client.query('SELECT item FROM orders WHERE id = $1', [bytes]); // a Buffer is sent binary
    // End of docs/clients/node.md snippet.

    check('ulid oid looked up as a number', Number.isInteger(oid) && oid > 16383, util.inspect(oid));
    expectEqual('text parser ulidToBytes: id is the 16 bytes of id::bytea', bytes,
      (await client.query('SELECT id::bytea AS b FROM orders WHERE id = $1', [id])).rows[0].b);
    expectEqual('a Buffer parameter is received as a binary ulid', same.rows, [{ item: 'tea' }]);
    const ret = await client.query('INSERT INTO orders (item) VALUES ($1) RETURNING id', ['bytes']);
    const back = await client.query('SELECT id::text AS t FROM orders WHERE id = $1', [ret.rows[0].id]);
    check('RETURNING id through the parser is a Buffer that finds its row',
      Buffer.isBuffer(ret.rows[0].id) && back.rows.length === 1 && back.rows[0].t === bytesToUlid(ret.rows[0].id),
      util.inspect([ret.rows, back.rows]));

    // 200 random Buffers: sent binary, read back through the parser, as text and as uuid text.
    let ok = true;
    let why = '';
    for (let i = 0; i < 200; i++) {
      const b = crypto.randomBytes(16);
      const r = await client.query('SELECT $1::ulid AS b, $1::ulid::text AS t, $1::ulid::uuid AS u', [b]);
      const row = r.rows[0];
      if (!row.b.equals(b) || row.t !== bytesToUlid(b) || row.u !== ulidToUuid(bytesToUlid(b))) {
        ok = false;
        why = util.inspect([b, row]);
      }
    }
    check('200 random Buffers: sent binary, parsed back equal; text and uuid equal the JS codec', ok, why);

    // The server refuses a payload that is not 16 bytes.
    try {
      await client.query('SELECT $1::ulid', [Buffer.alloc(15)]);
      check('a 15-byte Buffer fails with 22P03', false, 'accepted');
    } catch (e) {
      check('a 15-byte Buffer fails with 22P03', e.code === '22P03' && e.message === 'invalid length in external "ulid" value',
        `${e.code} ${e.message}`);
    }

    // binary: true asks for binary results, but node-postgres decodes every
    // field as UTF-8 first: bytes that are not valid UTF-8 are replaced.
    client.setTypeParser(oid, 'binary', (raw) => raw);
    const bin = await client.query({
      text: 'SELECT $1::ulid AS low, $2::ulid AS high', // parameters: binary needs the extended protocol
      values: ['00000000000000000000000000', '7ZZZZZZZZZZZZZZZZZZZZZZZZZ'],
      binary: true,
    });
    check('binary: true: the result fields are in binary format', bin.fields.every((f) => f.format === 'binary'),
      util.inspect(bin.fields));
    expectEqual('binary: true: 16 zero bytes survive', bin.rows[0].low, Buffer.alloc(16));
    const binUuid = await client.query({ text: 'SELECT $1::ulid::uuid AS u', values: [id], binary: true });
    check('binary: true: a uuid (no binary parser) comes back as a string that is not the uuid',
      typeof binUuid.rows[0].u === 'string' && binUuid.rows[0].u !== ulidToUuid(id), util.inspect(binUuid.rows[0].u));
    expectEqual('binary: true: 16 0xff bytes come back as 16 U+FFFD (48 bytes), not the value',
      bin.rows[0].high, Buffer.from('\ufffd'.repeat(16)));

    // docs/clients/node.md snippet: a pool.
    const types = new pg.TypeOverrides();
    types.setTypeParser(oid, ulidToBytes);
    const pool = new pg.Pool({ types }); // every client of the pool reads ulid as a Buffer
    // End of docs/clients/node.md snippet.
    try {
      const fromPool = await pool.query('SELECT id FROM orders WHERE id = $1', [id]);
      expectEqual('a Pool with TypeOverrides: ulid read as 16 bytes', fromPool.rows, [{ id: ulidToBytes(id) }]);
    } finally {
      await pool.end();
    }

    // What a text parser costs: a round trip, and the decoder alone.
    let t = process.hrtime.bigint();
    for (let i = 0; i < 200; i++) await client.query('SELECT $1::ulid AS id', [id]);
    const roundTrip = Number(process.hrtime.bigint() - t) / 200 / 1000;
    t = process.hrtime.bigint();
    for (let i = 0; i < 100000; i++) ulidToBytes(id);
    const decode = Number(process.hrtime.bigint() - t) / 100000 / 1000;
    console.log(`# a query round trip: ${roundTrip.toFixed(0)} us; ulidToBytes: ${decode.toFixed(2)} us a value`);

    // docs/clients/node.md snippet: the uuid form.
    client.setTypeParser(oid, ulidToUuid); // every ulid column now reads as a uuid string
    // End of docs/clients/node.md snippet.
    const parsed = await client.query('SELECT id FROM orders WHERE id = $1', [id]);
    expectEqual('text parser ulidToUuid: ulid column read as the uuid string', parsed.rows, [{ id: ulidToUuid(id) }]);

    // docs/clients/node.md snippet: ulid[] results.
    const { rows: [{ arrayOid }] } = await client.query("SELECT 'ulid[]'::regtype::oid AS \"arrayOid\"");
    client.setTypeParser(arrayOid, pg.types.getTypeParser(1009)); // parse as text[]: an array of strings
    // End of docs/clients/node.md snippet.
    const agg = await client.query('SELECT array_agg(id ORDER BY id) AS ids FROM orders WHERE id = ANY($1)', [[id]]);
    expectEqual('ulid[] parsed as text[]: a JS array of strings', agg.rows[0].ids, [id]);
  } finally {
    await client.end();
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
  check(`${ids.length} ids, all distinct`, new Set(ids).size === ids.length && ids.length > 300, ids.length);
  const times = rows.map((r) => [Number(BigInt(`0x${ulidToBytes(r.id).subarray(0, 6).toString('hex')}`)), r.t.getTime()]);
  check('ulid_time(id) equals the first 6 bytes decoded in JS', times.every(([a, b]) => a === b),
    util.inspect(times.find(([a, b]) => a !== b)));
}

async function main() {
  const client = new Client();
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS orders');
    await client.query('CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text)');
    const id = await readme(client);
    await values(client);
    await decoder(client);
    await uuidForm(client);
    await arrays(client, id);
    await prepared(client, id);
    await publicIds(client);
    await bytes(id);
    await ordering(client);
    await client.query('DROP TABLE orders');
  } finally {
    await client.end();
  }
  done();
}

main().catch((e) => {
  console.log(`FAILED - node-postgres: the program broke : ${String(e.stack).replace(/\s+/g, ' ')}`);
  process.exitCode = 1;
});
