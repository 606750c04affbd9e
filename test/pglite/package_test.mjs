#!/usr/bin/env node
// The npm package as a user gets it: pglite/ packed with a bundle, installed
// in a new Node project beside the pinned @electric-sql/pglite, then
// imported, loaded, and put through the README's tour and the package
// README's example.
//
//   node test/pglite/package_test.mjs [--bundle FILE] [--keep DIR]
//
// --bundle is the extension bundle to pack (default pglite/dist/ulid.tar.gz,
// where bin/pglite writes it; bin/pglite's last line of output names it).
// --keep DIR makes the project in DIR and leaves it there, for
// test/pglite/regress.mjs --project DIR; without it the project is a
// temporary directory, removed at the end.  The tree is not written to: the
// package is packed from a copy of pglite/.
//
// npm's cache is /var/cache/ulid-npm when that can be written (npm_config_cache
// wins), so a warm run installs without the network.  Prints TAP lines.

import { spawnSync } from 'node:child_process';
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
const bundle = opt('--bundle', path.join(root, 'pglite/dist/ulid.tar.gz'));
const keep = opt('--keep', null);

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

// The PGlite version the bundle is built and tested for, the package's peer
// dependency and the version its README installs: one version.
const version = fs.readFileSync(path.join(root, 'pglite/VERSION'), 'utf8').trim();
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'pglite/package.json'), 'utf8'));
const readme = fs.readFileSync(path.join(root, 'pglite/README.md'), 'utf8');
ok(pkg.peerDependencies?.['@electric-sql/pglite'] === version && readme.includes(`@electric-sql/pglite@${version}`),
	`pglite/package.json's peer dependency and pglite/README.md's install line are pglite/VERSION (${version})`,
	`peerDependencies: ${JSON.stringify(pkg.peerDependencies)}; README: ${/@electric-sql\/pglite@\S+/.exec(readme)?.[0]}`);
const shown = (p) => (p.startsWith(root + path.sep) ? path.relative(root, p) : p);
if (!ok(fs.existsSync(bundle), `the bundle exists: ${shown(bundle)}`, 'build it with bin/pglite')) done();

// npm pack, from a copy of pglite/ holding this bundle.
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ulid-pglite-package.'));
const stage = path.join(work, 'stage');
fs.cpSync(path.join(root, 'pglite'), stage, { recursive: true, filter: (src) => !/\/(node_modules|dist)$/.test(src) });
fs.mkdirSync(path.join(stage, 'dist'));
fs.copyFileSync(bundle, path.join(stage, 'dist/ulid.tar.gz'));
const packed = npm(stage, 'pack', '--json', '--pack-destination', work);
let tarball = null;
let files = [];
try {
	const info = JSON.parse(packed.stdout)[0];
	tarball = path.join(work, info.filename);
	files = info.files.map((f) => f.path).sort();
} catch {
	// reported below
}
const expectFiles = ['README.md', 'dist/ulid.tar.gz', 'index.cjs', 'index.d.cts', 'index.d.ts', 'index.js', 'package.json'];
ok(tarball && JSON.stringify(files) === JSON.stringify(expectFiles),
	`npm pack: ${tarball ? path.basename(tarball) : '(failed)'} holds ${expectFiles.join(', ')}`, packed.stderr + `\nfiles: ${files.join(', ')}`);
if (!tarball) done();

// A new project: the tarball and the pinned PGlite, as a user installs them.
const project = keep ?? path.join(work, 'project');
fs.rmSync(project, { recursive: true, force: true });
fs.mkdirSync(project, { recursive: true });
fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'ulid-pglite-scratch', private: true, type: 'module' }, null, 2) + '\n');
const t0 = Date.now();
const inst = npm(project, 'install', '--prefer-offline', '--no-save', tarball, `@electric-sql/pglite@${version}`);
const installed = inst.status === 0 && fs.existsSync(path.join(project, 'node_modules', pkg.name, 'dist/ulid.tar.gz'));
if (!ok(installed, `npm install of ${path.basename(tarball)} and @electric-sql/pglite@${version} in a new project (${((Date.now() - t0) / 1000).toFixed(1)} s)`, inst.stdout + inst.stderr)) done();

// The tour, as a module of the project: it prints its own TAP lines,
// numbered after these.
fs.copyFileSync(path.join(root, 'test/pglite/tour.mjs'), path.join(project, 'tour.mjs'));
const tour = spawnSync(process.execPath, ['tour.mjs', String(n)], { cwd: project, encoding: 'utf8' });
const lines = tour.stdout.split('\n').filter((l) => /^(not )?ok \d+/.test(l) || /^#/.test(l));
for (const l of lines) console.log(l);
const counted = lines.filter((l) => /^(not )?ok \d+/.test(l));
n += counted.length;
failed += counted.filter((l) => l.startsWith('not ok')).length;
ok(tour.status === 0 && counted.length > 0, 'the tour ran to its end', tour.stderr);

// The package README's example, as written, in the project.
const example = /```js\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
fs.writeFileSync(path.join(project, 'readme.mjs'), example + 'if (rows.length !== 2 || !rows.every((r) => r.id && r.created instanceof Date && r.as_uuid)) process.exit(1);\nawait pg.close();\n');
const ex = spawnSync(process.execPath, ['readme.mjs'], { cwd: project, encoding: 'utf8' });
ok(example && ex.status === 0, "pglite/README.md's example runs and returns its two orders", ex.stdout + ex.stderr);

// CommonJS: require() gives the same extension, its bundle beside it.
const cjs = spawnSync(process.execPath, ['-e', `const { ulid } = require(${JSON.stringify(pkg.name)}); ulid.setup(null, {}).then((r) => console.log(r.bundlePath.href));`], { cwd: project, encoding: 'utf8' });
const href = cjs.stdout.trim();
ok(cjs.status === 0 && href.startsWith('file:') && fs.existsSync(fileURLToPath(href)), `require('${pkg.name}') names an existing bundle (${href && path.relative(project, fileURLToPath(href))})`, cjs.stderr);

fs.rmSync(work, { recursive: true, force: true });
done();
