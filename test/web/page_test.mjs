#!/usr/bin/env node
// test/web/page_test.mjs: the page in web/ in a browser, with the real ulid
// type.  Serves web/ with PGlite's dist/ and the ulid package (web/serve.mjs)
// on 127.0.0.1 at a free port, drives it in Debian's Chromium, headless,
// through playwright-core, uses each control and checks what it shows: the
// three systems (ULID, UUID v4 and v7, ObjectId) generated and decoded part
// by part, the conversions, the SQL box and its keyboard, the layout at 375
// and 1280 px wide and the contrast of every text.
//
//   node test/web/page_test.mjs [PACKAGE_DIR | BUNDLE] [--out DIR]
//
// PACKAGE_DIR is the ulid npm package (its index.js and the bundle it
// names, dist/ulid.tar.gz; default pglite/ of this checkout, where
// bin/pglite writes the bundle); or BUNDLE, a ulid.tar.gz that bin/pglite
// wrote elsewhere, served as pglite/'s.  PGlite is the one this folder's
// package-lock.json pins (npm ci here), which must be the newest in
// pglite/VERSIONS, the one bin/pglite builds for by default.  The screenshots go to
// DIR (default test/web/results/), as page-375.png and page-1280.png (the
// page that wide, whole); their paths are printed.
//
// Prints TAP; exits non-zero on any failure.  Nothing waits for a time:
// each step waits for what it expects on the page (or for an error shown
// instead), with a timeout only as a bound on a hung page.  Random output is
// checked by what must hold of it (distinct, ordered, the version nibble,
// the time the database reads from it), never by value.  The time zone is
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
for (const f of ['page.png', 'page-375.png', 'page-1280.png', 'page-failed.png']) rmSync(join(out, f), { force: true })

const KNOWN = '01ARYZ6S41TSV4RRFFQ69G5FAV'
const KNOWN_UUID = '01563df3-6481-d676-4c61-efb99302bd5b'
const KNOWN_MS = 1469918176385
// docs/migrating.md's example ObjectId and its ULID.
const KNOWN_OID = '507f1f77bcf86cd799439011'
const KNOWN_OID_ULID = '0179R95T6RQKW6SNWS8E812000'
const ULID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/ // Crockford Base32, 26 characters, <= 2^128
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const OID_RE = /^[0-9a-f]{24}$/
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
// A timestamptz as PostgreSQL writes it (TimeZone UTC): its milliseconds.
const pgTimeMs = (t) => Date.parse(t.replace(' ', 'T').replace(/\+00$/, 'Z'))
const increasing = (xs) => xs.findIndex((x, i) => i > 0 && !(xs[i - 1] < x))

// What the page loads must be there, or nothing else is worth trying.
const servedBundle = bundle ?? join(pkg, 'dist', 'ulid.tar.gz')
for (const f of [join(pkg, 'index.js'), servedBundle]) {
	if (!existsSync(f)) {
		ok(false, `${f} exists`, 'bin/pglite builds the bundle; pglite/ is the package')
		console.log(`1..${n}`)
		process.exit(1)
	}
}

// The PGlite served must be the newest release, the one the bundle is built for.
const pglitePkg = createRequire(join(here, 'package.json')).resolve('@electric-sql/pglite')
const pgliteDist = dirname(pglitePkg)
const served = JSON.parse(readFileSync(join(pgliteDist, '..', 'package.json'), 'utf8')).version
let pinned
try {
	pinned = readFileSync(join(root, 'pglite', 'VERSIONS'), 'utf8').split('\n').find((l) => l.trim() && !l.startsWith('#')).trim()
} catch {
	pinned = undefined
}
if (pinned !== undefined) same(served, pinned, `PGlite ${served} served, the newest in pglite/VERSIONS`)

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
	viewport: { width: 1280, height: 800 },
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
const count = page.getByLabel('How many (1 to 100)')
const decodeInput = page.getByLabel('ULID, UUID or ObjectId')
const sqlBox = page.getByLabel(/^Statements/)

