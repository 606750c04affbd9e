"""Running and timing: the workloads in throwaway clusters of bin/tempcluster
(or in PGlite, in Node), the scale workload's batches, reads and pgbench
points; the data files they write."""

import csv
import datetime
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import workloads as wl
from .common import (BENCH, HOST_MAJOR, ROOT, commit, fail, library, load_average, machine, now, percentile,
                     pg_config, pgbin, psql, restart_cold, say, sha256, tempcluster)

COLUMNS = ["workload", "case", "unit", "round", "value", "vs", "rows", "baseline"]
SCALE_COLUMNS = ["part", "series", "x", "metric", "value"]
# The program the clusters run for their part of a run: bench/run itself.
DRIVER = os.path.join(BENCH, "run")


def variables(params):
    return {"N": params["N"], "BULK": params["BULK"]}


def met(requires, params):
    """Whether the server meets a requires line: a number is the least
    server_version_num, anything else a boolean SQL expression."""
    if not requires:
        return True
    if requires.isdigit():
        requires = "current_setting('server_version_num')::int >= %s" % requires
    return psql("SELECT (%s);\n" % requires, variables(params)).strip() == "t"


def size_flag(params):
    return [] if params["name"] == "full" else ["--" + params["name"]]


#
# Inside a cluster
#

def measure_psql(w, params, rounds, warmup):
    """Time the cases with psql's \\timing, interleaved round by round."""
    script = ["\\o /dev/null\n"]
    for r in range(1 - warmup, rounds + 1):
        for i, case in enumerate(w["cases"]):
            script.append("\\timing off\n%s\\echo @case %d %d\n\\timing on\n%s\\timing off\n"
                          % (case["before"], i, r, case["timed"]))
            if case["size"].strip():
                query = re.sub(r";\s*$", "", case["size"].strip())
                script.append("SELECT (%s) AS size \\gset bench_\n\\echo @size %d %d :bench_size\n"
                              % (query, i, r))
    out = psql("".join(script), variables(params))
    values, case, r = [], None, None
    for line in out.splitlines():
        f = line.split()
        if f[:1] == ["@case"]:
            case, r = int(f[1]), int(f[2])
        elif f[:1] == ["Time:"] and r > 0:
            values.append((case, "ms", r, float(f[1])))
        elif f[:1] == ["@size"] and int(f[2]) > 0:
            values.append((int(f[1]), "bytes", int(f[2]), float(f[3])))
    return values


def pgbench_length(params):
    """How long a pgbench run lasts: seconds, or a tiny run's transactions
    per client."""
    return ["-t", str(params["transactions"])] if "transactions" in params else ["-T", str(params["seconds"])]


def measure_pgbench(w, params, rounds, warmup, tmp):
    """Run each case's statement as a pgbench script, interleaved round by
    round, each round starting one case later than the one before (so that
    no case always follows the same one, or always runs first after the
    warm-up); the value is the time per transaction, 1000 / TPS, in ms."""
    values = []
    n = len(w["cases"])
    for r in range(1 - warmup, rounds + 1):
        for i in [(k + r) % n for k in range(n)]:
            case = w["cases"][i]
            if case["before"].strip():
                psql(case["before"], variables(params))
            script = os.path.join(tmp, "pgbench.sql")
            with open(script, "w") as f:
                f.write(re.sub(r":(N|BULK)\b", lambda m: str(params[m.group(1)]), case["timed"]))
            say("  %s round %d: %s" % (w["name"], r, case["name"]))
            out = subprocess.run([pgbin("pgbench"), "-n", *w["pgbench"].split(), *pgbench_length(params),
                                  "-f", script], capture_output=True, text=True)
            tps = re.search(r"^tps = ([0-9.]+)", out.stdout, re.M)
            if out.returncode != 0 or not tps:
                fail("pgbench failed:\n" + out.stdout + out.stderr)
            if r > 0:
                values.append((i, "ms/tx", r, 1000 / float(tps.group(1))))
    return values


