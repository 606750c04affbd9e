// web/db.js: the page's database, PGlite in this tab with the ulid extension,
// and every statement the page runs on it.  app.js knows nothing of SQL: what
// it shows of a value (its kind, its parts and their bits, its time, its
// other forms) comes from here, computed by PostgreSQL.  Every statement
// runs on PostgreSQL 18 and 19 (uuidv7() and uuid_extract_*() are core
// there).
import { PGlite } from '@electric-sql/pglite'
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto'
import { ulid } from 'pglite-ulid'

// An open database: the extension created, the tab's ObjectId state and
// public-id key made, and the versions it reports.
export async function open() {
	// pgcrypto's library enciphers public ids where ulid has no OpenSSL.
	const db = await PGlite.create({ extensions: { ulid, pgcrypto } })
	await db.exec(`
		CREATE EXTENSION IF NOT EXISTS ulid;
		-- An ObjectId's middle 5 bytes are random, drawn once per process (here:
		-- per tab), and its last 3 a counter that starts at a random value and
		-- wraps at 2^24.  Bytes 1-6 of a version 4 UUID are all random bits.
		CREATE TEMP TABLE objectid_process AS
			SELECT substring(uuid_send(gen_random_uuid()) FROM 1 FOR 5) AS value;
		CREATE TEMP SEQUENCE objectid_counter AS integer MINVALUE 0 MAXVALUE 16777215 CYCLE;
		SELECT setval('pg_temp.objectid_counter',
					  (get_byte(b, 0) << 16) | (get_byte(b, 1) << 8) | get_byte(b, 2), false)
		FROM (SELECT uuid_send(gen_random_uuid()) AS b) AS r;
		-- The public-id key: 16 random bytes (bytes 1-6 and 10-16 of a version
		-- 4 UUID have no fixed bits).
		CREATE TEMP TABLE public_id_key AS
			SELECT substring(uuid_send(gen_random_uuid()) FROM 1 FOR 6)
				   || substring(uuid_send(gen_random_uuid()) FROM 10 FOR 7)
				   || substring(uuid_send(gen_random_uuid()) FROM 10 FOR 3) AS key;
	`)
	const { rows } = await db.query(
		`SELECT current_setting('server_version') AS postgres, extversion AS ulid
		 FROM pg_extension WHERE extname = 'ulid'`,
	)
	return { db, versions: rows[0] }
}

// The number held by hex digits, as numeric (80 bits do not fit in int8).
const hexNumeric = (hex) =>
	`(SELECT sum(get_byte(decode(${hex}, 'hex'), i)::numeric * 256::numeric ^ (length(${hex}) / 2 - 1 - i))
	  FROM generate_series(0, length(${hex}) / 2 - 1) AS i)::numeric(40, 0)`

// For each kind of id: its generator, and per value the time it carries and
// a note on how it follows the one made before it (lag(id) is prev).
const generators = {
	plain: {
		make: 'gen_ulid()',
		time: 'ulid_time(id)::text',
		// gen_ulid(): a session's next id of a millisecond has the first 16 random
		// bits of the one before plus one.
		step: `CASE WHEN prev IS NULL THEN 'first'
				WHEN ulid_time(id) <> ulid_time(prev) THEN 'new millisecond'
				ELSE 'same millisecond: first 16 random bits + ' ||
					 ((get_byte(ulid_send(id), 6) << 8 | get_byte(ulid_send(id), 7))
					  - (get_byte(ulid_send(prev), 6) << 8 | get_byte(ulid_send(prev), 7))) END`,
	},
	monotonic: {
		make: 'gen_monotonic_ulid()',
		time: 'ulid_time(id)::text',
		step: `CASE WHEN prev IS NULL THEN 'first'
				WHEN ulid_time(id) <> ulid_time(prev) THEN 'new millisecond'
				ELSE 'same millisecond: random + ' ||
					 (${hexNumeric("encode(substring(ulid_send(id) FROM 7), 'hex')")}
					  - ${hexNumeric("encode(substring(ulid_send(prev) FROM 7), 'hex')")}) END`,
	},
	v4: { make: 'gen_random_uuid()', time: 'NULL', step: 'NULL' },
	v7: {
		make: 'uuidv7()',
		time: 'uuid_extract_timestamp(id)::text',
		step: `'rand_a ' || ((get_byte(uuid_send(id), 6) & 15) << 8 | get_byte(uuid_send(id), 7)) ||
			   CASE WHEN prev IS NULL THEN ''
					WHEN uuid_extract_timestamp(id) = uuid_extract_timestamp(prev) THEN ', same millisecond'
					ELSE ', new millisecond' END`,
	},
	objectid: {
		// 4 bytes of seconds since 1970 (unsigned, big-endian), the tab's 5
		// random bytes, the counter's next value in 3 bytes.
		make: `encode(substring(int8send(floor(extract(epoch FROM clock_timestamp()))::int8) FROM 5 FOR 4)
					  || (SELECT value FROM pg_temp.objectid_process)
					  || substring(int4send(nextval('pg_temp.objectid_counter')::int4) FROM 2 FOR 3), 'hex')`,
		time: `to_timestamp(('x' || left(id, 8))::bit(32)::int8)::text`,
		step: `'counter ' || ('x' || right(id, 6))::bit(24)::int4`,
	},
}

