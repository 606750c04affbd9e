#!/usr/bin/env node
// The npm package as a user gets it: the tarball bin/pglite --pack made,
// checked as npm would publish it, installed in a new Node project beside
// one PGlite release with no flag, then imported, loaded, and put through
// the README's tour, the package README's example, CommonJS, arrays of ulid
// and a saved database reopened.
//
//   node test/pglite/package_test.mjs --package TGZ --pglite VERSION [--keep DIR]
//
// --keep DIR makes the project in DIR and leaves it there, for
// test/pglite/regress.mjs --project DIR; without it the project is a
// temporary directory, removed at the end.  The tree is not written to.
//
// npm's cache is /var/cache/ulid-npm when that can be written (npm_config_cache
// wins), so a warm run installs without the network.  Prints TAP lines.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
	const i = args.indexOf(name);
	return i >= 0 ? path.resolve(args[i + 1]) : dflt;
};
const tarball = opt('--package', null);
const pglite = args[args.indexOf('--pglite') + 1];
const keep = opt('--keep', null);
if (!tarball || args.indexOf('--pglite') < 0 || !pglite) {
	console.error('usage: node test/pglite/package_test.mjs --package TGZ --pglite VERSION [--keep DIR]');
	process.exit(2);
}

let n = 0;
let failed = 0;
const ok = (cond, name, why) => {
	n++;
	console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`);
	if (!cond) {
		failed++;
		// The last lines of the reason, each cut short: a stack through
		// PGlite's minified code is one very long line.
		for (const l of String(why ?? '').split('\n').slice(-40)) if (l) console.log(`#   ${l.slice(0, 300)}`);
	}
	return cond;
};
const done = () => {
	console.log(`1..${n}`);
	process.exit(failed ? 1 : 0);
};

if (!process.env.npm_config_cache) {
	const cache = '/var/cache/ulid-npm';
	try {
		fs.mkdirSync(cache, { recursive: true });
		fs.accessSync(cache, fs.constants.W_OK);
		process.env.npm_config_cache = cache;
	} catch {
		// npm's own default cache then
	}
}
const npm = (cwd, ...a) => spawnSync('npm', a, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });

const releases = fs.readFileSync(path.join(root, 'pglite/VERSIONS'), 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'pglite/package.json'), 'utf8'));
const readme = fs.readFileSync(path.join(root, 'pglite/README.md'), 'utf8');
ok(releases.includes(pglite), `PGlite ${pglite} is one of pglite/VERSIONS (${releases.join(', ')})`);
if (!ok(fs.existsSync(tarball), `the package exists: ${path.basename(tarball)}`, 'bin/pglite --pack makes it')) done();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ulid-pglite-package.'));

// What npm would publish: the LICENSE, the bundle with a library for each
// release, the entry points and their types; nothing else.
const expectFiles = ['LICENSE', 'README.md', 'dist/ulid.tar.gz', 'index.cjs', 'index.d.cts', 'index.d.ts', 'index.js', 'install.js', 'package.json'];
const dry = npm(work, 'publish', '--dry-run', '--json', '--tag', 'dry-run', tarball);
let published = [];
try {
	const info = JSON.parse(dry.stdout.slice(dry.stdout.indexOf('{')));
	published = (info[pkg.name] ?? info).files.map((f) => f.path).sort();
} catch {
	// reported below
}
ok(dry.status === 0 && JSON.stringify(published) === JSON.stringify(expectFiles),
	`npm publish --dry-run: ${expectFiles.join(', ')}`, `${dry.stderr}\nfiles: ${published.join(', ')}`);
