#!/usr/bin/env node
// test/web/page_test.mjs: the page in web/ in a browser, with the real ulid
// type.  Serves web/ with PGlite's dist/ and the ulid package (web/serve.mjs)
// on 127.0.0.1 at a free port, drives it in Debian's Chromium, headless,
// through playwright-core, uses each control and checks what it shows.
//
//   node test/web/page_test.mjs [PACKAGE_DIR | BUNDLE] [--out DIR]
//
// PACKAGE_DIR is the ulid npm package (its index.js and the bundle it
// names, dist/ulid.tar.gz; default pglite/ of this checkout, where
// bin/pglite writes the bundle); or BUNDLE, a ulid.tar.gz that bin/pglite
// wrote elsewhere, served as pglite/'s.  PGlite is the one this folder's
// package-lock.json pins (npm ci here), which must be the version in
// pglite/VERSION, the one the bundle is built for.  The screenshot goes to
// DIR (default test/web/results/), as page.png; its path is printed.
//
// Prints TAP; exits non-zero on any failure.  Nothing waits for a time:
// each step waits for what it expects on the page (or for an error shown
// instead), with a timeout only as a bound on a hung page.  The time zone is
// Asia/Kolkata (+05:30, no summer time), so that "local" is a known time.
// After the page has loaded the browser is set offline: what the page does
// then, it does without a network.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { chromium } from 'playwright-core'
import { pageMounts, serve } from '../../web/serve.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, '../..')
const args = process.argv.slice(2)
let out = join(here, 'results')
const outAt = args.indexOf('--out')
if (outAt >= 0) out = resolve(args.splice(outAt, 2)[1])
const target = resolve(args[0] ?? join(root, 'pglite'))
const bundle = target.endsWith('.tar.gz') ? target : undefined
const pkg = bundle === undefined ? target : join(root, 'pglite')
// No picture from an earlier run is left to be taken for this one's.
for (const f of ['page.png', 'page-failed.png']) rmSync(join(out, f), { force: true })

const KNOWN = '01ARYZ6S41TSV4RRFFQ69G5FAV'
const KNOWN_UUID = '01563df3-6481-d676-4c61-efb99302bd5b'
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/ // Crockford Base32, 26 characters, <= 2^128
const LOAD_TIMEOUT = 300_000 // starting PGlite on a busy machine; a bound, not a wait
const STEP_TIMEOUT = 60_000

let n = 0
let failed = 0
function ok(cond, name, diag) {
	n++
	if (!cond) failed++
	console.log(`${cond ? 'ok' : 'not ok'} ${n} - ${name}`)
	if (!cond && diag !== undefined) for (const l of String(diag).split('\n')) console.log(`# ${l}`)
	return cond
}
// Equal as JSON: strings, numbers and arrays of them.
const same = (got, want, name) =>
	ok(JSON.stringify(got) === JSON.stringify(want), name, `got:  ${JSON.stringify(got)}\nwant: ${JSON.stringify(want)}`)

// What the page loads must be there, or nothing else is worth trying.
const servedBundle = bundle ?? join(pkg, 'dist', 'ulid.tar.gz')
for (const f of [join(pkg, 'index.js'), servedBundle]) {
	if (!existsSync(f)) {
		ok(false, `${f} exists`, 'bin/pglite builds the bundle; pglite/ is the package')
		console.log(`1..${n}`)
		process.exit(1)
	}
}

// The PGlite served must be the one the bundle is built for.
const pglitePkg = createRequire(join(here, 'package.json')).resolve('@electric-sql/pglite')
const pgliteDist = dirname(pglitePkg)
const served = JSON.parse(readFileSync(join(pgliteDist, '..', 'package.json'), 'utf8')).version
let pinned
try {
	pinned = readFileSync(join(root, 'pglite', 'VERSION'), 'utf8').trim()
} catch {
	pinned = undefined
}
if (pinned !== undefined) same(served, pinned, `PGlite ${served} served, the version in pglite/VERSION`)

const mounts = pageMounts({ pkg, pglite: pgliteDist })
if (bundle !== undefined) mounts['/vendor/ulid/dist/ulid.tar.gz'] = bundle
const { url, close } = await serve(mounts)
// Debian's Chromium (bin/setup installs it); as root, without its sandbox,
// which refuses to run as root.
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium'
const browser = await chromium
	.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] })
	.catch((err) => {
		ok(false, `${executablePath} starts`, err.message)
		console.log(`1..${n}`)
		process.exit(1)
	})
const context = await browser.newContext({
	timezoneId: 'Asia/Kolkata',
	locale: 'en-GB',
	viewport: { width: 1100, height: 800 },
})
await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url })
const page = await context.newPage()
page.setDefaultTimeout(STEP_TIMEOUT)
const requests = []
const problems = []
page.on('request', (r) => requests.push(r.url()))
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))

