// What pg_regress's psql (psql -X -a -q, client encoding UTF8) prints for a
// script, reproduced over a raw wire-protocol connection, so that a backend
// with no socket (PGlite) runs the regression files against the same expected
// files.  Written from psql's documented behaviour and checked against psql
// itself (test/pglite/formatter.sql and .out) and against every expected
// file on a real server (regress.mjs --server):
//   - every input line is echoed as read, except empty ones; COPY data lines
//     are not;
//   - COPY ... FROM STDIN sends the lines after it, up to "\.", as CopyData
//     and CopyDone in the same write as the query: PGlite reads a reply's
//     worth of input at once, and a second write after its CopyInResponse
//     ends the instance (0.5.17); its "blob" query option reads only from
//     /dev/blob, which would change the statement the server sees;
//   - statements end at a semicolon outside quotes, comments, parentheses and
//     BEGIN ... END of a CREATE FUNCTION/PROCEDURE body; whitespace and
//     "--" comments before a statement are not sent;
//   - :var, :'var' and :"var" are interpolated outside quotes;
//   - \set \unset \gset \g \x \i \c \copy \echo are understood;
//   - results print in the aligned format (headers centred, numbers right
//     aligned, NULL empty, "+" after a line of a multi-line value, "(N rows)"),
//     or expanded with \x; errors and notices as libpq builds them, with the
//     LINE/caret display of the error position, DETAIL, HINT, QUERY, CONTEXT
//     (CONTEXT for errors only), and \set VERBOSITY terse|sqlstate|default.
// Text is handled as bytes (a "binary" string, one character per byte), as
// psql does, so that a database of another encoding returns what it returns;
// display widths are those of UTF-8, the client encoding pg_regress sets.

import fs from 'node:fs';
import path from 'node:path';

const enc = (s) => Buffer.from(s, 'latin1');
const str = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

// ---------------------------------------------------------------------------
// Wire protocol, frontend side
// ---------------------------------------------------------------------------

function message(type, body) {
	const m = Buffer.alloc(5 + body.length);
	m.write(type, 0, 'latin1');
	m.writeInt32BE(4 + body.length, 1);
	body.copy(m, 5);
	return m;
}

export const wire = {
	query: (sql) => message('Q', Buffer.concat([enc(sql), Buffer.from([0])])),
	copyData: (bytes) => message('d', Buffer.from(bytes)),
	copyDone: () => message('c', Buffer.alloc(0)),
};

// Split the backend's reply into messages: {type, body (Buffer)}.
export function parseMessages(bytes) {
	const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const out = [];
	let i = 0;
	while (i + 5 <= b.length) {
		const type = String.fromCharCode(b[i]);
		const len = b.readInt32BE(i + 1);
		out.push({ type, body: b.subarray(i + 5, i + 1 + len) });
		i += 1 + len;
	}
	return out;
}

function cstrings(body) {
	const parts = [];
	let start = 0;
	for (let i = 0; i < body.length; i++) {
		if (body[i] === 0) {
			parts.push(str(body.subarray(start, i)));
			start = i + 1;
		}
	}
	return parts;
}

// ErrorResponse / NoticeResponse fields, keyed by their one-letter codes.
function noticeFields(body) {
	const f = {};
	let i = 0;
	while (i < body.length && body[i] !== 0) {
		const code = String.fromCharCode(body[i]);
		const end = body.indexOf(0, i + 1);
		f[code] = str(body.subarray(i + 1, end));
		i = end + 1;
	}
	return f;
}

function rowDescription(body) {
	const n = body.readInt16BE(0);
	const fields = [];
	let i = 2;
	for (let k = 0; k < n; k++) {
		const end = body.indexOf(0, i);
		const name = str(body.subarray(i, end));
		i = end + 1;
		const typeOid = body.readUInt32BE(i + 6);
		fields.push({ name, typeOid });
		i += 18;
	}
	return fields;
}

function dataRow(body) {
	const n = body.readInt16BE(0);
	const values = [];
	let i = 2;
	for (let k = 0; k < n; k++) {
		const len = body.readInt32BE(i);
		i += 4;
		if (len < 0) values.push(null);
		else {
			values.push(str(body.subarray(i, i + len)));
			i += len;
		}
	}
	return values;
}

// ---------------------------------------------------------------------------
// Character widths (client encoding UTF-8, as pg_regress sets it)
// ---------------------------------------------------------------------------

// The byte length of the character starting at s[i], as PQmblen for UTF-8.
function mblen(s, i) {
	const c = s.charCodeAt(i);
	if (c < 0x80) return 1;
	if ((c & 0xe0) === 0xc0) return 2;
	if ((c & 0xf0) === 0xe0) return 3;
	if ((c & 0xf8) === 0xf0) return 4;
	return 1;
}

