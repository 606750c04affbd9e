// web/db.js: the page's database, PGlite in this tab with the ulid extension,
// and every statement the page runs on it.  app.js knows nothing of SQL.
import { PGlite, types } from '@electric-sql/pglite'
import { ulid } from 'pglite-ulid'

// The SQL runner shows values as PostgreSQL writes them, not as PGlite's
// parsers turn them into JavaScript (a timestamptz into a Date).
const asText = Object.fromEntries(Object.keys(types.parsers).map((oid) => [oid, (x) => x]))

// An open database: the extension created, and the versions it reports.
export async function open() {
	const db = await PGlite.create({ extensions: { ulid } })
	await db.exec('CREATE EXTENSION IF NOT EXISTS ulid')
	const { rows } = await db.query(
		`SELECT current_setting('server_version') AS postgres, extversion AS ulid
		 FROM pg_extension WHERE extname = 'ulid'`,
	)
	return { db, versions: rows[0] }
}

// count ids in the order they were made, as text.
export async function generate(db, count, monotonic) {
	const fn = monotonic ? 'gen_monotonic_ulid()' : 'gen_ulid()'
	const { rows } = await db.query(`SELECT ${fn}::text AS id FROM generate_series(1, $1::int)`, [count])
	return rows.map((r) => r.id)
}

// A ULID's canonical text, its time (UTC as text, and in milliseconds since
// the epoch for the browser's own zone) and its UUID form.  Throws the type's
// own error for input it does not read.
export async function decode(db, text) {
	const { rows } = await db.query(
		`SELECT u::text AS ulid,
				to_char(ulid_time(u) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS utc,
				(extract(epoch FROM ulid_time(u)) * 1000)::float8 AS ms,
				u::uuid::text AS uuid
		 FROM (SELECT $1::ulid AS u) s`,
		[text],
	)
	return rows[0]
}

// The ULID with a UUID's 16 bytes.
export async function fromUuid(db, text) {
	const { rows } = await db.query('SELECT $1::uuid::ulid::text AS ulid', [text])
	return rows[0].ulid
}

// Every result of a string of statements, values as text.
export function run(db, sql) {
	return db.exec(sql, { parsers: asText })
}