const text = (sel) => page.locator(sel).innerText()
const ids = async () => (await page.locator('#gen-list li code').allInnerTexts()).map((s) => s.trim())
// Submits a form and waits for its output or its error, whichever comes.
async function submit(button, output, error) {
	await page.getByRole('button', { name: button, exact: true }).click()
	await page.locator(`${output}:not([hidden]):not(:empty), ${error}:not(:empty)`).first().waitFor()
}

try {
	// 1. It loads, with the extension.
	await page.goto(url)
	await page.waitForFunction(
		() => !document.getElementById('controls').disabled || document.getElementById('status').classList.contains('error'),
		null,
		{ timeout: LOAD_TIMEOUT },
	)
	const status = await text('#status')
	if (!ok(/^Ready: PostgreSQL \d+\.\d+, ulid \d+\.\d+\.$/.test(status), 'the page loads PGlite and creates the extension', status))
		throw new Error('the page did not load')
	await context.setOffline(true)
	const loaded = requests.length

	// 2. Generate: plain, the count respected.
	await page.getByLabel('How many (1 to 100)').fill('7')
	await page.getByRole('radio', { name: /plain/ }).check()
	await page.getByRole('button', { name: 'Generate', exact: true }).click()
	await page.locator('#gen-list li').nth(6).waitFor()
	let got = await ids()
	same(got.length, 7, 'plain: 7 ids for a count of 7')
	ok(got.every((id) => ULID_RE.test(id)), 'plain: each 26 Crockford Base32 characters', got.join('\n'))
	same(new Set(got).size, 7, 'plain: all different')

	// 3. Monotonic, the most there may be, strictly increasing in the order made.
	await page.getByLabel('How many (1 to 100)').fill('100')
	await page.getByRole('radio', { name: /monotonic/ }).check()
	await page.getByRole('button', { name: 'Generate', exact: true }).click()
	await page.locator('#gen-list li').nth(99).waitFor()
	got = await ids()
	same(got.length, 100, 'monotonic: 100 ids for a count of 100')
	ok(got.every((id) => ULID_RE.test(id)), 'monotonic: each 26 Crockford Base32 characters', got.join('\n'))
	const bad = got.findIndex((id, i) => i > 0 && !(got[i - 1] < id))
	ok(bad < 0, 'monotonic: strictly increasing', bad < 0 ? '' : `${got[bad - 1]} then ${got[bad]}`)

	// 4. The count's bounds: the input refuses 0 and 101; 1 gives one id.
	const count = page.getByLabel('How many (1 to 100)')
	await count.fill('101')
	ok(await count.evaluate((e) => e.validity.rangeOverflow && !e.form.checkValidity()), 'a count of 101 is refused')
	await count.fill('0')
	ok(await count.evaluate((e) => e.validity.rangeUnderflow), 'a count of 0 is refused')
	await count.fill('1')
	await page.getByRole('button', { name: 'Generate', exact: true }).click()
	await page.waitForFunction(() => document.querySelectorAll('#gen-list li').length === 1)
	got = await ids()
	ok(got.length === 1 && ULID_RE.test(got[0]), 'a count of 1 gives one id', got.join('\n'))

	// 5. Copy: one id, then the whole list.
	await count.fill('3')
	await page.getByRole('button', { name: 'Generate', exact: true }).click()
	await page.locator('#gen-list li').nth(2).waitFor()
	got = await ids()
	await page.getByRole('button', { name: `Copy ${got[1]}` }).click()
	await page.getByText(`Copied ${got[1]}.`).waitFor()
	same(await page.evaluate(() => navigator.clipboard.readText()), got[1], "an id's copy button puts it on the clipboard")
	await page.getByRole('button', { name: 'Copy all' }).click()
	await page.getByText('Copied 3 ids.').waitFor()
	same(await page.evaluate(() => navigator.clipboard.readText()), got.join('\n'), 'Copy all puts the list on the clipboard, one a line')

	// 6. Decode the known ULID, typed in lower case.
	await page.getByLabel('ULID', { exact: true }).fill(KNOWN.toLowerCase())
	await submit('Decode', '#dec-out', '#dec-error')
	same(await text('#dec-ulid'), KNOWN, 'decode: the canonical text')
	same(await text('#dec-utc'), '2016-07-30 22:36:16.385 UTC', 'decode: the time in UTC')
	// Chromium's ICU names the zone by its older name, Asia/Calcutta.
	const local = await text('#dec-local')
	ok(
		/^2016-07-31 04:06:16\.385 \+05:30 \(Asia\/(Kolkata|Calcutta)\)$/.test(local),
		"decode: the time in the browser's zone, with its offset and name",
		local,
	)
	same(await text('#dec-ms'), '1469918176385', 'decode: Unix time in milliseconds')
	same(await text('#dec-uuid'), KNOWN_UUID, 'decode: the UUID form')

	// 7. Invalid input: the type's own error, and no stale result.
	for (const [input, detail] of [
		['01ARYZ6S41TSV4RRFFQ69G5FA', 'Expected 26 characters, got 25.'],
		['01ARYZ6S41TSV4RRFFQ69G5FAU', 'Character "U" at position 26 is not a Crockford Base32 digit.'],
	]) {
		await page.getByLabel('ULID', { exact: true }).fill(input)
		await submit('Decode', '#dec-out', '#dec-error')
		same(
			await text('#dec-error'),
			`invalid input syntax for type ulid: "${input}"\n${detail}\nSQLSTATE 22P02`,
			`decode: ${input} is refused with the type's message, detail and SQLSTATE`,
		)
		ok(await page.locator('#dec-out').isHidden(), 'decode: no result shown beside the error')
	}

	// 8. UUID to ULID, and back through the decoder: the same 16 bytes.
	await page.getByLabel('UUID', { exact: true }).fill(KNOWN_UUID)
	await submit('Convert', '#conv-out', '#conv-error')
	same(await text('#conv-ulid'), KNOWN, 'convert: the known UUID gives the known ULID')
	const fresh = got[0]
	await page.getByLabel('ULID', { exact: true }).fill(fresh)
	await submit('Decode', '#dec-out', '#dec-error')
	const freshUuid = await text('#dec-uuid')
	await page.getByLabel('UUID', { exact: true }).fill(freshUuid.toUpperCase())
	await submit('Convert', '#conv-out', '#conv-error')
	same(await text('#conv-ulid'), fresh, 'convert: a generated id, decoded to its UUID and converted back, is itself')
	await page.getByLabel('UUID', { exact: true }).fill('01563df3-6481-d676-4c61')
	await submit('Convert', '#conv-out', '#conv-error')
	same(
		await text('#conv-error'),
		'invalid input syntax for type uuid: "01563df3-6481-d676-4c61"\nSQLSTATE 22P02',
		"convert: an invalid UUID is refused with uuid's own error",
	)

	// 9. SQL: the example in the box, then a statement of our own, then an error.
	await submit('Run', '#sql-out', '#sql-error')
	const table = page.locator('#sql-out table').last()
	same(
		await table.locator('th').allInnerTexts(),
		['id', 'created', 'uuid', 'item'],
		"SQL: the example's result table has its columns",
	)
	const rows = await table.locator('tbody tr').evaluateAll((trs) =>
		trs.map((tr) => [...tr.cells].map((td) => td.textContent)),
	)
	ok(
		rows.length === 2 &&
			rows[0][3] === 'tea' &&
			rows[1][3] === 'cake' &&
			rows.every((r) => ULID_RE.test(r[0])) &&
			rows[0][0] < rows[1][0],
		"SQL: the example's two rows, keyed by increasing ulids",
		JSON.stringify(rows),
	)
	await page.getByLabel(/^Statements/).fill(
		`SELECT '${KNOWN}'::ulid::uuid AS u, ulid_time('${KNOWN}') AS t, NULL::ulid AS nothing`,
	)
	await submit('Run', '#sql-out', '#sql-error')
	same(
		await page.locator('#sql-out tbody td').allInnerTexts(),
		[KNOWN_UUID, '2016-07-30 22:36:16.385+00', 'NULL'],
		'SQL: a statement of our own, values as PostgreSQL writes them',
	)
	await page.getByLabel(/^Statements/).fill(`SELECT 'nope'::ulid`)
	await submit('Run', '#sql-out', '#sql-error')
	same(
		await text('#sql-error'),
		'invalid input syntax for type ulid: "nope"\nExpected 26 characters, got 4.\nSQLSTATE 22P02',
		'SQL: an error is shown as the server words it',
	)

	// 10. Nothing fetched once loaded, nothing from anywhere but our server.
	same(requests.length, loaded, 'nothing fetched after loading (the browser offline)')
	const foreign = requests.filter((r) => !r.startsWith(url))
	ok(foreign.length === 0, 'every request went to the local server', foreign.join('\n'))
	ok(problems.length === 0, 'no errors in the page or its console', problems.join('\n'))

	// The page after the SQL example, for a person to look at.
	const example = page.getByLabel(/^Statements/)
	await example.fill(await example.evaluate((e) => e.defaultValue))
	await page.getByLabel('ULID', { exact: true }).fill(KNOWN)
	await submit('Decode', '#dec-out', '#dec-error')
	await page.getByLabel('UUID', { exact: true }).fill(KNOWN_UUID)
	await submit('Convert', '#conv-out', '#conv-error')
	await submit('Run', '#sql-out', '#sql-error')
	mkdirSync(out, { recursive: true })
	const shot = join(out, 'page.png')
	await page.screenshot({ path: shot, fullPage: true })
	ok(true, `screenshot saved`)
	console.log(`# screenshot: ${shot}`)
} catch (err) {
	ok(false, 'the page could be driven to the end', `${err.stack}\n${problems.join('\n')}`)
	// The page as it was when it failed, for a look afterwards.
	mkdirSync(out, { recursive: true })
	const shot = join(out, 'page-failed.png')
	await page.screenshot({ path: shot, fullPage: true }).then(
		() => console.log(`# screenshot of the failure: ${shot}`),
		() => {},
	)
} finally {
	await browser.close()
	await close()
}

console.log(`1..${n}`)
process.exit(failed === 0 ? 0 : 1)