def run_inside(out_file, names, params):
    """Run the named workloads in the cluster of the environment; append the
    raw rows to out_file."""
    psql("\\i bench/init.sql\n", variables(params))
    version = psql("SELECT version();\n").strip()
    tmp = tempfile.mkdtemp(prefix="ulid-bench.")
    try:
        with open(out_file, "a", newline="") as f:
            f.write("# postgresql: %s\n" % version)
            writer = csv.writer(f)

            def skip(what, requires):
                say("skipped %s: this server does not meet \"requires: %s\"" % (what, requires))
                f.write("# skipped: %s (requires: %s)\n" % (what, requires))

            for w in wl.workloads(params, names):
                if not met(w["requires"], params):
                    skip(w["name"], w["requires"])
                    continue
                # Cases, checks and peers the server cannot run are left out.
                unmet = [c for c in w["cases"] if not met(c["requires"], params)]
                for case in unmet:
                    skip("%s: %s" % (w["name"], case["name"]), case["requires"])
                w["cases"] = [c for c in w["cases"] if c not in unmet]
                left = [c["name"] for c in w["cases"]]
                for case in w["cases"]:
                    case["vs"] = [p for p in case["vs"] if p in left]
                w["checks"] = [c for c in w["checks"] if met(c["requires"], params)]
                rounds, warmup = wl.rounds_of(w, params)
                say("%s: %d case(s), %d warm-up and %d timed round(s)"
                    % (w["name"], len(w["cases"]), warmup, rounds))
                if w["setup"].strip():
                    psql(w["setup"], variables(params))
                for check in w["checks"]:
                    last = (psql(check["sql"], variables(params)).strip().splitlines() or [""])[-1]
                    if last != "t":
                        fail("%s: a check failed (%r):\n%s" % (w["name"], last, check["sql"]))
                for note in w["notes"]:
                    if met(note["requires"], params):
                        last = (psql(note["sql"], variables(params)).strip().splitlines() or [""])[-1]
                        f.write("# note: %s: %s\n" % (w["name"], last))
                if w["pgbench"]:
                    values = measure_pgbench(w, params, rounds, warmup, tmp)
                else:
                    values = measure_psql(w, params, rounds, warmup)
                for i, unit, r, value in values:
                    case = w["cases"][i]
                    writer.writerow([w["name"], case["name"], unit, r, "%.7g" % value,
                                     ";".join(case["vs"]), w["rows"], w["baseline"]])
                f.flush()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


#
# A run: one tempcluster per kind of cluster, then the data file
#

def header(start, commit_start, load_start, lib_start, lib_end, lines, run_line, cluster_line, kind=None):
    """The # lines of a data file: when, which commit (as the run began:
    a tree changed since makes the line say so) and library, the load and
    the machine, what the clusters said (once each), how it was run."""
    commit_end = commit()
    return [
        *(["kind: " + kind] if kind else []),
        "date: %s" % start.strftime("%Y-%m-%d %H:%M UTC"),
        "commit: %s" % (commit_start if commit_end == commit_start else
                        "%s, then %s during the run" % (commit_start, commit_end)),
        "library: %s%s" % (lib_start[1], "" if lib_end[0] == lib_start[0] else
                           "; WARNING: replaced during the run by %s" % lib_end[1]),
        "load average: %s at start, %s at end" % (load_start, load_average()),
        "machine: %s" % machine(),
        # postgresql: ... and skipped: ..., from each cluster's run, once each
        *dict.fromkeys(l[2:] for l in lines if l.startswith("# ")),
        run_line,
        cluster_line,
        "runtime: %d s" % (now() - start).total_seconds(),
    ]


def write_data(path, meta, columns, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join("# %s\n" % m for m in meta))
        f.write(",".join(columns) + "\n")
        f.write("".join(l + "\n" for l in lines if not l.startswith("#")))


def data_path(folder, start, suffix=""):
    major = re.search(r"\d+", pg_config("--version")).group(0)
    return os.path.join(folder, start.strftime("%Y-%m-%dT%H%MZ") + suffix
                        + ("" if major == HOST_MAJOR else "-pg" + major) + ".csv")


