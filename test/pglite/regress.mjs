#!/usr/bin/env node
// The regression suite (test/sql, test/expected) in PGlite, under Node.
//
//   node test/pglite/regress.mjs --project DIR [--bundle FILE] [--jobs N]
//        [--results DIR] [NAME...]
//   node test/pglite/regress.mjs --project DIR [--bundle FILE] --script FILE
//   bin/tempcluster -- node test/pglite/regress.mjs --server [NAME...]
//
// Each file of the Makefile's REGRESS list (with the lists for the PostgreSQL
// major PGlite is built on) runs in a fresh PGlite instance with the ulid
// extension, through test/pglite/psql.mjs, which prints what pg_regress's
// psql prints; the output is compared with test/expected/NAME.out or one of
// its alternatives NAME_1.out ... NAME_9.out, as pg_regress does, or with
// test/pglite/expected's, the outputs PGlite gives by design.  One TAP
// line per file, "ok N - NAME # skip why" for the files one backend cannot
// run (SINGLE_BACKEND_SKIPS below); a failure prints its unified diff as TAP
// comments, and every output and diff stays in the results directory
// (default: a temporary one, printed at the end).
//
// --project is a Node project with @electric-sql/pglite and this package
// installed (test/pglite/package_test.mjs --keep makes one); the extension is
// the package's, or --bundle's tarball when given (a bundle straight from
// bin/pglite, without packing).  --script runs one file and prints its output,
// the way to compare a file with real psql by hand.  Files run in parallel
// child processes, --jobs of them (default: the number of CPUs); a file that
// crashes the instance fails alone.
//
// The first TAP line checks psql.mjs itself: test/pglite/formatter.sql must
// print test/pglite/formatter.out, which is real psql's output, remade with
//   d=$(mktemp -d) && chmod 777 $d && ln -s $PWD/test $d/test && mkdir -m 777 $d/results
//   bin/tempcluster -- bash -c "cd $d && PGTZ=America/Los_Angeles PGDATESTYLE='Postgres, MDY' \
//     PGCLIENTENCODING=UTF8 psql -X -a -q < test/pglite/formatter.sql" > test/pglite/formatter.out 2>&1
//
// --server runs the files through psql.mjs against the server at PGHOST and
// PGPORT instead (test/pglite/server.mjs), one after another in a database
// made as pg_regress makes contrib_regression: on the host's PostgreSQL with
// ulid installed, every file should pass, which is how a difference in PGlite
// is known to be PGlite's and not the emulation's.
//
// Environment as pg_regress gives it: TimeZone America/Los_Angeles, DateStyle
// "Postgres, MDY", IntervalStyle postgres_verbose, lc_* C, bytea_output hex,
// and the server's default search_path (PGlite starts with "public").  A
// reconnection (\c) is a new instance on the same data directory.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Session, parseMessages, wire } from './psql.mjs';
import { serverConnection } from './server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Regression files a single backend cannot run, and why: none today.  What
// needs several sessions is an isolation spec (ISOLATION) and what needs a
// cluster of its own (preloading, crashes, replication, dblink or
// postgres_fdw, other roles' connections) a TAP test, neither in REGRESS;
// the run names them in a comment line.  The one reconnection in REGRESS,
// io.sql's \c to databases of other encodings, is a new instance on the same
// data directory; PGlite fails it for a reason of its own (PARTIAL below).
const SINGLE_BACKEND_SKIPS = {};

// Files run only up to a line, because what follows it fails in PGlite
// for PGlite's reasons; the expected output is compared up to the echo of
// that line, and the rest is reported as skipped, with the reason.
const PARTIAL = {
	io: {
		before: /^-- LATIN1:/,
		why:
			"PGlite 0.5.17's own encoding conversions call server functions pglite.wasm does not export: " +
			'utf8_and_iso8859_1.so (pg_utf8_islegal, report_invalid_encoding, report_untranslatable_char) returns ' +
			'nothing for non-ASCII text sent to a LATIN1 database, utf8_and_euc_jp.so (UtfToLocal, LocalToUtf) ' +
			'fails the connection to an EUC_JP one',
	},
};

