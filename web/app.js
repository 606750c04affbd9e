// web/app.js: the page's controls, wired to db.js.  Everything it shows of
// an id comes from db.js's queries; here it is only laid out.
import * as ulidb from './db.js'

const $ = (id) => document.getElementById(id)
const el = (tag, props = {}, ...children) => {
	const e = Object.assign(document.createElement(tag), props)
	e.append(...children)
	return e
}

// A PostgreSQL error as the server words it: message, detail, SQLSTATE.
function errorText(err) {
	const lines = [err.message]
	if (err.detail) lines.push(err.detail)
	if (err.code) lines.push(`SQLSTATE ${err.code}`)
	return lines.join('\n')
}
function showError(target, err) {
	target.textContent = errorText(err)
}

// The time in the browser's zone, written like the UTC one, with its offset
// and zone name.
function localTime(ms) {
	const d = new Date(ms)
	const pad = (n, w = 2) => String(n).padStart(w, '0')
	const off = -d.getTimezoneOffset()
	const zone = Intl.DateTimeFormat().resolvedOptions().timeZone
	return (
		`${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ` +
		`${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)} ` +
		`${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)} (${zone})`
	)
}

// A status line that says something for a while, then clears itself (unless
// something else has been said there since).
const SAY_FOR_MS = 4000
function sayForAWhile(target, text) {
	target.textContent = text
	setTimeout(() => {
		if (target.textContent === text) target.textContent = ''
	}, SAY_FOR_MS)
}

// Puts text on the clipboard and says so where a screen reader hears it.
async function copy(text, what) {
	$('gen-error').textContent = ''
	try {
		await navigator.clipboard.writeText(text)
		sayForAWhile($('gen-status'), `Copied ${what}.`)
	} catch (err) {
		$('gen-status').textContent = ''
		$('gen-error').textContent = `Could not copy: ${err.message}`
	}
}

// Runs a form's action with its error line cleared first and filled on failure.
function onSubmit(form, errorEl, action) {
	$(form).addEventListener('submit', async (ev) => {
		ev.preventDefault()
		$(errorEl).textContent = ''
		try {
			await action(new FormData(ev.target))
		} catch (err) {
			showError($(errorEl), err)
		}
	})
}

// Puts an id in the decoder and decodes it, taking the focus there.
function decodeThis(id) {
	$('dec-input').value = id
	$('dec-form').requestSubmit()
	$('dec-input').focus()
	$('dec-h').scrollIntoView({ block: 'start' })
}

function renderIds(rows) {
	$('gen-list').replaceChildren(
		...rows.map(({ id, time, step }) => {
			const note = [time, step].filter((x) => x !== null).join(' · ')
			const copyButton = el('button', { type: 'button', textContent: 'Copy' })
			copyButton.setAttribute('aria-label', `Copy ${id}`)
			copyButton.addEventListener('click', () => copy(id, id))
			const decodeButton = el('button', { type: 'button', textContent: 'Decode' })
			decodeButton.setAttribute('aria-label', `Decode ${id}`)
			decodeButton.addEventListener('click', () => decodeThis(id))
			return el(
				'li',
				{},
				el('code', { className: 'id', textContent: id }),
				' ',
				el('span', { className: 'note', textContent: note }),
				' ',
				copyButton,
				' ',
				decodeButton,
			)
		}),
	)
	$('gen-copy').disabled = rows.length === 0
}

// The bits each written character of a value stands for: a ULID's 26
// Crockford Base32 digits 5 each, after 2 bits of padding; hex digits 4 each,
// hyphens none.
function charBits(layout, text) {
	if (layout === 'ulid') return [...text].map((_, i) => [5 * i - 2, 5 * i + 3])
	let k = 0
	return [...text].map((c) => (c === '-' ? null : [4 * k, 4 * ++k]))
}

// The parts (indexes into parts) whose bits a range [from, to) holds.
const partsIn = (parts, [from, to]) =>
	parts.flatMap((p, i) => (p.first < to && p.first + p.bits > from ? [i] : []))

// Spans of text, consecutive characters of the same parts together, each
// coloured as its part (or as shared, where a character holds bits of two).
function highlighted(parts, text, ranges) {
	const spans = []
	let cur = null
	;[...text].forEach((c, i) => {
		const owners = ranges[i] === null ? [] : partsIn(parts, ranges[i])
		const key = owners.join(',')
		if (cur === null || cur.key !== key) {
			cur = { key, owners, text: '' }
			spans.push(cur)
		}
		cur.text += c
	})
	return spans.map(({ owners, text }) => {
		if (owners.length === 0) return document.createTextNode(text)
		const names = owners.map((i) => parts[i].name).join(' and ')
		const cls = owners.length === 1 ? `part p${owners[0]}` : 'part shared'
		return el('span', { className: cls, title: names, textContent: text })
	})
}

// One dt/dd pair of the conversions list, a NULL shown as PostgreSQL
// writes it, an error as the server words it.
function form(key, label, value, error) {
	const dd = el('dd', { id: `dec-f-${key}` })
	if (error !== undefined) {
		dd.className = 'unavailable'
		dd.textContent = error
	} else if (value === null) {
		dd.className = 'null'
		dd.textContent = 'NULL'
	} else dd.append(el('code', { textContent: String(value) }))
	return [el('dt', {}, ...label), dd]
}
const fn = (name) => el('code', { textContent: name })