def run(names, params, folder=None):
    """Run the named workloads (all but the scale and PGlite ones without
    names), each in its cluster; write the data file into folder (results/
    for a full run of all, out/ otherwise) and return its path."""
    start, commit_start, load_start, lib_start = now(), commit(), load_average(), library()
    locale = "en_US.UTF-8" if "en_US.utf8" in subprocess.run(
        ["locale", "-a"], capture_output=True, text=True).stdout.split() else "C.UTF-8"
    settings = wl.SETTINGS + (wl.TINY_SETTINGS if params["name"] == "tiny" else [])
    by_cluster = {}
    for w in wl.workloads(params, names):
        by_cluster.setdefault(w["cluster"], []).append(w["name"])

    raw = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    raw.close()
    for cluster, members in by_cluster.items():
        if cluster == "tle" and not os.path.exists(os.path.join(pg_config("--pkglibdir"), "pg_tle.so")):
            say("skipped cluster tle (%s): pg_tle is not installed for this server (bin/pgtle builds it)"
                % " ".join(members))
            with open(raw.name, "a") as f:
                f.write("# skipped: %s (pg_tle is not installed for this server)\n" % " ".join(members))
            continue
        say("cluster %s: %s" % (cluster, " ".join(members)))
        if not tempcluster(settings + wl.CLUSTERS[cluster],
                           [sys.executable, DRIVER, "--inside", raw.name, *size_flag(params), *members],
                           locale):
            fail("the %s cluster's run failed" % cluster)

    lines = open(raw.name).read().splitlines()
    os.unlink(raw.name)
    length = ("pgbench runs of %d transactions per client" % params["transactions"] if "transactions" in params
              else "pgbench runs of %d s" % params["seconds"])
    meta = header(start, commit_start, load_start, lib_start, library(), lines,
                  "run: %s%s, N=%d, BULK=%d, %d timed round(s) after %d warm-up unless the workload says "
                  "otherwise, %s" % (params["name"], "" if not names else " of " + " ".join(names),
                                     params["N"], params["BULK"], params["rounds"], params["warmup"], length),
                  "cluster: bin/tempcluster -l %s, fsync=off, %s; preloaded: +%s"
                  % (locale, ", ".join(settings), wl.CLUSTERS["preloaded"][0]))
    if folder is None:
        folder = os.path.join(BENCH, "results" if params["name"] == "full" and not names else "out")
    data = data_path(folder, start)
    write_data(data, meta, COLUMNS, lines)
    say("data in %s (%s)" % (os.path.relpath(data, ROOT), meta[-1]))
    return data


#
# PGlite: the workloads of cluster pglite, in one PGlite instance in Node
# (bench/pglite/run.mjs runs them; this parses them and writes the data file)
#

def pglite_job(parts, params, bundle):
    """What bench/pglite/run.mjs is given: the bundle, the settings and the
    parsed workloads with their rounds."""
    for w in parts:
        w["rounds"], w["warmup"] = wl.rounds_of(w, params)
    return {"bundle": bundle, "init": "bench/init.sql", "settings": wl.PGLITE_SETTINGS,
            "vars": variables(params),
            "workloads": [{k: w[k] for k in ("name", "requires", "setup", "checks", "notes", "cases", "rounds",
                                             "warmup")} for w in parts]}