// count ids of a kind (a key of generators) in the order they were made: the
// value as text, the time it carries and its step from the one before.
export async function generate(db, count, kind) {
	const g = generators[kind]
	if (g === undefined) throw new TypeError(`no kind of id ${kind}`)
	const { rows } = await db.query(
		`WITH made AS (SELECT n, ${g.make} AS id FROM generate_series(1, $1::int) AS n)
		 SELECT id::text AS id, ${g.time} AS time, ${g.step} AS step
		 FROM (SELECT n, id, lag(id) OVER (ORDER BY n) AS prev FROM made) AS s
		 ORDER BY n`,
		[count],
	)
	return rows
}

// The kind a pasted value is read as: 'objectid' for 24 characters, 'uuid'
// for what reads as a uuid or looks like one (a hyphen, a brace, 32 hex
// digits), else 'ulid'; each then gives its own type's error if it is not one.
async function kindOf(db, text) {
	const { rows } = await db.query(
		`SELECT CASE WHEN length(t) = 24 THEN 'objectid'
					 WHEN length(t) <> 26 AND (pg_input_is_valid(t, 'uuid') OR t ~ '[-{}]' OR length(t) = 32) THEN 'uuid'
					 ELSE 'ulid' END AS kind
		 FROM (SELECT $1::text AS t) AS s`,
		[text],
	)
	return rows[0].kind
}

// The parts of each layout: name, first bit and number of bits (bit 0 the
// most significant), with the value and meaning of each as SQL over b (the
// bytes) and x (the value).
const layouts = {
	ulid: [
		['time', 0, 48, `('x' || encode(substring(b FROM 1 FOR 6), 'hex'))::bit(48)::int8::text`,
			`'milliseconds since 1970: ' || ulid_time(x)::text`],
		['random', 48, 80, `encode(substring(b FROM 7), 'hex')`,
			`'80 bits, random but for a session''s next id of the same millisecond, which counts up: gen_ulid() adds one to the first 16 (and draws the other 64), gen_monotonic_ulid() to all 80'`],
	],
	v7: [
		['unix_ts_ms', 0, 48, `('x' || encode(substring(b FROM 1 FOR 6), 'hex'))::bit(48)::int8::text`,
			`'milliseconds since 1970: ' || uuid_extract_timestamp(x)::text`],
		['ver', 48, 4, `uuid_extract_version(x)::text`, `'the version, 7'`],
		['rand_a', 52, 12, `((get_byte(b, 6) & 15) << 8 | get_byte(b, 7))::text`,
			`'PostgreSQL''s uuidv7() writes here the time''s fraction of a millisecond in 4096ths ('
			 || round(((get_byte(b, 6) & 15) << 8 | get_byte(b, 7)) * 1000000.0 / 4096) || ' ns), the time taken at least 245 ns past the call before, so that a session''s values increase'`],
		['var', 64, 2, `substring(('x' || encode(substring(b FROM 9 FOR 1), 'hex'))::bit(8)::text FROM 1 FOR 2)`,
			`'the variant, 10 (RFC 9562)'`],
		['rand_b', 66, 62, `encode(set_byte(substring(b FROM 9), 0, get_byte(b, 8) & 63), 'hex')`, `'62 random bits'`],
	],
	v4: [
		['random_a', 0, 48, `encode(substring(b FROM 1 FOR 6), 'hex')`, `'48 random bits'`],
		['ver', 48, 4, `uuid_extract_version(x)::text`, `'the version, 4'`],
		['random_b', 52, 12, `lpad(to_hex((get_byte(b, 6) & 15) << 8 | get_byte(b, 7)), 3, '0')`, `'12 random bits'`],
		['var', 64, 2, `substring(('x' || encode(substring(b FROM 9 FOR 1), 'hex'))::bit(8)::text FROM 1 FOR 2)`,
			`'the variant, 10 (RFC 9562)'`],
		['random_c', 66, 62, `encode(set_byte(substring(b FROM 9), 0, get_byte(b, 8) & 63), 'hex')`, `'62 random bits'`],
	],
	uuid: [
		['data', 0, 128, `encode(b, 'hex')`,
			`'not a version 4 or 7 UUID of RFC 9562: uuid_extract_version() gives ' || coalesce(uuid_extract_version(x)::text, 'NULL')`],
	],
	objectid: [
		['time', 0, 32, `('x' || encode(substring(b FROM 1 FOR 4), 'hex'))::bit(32)::int8::text`,
			`'seconds since 1970: ' || to_timestamp(('x' || encode(substring(b FROM 1 FOR 4), 'hex'))::bit(32)::int8)::text`],
		['random', 32, 40, `encode(substring(b FROM 5 FOR 5), 'hex')`,
			`'5 random bytes, drawn once per process'`],
		['counter', 72, 24, `((get_byte(b, 9) << 16) | (get_byte(b, 10) << 8) | get_byte(b, 11))::text`,
			`'a counter, started at a random value by each process, one up each id'`],
	],
}

