// The PGlite half of `bench/run pglite`: what psql and bin/tempcluster are
// to the server's workloads, this is to PGlite's.  bench/run parses the
// workload files (cluster: pglite) and hands them over as a job; this runs
// them in ONE PGlite instance, in this Node process, and hands back the
// timings, which bench/run writes into its data file as it does a server's.
//
//   node bench/pglite/run.mjs JOB.json OUT.json
//
// JOB.json (written by bench/run): bundle (ulid.tar.gz from bin/pglite),
// init (bench/init.sql), settings (SET in the session before anything
// else), vars (:N, :BULK) and workloads, each with its setup, checks and
// cases and its rounds and warm-up rounds.  OUT.json: the server's
// version() and the packages', the skipped parts, what the notes said, and
// [workload, case index, unit, round, value] rows.
//
// As psql would: scripts are cut into statements and sent one at a time
// (a simple-query message with several statements is one transaction,
// which VACUUM refuses), :N and :BULK are substituted outside quotes, and
// \i FILE includes a file; any other backslash command is refused.  The
// clock is performance.now() around pg.exec() of the timed statement, the
// time of the call as a JavaScript program sees it.
//
// Interleaved as on the server, round by round, with a warm-up first, but
// the order alternates: forward in the warm-up and every other round,
// backward in the others, so that no case always runs right after the same
// one, and any drift in the process (memory growing, the JIT of the
// JavaScript side warming) weighs on both ends of the list alike.
import { PGlite } from '@electric-sql/pglite';
import { pg_uuidv7 } from '@electric-sql/pglite-pg_uuidv7';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function say(...words) {
  process.stderr.write(`bench: ${words.join(' ')}\n`);
}