def run_pglite(names, params, folder=None):
    """Build the bundle from this tree (bin/pglite), install the pinned npm
    packages where they are missing or older than the lock file, run the
    named PGlite workloads in one PGlite instance, and write the data file,
    <date>T<HHMM>Z-pglite.csv: under results/ for a full run, out/ for
    another; return its path."""
    start, commit_start, load_start = now(), commit(), load_average()
    # The release bench/pglite pins (pg_uuidv7's PGlite package, a peer
    # measured here, is made for 0.5 only), one of pglite/VERSIONS.
    with open(os.path.join(BENCH, "pglite", "package.json")) as f:
        release = json.load(f)["dependencies"]["@electric-sql/pglite"]
    say("bin/pglite --pglite %s: the bundle of this tree" % release)
    built = subprocess.run([os.path.join(ROOT, "bin", "pglite"), "--pglite", release], stdout=subprocess.PIPE,
                           text=True, cwd=ROOT)
    if built.returncode != 0:
        fail("bin/pglite failed")
    bundle = built.stdout.strip().splitlines()[-1]
    bundle_sum = sha256(bundle)
    here = os.path.join(BENCH, "pglite")
    modules = os.path.join(here, "node_modules", ".package-lock.json")
    if not os.path.exists(modules) or os.path.getmtime(modules) < os.path.getmtime(os.path.join(here, "package-lock.json")):
        say("npm ci in bench/pglite")
        if subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=here).returncode != 0:
            fail("npm ci in bench/pglite failed")

    parts = [w for w in wl.workloads(params, names) if w["cluster"] == "pglite"]
    job = pglite_job(parts, params, bundle)
    tmp = tempfile.mkdtemp(prefix="ulid-bench.")
    with open(os.path.join(tmp, "job.json"), "w") as f:
        json.dump(job, f)
    say("pglite: %s" % " ".join(w["name"] for w in parts))
    node = subprocess.run(["node", os.path.join(here, "run.mjs"), os.path.join(tmp, "job.json"),
                           os.path.join(tmp, "out.json")], cwd=ROOT)
    if node.returncode != 0:
        fail("the PGlite run failed")
    with open(os.path.join(tmp, "out.json")) as f:
        got = json.load(f)
    shutil.rmtree(tmp, ignore_errors=True)

    stamp = datetime.datetime.fromtimestamp(os.path.getmtime(bundle), datetime.timezone.utc)
    meta = [
        "date: %s" % start.strftime("%Y-%m-%d %H:%M UTC"),
        "commit: %s" % (commit_start if commit() == commit_start else
                        "%s, then %s during the run" % (commit_start, commit())),
        "library: %s of %s, sha256 %s%s" % (os.path.relpath(bundle, ROOT), stamp.strftime("%Y-%m-%d %H:%M UTC"),
                                           bundle_sum, "" if sha256(bundle) == bundle_sum else
                                           "; WARNING: replaced during the run, sha256 now %s" % sha256(bundle)),
        "load average: %s at start, %s at end" % (load_start, load_average()),
        "machine: %s" % machine(),
        "postgresql: %s" % got["postgresql"],
        "pglite: %s" % got["packages"],
        *("skipped: %s" % s for s in got["skipped"]),
        *("note: %s" % t for t in got["notes"]),
        "run: %s of %s, N=%d, timed rounds and warm-up: %s, forward and backward in alternate rounds"
        % (params["name"], " ".join(w["name"] for w in parts), params["N"],
           ", ".join("%s %d after %d" % (w["name"], w["rounds"], w["warmup"]) for w in parts)),
        "cluster: one PGlite instance in Node.js (bench/pglite/run.mjs), data directory in memory, "
        "one session; SET %s" % ", ".join(wl.PGLITE_SETTINGS),
        "runtime: %d s" % (now() - start).total_seconds(),
    ]
    folder = folder or os.path.join(BENCH, "results" if params["name"] == "full" else "out")
    os.makedirs(folder, exist_ok=True)
    data = os.path.join(folder, start.strftime("%Y-%m-%dT%H%MZ") + "-pglite.csv")
    by_name = {w["name"]: w for w in parts}
    # In the order of the cases within a round, as run() writes them, whichever
    # way the round went (--report and the report list the cases so).
    order = {w["name"]: k for k, w in enumerate(parts)}
    values = sorted(got["values"], key=lambda v: (order[v[0]], v[3], v[1], v[2] != "ms"))
    with open(data, "w", newline="") as f:
        f.write("".join("# %s\n" % m for m in meta))
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        for name, i, unit, r, value in values:
            w = by_name[name]
            case = w["cases"][i]
            # The peers PGlite ran: run.mjs leaves out the cases it skipped.
            vs = [p for p in case["vs"] if not any(s.startswith("%s: %s " % (name, p)) for s in got["skipped"])]
            writer.writerow([name, case["name"], unit, r, "%.7g" % value, ";".join(vs), w["rows"], w["baseline"]])
    say("data in %s (%s)" % (os.path.relpath(data, ROOT), meta[-1]))
    return data


#
# The scaling workload (kind: scale): batches interleaved across tables,
# figures after every batch, pgbench clients, reads on the grown tables.
# Run by name only; its data file has columns of its own (SCALE_COLUMNS).
#