// The lines of a file before the first that matches, and that line's number.
function cutBefore(text, re) {
	const lines = text.split('\n');
	const i = lines.findIndex((l) => re.test(l));
	return i < 0 ? { text, line: null } : { text: lines.slice(0, i).join('\n') + '\n', line: i + 1 };
}

// The name under which psql.mjs's own check runs.
const FORMATTER = 'formatter';

function parseArgs(argv) {
	const o = { names: [], jobs: os.availableParallelism?.() ?? os.cpus().length };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const val = () => argv[++i];
		if (a === '--project') o.project = path.resolve(val());
		else if (a === '--bundle') o.bundle = path.resolve(val());
		else if (a === '--jobs') o.jobs = Math.max(1, parseInt(val(), 10));
		else if (a === '--results') o.results = path.resolve(val());
		else if (a === '--script') o.script = path.resolve(val());
		else if (a === '--child') o.child = val();
		else if (a === '--template') o.template = val();
		else if (a === '--no-extension') o.noExtension = true;
		else if (a === '--server') o.server = true;
		else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
		else o.names.push(a);
	}
	if (!o.project && !o.server) throw new Error('--project DIR is required: a Node project with @electric-sql/pglite installed');
	return o;
}

// The ESM file of a package installed in the project, for its main entry
// or a subpath its "exports" map has a pattern for ("./contrib/*").
function resolvePackage(project, name, subpath = '.') {
	const dir = path.join(project, 'node_modules', name);
	const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
	let e;
	let star = null;
	if (subpath === '.') e = pj.exports?.['.'] ?? pj.exports ?? pj.module ?? pj.main ?? 'index.js';
	else {
		const key = Object.keys(pj.exports ?? {}).find((k) => k === subpath || (k.endsWith('*') && subpath.startsWith(k.slice(0, -1))));
		if (!key) return null;
		e = pj.exports[key];
		if (key.endsWith('*')) star = subpath.slice(key.length - 1);
	}
	if (e && typeof e === 'object') e = e.import ?? e.default;
	if (e && typeof e === 'object') e = e.default;
	if (star !== null) e = e.replace('*', star);
	const file = path.join(dir, e);
	return fs.existsSync(file) ? pathToFileURL(file).href : null;
}

