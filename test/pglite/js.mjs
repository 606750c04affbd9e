// What a JavaScript developer meets past the tour, as docs/pglite.md says
// it: arrays of ulid both ways, and a saved database reopened.  Copied into
// the scratch project by test/pglite/package_test.mjs, which passes the
// number of the TAP line before this module's first.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { ulid } from 'pglite-ulid';

let n = parseInt(process.argv[2] ?? '0', 10);
let failed = 0;
function ok(cond, name, why) {
	n++;
	console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`);
	if (!cond) {
		failed++;
		if (why !== undefined) console.log(`#   ${typeof why === 'string' ? why : JSON.stringify(why)}`);
	}
}
process.on('uncaughtException', (e) => {
	console.log(`not ok ${n + 1} - stopped: ${e.code ?? ''} ${e.message}`);
	process.exit(1);
});
const CROCKFORD = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
const error = async (p) => {
	try {
		await p;
		return null;
	} catch (e) {
		return e;
	}
};

// Arrays.  PGlite learns array types when it starts; ulid[] made by CREATE
// EXTENSION afterwards comes back as its text until refreshArrayTypes().
{
	const pg = await PGlite.create({ extensions: { ulid } });
	await pg.exec('CREATE EXTENSION ulid');
	const before = (await pg.query('SELECT ARRAY[gen_ulid(), gen_ulid()] AS ids')).rows[0].ids;
	ok(typeof before === 'string' && /^\{[0-9A-Z]{26},[0-9A-Z]{26}\}$/.test(before),
		'before refreshArrayTypes(), a ulid[] is its text', before);
	await pg.refreshArrayTypes();
	const ids = (await pg.query('SELECT ARRAY[gen_monotonic_ulid(), NULL, gen_monotonic_ulid()] AS ids')).rows[0].ids;
	ok(Array.isArray(ids) && ids.length === 3 && CROCKFORD.test(ids[0]) && ids[1] === null && ids[0] < ids[2],
		'after it, a ulid[] is an array of strings, NULL as null', ids);
	const sent = ['01ARYZ6S41TSV4RRFFQ69G5FAV', '01ARYZ6S41TSV4RRFFQ69G5FAW', null];
	const back = (await pg.query('SELECT $1::ulid[] AS ids, cardinality($1::ulid[]) AS n', [sent])).rows[0];
	ok(JSON.stringify(back.ids) === JSON.stringify(sent) && back.n === 3, 'a JavaScript array binds to $1::ulid[]', back);
	await pg.exec(`CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
		INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 20) g;`);
	const some = (await pg.query('SELECT id FROM orders ORDER BY id LIMIT 3')).rows.map((r) => r.id);
	const found = (await pg.query('SELECT id FROM orders WHERE id = ANY ($1::ulid[]) ORDER BY id', [some])).rows.map((r) => r.id);
	ok(JSON.stringify(found) === JSON.stringify(some), 'WHERE id = ANY ($1::ulid[]) finds the rows of a JavaScript array', { some, found });
	const uuids = (await pg.query('SELECT $1::ulid[]::uuid[] AS u', [some])).rows[0].u;
	ok(Array.isArray(uuids) && uuids.length === 3 && uuids.every((u) => /^[0-9a-f-]{36}$/.test(u)),
		'ulid[]::uuid[] comes back as an array of uuid strings', uuids);
	const bad = await error(pg.query('SELECT $1::ulid[]', [['not a ulid']]));
	ok(bad?.code === '22P02', 'a bad element in a bound array is 22P02', bad && `${bad.code} ${bad.message}`);
	await pg.close();
}

