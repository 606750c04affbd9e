#!/usr/bin/env node
// The package in a Vite app, as docs/pglite.md's Bundlers says: a new
// project with PGlite and the packed package, a page that keeps a database
// in IndexedDB with the extension in it, `vite build` with no configuration,
// and the built app served from localhost to Debian's Chromium, headless,
// and loaded twice.
//
//   node test/web/vite_test.mjs PACKAGE_TGZ
//
// Vite and playwright-core are this folder's (npm ci here); PGlite is the
// newest in pglite/VERSIONS.  Prints TAP lines.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '../../web/serve.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '../..')
const tgz = process.argv[2] && resolve(process.argv[2])
let n = 0
let failed = 0
const ok = (cond, name, why) => {
	n++
	console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`)
	if (!cond) {
		failed++
		for (const l of String(why ?? '').split('\n').slice(-30)) if (l) console.log(`#   ${l.slice(0, 300)}`)
	}
	return cond
}
const done = () => {
	console.log(`1..${n}`)
	process.exit(failed ? 1 : 0)
}
if (!ok(tgz && existsSync(tgz), 'the package exists (bin/pglite --pack makes it)', tgz)) done()

const newest = readFileSync(join(root, 'pglite/VERSIONS'), 'utf8').split('\n').find((l) => l.trim() && !l.startsWith('#')).trim()
const project = mkdtempSync(join(tmpdir(), 'ulid-vite.'))
writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'ulid-vite-scratch', private: true, type: 'module' }) + '\n')
const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
if (!env.npm_config_cache && existsSync('/var/cache/ulid-npm')) env.npm_config_cache = '/var/cache/ulid-npm'
const inst = spawnSync('npm', ['install', '--prefer-offline', `@electric-sql/pglite@${newest}`, tgz], { cwd: project, encoding: 'utf8', env })
if (!ok(inst.status === 0, `npm install @electric-sql/pglite@${newest} and the package`, inst.stdout + inst.stderr)) done()
writeFileSync(join(project, 'index.html'), '<!doctype html><html><body><pre id="out"></pre><script type="module" src="./main.js"></script></body></html>\n')
// The database is saved in IndexedDB: the test loads the page twice, and
// the second load must find the first's row, by its ulid key, and the
// extension working again.
writeFileSync(join(project, 'main.js'), `import { PGlite } from '@electric-sql/pglite'
import { ulid } from 'pglite-ulid'
const out = document.getElementById('out')
try {
	const pg = await PGlite.create({ dataDir: 'idb://ulid-vite-test', extensions: { ulid } })
	await pg.exec('CREATE EXTENSION IF NOT EXISTS ulid; CREATE TABLE IF NOT EXISTS visits (id ulid PRIMARY KEY DEFAULT gen_ulid())')
	await pg.exec('INSERT INTO visits DEFAULT VALUES')
	const { rows } = await pg.query("SELECT count(*)::int AS n, min(id) AS first, gen_ulid() AS id, pg_catalog.current_setting('server_version_num') AS v FROM visits")
	out.textContent = JSON.stringify(rows[0])
} catch (e) {
	out.textContent = JSON.stringify({ error: e.message })
}
`)

const vite = join(here, 'node_modules/vite/bin/vite.js')
const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: project, encoding: 'utf8' })
const assets = existsSync(join(project, 'dist/assets')) ? readdirSync(join(project, 'dist/assets')) : []
ok(build.status === 0 && assets.some((f) => /^ulid\.tar-.*\.gz$/.test(f)),
	`vite build, no configuration: the bundle is an asset (${assets.find((f) => f.startsWith('ulid')) ?? 'none'})`, build.stderr)

const require = createRequire(join(here, 'package.json'))
const { chromium } = require('playwright-core')
const { url, close } = await serve({ '/': join(project, 'dist') })
const offsite = []
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] })
try {
	const page = await browser.newPage()
	page.on('request', (r) => { if (!r.url().startsWith(url)) offsite.push(r.url()) })
	const load = async () => {
		await page.goto(url)
		await page.waitForFunction(() => document.getElementById('out').textContent !== '', null, { timeout: 120000 })
		return JSON.parse(await page.textContent('#out'))
	}
	const first = await load()
	ok(first.n === 1 && /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(first.id ?? ''), `the built app makes an id in Chromium, on PostgreSQL ${first.v}: ${first.id}`, JSON.stringify(first))
	const second = await load()
	ok(second.n === 2 && second.first === first.first && second.id > first.id,
		'reloaded, its IndexedDB database has the first visit by its ulid key, and the extension works again', JSON.stringify(second))
	ok(offsite.length === 0, 'nothing is fetched from off localhost', offsite.join('\n'))
} finally {
	await browser.close()
	close()
	rmSync(project, { recursive: true, force: true })
}
done()