def pairs(out):
    """The name|value lines of a psql output."""
    return [tuple(line.split("|", 1)) for line in out.splitlines() if "|" in line]


def scale_pgbench(s, series, clients, params, tmp, emit, part):
    """One pgbench point: single-row inserts into a fresh table p keyed as
    the series is, for params["seconds"]; tps and latency percentiles."""
    psql("DROP TABLE IF EXISTS p;\n" + series["create"] + "CHECKPOINT;\n", {"tbl": "p"})
    script = os.path.join(tmp, "insert.sql")
    with open(script, "w") as f:
        f.write(s["pgbench"])
    for old in glob.glob(os.path.join(tmp, "pgbench_log*")):
        os.unlink(old)
    say("  %s, %d client(s): %s" % (part, clients, series["name"]))
    out = subprocess.run([pgbin("pgbench"), "-n", "-M", "prepared", "-c", str(clients),
                          "-j", str(min(clients, 2)), *pgbench_length(params), "-f", script,
                          "-l", "--log-prefix", os.path.join(tmp, "pgbench_log")],
                         capture_output=True, text=True, cwd=tmp)
    tps = re.search(r"^tps = ([0-9.]+)", out.stdout, re.M)
    if out.returncode != 0 or not tps:
        fail("pgbench failed:\n" + out.stdout + out.stderr)
    latencies = []
    for log in glob.glob(os.path.join(tmp, "pgbench_log*")):
        with open(log) as f:
            latencies += [int(line.split()[2]) for line in f]
    latencies.sort()
    emit(part, series["name"], clients, "tps", float(tps.group(1)))
    emit(part, series["name"], clients, "transactions", len(latencies))
    for p in (50, 95, 99):
        emit(part, series["name"], clients, "p%d_ms" % p, percentile(latencies, p) / 1000)


def scale_inside(out_file, cluster, params):
    """Run the scale workloads in the cluster of the environment; append
    the rows (part, series, x, metric, value) and # lines to out_file."""
    psql("\\i bench/init.sql\n")
    tmp = tempfile.mkdtemp(prefix="ulid-bench.")
    os.chmod(tmp, 0o755)
    try:
        with open(out_file, "a", newline="") as f:
            writer = csv.writer(f)

            def emit(part, series, x, metric, value):
                writer.writerow([part, series, x, metric, "%.7g" % float(value)])
                f.flush()

            def note(text):
                f.write("# %s\n" % text)
                f.flush()

            version = psql("SELECT version();\n").strip()
            scope = psql("SELECT ulid_monotonic_scope();\n").strip()
            note("postgresql (%s cluster): %s; gen_monotonic_ulid() scope: %s" % (cluster, version, scope))
            for path in wl.scale_workloads():
                s = wl.parse_scale(path)
                psql(s["setup"])
                series = []
                for one in s["series"]:
                    if one["requires"] and not met(one["requires"], wl.QUICK):
                        say("skipped %s: this server does not meet \"requires: %s\"" % (one["name"], one["requires"]))
                        note("skipped: %s (requires: %s)" % (one["name"], one["requires"]))
                    else:
                        series.append(one)
                if cluster == "plain":
                    scale_load(s, series, params, emit)
                    scale_read(s, series, params, emit, note)
                # A tiny run tries the first client count alone.
                for clients in s["clients"][:1] if params["name"] == "tiny" else s["clients"]:
                    for one in series:
                        if cluster in one["concurrency"]:
                            part = "pgbench" if cluster == "plain" else "pgbench_" + cluster
                            scale_pgbench(s, one, int(clients), params, tmp, emit, part)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def scale_load(s, series, params, emit):
    """The interleaved load: batch b of every table, then batch b + 1."""
    for one in series:
        psql(one["create"], {"tbl": one["table"]})
    psql("CHECKPOINT;\n")
    for b in range(1, params["BATCHES"] + 1):
        for one in series:
            v = {"tbl": one["table"], "B": params["B"]}
            script = (s["before"] + "\\echo @timed\n\\timing on\n" + s["batch"] + "\\timing off\n"
                      + s["after"])
            out = psql(script, v)
            timed = re.search(r"^@timed\nTime: ([0-9.]+) ms", out, re.M)
            if not timed:
                fail("no time for batch %d of %s:\n%s" % (b, one["table"], out))
            emit("load", one["name"], b, "seconds", float(timed.group(1)) / 1000)
            figures = dict(pairs(out))
            for metric, value in figures.items():
                emit("load", one["name"], b, metric, value)
            say("  batch %d/%d %s: %.2f s, WAL %.0f MB, index %.0f MB, leaf density %s%%"
                % (b, params["BATCHES"], one["name"], float(timed.group(1)) / 1000,
                   float(figures.get("wal_bytes", 0)) / 2**20, float(figures.get("index_bytes", 0)) / 2**20,
                   figures.get("leaf_density", "?")))


