// A connection to a real PostgreSQL server over its Unix socket, with the
// interface regress.mjs gives psql.mjs for PGlite: the way to run psql.mjs
// against the server the expected files come from, so that a difference in
// PGlite's output is PGlite's and not the emulation's.  Trust authentication
// only (bin/tempcluster's).

import net from 'node:net';
import path from 'node:path';
import { parseMessages } from './psql.mjs';

function startupPacket(params) {
	const body = Buffer.concat([
		...Object.entries(params).flatMap(([k, v]) => [Buffer.from(k), Buffer.from([0]), Buffer.from(v, 'latin1'), Buffer.from([0])]),
		Buffer.from([0]),
	]);
	const head = Buffer.alloc(8);
	head.writeInt32BE(8 + body.length, 0);
	head.writeInt32BE(196608, 4); // protocol 3.0
	return Buffer.concat([head, body]);
}

// One backend: exec() writes bytes and returns every message up to the
// ReadyForQuery that ends them.
async function backend(host, port, params) {
	const sock = net.connect(path.join(host, `.s.PGSQL.${port}`));
	let buf = Buffer.alloc(0);
	let waiter = null;
	sock.on('data', (d) => {
		buf = Buffer.concat([buf, d]);
		if (waiter) waiter();
	});
	const closed = new Promise((resolve) => sock.on('close', resolve));
	sock.on('error', () => {});
	// Resolves with all bytes received through the next complete 'Z' message.
	const untilReady = () =>
		new Promise((resolve, reject) => {
			const check = () => {
				let i = 0;
				while (i + 5 <= buf.length) {
					const len = buf.readInt32BE(i + 1);
					if (i + 1 + len > buf.length) break;
					const type = String.fromCharCode(buf[i]);
					i += 1 + len;
					if (type === 'Z' || (type === 'E' && !started)) {
						const out = buf.subarray(0, i);
						buf = buf.subarray(i);
						waiter = null;
						resolve(out);
						return;
					}
				}
			};
			waiter = check;
			closed.then(() => reject(new Error('the server closed the connection')));
			check();
		});
	let started = false;
	await new Promise((resolve, reject) => {
		sock.once('connect', resolve);
		sock.once('error', reject);
	});
	sock.write(startupPacket(params));
	const hello = parseMessages(await untilReady());
	const err = hello.find((m) => m.type === 'E');
	if (err) throw new Error(`connection refused: ${err.body.toString('latin1').replace(/\0/g, ' ')}`);
	started = true;
	return {
		exec: (bytes) => {
			sock.write(bytes);
			return untilReady();
		},
		close: () => {
			sock.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
			return closed;
		},
	};
}

// The connection regress.mjs hands to a Session: PGHOST/PGPORT's server,
// with pg_regress's client settings.
export async function serverConnection(database, name, { host = process.env.PGHOST, port = process.env.PGPORT ?? '5432', user = process.env.PGUSER ?? 'postgres' } = {}) {
	const params = (db) => ({
		user,
		database: db,
		client_encoding: 'UTF8',
		TimeZone: 'America/Los_Angeles',
		DateStyle: 'Postgres, MDY',
		IntervalStyle: 'postgres_verbose',
		application_name: `pg_regress/${name}`,
	});
	let be = await backend(host, port, params(database));
	const conn = {
		dbname: database,
		user,
		exec: (bytes) => be.exec(bytes),
		async connect(db) {
			await be.close();
			be = await backend(host, port, params(db));
			conn.dbname = db;
		},
		close: () => be.close(),
	};
	return conn;
}