function codepoint(s, i, len) {
	const c = s.charCodeAt(i);
	if (len === 1) return c;
	const cont = (k) => s.charCodeAt(i + k) & 0x3f;
	if (len === 2) return ((c & 0x1f) << 6) | cont(1);
	if (len === 3) return ((c & 0x0f) << 12) | (cont(1) << 6) | cont(2);
	return ((c & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3);
}

// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F),
// the characters a terminal shows in two columns.
const WIDE = [
	[0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0],
	[0x23f3, 0x23f3], [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f],
	[0x2693, 0x2693], [0x26a1, 0x26a1], [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5],
	[0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea], [0x26f2, 0x26f3], [0x26f5, 0x26f5],
	[0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b], [0x2728, 0x2728],
	[0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
	[0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55],
	[0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf],
	[0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f],
	[0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4], [0x17000, 0x18cff], [0x1b000, 0x1b2ff],
	[0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a],
	[0x1f200, 0x1f2ff], [0x1f300, 0x1f64f], [0x1f680, 0x1f6ff], [0x1f900, 0x1f9ff],
	[0x20000, 0x2fffd], [0x30000, 0x3fffd],
];
const NONSPACING = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

// Display width of one code point, as PostgreSQL's ucs_wcwidth: -1 for a
// control character, 0 for a combining one, 2 for a wide one.
function ucsWidth(u) {
	if (u === 0) return 0;
	if (u < 0x20 || (u >= 0x7f && u < 0xa0) || u > 0x10ffff) return -1;
	if (u >= 0x300 && NONSPACING.test(String.fromCodePoint(u))) return 0;
	for (const [lo, hi] of WIDE) {
		if (u < lo) break;
		if (u <= hi) return 2;
	}
	return 1;
}

function dsplen(s, i, len) {
	return ucsWidth(codepoint(s, i, len));
}

// psql's pg_wcsformat: a value as display lines, each {text, width}; control
// characters escaped, tabs expanded, "\r" shown as such.
function formatLines(s) {
	const lines = [];
	let text = '';
	let width = 0;
	for (let i = 0; i < s.length;) {
		const len = Math.min(mblen(s, i), s.length - i);
		if (len < mblen(s, i)) break;
		const w = dsplen(s, i, len);
		const c = s[i];
		if (len === 1) {
			if (c === '\n') {
				lines.push({ text, width });
				text = '';
				width = 0;
			} else if (c === '\r') {
				text += '\\r';
				width += 2;
			} else if (c === '\t') {
				do {
					text += ' ';
					width++;
				} while (width % 8 !== 0);
			} else if (w < 0) {
				text += '\\x' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
				width += 4;
			} else {
				text += c;
				width += w;
			}
		} else if (w < 0) {
			text += '\\u' + codepoint(s, i, len).toString(16).toUpperCase().padStart(4, '0');
			width += 6;
		} else {
			text += s.slice(i, i + len);
			width += w;
		}
		i += len;
	}
	lines.push({ text, width });
	return lines;
}

// ---------------------------------------------------------------------------
// Result tables
// ---------------------------------------------------------------------------

// psql aligns these types to the right, everything else to the left.
const RIGHT_ALIGNED = new Set([20, 21, 23, 700, 701, 1700, 26, 28, 5069, 29, 790]);

const spaces = (n) => (n > 0 ? ' '.repeat(n) : '');

// The aligned format, border 1, as psql's print_aligned_text prints it to a
// file (no wrapping, no pager).
export function printAligned(fields, rows) {
	const ncol = fields.length;
	const align = fields.map((f) => (RIGHT_ALIGNED.has(f.typeOid) ? 'r' : 'l'));
	const headers = fields.map((f) => formatLines(f.name));
	const cells = rows.map((r) => r.map((v) => formatLines(v === null ? '' : v)));
	const width = headers.map((h) => Math.max(...h.map((l) => l.width)));
	for (const r of cells) r.forEach((c, j) => (width[j] = Math.max(width[j], ...c.map((l) => l.width))));
	let out = '';

	// Headers, centred; a multi-line header gets "+" after each line but the last.
	const hlines = Math.max(0, ...headers.map((h) => h.length));
	for (let line = 0; line < hlines; line++) {
		for (let j = 0; j < ncol; j++) {
			const h = headers[j];
			out += ' ';
			if (line < h.length) {
				const nb = width[j] - h[line].width;
				out += spaces(Math.floor(nb / 2)) + h[line].text + spaces(Math.floor((nb + 1) / 2));
				out += line + 1 < h.length ? '+' : ' ';
			} else {
				out += spaces(width[j]) + ' ';
			}
			if (j < ncol - 1) out += '|';
		}
		out += '\n';
	}
	out += '-' + width.map((w) => '-'.repeat(w)).join('-+-') + '-\n';

	// Rows: one display line at a time while any cell has lines left (none
	// for a row of no columns).
	for (const r of ncol ? cells : []) {
		const cur = new Array(ncol).fill(0); // the next line of each cell
		let more;
		do {
			more = false;
			for (let j = 0; j < ncol; j++) {
				const last = j === ncol - 1;
				out += ' ';
				const lines = r[j];
				if (cur[j] >= lines.length) {
					if (!last) out += spaces(width[j]);
				} else {
					const l = lines[cur[j]];
					if (align[j] === 'r') out += spaces(width[j] - l.width) + l.text;
					else out += l.text;
					cur[j]++;
					if (cur[j] < lines.length) more = true;
					// A left-aligned value is padded unless it ends the line.
					if (align[j] !== 'r' && (!last || cur[j] < lines.length)) out += spaces(width[j] - l.width);
				}
				// "+" when the value goes on in the next line; ascii's column
				// divider is "|" whatever the neighbour shows.
				if (cur[j] < lines.length && cur[j] > 0) out += '+';
				else if (!last) out += ' ';
				if (!last) out += '|';
			}
			out += '\n';
		} while (more);
	}
	out += `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})\n\n`;
	return out;
}

// The expanded format (\x), border 1, as psql's print_aligned_vertical.
export function printExpanded(fields, rows) {
	if (rows.length === 0) return '(0 rows)\n\n';
	const headers = fields.map((f) => formatLines(f.name));
	const cells = rows.map((r) => r.map((v) => formatLines(v === null ? '' : v)));
	let hwidth = 0;
	let dwidth = 0;
	let dmulti = false;
	for (const h of headers) {
		hwidth = Math.max(hwidth, ...h.map((l) => l.width));
	}
	for (const r of cells) {
		for (const c of r) {
			dwidth = Math.max(dwidth, ...c.map((l) => l.width));
			if (c.length > 1) dmulti = true;
		}
	}
	const swidth = 3 + (dmulti ? 1 : 0);
	const rwidth = 1 + Math.floor(Math.log10(rows.length)) + 12;
	if (hwidth + swidth + dwidth < rwidth) dwidth = rwidth - hwidth - swidth;
	let out = '';
	rows.forEach((row, ri) => {
		// "-[ RECORD n ]" then dashes over the header and data widths.
		const label = `-[ RECORD ${ri + 1} ]`;
		let reclen = label.length;
		let line = label;
		for (let i = reclen; i < hwidth; i++) line += '-';
		reclen -= hwidth;
		if (reclen-- <= 0) line += '-';
		if (reclen-- <= 0) line += '+';
		if (reclen-- <= 0) line += '-';
		if (reclen < 0) reclen = 0;
		for (let i = reclen; i < dwidth; i++) line += '-';
		out += line + '\n';
		for (let j = 0; j < fields.length; j++) {
			const h = headers[j];
			const d = cells[ri][j];
			let hl = 0;
			let dl = 0;
			let hdone = false;
			let ddone = false;
			while (!hdone || !ddone) {
				if (!hdone) {
					out += h[hl].text + spaces(hwidth - h[hl].width);
					if (hl + 1 < h.length) {
						out += '+';
						hl++;
					} else {
						out += ' ';
						hdone = true;
					}
				} else {
					out += spaces(hwidth + 1);
				}
				out += '|';
				if (!ddone) {
					out += ' ' + d[dl].text;
					if (dl + 1 < d.length) {
						if (dmulti) out += spaces(dwidth - d[dl].width) + '+';
						dl++;
					} else {
						ddone = true;
					}
				}
				out += '\n';
			}
		}
	});
	return out + '\n';
}

// ---------------------------------------------------------------------------
// Errors and notices, as libpq's pqBuildErrorMessage3 builds them
// ---------------------------------------------------------------------------

// libpq's reportErrorPosition: the line of the query holding character
// `loc` (1-based), cut to about 60 columns around it, and a caret under it.
function errorPosition(query, loc) {
	const DISPLAY = 60;
	const MIN_RIGHT_CUT = 10;
	loc--;
	if (loc < 0) return '';
	const q = query.replace(/\t/g, ' ');
	const qidx = [];
	const scr = [];
	let cno = 0;
	let qoff = 0;
	let soff = 0;
	let line = 1;
	let ibeg = 0;
	let iend = -1;
	for (; qoff < q.length; cno++) {
		const ch = q[qoff];
		qidx[cno] = qoff;
		scr[cno] = soff;
		if (ch === '\r' || ch === '\n') {
			if (cno < loc) {
				if (ch === '\r' || cno === 0 || q[qidx[cno - 1]] !== '\r') line++;
				ibeg = cno + 1;
			} else {
				iend = cno;
				break;
			}
		}
		const len = Math.min(mblen(q, qoff), q.length - qoff);
		let w = dsplen(q, qoff, len);
		if (w <= 0) w = 1;
		soff += w;
		qoff += len;
	}
	if (iend < 0) {
		iend = cno;
		qidx[iend] = qoff;
		scr[iend] = soff;
	}
	if (loc > cno) return '';
	let begTrunc = false;
	let endTrunc = false;
	if (scr[iend] - scr[ibeg] > DISPLAY) {
		if (scr[ibeg] + DISPLAY >= scr[loc] + MIN_RIGHT_CUT) {
			while (scr[iend] - scr[ibeg] > DISPLAY) iend--;
			endTrunc = true;
		} else {
			while (scr[loc] + MIN_RIGHT_CUT < scr[iend]) {
				iend--;
				endTrunc = true;
			}
			while (scr[iend] - scr[ibeg] > DISPLAY) {
				ibeg++;
				begTrunc = true;
			}
		}
	}
	const prefix = `LINE ${line}: ` + (begTrunc ? '...' : '');
	let out = prefix + q.slice(qidx[ibeg], qidx[iend]) + (endTrunc ? '...' : '') + '\n';
	out += ' '.repeat(prefix.length + scr[loc] - scr[ibeg]) + '^\n';
	return out;
}

function buildMessage(f, query, verbosity, isError, showContext) {
	let out = '';
	if (f.S !== undefined) out += `${f.S}:  `;
	if (verbosity === 'sqlstate' && f.C !== undefined) return out + f.C + '\n';
	if (verbosity === 'sqlstate') verbosity = 'terse';
	if (verbosity === 'verbose' && f.C !== undefined) out += `${f.C}: `;
	if (f.M !== undefined) out += f.M;
	let querytext = null;
	let querypos = 0;
	if (f.P !== undefined) {
		if (verbosity !== 'terse' && query !== null) {
			querytext = query;
			querypos = parseInt(f.P, 10);
		} else out += ` at character ${f.P}`;
	} else if (f.p !== undefined) {
		if (verbosity !== 'terse' && f.q !== undefined) {
			querytext = f.q;
			querypos = parseInt(f.p, 10);
		} else out += ` at character ${f.p}`;
	}
	out += '\n';
	if (verbosity !== 'terse') {
		if (querytext !== null && querypos > 0) out += errorPosition(querytext, querypos);
		if (f.D !== undefined) out += `DETAIL:  ${f.D}\n`;
		if (f.H !== undefined) out += `HINT:  ${f.H}\n`;
		if (f.q !== undefined) out += `QUERY:  ${f.q}\n`;
		if (showContext === 'always' || (showContext === 'errors' && isError)) {
			if (f.W !== undefined) out += `CONTEXT:  ${f.W}\n`;
		}
	}
	if (verbosity === 'verbose') {
		const names = { s: 'SCHEMA NAME', t: 'TABLE NAME', c: 'COLUMN NAME', d: 'DATATYPE NAME', n: 'CONSTRAINT NAME' };
		for (const [k, label] of Object.entries(names)) if (f[k] !== undefined) out += `${label}:  ${f[k]}\n`;
		if (f.R !== undefined || f.F !== undefined || f.L !== undefined) {
			out += 'LOCATION:  ' + (f.R !== undefined ? `${f.R}, ` : '') + (f.F !== undefined && f.L !== undefined ? `${f.F}:${f.L}` : '') + '\n';
		}
	}
	return out;
}

// PQescapeLiteral and PQescapeIdentifier, for :'var' and :"var".
function quoteLiteral(v) {
	const body = v.replace(/'/g, "''").replace(/\\/g, '\\\\');
	return (v.includes('\\') ? ' E' : '') + `'${body}'`;
}
const quoteIdent = (v) => `"${v.replace(/"/g, '""')}"`;

// ---------------------------------------------------------------------------
// The script lexer: psql's psqlscan.l, reduced to what decides where a
// statement ends and what is sent
// ---------------------------------------------------------------------------

const IDENT_START = /[A-Za-z\x80-\xff_]/;
const IDENT_CONT = /[A-Za-z\x80-\xff_0-9$]/;
const VAR_CHARS = '[A-Za-z\\x80-\\xff_0-9]+';
const DOLQ = /^\$([A-Za-z\x80-\xff_][A-Za-z\x80-\xff_0-9]*)?\$/;

class Scanner {
	constructor(getVar) {
		this.getVar = getVar;
		this.reset();
	}

	reset() {
		this.mode = 'INITIAL';
		this.xcdepth = 0;
		this.dolq = null;
		this.paren = 0;
		this.begin = 0;
		this.idcount = 0;
		this.ids = [];
	}

	inQuote() {
		return this.mode !== 'INITIAL';
	}

	setLine(line) {
		this.line = line;
		this.pos = 0;
		this.noSubstUntil = 0;
	}

	// Lex from this.pos, appending what is sent to buf.value; returns
	// 'semi', 'backslash' (this.pos after the backslash) or 'eol'.
	scan(buf) {
		const s = this.line;
		const emit = (t) => (buf.value += t);
		while (this.pos < s.length) {
			const p = this.pos;
			const c = s[p];
			const rest2 = s.slice(p, p + 2);
			switch (this.mode) {
				case 'xc':
					if (rest2 === '/*') {
						this.xcdepth++;
						emit(rest2);
						this.pos += 2;
					} else if (rest2 === '*/') {
						if (this.xcdepth <= 0) this.mode = 'INITIAL';
						else this.xcdepth--;
						emit(rest2);
						this.pos += 2;
					} else {
						emit(c);
						this.pos++;
					}
					continue;
				case 'xq':
				case 'xb':
				case 'xh':
				case 'xus':
				case 'xe':
					if (this.mode === 'xe' && c === '\\' && p + 1 < s.length) {
						emit(rest2);
						this.pos += 2;
					} else if (rest2 === "''") {
						emit(rest2);
						this.pos += 2;
					} else {
						if (c === "'") this.mode = 'INITIAL';
						emit(c);
						this.pos++;
					}
					continue;
				case 'xd':
				case 'xui':
					if (rest2 === '""') {
						emit(rest2);
						this.pos += 2;
					} else {
						if (c === '"') this.mode = 'INITIAL';
						emit(c);
						this.pos++;
					}
					continue;
				case 'xdolq': {
					const m = c === '$' ? DOLQ.exec(s.slice(p)) : null;
					if (m && m[0] === this.dolq) {
						this.mode = 'INITIAL';
						emit(m[0]);
						this.pos += m[0].length;
					} else if (m) {
						emit(m[0].slice(0, -1));
						this.pos += m[0].length - 1;
					} else {
						emit(c);
						this.pos++;
					}
					continue;
				}
			}

			// INITIAL
			if (/[ \t\n\r\f\v]/.test(c) || rest2 === '--') {
				let e = p;
				if (rest2 === '--') e = s.length;
				else while (e < s.length && /[ \t\n\r\f\v]/.test(s[e])) e++;
				if (buf.value.length > 0) emit(s.slice(p, e));
				this.pos = e;
				continue;
			}
			if (rest2 === '/*') {
				this.mode = 'xc';
				this.xcdepth = 0;
				emit(rest2);
				this.pos += 2;
				continue;
			}
			const next = s[p + 1];
			if (next === "'" && /[bBxXeEnN]/.test(c)) {
				if (/[nN]/.test(c)) {
					emit(c);
					this.pos++;
					continue;
				}
				this.mode = /[bB]/.test(c) ? 'xb' : /[xX]/.test(c) ? 'xh' : 'xe';
				emit(rest2);
				this.pos += 2;
				continue;
			}
			if (/[uU]/.test(c) && next === '&' && (s[p + 2] === "'" || s[p + 2] === '"')) {
				this.mode = s[p + 2] === "'" ? 'xus' : 'xui';
				emit(s.slice(p, p + 3));
				this.pos += 3;
				continue;
			}
			if (c === "'") {
				this.mode = 'xq';
				emit(c);
				this.pos++;
				continue;
			}
			if (c === '"') {
				this.mode = 'xd';
				emit(c);
				this.pos++;
				continue;
			}
			if (c === '$') {
				const m = DOLQ.exec(s.slice(p));
				if (m) {
					this.mode = 'xdolq';
					this.dolq = m[0];
					emit(m[0]);
					this.pos += m[0].length;
				} else {
					const pm = /^\$[0-9]+/.exec(s.slice(p));
					const t = pm ? pm[0] : '$';
					emit(t);
					this.pos += t.length;
				}
				continue;
			}
			if (c === '(') {
				this.paren++;
				emit(c);
				this.pos++;
				continue;
			}
			if (c === ')') {
				if (this.paren > 0) this.paren--;
				emit(c);
				this.pos++;
				continue;
			}
			if (c === ';') {
				emit(c);
				this.pos++;
				if (this.paren === 0 && this.begin === 0) {
					this.idcount = 0;
					return 'semi';
				}
				continue;
			}
			if (c === '\\') {
				if (next === ';' || next === ':') {
					emit(next);
					if (next === ';') this.idcount = 0;
					this.pos += 2;
					continue;
				}
				this.pos++;
				return 'backslash';
			}
			if (c === ':') {
				if (next === ':' || next === '=') {
					emit(rest2);
					this.pos += 2;
					continue;
				}
				const tail = s.slice(p);
				const subst = p >= this.noSubstUntil;
				let m;
				if (subst && (m = new RegExp(`^:(${VAR_CHARS})`).exec(tail))) {
					const v = this.getVar(m[1]);
					if (v !== undefined) {
						// The value is lexed in place of the reference.
						this.line = s.slice(0, p) + v + s.slice(p + m[0].length);
						this.noSubstUntil = p + v.length;
						return this.scan(buf);
					}
					emit(m[0]);
					this.pos += m[0].length;
					continue;
				}
				if (subst && (m = new RegExp(`^:'(${VAR_CHARS})'`).exec(tail))) {
					const v = this.getVar(m[1]);
					emit(v !== undefined ? quoteLiteral(v) : m[0]);
					this.pos += m[0].length;
					continue;
				}
				if (subst && (m = new RegExp(`^:"(${VAR_CHARS})"`).exec(tail))) {
					const v = this.getVar(m[1]);
					emit(v !== undefined ? quoteIdent(v) : m[0]);
					this.pos += m[0].length;
					continue;
				}
				if (subst && (m = new RegExp(`^:\\{\\?(${VAR_CHARS})\\}`).exec(tail))) {
					emit(this.getVar(m[1]) !== undefined ? 'TRUE' : 'FALSE');
					this.pos += m[0].length;
					continue;
				}
				emit(c);
				this.pos++;
				continue;
			}
			if (IDENT_START.test(c)) {
				let e = p + 1;
				while (e < s.length && IDENT_CONT.test(s[e])) e++;
				this.identifier(s.slice(p, e));
				emit(s.slice(p, e));
				this.pos = e;
				continue;
			}
			if (/[0-9]/.test(c)) {
				let e = p + 1;
				while (e < s.length && /[0-9]/.test(s[e])) e++;
				emit(s.slice(p, e));
				this.pos = e;
				continue;
			}
			emit(c);
			this.pos++;
		}
		return 'eol';
	}

	// psql's heuristic for BEGIN ... END in a CREATE FUNCTION/PROCEDURE body
	// (SQL-standard bodies), where a semicolon does not end the statement.
	identifier(word) {
		const w = word.toLowerCase();
		if (this.idcount === 0) this.ids = [];
		if (['create', 'function', 'procedure', 'or', 'replace'].includes(w) && this.idcount < 4) this.ids[this.idcount] = w[0];
		this.idcount++;
		const ids = this.ids;
		if (ids[0] === 'c' && (ids[1] === 'f' || ids[1] === 'p' || (ids[1] === 'o' && ids[2] === 'r' && (ids[3] === 'f' || ids[3] === 'p'))) && this.paren === 0) {
			if (w === 'begin') this.begin++;
			else if (w === 'case') {
				if (this.begin >= 1) this.begin++;
			} else if (w === 'end' && this.begin > 0) this.begin--;
		}
	}

	// A backslash command's name: up to whitespace or the next backslash.
	commandName() {
		const s = this.line;
		let e = this.pos;
		while (e < s.length && !/[ \t\n\r\f\v\\]/.test(s[e])) e++;
		const name = s.slice(this.pos, e);
		this.pos = e;
		return name;
	}

	// One argument of a backslash command, as psqlscanslash.l reads it:
	// 'normal' (quotes and variables processed), 'sqlid' (a double-quoted
	// name keeps its case, others are lower-cased), or 'wholeline'.
	arg(type = 'normal') {
		const s = this.line;
		while (this.pos < s.length && /[ \t\n\r\f\v]/.test(s[this.pos])) this.pos++;
		if (this.pos >= s.length) return null;
		if (type === 'wholeline') {
			const v = s.slice(this.pos).replace(/[ \t\n\r\f\v;]+$/, '');
			this.pos = s.length;
			return v;
		}
		if (s[this.pos] === '\\') return null;
		let out = '';
		while (this.pos < s.length && !/[ \t\n\r\f\v\\]/.test(s[this.pos])) {
			const c = s[this.pos];
			if (c === "'") {
				this.pos++;
				while (this.pos < s.length) {
					const d = s[this.pos];
					if (d === "'" && s[this.pos + 1] === "'") {
						out += "'";
						this.pos += 2;
					} else if (d === "'") {
						this.pos++;
						break;
					} else if (d === '\\' && this.pos + 1 < s.length) {
						const e = s[this.pos + 1];
						const map = { n: '\n', t: '\t', b: '\b', r: '\r', f: '\f' };
						let m;
						if (map[e]) {
							out += map[e];
							this.pos += 2;
						} else if ((m = /^[0-7]{1,3}/.exec(s.slice(this.pos + 1)))) {
							out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
							this.pos += 1 + m[0].length;
						} else if ((m = /^x[0-9A-Fa-f]{1,2}/.exec(s.slice(this.pos + 1)))) {
							out += String.fromCharCode(parseInt(m[0].slice(1), 16));
							this.pos += 1 + m[0].length;
						} else {
							out += e;
							this.pos += 2;
						}
					} else {
						out += d;
						this.pos++;
					}
				}
			} else if (c === '"') {
				let e = this.pos + 1;
				let inner = '';
				while (e < s.length) {
					if (s[e] === '"' && s[e + 1] === '"') {
						inner += '"';
						e += 2;
					} else if (s[e] === '"') break;
					else inner += s[e++];
				}
				out += type === 'normal' ? s.slice(this.pos, e + 1) : inner;
				this.pos = e + 1;
			} else if (c === ':') {
				const tail = s.slice(this.pos);
				let m;
				if ((m = new RegExp(`^:(${VAR_CHARS})`).exec(tail)) && this.getVar(m[1]) !== undefined) {
					out += this.getVar(m[1]);
				} else if ((m = new RegExp(`^:'(${VAR_CHARS})'`).exec(tail)) && this.getVar(m[1]) !== undefined) {
					out += quoteLiteral(this.getVar(m[1]));
				} else if ((m = new RegExp(`^:"(${VAR_CHARS})"`).exec(tail)) && this.getVar(m[1]) !== undefined) {
					out += quoteIdent(this.getVar(m[1]));
				} else {
					m = [':'];
					out += ':';
				}
				this.pos += m[0].length;
			} else {
				out += type === 'sqlid' ? c.toLowerCase() : c;
				this.pos++;
			}
		}
		return out;
	}

	// The rest of a backslash command's arguments, ignored, up to "\\".
	skipArgs() {
		while (this.arg() !== null);
		if (this.line.slice(this.pos, this.pos + 2) === '\\\\') this.pos += 2;
	}
}

// ---------------------------------------------------------------------------
// The session: psql's MainLoop and SendQuery over a connection
// ---------------------------------------------------------------------------

// conn: { exec(Buffer) -> Promise<Uint8Array>, connect(dbname) -> Promise,
//         dbname, user }
export class Session {
	constructor(conn, { root = process.cwd(), workdir = process.cwd() } = {}) {
		this.conn = conn;
		this.root = root;
		this.workdir = workdir;
		this.out = [];
		this.expanded = false;
		this.vars = new Map([
			['AUTOCOMMIT', 'on'], ['ECHO', 'all'], ['QUIET', 'on'], ['VERBOSITY', 'default'],
			['SHOW_CONTEXT', 'errors'], ['ENCODING', 'UTF8'], ['SHOW_ALL_RESULTS', 'on'],
			['ON_ERROR_STOP', 'off'], ['LAST_ERROR_MESSAGE', ''], ['LAST_ERROR_SQLSTATE', '00000'],
		]);
		this.syncVars();
	}

	syncVars() {
		this.vars.set('DBNAME', this.conn.dbname);
		this.vars.set('USER', this.conn.user);
		if (this.conn.serverVersionNum) this.vars.set('SERVER_VERSION_NUM', String(this.conn.serverVersionNum));
	}

	print(s) {
		this.out.push(s);
	}

	output() {
		return this.out.join('');
	}

	// Run a script (a binary string); lines are echoed as read.
	async runScript(text) {
		const lines = text.split('\n');
		if (lines.length && lines[lines.length - 1] === '') lines.pop();
		await this.mainLoop(lines);
	}

	async mainLoop(lines) {
		const scanner = new Scanner((name) => this.vars.get(name));
		const buf = { value: '' };
		let previous = '';
		this.lines = lines;
		this.lineno = 0;
		while (this.lineno < lines.length) {
			let line = lines[this.lineno++];
			if (line === '' && !scanner.inQuote()) continue;
			this.print(line + '\n');
			let addedNl = -1;
			if (buf.value.length > 0) {
				buf.value += '\n';
				addedNl = buf.value.length;
			}
			scanner.setLine(line);
			for (;;) {
				const r = scanner.scan(buf);
				if (r === 'semi') {
					await this.sendQuery(buf.value, lines);
					previous = buf.value;
					buf.value = '';
					addedNl = -1;
				} else if (r === 'backslash') {
					if (buf.value.length === addedNl) buf.value = buf.value.slice(0, -1);
					addedNl = -1;
					const status = await this.backslash(scanner, buf.value.length > 0 ? buf.value : previous);
					if (status && status.send) {
						const q = buf.value.length > 0 ? buf.value : previous;
						await this.sendQuery(q, lines, status);
						previous = q;
						buf.value = '';
						scanner.reset();
					}
				} else break;
			}
		}
		if (buf.value.length > 0) await this.sendQuery(buf.value, lines);
	}

	async backslash(scanner, queryBuf) {
		const cmd = scanner.commandName();
		let status = null;
		switch (cmd) {
			case 'set': {
				const name = scanner.arg();
				if (name === null) break;
				let value = '';
				let v;
				while ((v = scanner.arg()) !== null) value += v;
				this.vars.set(name, value);
				break;
			}
			case 'unset': {
				const name = scanner.arg();
				if (name !== null) this.vars.delete(name);
				break;
			}
			case 'gset':
				status = { send: true, gset: scanner.arg() ?? '' };
				break;
			case 'g':
				status = { send: true };
				break;
			case 'x': {
				const v = scanner.arg();
				if (v === null) this.expanded = !this.expanded;
				else this.expanded = /^(on|true|yes|1)$/i.test(v);
				break;
			}
			case 'echo': {
				const parts = [];
				let v;
				while ((v = scanner.arg()) !== null) parts.push(v);
				this.print(parts.join(' ') + '\n');
				break;
			}
			case 'i':
			case 'include':
			case 'ir':
			case 'include_relative': {
				const file = scanner.arg();
				const full = path.resolve(this.root, file);
				const text = fs.readFileSync(full).toString('latin1');
				const lines = text.split('\n');
				if (lines.length && lines[lines.length - 1] === '') lines.pop();
				const [saved, savedNo] = [this.lines, this.lineno];
				await this.mainLoop(lines);
				[this.lines, this.lineno] = [saved, savedNo];
				break;
			}
			case 'c':
			case 'connect': {
				const db = scanner.arg('sqlid');
				await this.conn.connect(db === null || db === '-' ? this.conn.dbname : db);
				this.syncVars();
				break;
			}
			case 'copy':
				await this.slashCopy(scanner.arg('wholeline'));
				break;
			default:
				this.print(`invalid command \\${cmd}\n`);
		}
		scanner.skipArgs();
		void queryBuf;
		return status;
	}

	// \copy: COPY ... FROM STDIN / TO STDOUT, the file read or written here.
	// What comes before FROM or TO is a table with its columns or a query in
	// parentheses, either of which may hold the word.
	async slashCopy(args) {
		let i = 0;
		const skipParens = () => {
			let depth = 0;
			for (; i < args.length; i++) {
				const c = args[i];
				if (c === "'" || c === '"') i = args.indexOf(c, i + 1);
				else if (c === '(') depth++;
				else if (c === ')' && --depth === 0) return i++;
				if (i < 0) i = args.length;
			}
		};
		if (args[i] === '(') skipParens();
		else {
			while (i < args.length && !/[\s(]/.test(args[i])) i = args[i] === '"' ? args.indexOf('"', i + 1) + 1 || args.length : i + 1;
			const j = i;
			while (/\s/.test(args[i] ?? '')) i++;
			if (args[i] === '(') skipParens();
			else i = j;
		}
		const m = /^\s+(from|to)\s+('(?:[^']|'')*'|\S+)\s*([\s\S]*)$/i.exec(args.slice(i));
		if (!m) {
			this.print('\\copy: parse error\n');
			return;
		}
		const before = args.slice(0, i);
		const [, dir, fileTok, after] = m;
		const file = fileTok.startsWith("'") ? fileTok.slice(1, -1).replace(/''/g, "'") : fileTok;
		const from = dir.toLowerCase() === 'from';
		const query = `COPY ${before}${from ? ' FROM STDIN ' : ' TO STDOUT '}${after}`;
		const full = path.resolve(this.workdir, file);
		if (from) {
			await this.execute(query, { copyIn: fs.readFileSync(full), quietCopyOut: true });
		} else {
			const chunks = [];
			await this.execute(query, { copyOut: chunks });
			fs.writeFileSync(full, Buffer.concat(chunks));
		}
	}

	// SendQuery for a statement of the script; COPY FROM STDIN reads its data
	// from the lines that follow, as psql does once the server asks for it.
	async sendQuery(query, lines, opts = {}) {
		let copyLines = null;
		const startLine = this.lineno;
		if (/^\s*copy\b[\s\S]*\bfrom\s+stdin\b/i.test(query)) {
			copyLines = [];
			while (this.lineno < lines.length) {
				const l = lines[this.lineno++];
				if (l === '\\.') break;
				copyLines.push(l + '\n');
			}
		}
		const res = await this.execute(query, {
			...opts,
			copyIn: copyLines ? Buffer.from(copyLines.join(''), 'latin1') : undefined,
		});
		// No CopyInResponse (the COPY failed first): psql never read the data,
		// so the lines are read as script.
		if (copyLines && !res.copyIn) this.lineno = startLine;
	}

	// Send one query string and print what psql prints for its results.
	async execute(query, { copyIn, copyOut, gset } = {}) {
		if (process.env.PSQL_TRACE) process.stderr.write(`psql.mjs: ${query}\n`);
		const parts = [wire.query(query)];
		if (copyIn) parts.push(wire.copyData(copyIn), wire.copyDone());
		const reply = parseMessages(await this.conn.exec(Buffer.concat(parts)));
		const results = [];
		let current = null;
		let sawCopyIn = false;
		let error = null;
		const verbosity = this.vars.get('VERBOSITY') ?? 'default';
		const showContext = this.vars.get('SHOW_CONTEXT') ?? 'errors';
		for (const m of reply) {
			switch (m.type) {
				case 'N':
					this.print(buildMessage(noticeFields(m.body), query, verbosity, false, showContext));
					break;
				case 'T':
					current = { fields: rowDescription(m.body), rows: [] };
					break;
				case 'D':
					current.rows.push(dataRow(m.body));
					break;
				case 'C':
					if (current) {
						current.tag = cstrings(m.body)[0];
						results.push(current);
					}
					current = null;
					break;
				case 'G':
					sawCopyIn = true;
					break;
				case 'd':
					if (copyOut) copyOut.push(Buffer.from(m.body));
					else this.print(str(m.body));
					break;
				case 'E': {
					const f = noticeFields(m.body);
					error = f;
					this.print(buildMessage(f, query, verbosity, true, showContext));
					break;
				}
				case 'A': {
					const pid = m.body.readInt32BE(0);
					const [channel, payload] = cstrings(m.body.subarray(4));
					this.print(payload ? `Asynchronous notification "${channel}" with payload "${payload}" received from server process with PID ${pid}.\n` : `Asynchronous notification "${channel}" received from server process with PID ${pid}.\n`);
					break;
				}
				default:
					break;
			}
			// A result is printed once complete, before the messages after it.
			if (m.type === 'C' && results.length && !results[results.length - 1].printed) {
				const r = results[results.length - 1];
				r.printed = true;
				if (gset === undefined) this.print(this.expanded ? printExpanded(r.fields, r.rows) : printAligned(r.fields, r.rows));
			}
		}
		if (gset !== undefined && !error && results.length) {
			const r = results[results.length - 1];
			if (r.rows.length === 0) this.print('no rows returned for \\gset\n');
			else if (r.rows.length > 1) this.print('more than one row returned for \\gset\n');
			else
				r.fields.forEach((f, i) => {
					const v = r.rows[0][i];
					if (v === null) this.vars.delete(gset + f.name);
					else this.vars.set(gset + f.name, v);
				});
		}
		if (error) {
			this.vars.set('ERROR', 'true');
			this.vars.set('SQLSTATE', error.C ?? '');
			this.vars.set('LAST_ERROR_SQLSTATE', error.C ?? '');
			this.vars.set('LAST_ERROR_MESSAGE', error.M ?? '');
		} else {
			this.vars.set('ERROR', 'false');
			this.vars.set('SQLSTATE', '00000');
		}
		return { copyIn: sawCopyIn, error };
	}
}