def scale_read(s, series, params, emit, note):
    """Point lookups of K sampled keys and one-"hour" window scans (1/window
    of the load, in the middle of it) on the grown tables, cold and warm."""
    total = params["BATCHES"] * params["B"]
    width = max(1, total // s["window"])
    note("read side: %d keys looked up per table; window of %d rows (1/%d of the load), from row %d "
         "in insertion order" % (params["K"], width, s["window"], total // 2))
    for one in series:
        v = {"tbl": one["table"], "sample": "sample_" + one["table"]}
        say("  read side, preparing %s" % one["table"])
        prepare = "VACUUM ANALYZE :tbl;\n"
        if one["order"] != "id":
            prepare += "CREATE INDEX ON :tbl (%s);\nANALYZE :tbl;\n" % one["order"]
            note("read side: %s has an index on %s, made for its window after the load"
                 % (one["table"], one["order"]))
        # A Bernoulli sample a little larger than K, then K of it in random order.
        pct = min(100.0, 100.0 * params["K"] * 1.5 / total)
        prepare += ("CREATE TABLE :sample AS SELECT id FROM (SELECT id FROM :tbl TABLESAMPLE BERNOULLI (%r)) x "
                    "ORDER BY random() LIMIT %d;\nVACUUM ANALYZE :sample;\n" % (pct, params["K"]))
        psql(prepare, v)
        bounds = psql("SELECT id AS lo_id, created_at AS t1 FROM :tbl ORDER BY %s OFFSET %d LIMIT 1 \\gset\n"
                      "SELECT id AS hi_id, created_at AS t2 FROM :tbl ORDER BY %s OFFSET %d LIMIT 1 \\gset\n"
                      "SELECT :'lo_id' || '|' || :'hi_id' || '|' || :'t1' || '|' || :'t2';\n"
                      % (one["order"], total // 2, one["order"], total // 2 + width), v)
        one["bounds"] = dict(zip(["lo_id", "hi_id", "t1", "t2"], bounds.strip().split("|")))

    def timed(one, sql, extra):
        out = psql("\\timing on\n" + sql, dict({"tbl": one["table"], "sample": "sample_" + one["table"]}, **extra))
        times = re.findall(r"^Time: ([0-9.]+) ms", out, re.M)
        rows = [l for l in out.splitlines() if l and not l.startswith("Time:") and l != "SET"]
        return float(times[-1]), rows[-1].split("|")[0] if rows else ""

    # What the reads do, in the data file: the plans without costs.
    for one in series:
        v = dict({"tbl": one["table"], "sample": "sample_" + one["table"]}, **one["bounds"])
        for what, sql in (("lookup", s["lookup"]), ("window", one["window"])):
            plan = psql(re.sub(r"^SELECT", "EXPLAIN (COSTS OFF) SELECT", sql.strip(), flags=re.M), v)
            steps = [l.strip().lstrip("-> ").strip() for l in plan.splitlines()
                     if l.strip() and not l.strip().startswith(("Index Cond", "Filter", "Recheck"))]
            note("plan of %s, %s: %s" % (what, one["table"], " > ".join(steps)))

    # Cold: each table's first read of the kind after a restart and an empty
    # page cache (a lookup warms the upper levels of the index a window scan
    # uses, so lookups and windows have a restart each); then warm repeats.
    for what in ("lookup", "window"):
        how = restart_cold(drop=params["name"] != "tiny")
        note("cold %s: %s, then the catalogs read by a session of their own" % (what, how))
        for one in series:
            sql = s["lookup"] if what == "lookup" else one["window"]
            ms, count = timed(one, sql, one["bounds"])
            emit("read", one["name"], "cold", what + "_ms", ms)
            emit("read", one["name"], "cold", what + "_rows", count)
        for r in range(params["warm"]):
            for one in series:
                sql = s["lookup"] if what == "lookup" else one["window"]
                ms, count = timed(one, sql, one["bounds"])
                emit("read", one["name"], "warm", what + "_ms", ms)
                emit("read", one["name"], "warm", what + "_rows", count)
        say("  read side: %s done" % what)


def run_scale(params, folder=None):
    """The scale workloads: the load, reads and pgbench points in a cluster
    with the file's settings, the preloaded pgbench points in another;
    return the data file's path."""
    start, commit_start, load_start, lib_start = now(), commit(), load_average(), library()
    paths = wl.scale_workloads()
    settings = sorted(set(x for p in paths for x in wl.parse_scale(p)["settings"]))
    raw = tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False)
    raw.close()
    os.chmod(raw.name, 0o644)
    for cluster in ("plain", "preloaded"):
        say("scale, %s cluster" % cluster)
        if not tempcluster(settings + wl.CLUSTERS[cluster], [sys.executable, DRIVER, "--inside-scale", raw.name,
                                                              "--cluster", cluster, *size_flag(params)]):
            fail("the scale run's %s cluster failed" % cluster)
    full = params["name"] == "full" and params["BATCHES"] == 20 and params["B"] == 1000000
    lines = open(raw.name).read().splitlines()
    os.unlink(raw.name)
    length = ("%d transactions per client" % params["transactions"] if "transactions" in params
              else "%d s" % params["seconds"])
    meta = header(start, commit_start, load_start, lib_start, library(), lines,
                  "run: %s, %d batches of %d rows per table, pgbench points of %s, -M prepared, -j 2"
                  % (params["name"] if params["name"] != "full" or full else "full-length pgbench points",
                     params["BATCHES"], params["B"], length),
                  "cluster: bin/tempcluster, fsync=off, %s; pgbench_preloaded: +%s"
                  % (", ".join(settings), wl.CLUSTERS["preloaded"][0]), kind="scale")
    data = data_path(folder or os.path.join(BENCH, "results" if full else "out"), start, "-scale")
    write_data(data, meta, SCALE_COLUMNS, lines)
    say("data in %s (%s)" % (os.path.relpath(data, ROOT), meta[-1]))
    return data


#
# A recording run's server: a private copy of the host's, with the commit's
# build installed in it alone
#

def private_server(tmp):
    """Copy the server of PG_CONFIG (its programs, libraries, share and
    headers; PostgreSQL finds them relative to its programs) under tmp, build
    the committed tree (git archive HEAD) and install it there; point
    PG_CONFIG at the copy.  No one else's make install can then replace the
    library during the run, and the library measured is the commit's."""
    for option in ("--bindir", "--pkglibdir", "--sharedir", "--includedir", "--pkgincludedir",
                   "--includedir-server"):
        where = pg_config(option)
        copy = tmp + where
        if os.path.isdir(where) and not os.path.exists(copy):
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            shutil.copytree(where, copy, symlinks=True)
    config = tmp + pg_config("--bindir") + "/pg_config"
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    archive = subprocess.run(["git", "-C", ROOT, "archive", "HEAD"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    say("building the commit into a private copy of the server: %s" % config)
    for target in ("all", "install"):
        if subprocess.run(["make", "-s", "-C", src, "PG_CONFIG=" + config, target],
                          stdout=subprocess.DEVNULL).returncode != 0:
            fail("make %s of the committed tree failed" % target)
    # The clusters run as postgres: the copy must be readable, and the
    # tree's files are read from ROOT, which is the commit.
    subprocess.run(["chmod", "-R", "a+rX", tmp], check=True)
    os.environ["PG_CONFIG"] = config
    return config