// The parts of x (an expression) whose bytes are b, as rows.
const partsQuery = (layout) =>
	layouts[layout]
		.map(([name, from, bits, value, meaning]) => `SELECT '${name}' AS name, ${from} AS first, ${bits} AS bits, ${value} AS value, ${meaning} AS meaning`)
		.join('\n UNION ALL ')

// Runs a statement that may fail, and gives {value} or {error}: a conversion
// the value does not allow, or a function the build lacks.
async function attempt(db, sql, params) {
	try {
		return { value: (await db.query(sql, params)).rows[0].v }
	} catch (error) {
		return { error }
	}
}

// What a pasted ULID, UUID or ObjectId is: its kind, canonical text, its 128
// (ObjectId: 96) bits, the parts that make it, its time and the forms the
// extension converts it to.  Throws the type's own error for input that is
// none of them.
export async function decode(db, input) {
	const kind = await kindOf(db, input)
	if (kind === 'ulid') {
		const { rows } = await db.query(
			`SELECT x::text AS value, 'ULID' AS title,
					('x' || encode(b, 'hex'))::bit(128)::text AS bits,
					ulid_time(x)::text AS time,
					to_char(ulid_time(x) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS utc,
					(extract(epoch FROM ulid_time(x)) * 1000)::float8 AS ms,
					x::uuid::text AS uuid
			 FROM (SELECT x, ulid_send(x) AS b FROM (SELECT $1::ulid AS x) AS p) AS s`,
			[input],
		)
		const r = rows[0]
		const parts = await db.query(
			`SELECT p.* FROM (SELECT x, ulid_send(x) AS b FROM (SELECT $1::ulid AS x) AS q) AS s,
			 LATERAL (${partsQuery('ulid')}) AS p`,
			[input],
		)
		const objectid = await attempt(db, 'SELECT ulid_to_objectid($1::ulid) AS v', [input])
		const publicId = await attempt(
			db,
			`SELECT ARRAY[e::text, ulid_decrypt(e, key)::text, encode(key, 'hex')] AS v
			 FROM pg_temp.public_id_key, LATERAL ulid_encrypt($1::ulid, key) AS e`,
			[input],
		)
		return { kind, layout: 'ulid', ...r, parts: parts.rows, objectid, publicId }
	}
	if (kind === 'uuid') {
		const { rows } = await db.query(
			`SELECT x::text AS value, uuid_extract_version(x) AS version,
					('x' || encode(uuid_send(x), 'hex'))::bit(128)::text AS bits,
					uuid_extract_timestamp(x)::text AS time,
					x::ulid::text AS ulid,
					ulid_time(x::ulid)::text AS ulid_time
			 FROM (SELECT $1::uuid AS x) AS s`,
			[input],
		)
		const r = rows[0]
		const layout = r.version === 7 ? 'v7' : r.version === 4 ? 'v4' : 'uuid'
		const parts = await db.query(
			`SELECT p.* FROM (SELECT x, uuid_send(x) AS b FROM (SELECT $1::uuid AS x) AS q) AS s,
			 LATERAL (${partsQuery(layout)}) AS p`,
			[input],
		)
		const title = r.version === null ? 'UUID (not RFC 9562)' : `UUID version ${r.version}`
		return { kind, layout, title, ...r, parts: parts.rows }
	}
	const { rows } = await db.query(
		`SELECT ulid_to_objectid(x) AS value, 'ObjectId' AS title,
				('x' || ulid_to_objectid(x))::bit(96)::text AS bits,
				x::text AS ulid, ulid_time(x)::text AS ulid_time
		 FROM (SELECT ulid_from_objectid($1::text) AS x) AS s`,
		[input],
	)
	const parts = await db.query(
		`SELECT p.* FROM (SELECT decode(ulid_to_objectid(ulid_from_objectid($1::text)), 'hex') AS b) AS s,
		 LATERAL (${partsQuery('objectid')}) AS p`,
		[input],
	)
	return { kind, layout: 'objectid', ...rows[0], parts: parts.rows }
}

// Every result of a string of statements, each value as PostgreSQL writes it
// (PGlite's parsers would make arrays JavaScript arrays, a timestamptz a
// Date), and each row an array, so that two columns of one name both show.
export function run(db, sql) {
	const asText = Object.fromEntries(Object.keys(db.parsers).map((oid) => [oid, (x) => x]))
	return db.exec(sql, { parsers: asText, rowMode: 'array' })
}