// A saved database: reopened with the extension, its ids and indexes are
// there and the functions work; reopened without it, a ulid function fails
// with the error docs/pglite.md names.
{
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ulid-pglite-datadir.'));
	let pg = await PGlite.create({ dataDir: dir, extensions: { ulid } });
	await pg.exec(`CREATE EXTENSION ulid;
		CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
		INSERT INTO orders (item) SELECT 'item ' || g FROM generate_series(1, 100) g;`);
	const saved = (await pg.query('SELECT id FROM orders ORDER BY id')).rows.map((r) => r.id);
	await pg.close();

	pg = await PGlite.create({ dataDir: dir, extensions: { ulid } });
	const again = (await pg.query('SELECT id FROM orders ORDER BY id')).rows.map((r) => r.id);
	ok(again.length === 100 && JSON.stringify(again) === JSON.stringify(saved), 'reopened with extensions: { ulid }, the 100 ids are as saved');
	await pg.exec("SET enable_seqscan = off; INSERT INTO orders (item) VALUES ('after')");
	const plan = (await pg.query('EXPLAIN (COSTS OFF) SELECT item FROM orders WHERE id = $1', [saved[41]])).rows.map((r) => r['QUERY PLAN']).join('\n');
	const row = (await pg.query('SELECT item FROM orders WHERE id = $1', [saved[41]])).rows;
	ok(/orders_pkey/.test(plan) && row.length === 1 && row[0].item === 'item 42', 'its primary key finds a saved id by index', plan);
	const arr = (await pg.query('SELECT array_agg(id ORDER BY id) AS ids FROM orders')).rows[0].ids;
	ok(Array.isArray(arr) && arr.length === 101, 'ulid[] is an array at once, as the type existed when PGlite started', typeof arr);
	await pg.close();

	pg = await PGlite.create({ dataDir: dir });
	const count = (await pg.query('SELECT count(*)::int AS n FROM orders')).rows[0].n;
	const missing = await error(pg.query('SELECT gen_ulid()'));
	ok(count === 101 && missing?.code === '58P01' && /ulid/.test(missing.message),
		'reopened without it, the rows read but gen_ulid() fails: 58P01', missing && `${missing.code} ${missing.message}`);
	await pg.close();
	fs.rmSync(dir, { recursive: true, force: true });
}

// Public ids: enciphered by pgcrypto's library, loaded beside ulid (no
// CREATE EXTENSION pgcrypto needed); without it, 0A000 and a hint.
{
	let pg = await PGlite.create({ extensions: { ulid, pgcrypto } });
	await pg.exec('CREATE EXTENSION ulid');
	const fips = (await pg.query(`SELECT ulid_encrypt('00112233-4455-6677-8899-aabbccddeeff'::uuid::ulid,
		'\\x000102030405060708090a0b0c0d0e0f'::bytea) AS c`)).rows[0].c;
	ok(fips === '69c4e0d8-6a7b-0430-d8cd-b78070b4c55a', `with pgcrypto loaded, ulid_encrypt gives FIPS-197's AES-128 vector (${fips})`);
	const round = (await pg.query(`SELECT count(*) FILTER (WHERE ulid_decrypt(ulid_encrypt(id, k), k) = id)::int AS back,
		count(DISTINCT ulid_encrypt(id, k))::int AS distinct_ids
		FROM (SELECT gen_monotonic_ulid() AS id, '\\x00112233445566778899aabbccddeeff'::bytea AS k FROM generate_series(1, 1000)) s`)).rows[0];
	ok(round.back === 1000 && round.distinct_ids === 1000, '1,000 ids: 1,000 distinct public ids, each decrypting to its id', round);
	await pg.close();
	pg = await PGlite.create({ extensions: { ulid } });
	await pg.exec('CREATE EXTENSION ulid');
	const e = await error(pg.query(`SELECT ulid_encrypt(gen_ulid(), '\\x00112233445566778899aabbccddeeff'::bytea)`));
	ok(e?.code === '0A000' && /pgcrypto/.test(e.message) && /extensions: \{ ulid, pgcrypto \}/.test(e.hint ?? ''),
		'without pgcrypto: 0A000, with the hint to load it', e && `${e.code} ${e.message} / ${e.hint}`);
	await pg.close();
}

process.exit(failed ? 1 : 0);