const bundled = execFileSync('tar', ['-xzOf', tarball, 'package/dist/ulid.tar.gz']);
const libs = execFileSync('tar', ['-tz'], { input: bundled, encoding: 'utf8' }).split('\n').filter((f) => /^lib\/postgresql\//.test(f)).sort();
ok(libs.length === releases.length && libs.every((f) => /^lib\/postgresql\/ulid-pg\d+\.wasm$/.test(f)),
	`the bundle holds a library for each of the ${releases.length} releases: ${libs.join(', ')}`);

// Packing without the bundles fails, saying why; so does a bundle short of a release.
const bare = path.join(work, 'bare');
fs.cpSync(path.join(root, 'pglite'), bare, { recursive: true, filter: (src) => !/\/(node_modules|dist)$/.test(src) && !src.endsWith('.tgz') });
const refused = npm(bare, 'pack', '--pack-destination', work);
ok(refused.status !== 0 && /not packing: no dist\/ulid\.tar\.gz/.test(refused.stderr), 'npm pack without the bundle fails: "not packing: no dist/ulid.tar.gz"', refused.stdout + refused.stderr);
fs.mkdirSync(path.join(bare, 'dist'));
const one = path.join(work, 'one');
fs.mkdirSync(path.join(one, 'lib/postgresql'), { recursive: true });
fs.mkdirSync(path.join(one, 'share/postgresql/extension'), { recursive: true });
fs.writeFileSync(path.join(one, 'lib/postgresql/ulid-pg19.wasm'), '');
fs.writeFileSync(path.join(one, 'share/postgresql/extension/ulid.control'), '');
execFileSync('tar', ['-czf', path.join(bare, 'dist/ulid.tar.gz'), '-C', one, 'lib', 'share']);
const short = npm(bare, 'pack', '--pack-destination', work);
ok(releases.length < 2 || (short.status !== 0 && /has 1 libraries/.test(short.stderr)), 'npm pack with a library for one release only fails', short.stdout + short.stderr);

// A new project: the tarball and the PGlite release, as a user installs them.
const project = keep ?? path.join(work, 'project');
fs.rmSync(project, { recursive: true, force: true });
fs.mkdirSync(project, { recursive: true });
fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'ulid-pglite-scratch', private: true, type: 'module' }, null, 2) + '\n');
const t0 = Date.now();
const inst = npm(project, 'install', '--prefer-offline', tarball, `@electric-sql/pglite@${pglite}`);
const installed = inst.status === 0 && fs.existsSync(path.join(project, 'node_modules', pkg.name, 'dist/ulid.tar.gz'));
if (!ok(installed, `npm install, no flag, of ${path.basename(tarball)} and @electric-sql/pglite@${pglite} in a new project (${((Date.now() - t0) / 1000).toFixed(1)} s)`, inst.stdout + inst.stderr)) done();

// A module of test/pglite/ run in the project: it prints its own TAP
// lines, numbered after these, and they count here.
const runModule = (file, name) => {
	fs.copyFileSync(path.join(root, 'test/pglite', file), path.join(project, file));
	const run = spawnSync(process.execPath, [file, String(n)], { cwd: project, encoding: 'utf8' });
	const lines = run.stdout.split('\n').filter((l) => /^(not )?ok \d+/.test(l) || /^#/.test(l));
	for (const l of lines) console.log(l);
	const counted = lines.filter((l) => /^(not )?ok \d+/.test(l));
	n += counted.length;
	failed += counted.filter((l) => l.startsWith('not ok')).length;
	ok(run.status === 0 && counted.length > 0, `${name} ran to their end`, run.stderr);
};

// The README's tour.
runModule('tour.mjs', "the tour's checks");

// The package README's example, as written, in the project.
const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
fs.writeFileSync(path.join(project, 'readme.mjs'), example + 'if (rows.length !== 2 || !rows.every((r) => r.id && r.created instanceof Date && r.as_uuid)) process.exit(1);\nawait pg.close();\n');
const ex = spawnSync(process.execPath, ['readme.mjs'], { cwd: project, encoding: 'utf8' });
ok(example && ex.status === 0, "pglite/README.md's example runs and returns its two orders", ex.stdout + ex.stderr);

// CommonJS: require() gives the same extension, and it loads.
const cjs = spawnSync(process.execPath, ['-e', `const { PGlite } = require('@electric-sql/pglite');
const { ulid } = require(${JSON.stringify(pkg.name)});
(async () => {
	const pg = await PGlite.create({ extensions: { ulid } });
	await pg.exec('CREATE EXTENSION ulid');
	const { rows } = await pg.query("SELECT pg_catalog.current_setting('server_version_num') AS v, ulid_time(gen_ulid()) >= now() - interval '1 minute' AS ok");
	console.log(JSON.stringify(rows[0]));
})();`], { cwd: project, encoding: 'utf8' });
let cjsRow = {};
try { cjsRow = JSON.parse(cjs.stdout.trim()); } catch { /* reported below */ }
ok(cjs.status === 0 && cjsRow.ok === true, `require('${pkg.name}') loads in PostgreSQL ${cjsRow.v}`, cjs.stdout + cjs.stderr);

// Arrays, saved databases, public ids: what docs/pglite.md says of them.
runModule('js.mjs', 'the JavaScript checks');

fs.rmSync(work, { recursive: true, force: true });
done();