// Generates count ids of a kind (its radio's label matches kind) and gives
// the list's rows: the id and the note beside it.
async function generate(kind, k) {
	await count.fill(String(k))
	await page.getByRole('radio', { name: kind }).check()
	await page.getByRole('button', { name: 'Generate', exact: true }).click()
	await page.locator('#gen-status:not(:empty), #gen-error:not(:empty)').first().waitFor()
	const err = await text('#gen-error')
	if (err) throw new Error(`generating ${kind}: ${err}`)
	return page.locator('#gen-list li').evaluateAll((lis) =>
		lis.map((li) => ({ id: li.querySelector('code.id').textContent, note: li.querySelector('.note').textContent })),
	)
}

// Submits a form and waits for its output or its error, whichever comes.
async function submit(button, output, error) {
	await page.getByRole('button', { name: button, exact: true }).click()
	await page.locator(`${output}:not([hidden]):not(:empty), ${error}:not(:empty)`).first().waitFor()
}

// Decodes a value and reads back what the page shows: its kind, the value's
// and the bits' coloured spans, the parts listed and the other forms.
async function decode(value) {
	await decodeInput.fill(value)
	await submit('Decode', '#dec-out', '#dec-error')
	return page.evaluate(() => {
		const spans = (id) =>
			[...document.getElementById(id).childNodes].map((c) => ({
				part: c.nodeType === 1 ? c.title : null,
				text: c.textContent,
			}))
		const out = document.getElementById('dec-out')
		return {
			error: document.getElementById('dec-error').textContent,
			shown: !out.hidden,
			kind: document.getElementById('dec-kind').textContent,
			value: document.getElementById('dec-value').textContent,
			valueSpans: spans('dec-value'),
			bits: document.getElementById('dec-bits').textContent,
			bitSpans: spans('dec-bits'),
			parts: [...document.querySelectorAll('#dec-parts li')].map((li) => ({
				name: li.querySelector('.part').textContent,
				value: li.querySelector('code').textContent,
				line: li.textContent,
			})),
			forms: Object.fromEntries(
				[...document.querySelectorAll('#dec-forms dd')].map((dd) => [dd.id.replace('dec-f-', ''), dd.textContent]),
			),
		}
	})
}
// The text of a part's characters in a decoded value, joined.
const partChars = (d, name) =>
	d.valueSpans
		.filter((s) => s.part === name)
		.map((s) => s.text)
		.join('')
const partBits = (d, name) =>
	d.bitSpans
		.filter((s) => s.part === name)
		.map((s) => s.text)
		.join('')
const part = (d, name) => d.parts.find((p) => p.name === name) ?? {}