function renderDecoded(r) {
	$('dec-kind').textContent = r.title
	$('dec-value').replaceChildren(...highlighted(r.parts, r.value, charBits(r.layout, r.value)))
	$('dec-bits').replaceChildren(
		...highlighted(
			r.parts,
			r.bits,
			[...r.bits].map((_, i) => [i, i + 1]),
		),
	)
	$('dec-parts').replaceChildren(
		...r.parts.map((p, i) =>
			el(
				'li',
				{ className: 'part-row' },
				el('span', { className: `part p${i}`, textContent: p.name }),
				` bits ${p.first}–${p.first + p.bits - 1} (${p.bits}): `,
				el('code', { textContent: p.value }),
				el('br'),
				el('span', { className: 'meaning', textContent: p.meaning }),
			),
		),
	)
	let forms
	if (r.kind === 'ulid') {
		const oid = r.objectid
		const pub = r.publicId
		forms = [
			form('time', ['Time, ', fn('ulid_time(id)')], r.time),
			form('local', ['Time in your zone'], localTime(r.ms)),
			form('uuid', ['UUID, ', fn('id::uuid')], r.uuid),
			form(
				'objectid',
				['ObjectId, ', fn('ulid_to_objectid(id)')],
				oid.value,
				oid.error && `None: ${errorText(oid.error)}`,
			),
			form(
				'public',
				['Public id, ', fn('ulid_encrypt(id, key)')],
				pub.value && `${pub.value[0]} (under this tab's random key \\x${pub.value[2]}; ulid_decrypt() gives back ${pub.value[1]})`,
				pub.error && `Not available in this build of ulid: ${errorText(pub.error)}`,
			),
		]
	} else if (r.kind === 'uuid') {
		forms = [
			form('version', ['Version, ', fn('uuid_extract_version(id)')], r.version),
			form('time', ['Time, ', fn('uuid_extract_timestamp(id)')], r.time),
			form('ulid', ['ULID of the same 16 bytes, ', fn('id::ulid')], r.ulid),
			form('ulid-time', ['Its time, ', fn('ulid_time(id::ulid)')], r.ulid_time),
		]
	} else {
		forms = [
			form('ulid', ['ULID, ', fn('ulid_from_objectid(id)')], r.ulid),
			form('ulid-time', ['Its time, ', fn('ulid_time(…)')], r.ulid_time),
			form('objectid', ['Back, ', fn('ulid_to_objectid(…)')], r.value),
		]
	}
	$('dec-forms').replaceChildren(...forms.flat())
}

// One table a result that has columns; a line for one that has none.  The
// values come as PostgreSQL writes them (db.run), NULL as psql shows it.
function renderResults(results) {
	$('sql-out').replaceChildren(
		...results.map((r, i) => {
			if (r.fields.length === 0)
				return el('p', { textContent: `${r.command ?? 'OK'}${r.affectedRows ? ` ${r.affectedRows}` : ''}` })
			const table = el('table')
			table.createCaption().textContent = `Result ${i + 1}: ${r.rows.length} row${r.rows.length === 1 ? '' : 's'}`
			const head = table.createTHead().insertRow()
			for (const f of r.fields) head.append(el('th', { scope: 'col', textContent: f.name }))
			const body = table.createTBody()
			for (const row of r.rows) {
				const tr = body.insertRow()
				for (const v of row) {
					const td = tr.insertCell()
					if (v === null) td.className = 'null'
					td.textContent = v === null ? 'NULL' : v
				}
			}
			return table
		}),
	)
}

async function main() {
	const { db, versions } = await ulidb.open()
	let ids = []

	onSubmit('gen-form', 'gen-error', async (data) => {
		$('gen-status').textContent = ''
		// The input's own min and max stop a form submitted by hand; this, one
		// submitted by script.
		const count = Number(data.get('count'))
		if (!Number.isInteger(count) || count < 1 || count > 100) throw new RangeError('Choose from 1 to 100 ids.')
		const kind = data.get('kind')
		const rows = await ulidb.generate(db, count, kind)
		ids = rows.map((r) => r.id)
		renderIds(rows)
		// Said once, rather than every id read out as it appears.
		const label = document.querySelector(`input[name=kind][value=${kind}]`).parentElement.textContent.trim()
		$('gen-status').textContent = `Generated ${count}: ${label}.`
	})
	$('gen-copy').addEventListener('click', () => copy(ids.join('\n'), `${ids.length} id${ids.length === 1 ? '' : 's'}`))

	onSubmit('dec-form', 'dec-error', async (data) => {
		$('dec-out').hidden = true
		renderDecoded(await ulidb.decode(db, data.get('value').trim()))
		$('dec-out').hidden = false
	})

	onSubmit('sql-form', 'sql-error', async (data) => {
		$('sql-out').replaceChildren()
		renderResults(await ulidb.run(db, data.get('sql')))
	})
	// Ctrl+Enter (Cmd+Enter on a Mac) in the box runs it, as in most SQL editors.
	$('sql-input').addEventListener('keydown', (ev) => {
		if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
			ev.preventDefault()
			$('sql-form').requestSubmit()
		}
	})

	$('controls').disabled = false
	$('status').textContent = `Ready: PostgreSQL ${versions.postgres}, ulid ${versions.ulid}.`
}

main().catch((err) => {
	$('status').classList.add('error')
	showError($('status'), err)
})
