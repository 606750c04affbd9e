// The README's tour in PGlite, as a user's project runs it: copied into the
// scratch project by test/pglite/package_test.mjs, which passes the number of
// the TAP line before this module's first.
import { PGlite } from '@electric-sql/pglite';
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
const CROCKFORD = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

// An error stops the tour with one line that says where.
process.on('uncaughtException', (e) => {
	console.log(`not ok ${n + 1} - the tour stopped: ${e.code ?? ''} ${e.message}`);
	process.exit(1);
});

const pg = await PGlite.create({ extensions: { ulid } });
await pg.exec('CREATE EXTENSION ulid');
const ext = (await pg.query(`SELECT e.extversion, a.default_version FROM pg_extension e
	JOIN pg_available_extensions a ON a.name = e.extname WHERE e.extname = 'ulid'`)).rows[0];
ok(ext && ext.extversion === ext.default_version, `CREATE EXTENSION ulid in PGlite (${ext?.extversion})`, ext);

// A table keyed by ULIDs, made by the column default.
await pg.exec(`CREATE TABLE orders (id ulid PRIMARY KEY DEFAULT gen_ulid(), item text);
	INSERT INTO orders (item) VALUES ('coffee'), ('croissant');`);
const ids = (await pg.query('SELECT id FROM orders ORDER BY item')).rows.map((r) => r.id);
ok(ids.length === 2 && ids.every((id) => CROCKFORD.test(id)), 'gen_ulid() as a column default: 26 Crockford Base32 characters', ids);
const reparsed = (await pg.query('SELECT $1::text::ulid::text AS a, $2::text::ulid::text AS b', ids)).rows[0];
ok(reparsed.a === ids[0] && reparsed.b === ids[1], 'the ids read back as ulid unchanged', reparsed);

// "Rows of the last day" on the key itself.
const count = (await pg.query(`SELECT count(*)::int AS count FROM orders WHERE id >= (now() - interval '1 day')::ulid`)).rows[0].count;
ok(count === 2, `rows of the last day by the key: ${count}`, count);

// Text input is strict, output canonical, and the same 16 bytes are a uuid.
const fixed = (await pg.query(`SELECT id, ulid_time(id) AS created, id::uuid AS as_uuid
	FROM (VALUES ('01aryz6s41tsv4rrffq69g5fav'::ulid)) AS t(id)`)).rows[0];
ok(fixed.id === '01ARYZ6S41TSV4RRFFQ69G5FAV' && fixed.created.getTime() === Date.UTC(2016, 6, 30, 22, 36, 16, 385) &&
	fixed.as_uuid === '01563df3-6481-d676-4c61-efb99302bd5b', `the README's example: ${fixed.id}, ${fixed.created.toISOString()}, ${fixed.as_uuid}`, fixed);
try {
	await pg.query(`SELECT '01ARYZ6S41TSV4RRFFQ69G5FAU'::ulid`);
	ok(false, 'an invalid character is an error', 'no error');
} catch (e) {
	ok(e.code === '22P02' && e.message === 'invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FAU"' &&
		e.detail === 'Character "U" at position 26 is not a Crockford Base32 digit.', `an invalid character: ${e.code} ${e.message}; ${e.detail}`, { code: e.code, message: e.message, detail: e.detail });
}

// A session's ids count up: each later than the one before.
const seq = [];
for (let i = 0; i < 50; i++) seq.push((await pg.query('SELECT gen_ulid() AS id')).rows[0].id);
ok(seq.every((id, i) => i === 0 || id > seq[i - 1]), 'gen_ulid(): 50 ids in a row, each greater than the last');

// ulid_time() of a new id lies between the clock readings around it.
const before = Date.now();
const t = (await pg.query('SELECT ulid_time(gen_ulid()) AS t')).rows[0].t.getTime();
const after = Date.now();
ok(t >= before - 1 && t <= after, `ulid_time(gen_ulid()) is now: ${t - before} ms after the reading before it`, { before, t, after });

// The casts: to uuid and back, to timestamptz, and a time's smallest ulid.
const casts = (await pg.query(`SELECT bool_and(id::uuid::ulid = id) AS uuid_round_trip,
	bool_and(id::uuid::text = lower(regexp_replace(encode(id::bytea, 'hex'), '(.{8})(.{4})(.{4})(.{4})(.{12})', '\\1-\\2-\\3-\\4-\\5'))) AS uuid_same_bytes,
	bool_and(id::timestamptz = ulid_time(id)) AS timestamptz,
	bool_and(id::timestamptz::ulid <= id AND ulid_time(id::timestamptz::ulid) = ulid_time(id)) AS smallest_of_its_millisecond
	FROM orders`)).rows[0];
ok(Object.values(casts).every((v) => v === true), `casts: ${Object.entries(casts).map(([k, v]) => `${k} ${v}`).join(', ')}`, casts);

await pg.close();
process.exit(failed ? 1 : 0);