// A script as psql would send it: a list of statements, variables
// substituted, \i followed.  Quotes, dollar quotes, identifiers and comments
// are skipped over, so that a ';' or ':N' inside them is left alone.
function statements(script, vars, from = ROOT) {
  const out = [];
  let cur = '';
  let i = 0;
  let depth = 0;           // parentheses: a ';' inside them ends nothing
  const n = script.length;
  const atLineStart = () => i === 0 || script[i - 1] === '\n';
  while (i < n) {
    const c = script[i];
    const rest = script.slice(i);
    if (c === '\\' && atLineStart() && !cur.trim()) {
      const line = rest.split('\n', 1)[0];
      const m = line.match(/^\\(i|ir|include)\s+(\S+)\s*$/);
      if (!m) throw new Error(`psql command not supported in PGlite: ${line}`);
      const file = resolve(m[1] === 'ir' ? from : ROOT, m[2]);
      out.push(...statements(readFileSync(file, 'utf8'), vars, dirname(file)));
      i += line.length;
    } else if (rest.startsWith('--')) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (rest.startsWith('/*')) {
      let level = 0;
      do {
        if (script.startsWith('/*', i)) { level++; i += 2; }
        else if (script.startsWith('*/', i)) { level--; i += 2; }
        else i++;
      } while (level > 0 && i < n);
      cur += ' ';
    } else if (c === "'" || c === '"') {
      // E'...' strings take backslash escapes; '' and "" are the quote itself.
      const escapes = c === "'" && /[eE]$/.test(cur) && !/\w[eE]$/.test(cur);
      let j = i + 1;
      while (j < n) {
        if (escapes && script[j] === '\\') j += 2;
        else if (script[j] === c && script[j + 1] === c) j += 2;
        else if (script[j] === c) break;
        else j++;
      }
      cur += script.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$' && /^\$([A-Za-z_]\w*)?\$/.test(rest) && !/\w$/.test(cur)) {
      const tag = rest.match(/^\$([A-Za-z_]\w*)?\$/)[0];
      const end = script.indexOf(tag, i + tag.length);
      if (end < 0) throw new Error(`unterminated dollar quote ${tag}`);
      cur += script.slice(i, end + tag.length);
      i = end + tag.length;
    } else if (c === ':' && script[i + 1] !== ':' && script[i - 1] !== ':' && /^:\w+/.test(rest)) {
      const name = rest.match(/^:(\w+)/)[1];
      if (!(name in vars)) throw new Error(`no variable :${name}`);
      cur += String(vars[name]);
      i += name.length + 1;
    } else if (c === ';' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      i++;
    } else {
      if (c === '(') depth++;
      if (c === ')') depth--;
      cur += c;
      i++;
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

async function runScript(pg, script, vars) {
  let last;
  for (const sql of statements(script, vars)) last = await pg.exec(sql);
  return last;
}

// The first column of the first row of the last statement's result.
async function value(pg, script, vars) {
  const results = await runScript(pg, script, vars);
  const rows = results?.[results.length - 1]?.rows ?? [];
  return rows.length ? Object.values(rows[0])[0] : undefined;
}

// A requires line, as bench/run's met(): a number is the least
// server_version_num, anything else a boolean SQL expression.
async function met(pg, requires, vars) {
  if (!requires) return true;
  const expr = /^\d+$/.test(requires)
    ? `current_setting('server_version_num')::int >= ${requires}` : requires;
  return (await value(pg, `SELECT (${expr});`, vars)) === true;
}

async function main() {
  const [jobFile, outFile] = process.argv.slice(2);
  if (!jobFile || !outFile) {
    console.error('usage: node bench/pglite/run.mjs JOB.json OUT.json (bench/run pglite writes JOB.json)');
    process.exit(2);
  }
  const job = JSON.parse(readFileSync(jobFile, 'utf8'));
  const here = dirname(fileURLToPath(import.meta.url));
  const version = (name) => JSON.parse(readFileSync(
    resolve(here, 'node_modules', name, 'package.json'), 'utf8')).version;
  const out = {
    packages: `@electric-sql/pglite ${version('@electric-sql/pglite')}, `
      + `@electric-sql/pglite-pg_uuidv7 ${version('@electric-sql/pglite-pg_uuidv7')}, `
      + `Node.js ${process.version}`,
    skipped: [], notes: [], values: [],
  };
  const ulid = {
    name: 'ulid',
    setup: async (_pg, opts) => ({ emscriptenOpts: opts, bundlePath: pathToFileURL(job.bundle) }),
  };
  const started = performance.now();
  const pg = await PGlite.create({ extensions: { ulid, pg_uuidv7 } });
  say(`PGlite started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const vars = job.vars;
  for (const setting of job.settings) {
    const [name, val] = setting.split('=');
    await pg.query('SELECT set_config($1, $2, false)', [name, val]);
  }
  await pg.exec('SET client_min_messages = warning');
  await runScript(pg, `\\i ${job.init}\n`, vars);
  out.postgresql = await value(pg, 'SELECT version();', vars);

  for (const w of job.workloads) {
    if (!await met(pg, w.requires, vars)) {
      say(`skipped ${w.name}: PGlite does not meet "requires: ${w.requires}"`);
      out.skipped.push(`${w.name} (requires: ${w.requires})`);
      continue;
    }
    // Cases PGlite cannot run are left out (bench/run drops them from the
    // peers of the others, by the skipped lines).
    const cases = [];
    for (const c of w.cases) {
      if (await met(pg, c.requires, vars)) cases.push(c);
      else out.skipped.push(`${w.name}: ${c.name} (requires: ${c.requires})`);
    }
    say(`${w.name}: ${cases.length} case(s), ${w.warmup} warm-up and ${w.rounds} timed round(s)`);
    if (w.setup.trim()) await runScript(pg, w.setup, vars);
    for (const check of w.checks) {
      if (!await met(pg, check.requires, vars)) continue;
      const ok = await value(pg, check.sql, vars);
      if (ok !== true) throw new Error(`${w.name}: a check failed (${ok}):\n${check.sql}`);
    }
    for (const note of w.notes) {
      if (await met(pg, note.requires, vars)) out.notes.push(`${w.name}: ${await value(pg, note.sql, vars)}`);
    }
    const timed = cases.map((c) => statements(c.timed, vars));
    for (let r = 1 - w.warmup, k = 0; r <= w.rounds; r++, k++) {
      const order = cases.map((_, i) => i);
      if (k % 2 === 1) order.reverse();
      for (const i of order) {
        const c = cases[i];
        if (c.before.trim()) await runScript(pg, c.before, vars);
        for (const sql of timed[i]) {
          const t0 = performance.now();
          await pg.exec(sql);
          const ms = performance.now() - t0;
          if (r > 0) out.values.push([w.name, w.cases.indexOf(c), 'ms', r, ms]);
        }
        if (c.size.trim()) {
          const bytes = Number(await value(pg, c.size, vars));
          if (r > 0) out.values.push([w.name, w.cases.indexOf(c), 'bytes', r, bytes]);
        }
      }
      say(`  ${w.name}: ${r > 0 ? `round ${r}` : 'warm-up'}, ${k % 2 ? 'backward' : 'forward'}`);
    }
  }
  await pg.close();
  writeFileSync(outFile, JSON.stringify(out));
}

main().catch((e) => {
  console.error(`bench/pglite/run.mjs: ${e.stack || e}`);
  process.exit(1);
});
