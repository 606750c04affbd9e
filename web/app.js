// web/app.js: the page's controls, wired to db.js.
import * as ulidb from './db.js'

const $ = (id) => document.getElementById(id)

// A PostgreSQL error as the server words it: message, detail, SQLSTATE.
function showError(el, err) {
	const lines = [err.message]
	if (err.detail) lines.push(err.detail)
	if (err.code) lines.push(`SQLSTATE ${err.code}`)
	el.textContent = lines.join('\n')
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

// Puts text on the clipboard and says so where a screen reader hears it.
async function copy(text, what) {
	$('gen-error').textContent = ''
	try {
		await navigator.clipboard.writeText(text)
		$('gen-status').textContent = `Copied ${what}.`
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

function renderIds(ids) {
	const list = $('gen-list')
	list.replaceChildren(
		...ids.map((id) => {
			const li = document.createElement('li')
			const code = document.createElement('code')
			code.textContent = id
			const button = document.createElement('button')
			button.type = 'button'
			button.textContent = 'Copy'
			button.setAttribute('aria-label', `Copy ${id}`)
			button.addEventListener('click', () => copy(id, id))
			li.append(code, ' ', button)
			return li
		}),
	)
	$('gen-copy').disabled = ids.length === 0
}

// One table a result that has columns; a line for one that has none.
function renderResults(results) {
	const out = $('sql-out')
	out.replaceChildren(
		...results.map((r, i) => {
			if (r.fields.length === 0) {
				const p = document.createElement('p')
				p.textContent = `${r.command ?? 'OK'}${r.affectedRows ? ` ${r.affectedRows}` : ''}`
				return p
			}
			const table = document.createElement('table')
			const caption = table.createCaption()
			caption.textContent = `Result ${i + 1}: ${r.rows.length} row${r.rows.length === 1 ? '' : 's'}`
			const head = table.createTHead().insertRow()
			for (const f of r.fields) {
				const th = document.createElement('th')
				th.scope = 'col'
				th.textContent = f.name
				head.append(th)
			}
			const body = table.createTBody()
			for (const row of r.rows) {
				const tr = body.insertRow()
				for (const f of r.fields) {
					const v = row[f.name]
					const td = tr.insertCell()
					if (v === null) td.className = 'null'
					td.textContent = v === null ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v)
				}
			}
			return table
		}),
	)
}

async function main() {
	const { db, versions } = await ulidb.open()
	let ids = []

	onSubmit('gen-form', 'gen-error', async (form) => {
		$('gen-status').textContent = ''
		// The input's own min and max stop a form submitted by hand; this, one
		// submitted by script.
		const count = Number(form.get('count'))
		if (!Number.isInteger(count) || count < 1 || count > 100) throw new RangeError('Choose from 1 to 100 ids.')
		const kind = form.get('kind')
		ids = await ulidb.generate(db, count, kind === 'monotonic')
		renderIds(ids)
		// Said once, rather than every id read out as it appears.
		$('gen-status').textContent = `Generated ${count} ${kind} id${count === 1 ? '' : 's'}.`
	})
	$('gen-copy').addEventListener('click', () => copy(ids.join('\n'), `${ids.length} id${ids.length === 1 ? '' : 's'}`))

	onSubmit('dec-form', 'dec-error', async (form) => {
		$('dec-out').hidden = true
		const r = await ulidb.decode(db, form.get('ulid').trim())
		$('dec-ulid').textContent = r.ulid
		$('dec-utc').textContent = `${r.utc} UTC`
		$('dec-local').textContent = localTime(r.ms)
		$('dec-ms').textContent = String(r.ms)
		$('dec-uuid').textContent = r.uuid
		$('dec-out').hidden = false
	})

	onSubmit('conv-form', 'conv-error', async (form) => {
		$('conv-out').hidden = true
		$('conv-ulid').textContent = await ulidb.fromUuid(db, form.get('uuid').trim())
		$('conv-out').hidden = false
	})

	onSubmit('sql-form', 'sql-error', async (form) => {
		$('sql-out').replaceChildren()
		renderResults(await ulidb.run(db, form.get('sql')))
	})

	$('controls').disabled = false
	$('status').textContent = `Ready: PostgreSQL ${versions.postgres}, ulid ${versions.ulid}.`
}

main().catch((err) => {
	$('status').classList.add('error')
	showError($('status'), err)
})