// The contrast of every text on the page against what is behind it (WCAG
// 2's ratio of relative luminances), from computed styles: each element
// with text of its own, each input's and textarea's value and placeholder.
// Disabled controls are left out, as WCAG leaves them.  Gives the ones
// under 4.5:1.
function lowContrast() {
	return page.evaluate(() => {
		const rgb = (s) => {
			const m = s.match(/rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/)
			return m && { r: +m[1], g: +m[2], b: +m[3], a: m[4] === undefined ? 1 : +m[4] }
		}
		const lum = ({ r, g, b }) => {
			const f = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)
			return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b)
		}
		const ratio = (a, b) => {
			const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
			return (x + 0.05) / (y + 0.05)
		}
		// The colours behind an element: its own or its nearest ancestor's
		// background colour, and every colour of a background gradient.
		const behind = (e) => {
			for (; e; e = e.parentElement) {
				const s = getComputedStyle(e)
				const stops = (s.backgroundImage.match(/rgba?\([^)]*\)/g) ?? []).map(rgb)
				if (stops.length) return stops
				const c = rgb(s.backgroundColor)
				if (c && c.a > 0) return [c]
			}
			return [{ r: 255, g: 255, b: 255, a: 1 }]
		}
		const low = []
		const check = (e, color, what) => {
			for (const bg of behind(e)) {
				const r = ratio(rgb(color), bg)
				if (r < 4.5) low.push(`${what}: ${color} on rgb(${bg.r}, ${bg.g}, ${bg.b}) is ${r.toFixed(2)}:1`)
			}
		}
		let checked = 0
		for (const e of document.body.querySelectorAll('*')) {
			if (!e.checkVisibility() || e.closest(':disabled')) continue
			const label = `<${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className ? `.${e.className}` : ''}> "${e.textContent.trim().slice(0, 30)}"`
			if ([...e.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) {
				check(e, getComputedStyle(e).color, label)
				checked++
			}
			if (e.matches('input:not([type=radio]):not([type=checkbox]), textarea')) {
				check(e, getComputedStyle(e).color, `${label} value`)
				check(e, getComputedStyle(e, '::placeholder').color, `${label} placeholder`)
				checked++
			}
		}
		return { checked, low }
	})
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

	// 2. ULIDs, plain: the count respected.
	let got = await generate(/gen_ulid\(\)/, 7)
	let ids = got.map((r) => r.id)
	same(ids.length, 7, 'ULID plain: 7 ids for a count of 7')
	ok(ids.every((id) => ULID_RE.test(id)), 'ULID plain: each 26 Crockford Base32 characters', ids.join('\n'))
	same(new Set(ids).size, 7, 'ULID plain: all different')

	// 3. ULIDs, monotonic, the most there may be: strictly increasing in the
	// order made, and where two share a millisecond the database says the
	// second is the first plus one.
	got = await generate(/gen_monotonic_ulid/, 100)
	ids = got.map((r) => r.id)
	same(ids.length, 100, 'ULID monotonic: 100 ids for a count of 100')
	ok(ids.every((id) => ULID_RE.test(id)), 'ULID monotonic: each 26 Crockford Base32 characters', ids.join('\n'))
	let bad = increasing(ids)
	ok(bad < 0, 'ULID monotonic: strictly increasing', bad < 0 ? '' : `${ids[bad - 1]} then ${ids[bad]}`)
	const steps = got.slice(1).map((r) => r.note.split(' · ')[1])
	ok(
		steps.every((s) => s === 'same millisecond: random + 1' || s === 'new millisecond'),
		'ULID monotonic: each step is the random part plus one, or a new millisecond',
		steps.join('\n'),
	)
	ok(
		got.every((r, i) => i === 0 || !r.note.includes('same millisecond') || r.id.slice(0, 10) === got[i - 1].id.slice(0, 10)),
		'ULID monotonic: "same millisecond" only where the 10 time characters are the same',
	)
	const monotonic = got

	// 4. UUID version 4.
	got = await generate(/gen_random_uuid/, 20)
	ids = got.map((r) => r.id)
	same(ids.length, 20, 'UUID v4: 20 ids for a count of 20')
	ok(ids.every((id) => UUID_RE.test(id) && id[14] === '4' && '89ab'.includes(id[19])), 'UUID v4: version nibble 4, variant 10', ids.join('\n'))
	same(new Set(ids).size, 20, 'UUID v4: all different')
	const v4 = ids[0]

	// 5. UUID version 7: PostgreSQL's uuidv7() increases within a session.
	got = await generate(/uuidv7/, 100)
	ids = got.map((r) => r.id)
	same(ids.length, 100, 'UUID v7: 100 ids for a count of 100')
	ok(ids.every((id) => UUID_RE.test(id) && id[14] === '7' && '89ab'.includes(id[19])), 'UUID v7: version nibble 7, variant 10', ids.join('\n'))
	bad = increasing(ids)
	ok(bad < 0, 'UUID v7: strictly increasing in the order made', bad < 0 ? '' : `${ids[bad - 1]} then ${ids[bad]}`)
	ok(
		got.every((r) => r.note.includes(`rand_a ${parseInt(r.id.slice(15, 18), 16)}`)),
		"UUID v7: the rand_a the database reads is the value's 12 bits after the version",
		got.map((r) => `${r.id} ${r.note}`).join('\n'),
	)
	const v7 = got[got.length - 1]

	// 6. ObjectIds: one 5-byte random value for the tab, a counter one up each.
	got = await generate(/ObjectId/, 100)
	ids = got.map((r) => r.id)
	same(ids.length, 100, 'ObjectId: 100 ids for a count of 100')
	ok(ids.every((id) => OID_RE.test(id)), 'ObjectId: each 24 hexadecimal digits', ids.join('\n'))
	same(new Set(ids).size, 100, 'ObjectId: all different')
	same(new Set(ids.map((id) => id.slice(8, 18))).size, 1, 'ObjectId: the same 5 random bytes in every id of the tab')
	const counters = ids.map((id) => parseInt(id.slice(18), 16))
	ok(
		counters.every((c, i) => i === 0 || c === (counters[i - 1] + 1) % 2 ** 24),
		'ObjectId: the 3-byte counter one up each id (wrapping at 2^24)',
		counters.join(' '),
	)
	ok(
		got.every((r) => r.note === `${r.note.split(' · ')[0]} · counter ${parseInt(r.id.slice(18), 16)}`),
		'ObjectId: the counter the database reads is the last 3 bytes',
		got.map((r) => `${r.id} ${r.note}`).join('\n'),
	)
	ok(
		got.every((r) => pgTimeMs(r.note.split(' · ')[0]) === parseInt(r.id.slice(0, 8), 16) * 1000),
		'ObjectId: the time the database reads is the first 4 bytes in seconds',
	)
	const oid = ids[ids.length - 1]

	// 7. The count's bounds: the input refuses 0 and 101; 1 gives one id.
	await count.fill('101')
	ok(await count.evaluate((e) => e.validity.rangeOverflow && !e.form.checkValidity()), 'a count of 101 is refused')
	await count.fill('0')
	ok(await count.evaluate((e) => e.validity.rangeUnderflow), 'a count of 0 is refused')
	got = await generate(/gen_ulid\(\)/, 1)
	ok(got.length === 1 && ULID_RE.test(got[0].id), 'a count of 1 gives one id', JSON.stringify(got))

	// 8. Copy: one id, then the whole list; the message then goes.
	got = await generate(/gen_ulid\(\)/, 3)
	ids = got.map((r) => r.id)
	await page.getByRole('button', { name: `Copy ${ids[1]}` }).click()
	await page.getByText(`Copied ${ids[1]}.`).waitFor()
	same(await page.evaluate(() => navigator.clipboard.readText()), ids[1], "an id's copy button puts it on the clipboard")
	await page.getByRole('button', { name: 'Copy all' }).click()
	await page.getByText('Copied 3 ids.').waitFor()
	same(await page.evaluate(() => navigator.clipboard.readText()), ids.join('\n'), 'Copy all puts the list on the clipboard, one a line')
	await page.waitForFunction(() => document.getElementById('gen-status').textContent === '')
	ok(true, '"Copied" goes away by itself')

	// 9. Decode the known ULID, typed in lower case: its parts, their
	// characters and bits, its time and its other forms.
	let d = await decode(KNOWN.toLowerCase())
	same([d.kind, d.value], ['ULID', KNOWN], 'decode ULID: the kind and the canonical text')
	same(d.parts.map((p) => p.name), ['time', 'random'], 'decode ULID: its parts, time and random')
	same([partChars(d, 'time'), partChars(d, 'random')], [KNOWN.slice(0, 10), KNOWN.slice(10)], 'decode ULID: the 10 time characters and the 16 random ones highlighted')
	same([partBits(d, 'time').length, partBits(d, 'random').length, d.bits.length], [48, 80, 128], 'decode ULID: 48 bits of time and 80 random highlighted, 128 in all')
	same(part(d, 'time').value, String(KNOWN_MS), "decode ULID: the time part's value, its milliseconds")
	same(BigInt(`0b${partBits(d, 'time')}`).toString(), String(KNOWN_MS), 'decode ULID: the highlighted time bits are those milliseconds')
	same(part(d, 'random').value, KNOWN_UUID.replace(/-/g, '').slice(12), 'decode ULID: the random part in hex')
	same(d.forms.time, '2016-07-30 22:36:16.385+00', 'decode ULID: ulid_time(), as PostgreSQL writes it')
	// Chromium's ICU names the zone by its older name, Asia/Calcutta.
	ok(
		/^2016-07-31 04:06:16\.385 \+05:30 \(Asia\/(Kolkata|Calcutta)\)$/.test(d.forms.local),
		"decode ULID: the time in the browser's zone, with its offset and name",
		d.forms.local,
	)
	same(d.forms.uuid, KNOWN_UUID, 'decode ULID: the UUID form')
	same(
		d.forms.objectid,
		`None: ulid "${KNOWN}" does not hold an ObjectId\nIts time has a fraction of a second (385 ms): an ObjectId holds whole seconds.\nSQLSTATE 22023`,
		'decode ULID: no ObjectId, in the server words, for a time with milliseconds',
	)
	const pub = d.forms.public
	const pubMatch = pub.match(/^([0-9a-f-]{36}) \(under this tab's random key \\x[0-9a-f]{32}; ulid_decrypt\(\) gives back ([0-9A-Z]{26})\)$/)
	ok(
		pubMatch !== null && UUID_RE.test(pubMatch[1]) && pubMatch[2] === KNOWN,
		'decode ULID: the public id under the tab key (pgcrypto loaded), decrypted back to the id',
		pub,
	)

	// 10. A monotonic ULID from the list: the time the page shows is the one
	// the database gave with the list, and the one its bits hold.
	const m = monotonic[monotonic.length - 1]
	d = await decode(m.id)
	same(d.forms.time, m.note.split(' · ')[0], "decode ULID: a generated id's time, as the list gave it")
	same(pgTimeMs(d.forms.time), Number(part(d, 'time').value), 'decode ULID: that time is the milliseconds of its time part')

	// 11. The known UUID spelling: not RFC 9562, but the known ULID's bytes.
	d = await decode(KNOWN_UUID.toUpperCase())
	same([d.kind, d.value, d.forms.version, d.forms.ulid], ['UUID (not RFC 9562)', KNOWN_UUID, 'NULL', KNOWN], 'decode UUID: a UUID of no version, its ULID the known one (uuid::ulid)')

	// 12. UUID version 7: unix_ts_ms, ver, rand_a, var, rand_b.
	d = await decode(v7.id)
	same([d.kind, d.value], ['UUID version 7', v7.id], 'decode v7: the kind and the value')
	same(d.parts.map((p) => p.name), ['unix_ts_ms', 'ver', 'rand_a', 'var', 'rand_b'], 'decode v7: its parts')
	same(
		['unix_ts_ms', 'ver', 'rand_a', 'var', 'rand_b'].map((p) => partBits(d, p).length),
		[48, 4, 12, 2, 62],
		'decode v7: the bits of each part highlighted',
	)
	same([partBits(d, 'ver'), partBits(d, 'var')], ['0111', '10'], 'decode v7: the version bits 0111, the variant 10')
	same([partChars(d, 'ver'), partChars(d, 'rand_a')], ['7', v7.id.slice(15, 18)], 'decode v7: the version digit and the 3 rand_a digits highlighted')
	same(partChars(d, 'unix_ts_ms'), v7.id.slice(0, 13).replace('-', ''), 'decode v7: the 12 time digits highlighted')
	same(partChars(d, 'var and rand_b'), v7.id[19], 'decode v7: the digit that holds the variant and 2 bits of rand_b marked as both')
	same(part(d, 'rand_a').value, String(parseInt(v7.id.slice(15, 18), 16)), 'decode v7: rand_a read by the database')
	same(d.forms.time, v7.note.split(' · ')[0], 'decode v7: uuid_extract_timestamp(), as the list gave it')
	same(pgTimeMs(d.forms.time), Number(part(d, 'unix_ts_ms').value), 'decode v7: that time is unix_ts_ms')
	same(d.forms['ulid-time'], d.forms.time, "decode v7: its ULID (id::ulid) has the v7's time")

	// 13. UUID version 4: random_a, ver, random_b, var, random_c; no time.
	d = await decode(v4)
	same([d.kind, d.value], ['UUID version 4', v4], 'decode v4: the kind and the value')
	same(d.parts.map((p) => p.name), ['random_a', 'ver', 'random_b', 'var', 'random_c'], 'decode v4: its parts')
	same([partBits(d, 'ver'), partBits(d, 'var'), partChars(d, 'ver')], ['0100', '10', '4'], 'decode v4: the version 0100 (the digit 4), the variant 10')
	same(d.forms.time, 'NULL', 'decode v4: no time (uuid_extract_timestamp() is NULL)')

	// 14. ObjectIds: time, random, counter; to a ULID and back.
	d = await decode(oid)
	same([d.kind, d.value], ['ObjectId', oid], 'decode ObjectId: the kind and the value')
	same(d.parts.map((p) => p.name), ['time', 'random', 'counter'], 'decode ObjectId: its parts')
	same(
		['time', 'random', 'counter'].map((p) => partChars(d, p)),
		[oid.slice(0, 8), oid.slice(8, 18), oid.slice(18)],
		'decode ObjectId: 4, 5 and 3 bytes highlighted',
	)
	same(part(d, 'counter').value, String(parseInt(oid.slice(18), 16)), 'decode ObjectId: the counter read by the database')
	ok(ULID_RE.test(d.forms.ulid) && d.forms.objectid === oid, 'decode ObjectId: its ULID (ulid_from_objectid), and back (ulid_to_objectid)', JSON.stringify(d.forms))
	same(pgTimeMs(d.forms['ulid-time']), Number(part(d, 'time').value) * 1000, "decode ObjectId: the ULID's time is the ObjectId's seconds")
	const oidUlid = d.forms.ulid
	d = await decode(KNOWN_OID)
	same(d.forms.ulid, KNOWN_OID_ULID, "decode ObjectId: docs/migrating.md's example gives its ULID")
	d = await decode(oidUlid)
	same(d.forms.objectid, oid, "decode ULID: the ULID of an ObjectId gives it back (ulid_to_objectid)")

	// 15. Invalid input: the type's own error, and no stale result.
	for (const [input, error] of [
		['01ARYZ6S41TSV4RRFFQ69G5FA', 'invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FA"\nExpected 26 characters, got 25.'],
		['01ARYZ6S41TSV4RRFFQ69G5FAU', 'invalid input syntax for type ulid: "01ARYZ6S41TSV4RRFFQ69G5FAU"\nCharacter "U" at position 26 is not a Crockford Base32 digit.'],
		['01563df3-6481-d676-4c61', 'invalid input syntax for type uuid: "01563df3-6481-d676-4c61"'],
		['507f1f77bcf86cd79943901x', 'invalid input syntax for an ObjectId: "507f1f77bcf86cd79943901x"\nCharacter "x" at position 24 is not a hexadecimal digit.'],
	]) {
		d = await decode(input)
		same(d.error, `${error}\nSQLSTATE 22P02`, `decode: ${input} is refused with its type's message, detail and SQLSTATE`)
		ok(!d.shown, 'decode: no result shown beside the error')
	}

	// 16. A generated id's Decode button decodes it.
	await generate(/uuidv7/, 2)
	const second = await page.locator('#gen-list li code.id').nth(1).textContent()
	await page.getByRole('button', { name: `Decode ${second}` }).click()
	await page.locator('#dec-out:not([hidden])').waitFor()
	await page.waitForFunction((v) => document.getElementById('dec-value').textContent === v, second)
	ok(await decodeInput.evaluate((e) => e === document.activeElement), "an id's Decode button decodes it and takes the focus to the decoder")

	// 17. SQL: the example in the box, then statements of our own, then an error.
	await submit('Run', '#sql-out', '#sql-error')
	const table = page.locator('#sql-out table').last()
	same(await table.locator('th').allInnerTexts(), ['id', 'created', 'uuid', 'item'], "SQL: the example's result table has its columns")
	const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)))
	ok(
		rows.length === 2 && rows[0][3] === 'tea' && rows[1][3] === 'cake' && rows.every((r) => ULID_RE.test(r[0])) && rows[0][0] < rows[1][0],
		"SQL: the example's two rows, keyed by increasing ulids",
		JSON.stringify(rows),
	)
	// 18. Ctrl+Enter runs the box, values as PostgreSQL writes them: arrays,
	// NULL, timestamptz, bytea, two columns of one name.
	await sqlBox.fill(
		`SELECT '${KNOWN}'::ulid::uuid AS u, ulid_time('${KNOWN}') AS t, NULL::ulid AS nothing, ` +
			`ARRAY['${KNOWN}'::ulid, NULL] AS a, ARRAY[1, 2] AS a, ulid_send('${KNOWN}') AS b`,
	)
	await sqlBox.focus()
	await page.keyboard.press('Control+Enter')
	await page.locator('#sql-out table, #sql-error:not(:empty)').first().waitFor()
	same(
		await page.locator('#sql-out tbody td').allInnerTexts(),
		[KNOWN_UUID, '2016-07-30 22:36:16.385+00', 'NULL', `{${KNOWN},NULL}`, '{1,2}', `\\x${KNOWN_UUID.replace(/-/g, '')}`],
		'SQL: Ctrl+Enter runs the box; values as PostgreSQL writes them',
	)
	same(await sqlBox.inputValue().then((v) => v.includes('\n')), false, 'SQL: Ctrl+Enter adds no line to the box')
	await sqlBox.fill(`SELECT 'nope'::ulid`)
	await submit('Run', '#sql-out', '#sql-error')
	same(await text('#sql-error'), 'invalid input syntax for type ulid: "nope"\nExpected 26 characters, got 4.\nSQLSTATE 22P02', 'SQL: an error is shown as the server words it')

	// 19. The keyboard: the count, the kinds (one stop), Generate, in order.
	await count.focus()
	await page.keyboard.press('Tab')
	const afterCount = await page.evaluate(() => document.activeElement.matches('input[name=kind]:checked'))
	await page.keyboard.press('Tab')
	const afterKinds = await page.evaluate(() => document.activeElement.textContent)
	ok(afterCount && afterKinds === 'Generate', 'Tab: from the count to the chosen kind, then to Generate', `${afterCount} ${afterKinds}`)

	// 20. The page as a person sees it, 1280 and 375 px wide: an ObjectId's
	// ULID decoded (every form), a v7 list, the SQL example's table and a
	// NULL, so that each kind of text is there when its contrast is measured.
	await sqlBox.fill(await sqlBox.evaluate((e) => e.defaultValue) + '\nSELECT NULL::ulid AS nothing;')
	await submit('Run', '#sql-out', '#sql-error')
	await generate(/uuidv7/, 5)
	await decode(oidUlid)
	mkdirSync(out, { recursive: true })
	for (const width of [1280, 375]) {
		await page.setViewportSize({ width, height: 800 })
		const { scrollWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth }))
		ok(scrollWidth <= width, `${width} px: no sideways scroll (the document is ${scrollWidth} px wide)`)
		await decode(v7.id)
		const dv = await page.evaluate(() => document.documentElement.scrollWidth)
		ok(dv <= width, `${width} px: no sideways scroll with a UUID decoded (${dv} px)`)
		const { checked, low } = await lowContrast()
		ok(low.length === 0 && checked > 50, `${width} px: every text (${checked}) has contrast 4.5:1 or more`, low.join('\n'))
		const shot = join(out, `page-${width}.png`)
		await page.screenshot({ path: shot, fullPage: true })
		ok(true, `${width} px: screenshot saved`)
		console.log(`# screenshot: ${shot}`)
	}

	// 21. Nothing fetched once loaded, nothing from anywhere but our server.
	same(requests.length, loaded, 'nothing fetched after loading (the browser offline)')
	const foreign = requests.filter((r) => !r.startsWith(url))
	ok(foreign.length === 0, 'every request went to the local server', foreign.join('\n'))
	ok(problems.length === 0, 'no errors in the page or its console', problems.join('\n'))
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