// The contrib extensions the regression files create (a server has them all
// from postgresql-contrib), those PGlite ships, loaded into every instance;
// and pgcrypto, whose library enciphers public ids where there is no OpenSSL.
async function contribExtensions(project) {
	const names = new Set(['pgcrypto']);
	for (const f of fs.readdirSync(path.join(root, 'test/sql')).filter((f) => f.endsWith('.sql'))) {
		const text = fs.readFileSync(path.join(root, 'test/sql', f), 'utf8');
		for (const m of text.matchAll(/CREATE EXTENSION (?:IF NOT EXISTS )?("?)([A-Za-z0-9_-]+)\1/gi)) names.add(m[2]);
	}
	names.delete('ulid');
	const extensions = {};
	for (const name of [...names].sort()) {
		const key = name.replace(/-/g, '_');
		const url = resolvePackage(project, '@electric-sql/pglite', `./contrib/${key}`);
		if (url) extensions[key] = (await import(url))[key];
	}
	return extensions;
}

function packageName() {
	return JSON.parse(fs.readFileSync(path.join(root, 'pglite/package.json'), 'utf8')).name;
}

async function loadPGlite(o) {
	const { PGlite } = await import(resolvePackage(o.project, '@electric-sql/pglite'));
	let extensions = await contribExtensions(o.project);
	if (o.bundle) {
		const bundlePath = pathToFileURL(o.bundle);
		extensions.ulid = { name: 'ulid', setup: async (_pg, emscriptenOpts) => ({ emscriptenOpts, bundlePath }) };
	} else if (!o.noExtension) {
		extensions.ulid = (await import(resolvePackage(o.project, packageName()))).ulid;
	}
	return { PGlite, extensions };
}

function startParams(PGlite, name) {
	const settings = [
		'search_path="$user", public',
		'TimeZone=America/Los_Angeles',
		'DateStyle=Postgres, MDY',
		'IntervalStyle=postgres_verbose',
		'lc_messages=C',
		'lc_monetary=C',
		'lc_numeric=C',
		'lc_time=C',
		'bytea_output=hex',
		'timezone_abbreviations=Default',
		`application_name=pg_regress/${name}`,
	];
	return [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])];
}

// A session on a PGlite instance; \c closes it and opens the same data
// directory as another database.
async function connection(PGlite, extensions, dataDir, name) {
	let pg;
	const open = async (database, loadDataDir) => {
		pg = await PGlite.create({ loadDataDir, database, extensions, startParams: startParams(PGlite, name) });
	};
	await open('postgres', dataDir);
	const conn = {
		dbname: 'postgres',
		user: 'postgres',
		exec: (bytes) => pg.execProtocolRaw(bytes),
		async connect(db) {
			const dump = await pg.dumpDataDir('none');
			await pg.close();
			await open(db, dump);
			conn.dbname = db;
		},
		close: () => pg.close(),
	};
	const v = await pg.query('SHOW server_version_num');
	conn.serverVersionNum = parseInt(v.rows[0].server_version_num, 10);
	return conn;
}

// One file in this process: its output as pg_regress would record it.
async function runFile(o, sqlFile, name, template, workdir) {
	const { PGlite, extensions } = await loadPGlite(o);
	const data = new Blob([fs.readFileSync(template)]);
	const conn = await connection(PGlite, extensions, data, name);
	const session = new Session(conn, { root, workdir });
	let script = fs.readFileSync(sqlFile).toString('latin1');
	if (PARTIAL[name]) script = cutBefore(script, PARTIAL[name].before).text;
	await session.runScript(script);
	await conn.close();
	return Buffer.from(session.output(), 'latin1');
}

// The REGRESS list for a server version: the Makefile's list, then each
// "REGRESS += ..." under a version test it passes.
function regressList(versionNum) {
	const mk = fs.readFileSync(path.join(root, 'Makefile'), 'utf8');
	const names = /^REGRESS\s*=\s*(.*)$/m.exec(mk)[1].trim().split(/\s+/);
	const block = /ifeq \(\$\(shell test \$\(VERSION_NUM\) -ge (\d+)[^\n]*\n([\s\S]*?)endif/g;
	let m;
	while ((m = block.exec(mk))) {
		if (versionNum < parseInt(m[1], 10)) continue;
		const add = /^REGRESS\s*\+=\s*(.*)$/m.exec(m[2]);
		if (add) names.push(...add[1].trim().split(/\s+/));
	}
	return names;
}

function isolationList() {
	const mk = fs.readFileSync(path.join(root, 'Makefile'), 'utf8');
	return /^ISOLATION\s*=\s*(.*)$/m.exec(mk)?.[1].trim().split(/\s+/) ?? [];
}

// pg_regress's choice of expected file: an exact match with NAME.out or
// NAME_N.out, else the one with the shortest diff.  In PGlite the files in
// test/pglite/expected/ count too: outputs that differ there by design
// (docs/pglite.md says which), kept out of test/expected so that pg_regress
// on a server never accepts them.
function compare(name, resultFile, outDir, partial = PARTIAL, inPGlite = true) {
	const result = fs.readFileSync(resultFile);
	const dirs = name === FORMATTER ? ['test/pglite'] : inPGlite ? ['test/expected', 'test/pglite/expected'] : ['test/expected'];
	const candidates = dirs
		.flatMap((dir) => [`${name}.out`, ...Array.from({ length: 9 }, (_, i) => `${name}_${i + 1}.out`)].map((f) => path.join(root, dir, f)))
		.filter((f) => fs.existsSync(f));
	if (candidates.length === 0) return { ok: false, diff: `no expected file test/expected/${name}.out\n` };
	let best = null;
	for (let f of candidates) {
		const shown = path.relative(root, f);
		if (partial[name]) {
			// The expected output up to the echo of the line the run stopped at.
			const cut = path.join(outDir, 'results', `${path.basename(f, '.out')}.expected-part`);
			fs.writeFileSync(cut, Buffer.from(cutBefore(fs.readFileSync(f).toString('latin1'), partial[name].before).text, 'latin1'));
			f = cut;
		}
		if (fs.readFileSync(f).equals(result)) return { ok: true, expected: shown };
		const d = spawnSync('diff', ['-U3', f, resultFile], { encoding: 'latin1', maxBuffer: 1 << 28 });
		const diff = d.stdout.replace(/^--- \S+.*$/m, `--- ${shown}`).replace(/^\+\+\+ \S+.*$/m, `+++ results/${name}.out`);
		if (!best || diff.length < best.diff.length) best = { ok: false, diff, expected: shown };
	}
	fs.appendFileSync(path.join(outDir, 'regression.diffs'), best.diff);
	return best;
}

function runChild(o, name, template, results) {
	const args = [fileURLToPath(import.meta.url), '--child', name, '--template', template, '--results', results, '--project', o.project];
	if (o.bundle) args.push('--bundle', o.bundle);
	if (o.noExtension) args.push('--no-extension');
	return new Promise((resolve) => {
		const p = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
		let err = '';
		p.stderr.on('data', (d) => (err += d));
		p.on('close', (code, signal) => resolve({ code, signal, err }));
	});
}

// Prints the TAP lines of the files in order as their outcomes come in.
function reporter(names, results, partial = PARTIAL) {
	const outcome = new Array(names.length);
	let printed = 0;
	let n = 0;
	let failed = 0;
	const flush = () => {
		while (printed < names.length && outcome[printed]) {
			const r = outcome[printed];
			const part = partial[r.name] && !r.skip ? cutBefore(fs.readFileSync(path.join(root, 'test/sql', `${r.name}.sql`), 'latin1'), partial[r.name].before).line : null;
			const label = part ? `${r.name}, lines 1-${part - 1}` : r.name;
			n++;
			if (r.skip) console.log(`ok ${n} - ${r.name} # skip ${r.skip}`);
			else if (r.ok) console.log(`ok ${n} - ${label} (${r.secs} s${r.expected === `test/expected/${r.name}.out` || r.name === FORMATTER ? '' : `, as ${r.expected}`})`);
			else {
				failed++;
				console.log(`not ok ${n} - ${label} (${r.secs} s)`);
				const lines = r.diff.split('\n');
				for (const l of lines.slice(0, 80)) console.log(`# ${l}`);
				if (lines.length > 80) console.log(`# ... ${lines.length - 80} more lines in ${path.join(results, 'regression.diffs')}`);
			}
			if (part) console.log(`ok ${++n} - ${r.name}, from line ${part} # skip ${partial[r.name].why}`);
			printed++;
		}
	};
	return {
		set(i, r) {
			outcome[i] = r;
			flush();
		},
		failed: () => failed,
		count: () => n,
	};
}

function resultsDir(o) {
	const results = o.results ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ulid-pglite-regress.'));
	fs.mkdirSync(path.join(results, 'results'), { recursive: true });
	fs.rmSync(path.join(results, 'regression.diffs'), { force: true });
	return results;
}

// --server: the files in order, in one process, each in a new database.
async function serverMain(o) {
	const started = Date.now();
	const admin = await serverConnection('postgres', 'admin');
	const q = async (sql) => parseMessages(await admin.exec(wire.query(sql)));
	const v = (await q('SHOW server_version_num')).find((m) => m.type === 'D');
	const versionNum = parseInt(v.body.subarray(6).toString(), 10);
	const results = resultsDir(o);
	const names = o.names.length ? o.names : [FORMATTER, ...regressList(versionNum)];
	console.log(`# server ${process.env.PGHOST}:${process.env.PGPORT}, server_version_num ${versionNum}, ${names.length} files`);
	// The whole of every file: PARTIAL is for PGlite.
	const report = reporter(names, results, {});
	const db = 'contrib_regression';
	for (let i = 0; i < names.length; i++) {
		const name = names[i];
		const t = Date.now();
		// pg_regress's database, made again for each file.
		await q(`DROP DATABASE IF EXISTS ${db}`);
		await q(`CREATE DATABASE ${db} TEMPLATE template0 ENCODING 'UTF8'`);
		await q(`ALTER DATABASE ${db} SET lc_messages TO 'C'; ALTER DATABASE ${db} SET lc_monetary TO 'C';
			ALTER DATABASE ${db} SET lc_numeric TO 'C'; ALTER DATABASE ${db} SET lc_time TO 'C';
			ALTER DATABASE ${db} SET bytea_output TO 'hex'; ALTER DATABASE ${db} SET timezone_abbreviations TO 'Default'`);
		const conn = await serverConnection(db, name);
		const session = new Session(conn, { root, workdir: results });
		const sql = name === FORMATTER ? path.join(root, 'test/pglite/formatter.sql') : path.join(root, 'test/sql', `${name}.sql`);
		await session.runScript(fs.readFileSync(sql).toString('latin1'));
		await conn.close();
		const resultFile = path.join(results, 'results', `${name}.out`);
		fs.writeFileSync(resultFile, Buffer.from(session.output(), 'latin1'));
		report.set(i, { name, secs: ((Date.now() - t) / 1000).toFixed(1), ...compare(name, resultFile, results, {}, false) });
	}
	await q(`DROP DATABASE IF EXISTS ${db}`);
	await admin.close();
	console.log(`1..${report.count()}`);
	console.log(`# ${names.length - report.failed()} of ${names.length} files as expected in ${((Date.now() - started) / 1000).toFixed(0)} s; outputs in ${results}/results`);
	process.exitCode = report.failed() ? 1 : 0;
}

async function main() {
	const o = parseArgs(process.argv.slice(2));
	if (o.server) return serverMain(o);
	if (o.child) {
		const sql = o.child === FORMATTER ? path.join(root, 'test/pglite/formatter.sql') : path.join(root, 'test/sql', `${o.child}.sql`);
		const out = await runFile(o, sql, o.child, o.template, o.results);
		fs.writeFileSync(path.join(o.results, 'results', `${o.child}.out`), out);
		process.exit(0);
	}

	// A data directory made once, loaded by every instance.
	const { PGlite, extensions } = await loadPGlite(o);
	const started = Date.now();
	const pg = await PGlite.create({ extensions, startParams: startParams(PGlite, 'template') });
	const versionNum = parseInt((await pg.query('SHOW server_version_num')).rows[0].server_version_num, 10);
	const dump = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());
	await pg.close();

	const results = resultsDir(o);
	const template = path.join(results, 'template.tar');
	fs.writeFileSync(template, dump);

	if (o.script) {
		const out = await runFile(o, o.script, path.basename(o.script, '.sql'), template, results);
		process.stdout.write(out);
		fs.rmSync(template);
		return;
	}

	const names = o.names.length ? o.names : [FORMATTER, ...regressList(versionNum)];
	console.log(`# PGlite server_version_num ${versionNum}, ${names.length} files, ${o.jobs} at a time; instance template in ${((Date.now() - started) / 1000).toFixed(1)} s`);
	console.log(`# not run here: the isolation specs (${isolationList().join(', ')}), which need several sessions, and t/*.pl, which need clusters of their own`);
	const report = reporter(names, results);
	let next = 0;
	const worker = async () => {
		while (next < names.length) {
			const i = next++;
			const name = names[i];
			if (SINGLE_BACKEND_SKIPS[name]) {
				report.set(i, { name, skip: SINGLE_BACKEND_SKIPS[name] });
			} else {
				const t = Date.now();
				const resultFile = path.join(results, 'results', `${name}.out`);
				fs.rmSync(resultFile, { force: true });
				const c = await runChild(o, name, template, results);
				const secs = ((Date.now() - t) / 1000).toFixed(1);
				if (c.code !== 0 || !fs.existsSync(resultFile)) {
					const why = `the instance failed (exit ${c.code ?? c.signal}):\n${c.err.split('\n').slice(-30).join('\n')}`;
					fs.appendFileSync(path.join(results, 'regression.diffs'), `=== ${name}\n${why}\n`);
					report.set(i, { name, ok: false, secs, diff: why });
				} else report.set(i, { name, secs, ...compare(name, resultFile, results) });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(o.jobs, names.length) }, worker));
	console.log(`1..${report.count()}`);
	console.log(`# ${names.length - report.failed()} of ${names.length} files as expected in ${((Date.now() - started) / 1000).toFixed(0)} s; outputs in ${results}/results`);
	process.exitCode = report.failed() ? 1 : 0;
}

main().catch((e) => {
	console.error(e?.stack ?? String(e));
	process.exit(2);
});
