"""Reporting: the table of a data file (--report), each ratio across data
files (--history), and the report of a recording run: BENCHMARKS.md, whole,
and the README's performance table, from the data files of one run."""

import csv
import glob
import os
import re
import statistics

from .common import BENCH, HOST_MAJOR, ROOT, fail, say
from .running import COLUMNS, SCALE_COLUMNS

def summary(values):
    """The one statistic of the benchmark: the median of the timed rounds,
    and their minimum.  Data files converted from older reports hold only
    the median, as the round "median"."""
    rounds = [float(v["value"]) for v in values if v["round"] != "median"]
    if not rounds:
        return float(values[0]["value"]), None
    return statistics.median(rounds), min(rounds)


def load(path):
    """meta lines and the figures of a data file: {(workload, case, unit):
    {median, min, vs, rows, baseline}} in the file's order."""
    with open(path) as f:
        text = f.read().splitlines()
    meta = [l[2:] for l in text if l.startswith("# ")]
    rows = list(csv.DictReader(l for l in text if not l.startswith("#")))
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["case"], r["unit"]), []).append(r)
    figures = {}
    for key, values in groups.items():
        median, least = summary(values)
        figures[key] = {"median": median, "min": least, "vs": [p for p in values[0]["vs"].split(";") if p],
                        "rows": values[0]["rows"], "baseline": values[0]["baseline"]}
    return meta, figures


def show(value, unit):
    if value is None:
        return ""
    if unit == "bytes":
        return "%.1f MB" % (value / 2**20)
    if unit == "ms/tx":
        return "%.1f µs/tx" % (value * 1000)
    return "%.2f s" % (value / 1000) if value >= 1000 else "%.1f ms" % value


def show_ratio(r):
    return "%.0f" % r if r >= 100 else "%.1f" % r if r >= 10 else "%.2f" % r if r >= 1 else "%.3f" % r


def ratio_of(figures, key, peer):
    other = figures.get((key[0], peer, key[2]))
    return key[1] and other and figures[key]["median"] / other["median"]


def detail(figures, key):
    fig, unit = figures[key], key[2]
    if unit == "ms/tx":
        return "%.0f TPS" % (1000 / fig["median"])
    if unit != "ms" or not fig["rows"]:
        return ""
    rows = int(fig["rows"])
    text = "%.2f M rows/s" % (rows / fig["median"] / 1000)
    base = figures.get((key[0], fig["baseline"], unit))
    if base and key[1] != fig["baseline"]:
        text += "; %+.1f ns/row over %s" % ((fig["median"] - base["median"]) * 1e6 / rows, fig["baseline"])
    return text


def budget(figures, workload):
    """For a workload with a floor and gen_random_uuid(): what a call may cost
    above the floor for ten times gen_random_uuid()'s rows/s, in ns."""
    uuid = figures.get((workload, "gen_random_uuid()", "ms"))
    if not uuid or not uuid["baseline"]:
        return None
    floor = figures.get((workload, uuid["baseline"], "ms"))
    return floor and (uuid["median"] / 10 - floor["median"]) * 1e6 / int(uuid["rows"])


def table(path):
    meta, figures = load(path)
    out = ["Data: `%s`" % os.path.relpath(path, ROOT), ""]
    out += ["- %s" % m for m in meta]
    out += ["", "| Workload | Case | Median | Min | Detail | Ratio to peer |", "|---|---|---:|---:|---|---|"]
    for key, fig in figures.items():
        name = key[1] + (" (size)" if key[2] == "bytes" else "")
        ratios = ", ".join("%s× %s" % (show_ratio(ratio_of(figures, key, p)), p)
                           for p in fig["vs"] if ratio_of(figures, key, p))
        out.append("| %s | %s | %s | %s | %s | %s |" % (key[0], name, show(fig["median"], key[2]),
                                                       show(fig["min"], key[2]), detail(figures, key), ratios))
    notes = [(w, budget(figures, w)) for w in dict.fromkeys(k[0] for k in figures)]
    out += [""] + ["%s: for 10× gen_random_uuid()'s rows/s a call may cost %.1f ns over the floor."
                   % (w, b) for w, b in notes if b is not None]
    return "\n".join(out).rstrip() + "\n", figures


def report(path):
    """The full table of a data file, either kind."""
    return scale_report(path) if is_scale_data(path) else table(path)[0]


def history(paths):
    """Each case's ratio to its first peer in each data file, side by side."""
    paths = sorted(p for p in paths or glob.glob(os.path.join(BENCH, "results", "*.csv")) if is_run_data(p))
    runs = [load(p)[1] for p in paths]
    keys = list(dict.fromkeys(k for figures in runs for k, f in figures.items() if f["vs"]))
    out = ["| Workload | Case | Peer | %s |" % " | ".join(os.path.basename(p)[:-4] for p in paths),
           "|---|---|---|" + "---:|" * len(paths)]
    for key in keys:
        peer = next(f["vs"][0] for f in (r.get(key) for r in runs) if f)
        cells = [show_ratio(ratio_of(r, key, peer)) if key in r and ratio_of(r, key, peer) else ""
                 for r in runs]
        out.append("| %s | %s%s | %s | %s |" % (key[0], key[1], " (size)" if key[2] == "bytes" else "",
                                              peer, " | ".join(cells)))
    return "\n".join(out) + "\n"


def scale_load_data(path):
    with open(path) as f:
        text = f.read().splitlines()
    meta = [l[2:] for l in text if l.startswith("# ")]
    rows = list(csv.DictReader(l for l in text if not l.startswith("#")))
    data = {}
    for r in rows:
        data.setdefault((r["part"], r["series"], r["x"], r["metric"]), []).append(float(r["value"]))
    series = list(dict.fromkeys(r["series"] for r in rows if r["part"] == "load"))
    batches = sorted({int(r["x"]) for r in rows if r["part"] == "load"})
    rows_per_batch = int(re.search(r"batches of (\d+) rows", " ".join(meta)).group(1))
    return meta, data, series, batches, rows_per_batch


def scale_report(path):
    """The tables of a scale data file, in Markdown."""
    meta, data, series, batches, per = scale_load_data(path)
    first, last = batches[0], batches[-1]
    half = [b for b in batches if b > last / 2] or batches     # the second half of the load

    def get(part, s, x, metric):
        v = data.get((part, s, str(x), metric))
        return statistics.median(v) if v else None

    def mean(s, metric, xs):
        v = [get("load", s, b, metric) for b in xs]
        v = [x for x in v if x is not None]
        return sum(v) / len(v) if v else None

    def fmt(v, spec):
        return "" if v is None else spec % v

    million = per / 1e6
    ref = series[0]                   # bigint identity, the file's first series
    mono = next((s for s in series if "monotonic" in s), None)
    out = ["Data: `%s`" % os.path.relpath(path, ROOT), ""] + ["- %s" % m for m in meta] + [""]
    out += ["Load, %d batches of %s rows per table, interleaved (\"second half\": batches %d to %d):"
            % (len(batches), format(per, ","), half[0], last), "",
            "| Series | s per 1M rows, batch %d | batch %d | last ÷ first | last ÷ %s's | WAL bytes/row, 2nd half "
            "| ÷ %s's | full-page images, %% of WAL | index MB at %s rows | ÷ %s's | leaf density | table MB "
            "| index reads per batch, 2nd half |"
            % (first, last, ref, ref, format(per * last, ","), mono or ref),
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in series:
        s1, sl = get("load", s, first, "seconds"), get("load", s, last, "seconds")
        rl = get("load", ref, last, "seconds")
        wal, walr = mean(s, "wal_bytes", half), mean(ref, "wal_bytes", half)
        fpi = mean(s, "fpi_bytes", half)
        idx, idxm = get("load", s, last, "index_bytes"), get("load", mono or ref, last, "index_bytes")
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s, fmt(s1 and s1 / million, "%.2f"), fmt(sl and sl / million, "%.2f"),
            fmt(s1 and sl and sl / s1, "%.2f"), fmt(rl and sl and sl / rl, "%.2f"),
            fmt(wal and wal / per, "%.0f"), fmt(wal and walr and wal / walr, "%.2f"),
            fmt(wal and fpi is not None and 100 * fpi / wal, "%.0f%%"), fmt(idx and idx / 2**20, "%.0f"),
            fmt(idx and idxm and idx / idxm, "%.2f"), fmt(get("load", s, last, "leaf_density"), "%.1f%%"),
            fmt(get("load", s, last, "table_bytes") and get("load", s, last, "table_bytes") / 2**20, "%.0f"),
            fmt(mean(s, "index_read", half), "%.0f")))
    out += ["", "Seconds per 1M rows, batch by batch:", "",
            "| Batch | rows before | %s |" % " | ".join(series), "|---:|---:|" + "---:|" * len(series)]
    for b in batches:
        out.append("| %d | %s | %s |" % (b, format(per * (b - 1), ","), " | ".join(
            fmt(get("load", s, b, "seconds") and get("load", s, b, "seconds") / million, "%.2f")
            for s in series)))
    for part in sorted({k[0] for k in data if k[0].startswith("pgbench")}):
        names = list(dict.fromkeys(k[1] for k in data if k[0] == part))
        clients = sorted({int(k[2]) for k in data if k[0] == part})
        base = names[0]
        out += ["", "%s: single-row inserts, TPS (p50 / p99 latency, ms); ratio to %s's TPS at %d clients:"
                % (part, base, clients[-1]), "",
                "| Series | %s | ÷ %s at %d |" % (" | ".join("%d client%s" % (c, "s" * (c > 1)) for c in clients),
                                                base, clients[-1]),
                "|---|" + "---:|" * (len(clients) + 1)]
        for s in names:
            cells = ["%.0f (%.2f / %.2f)" % (get(part, s, c, "tps"), get(part, s, c, "p50_ms"),
                                             get(part, s, c, "p99_ms"))
                     if get(part, s, c, "tps") else "" for c in clients]
            top, topb = get(part, s, clients[-1], "tps"), get(part, base, clients[-1], "tps")
            out.append("| %s | %s | %s |" % (s, " | ".join(cells), fmt(top and topb and top / topb, "%.2f")))
    if any(k[0] == "read" for k in data):
        out += ["", "Reads on the grown tables: µs per point lookup; one-\"hour\" window scan, ms (rows); "
                "cold = first after a restart and an empty page cache, warm = median of the repeats:", "",
                "| Series | lookup, cold | lookup, warm | window, cold | window, warm | rows in window |",
                "|---|---:|---:|---:|---:|---:|"]
        keys = int(re.search(r"(\d+) keys looked up", " ".join(meta)).group(1))
        for s in series:
            out.append("| %s | %s | %s | %s | %s | %s |" % (
                s, fmt(get("read", s, "cold", "lookup_ms") and get("read", s, "cold", "lookup_ms") * 1000 / keys,
                       "%.1f"),
                fmt(get("read", s, "warm", "lookup_ms") and get("read", s, "warm", "lookup_ms") * 1000 / keys,
                    "%.1f"),
                fmt(get("read", s, "cold", "window_ms"), "%.1f"), fmt(get("read", s, "warm", "window_ms"), "%.1f"),
                fmt(get("read", s, "warm", "window_rows"), "%.0f")))
    return "\n".join(out) + "\n"


def is_run_data(path):
    """Whether a file is the data file of a run of workloads (results/ also
    holds the data of bench/cold_lookups and bench/engines)."""
    with open(path) as f:
        return any(line.strip() == ",".join(COLUMNS) for line in f)


def is_scale_data(path):
    with open(path) as f:
        return any(line.strip() == ",".join(SCALE_COLUMNS) for line in f)



#
# The report of a recording run: BENCHMARKS.md, whole, and the README's
# performance table, from the data files of one run of one committed tree
#

# The questions the report answers, one section each: a title, and the
# workloads whose cases answer it, each with the label its cases carry in
# the table (none where the case names tell them apart).  A workload of the
# data that no question names gets a section of its own, under its name.
QUESTIONS = [
    ("Generating ids", [("generate", ""), ("generate_v7", "v7"), ("contention", "8 clients, preloaded"),
                        ("peers_v7", "UUIDv7 peers, 18")]),
    ("Text output and input", [("text_io", "")]),
    ("Sorting, index builds, DISTINCT", [("order_by", "ORDER BY"), ("create_index", "CREATE INDEX"),
                                          ("distinct", "DISTINCT"), ("sort_generated", "generated ids")]),
    ("Inserting into a keyed table", [("bulk_insert", "bulk"), ("pgbench_insert", "8 clients"),
                                      ("clients64", "64 clients, durable")]),
    ("Joins and lookups", [("joins", ""), ("lookup", "lookup"), ("half_converted", "half-converted key")]),
    ("Planning time of time windows", [("planning", "")]),
    ("Public ids: ulid_encrypt() and ulid_decrypt() per call", [("public_ids", "")]),
    ("The trusted-language edition (pg_tle) against the native type", [("tle", "")]),
    ("PGlite (WebAssembly, 32-bit): ulid against uuid in the same instance", [("pglite", "")]),
]
# Left to --report: gen_ulid()'s cost ns by ns, the preloaded cluster's
# repeats of the plain figures, 1.1's estimate comparisons with 1.0 and
# min()'s combine function, to keep BENCHMARKS.md to today's questions.
UNRECORDED = ["decompose", "generate_preloaded", "generate_v7_preloaded", "pgbench_insert_preloaded",
              "time_window", "aggregate"]
# The statement that makes the rows and does nothing else: what the ns per
# call of --report are counted from, no choice a user has.
FLOOR = "floor"
# The questions that need another server or a run of their own, which a
# recording run on this machine's major does not answer: a title, how they
# are run, and the names of their data files in results/ (named, not read:
# the report depends on the run's data files alone).
ELSEWHERE = [
    ("Generating and inserting against PostgreSQL 18's uuidv7() and pg_uuidv7",
     "`PG_MAJOR=18 bench/run peers_v7 generate bulk_insert` in `bin/pgenv 18`", "*-pg18.csv"),
    ("Citus and TimescaleDB", "`bin/pgenv 17 -- bench/engines`", "*-engines-pg17.csv"),
    ("As tables grow (20M rows a table)", "`bench/run scale`, 22 minutes", "*-scale.csv"),
    ("Cold lookups after a restart", "`bench/cold_lookups`", "*-cold_lookups.csv"),
    ("PGlite (WebAssembly, 32-bit)", "`bench/run --record pglite`", "*-pglite.csv"),
]

# The README's performance table: a row's question, its figures (workload,
# case, unit, peer), and what they are against.  The same figures are in
# bold in BENCHMARKS.md.
README_ROWS = [
    ("generating ids", [("generate", "gen_ulid()", "ms", "gen_random_uuid()")], "`gen_random_uuid()`"),
    ("text in, out", [("text_io", "text::ulid", "ms", "text::uuid"), ("text_io", "ulid::text", "ms", "uuid::text")],
     "`uuid`'s"),
    ("sorting, indexing", [("order_by", "ulid", "ms", "uuid"), ("create_index", "ulid", "ms", "uuid")], "`uuid`"),
    ("3M-row insert by `gen_ulid()`", [("bulk_insert", "ulid gen_ulid()", "ms", "bigint identity")],
     "`bigint` identity"),
    ("64 clients inserting", [("clients64", "ulid gen_ulid()", "ms/tx", "bigint identity")], "`bigint` identity"),
    ("planning 1,000 time windows", [("planning", "1000 windows: ulid, time bounds", "ms",
                                      "1000 windows: timestamptz")], "on a `timestamptz` column"),
    ("`ulid_encrypt(id)`, `ulid_decrypt(p)`",
     [("public_ids", "encrypt: ulid_encrypt() under the server's key", "ms", "encrypt: ulid_encrypt() under a key passed"),
      ("public_ids", "decrypt: ulid_decrypt() under the server's key", "ms", "decrypt: ulid_decrypt() under a key passed")],
     "a key passed"),
    ("pg_tle edition: generating", [("tle", "gen: edition gen_ulid()", "ms", "gen: native gen_ulid()")],
     "the native type"),
]
HEADLINES = [key for _, keys, _ in README_ROWS for key in keys]

# What BENCHMARKS.md may weigh, and the README's markers around the table.
REPORT_BYTES = 10240
README_BEGIN = "<!-- bench/run --record writes this table: begin -->\n"
README_END = "<!-- bench/run --record: end -->\n"


def meta_value(meta, key):
    """The first header line of a data file under key (or "key (...)")."""
    return next((l.split(": ", 1)[1] for l in meta
                 if l.startswith(key + ":") or l.startswith(key + " (")), "")


def major_of(meta):
    found = re.search(r"PostgreSQL (\d+)", meta_value(meta, "postgresql"))
    return found.group(1) if found else HOST_MAJOR


def meta_of(path):
    return [l[2:].rstrip("\n") for l in open(path) if l.startswith("# ")]


def recordable(path):
    """Why a data file cannot be recorded, or None: it must come from a
    committed tree without changes, of a full run, its library unchanged."""
    meta = meta_of(path)
    commit_line = meta_value(meta, "commit")
    if not re.match(r"[0-9a-f]{7,}$", commit_line):
        return "its commit is not known to be without uncommitted changes (%s)" % (commit_line or "none")
    if not meta_value(meta, "run").startswith("full"):
        return "it is not a full run (%s)" % meta_value(meta, "run").split(",")[0]
    if "WARNING" in meta_value(meta, "library"):
        return "its library was replaced during the run"
    return None


def facts(meta):
    """A data file's header in a sentence: when, which commit and server,
    the machine and its load, how long."""
    out = ["%s at commit %s" % (meta_value(meta, "date") or "undated", meta_value(meta, "commit").split()[0])]
    server = re.search(r"PostgreSQL [\d.]+", meta_value(meta, "postgresql"))
    if server:
        out.append(server.group(0))
    machine = re.match(r"nproc (\d+), (.*), (\d+ GiB) RAM", meta_value(meta, "machine"))
    if machine:
        out.append("%s CPUs (%s), %s" % machine.groups())
    load_avg = re.match(r"(\S+ \S+ \S+) at start, (\S+ \S+ \S+)", meta_value(meta, "load average"))
    if load_avg:
        out.append("load average (1, 5, 15 min) %s at start, %s at end" % load_avg.groups())
    if meta_value(meta, "runtime"):
        out.append(meta_value(meta, "runtime"))
    return ", ".join(out)


def peers(figures, key, bold=()):
    """A case's ratios to its peers, {peer: "0.130"}, headlines in bold; to
    the workload's baseline (aggregate's serial min()) only where the case
    has no other peer, never to the floor.  A peer whose name begins as the
    case's ("sort: uuid" of "sort: ulid") is named by the rest."""
    fig = figures[key]
    found = {p: ratio_of(figures, key, p) for p in fig["vs"] if ratio_of(figures, key, p) and p != FLOOR}
    if len(found) > 1:
        found.pop(fig["baseline"], None)
    prefix = key[1].partition(": ")[0] + ": "
    names = {p: p[len(prefix):] if ": " in key[1] and p.startswith(prefix) else p for p in found}
    if len(set(names.values())) < len(names):
        names = {p: p for p in found}
    return {names[p]: ("**%s**" if key + (p,) in bold else "%s") % show_ratio(r) for p, r in found.items()}


def questions(figures, bold=()):
    """[(title, rows)] for the workloads of a data file, in the order of
    QUESTIONS, then the workloads no question names; a row is (label, case,
    {peer: ratio})."""
    present = list(dict.fromkeys(k[0] for k in figures))
    named = [w for _, members in QUESTIONS for w, _ in members] + UNRECORDED
    out = []
    for title, members in QUESTIONS + [(w, [(w, "")]) for w in present if w not in named]:
        rows = [(label, key[1] + (" (size)" if key[2] == "bytes" else ""), peers(figures, key, bold))
                for w, label in members for key in figures if key[0] == w and peers(figures, key)]
        if rows:
            out.append((title, rows))
    return out


def ratio_table(rows, by_column=None):
    """The lines of a table of rows: by default a column a peer, a cell the
    row's median ÷ the column's; with one peer a case, or by_column False,
    the peers named beside the ratios instead.  The labels of the rows get
    a column of their own where they differ."""
    where = len({label for label, _, _ in rows}) > 1
    lead = ["| |", "|---"] if where else ["|", ""]
    cells = []
    for i, (label, case, found) in enumerate(rows):
        first = i == 0 or rows[i - 1][0] != label
        cells.append(("| %s |" % label if where and first and label else "| |" if where else "|") + " %s |" % case)
    columns = list(dict.fromkeys(p for _, _, found in rows for p in found))
    if by_column is None:       # a column a peer, unless that makes the table too wide to read
        by_column = any(len(found) > 1 for _, _, found in rows) and len(columns) <= 6
    if not by_column:
        return [lead[0] + " Case | Ratio |", lead[1] + "|---|---|"] + [
            "%s %s |" % (c, ", ".join("%s× %s" % (r, p) for p, r in found.items()))
            for c, (_, _, found) in zip(cells, rows)]
    return [lead[0] + " Case | %s |" % " | ".join(columns), lead[1] + "|---|" + "---:|" * len(columns)] + [
        c + "".join(" %s |" % found[p] if p in found else " |" for p in columns)
        for c, (_, _, found) in zip(cells, rows)]


def pglite_method(meta):
    """How a PGlite data file was measured, in a sentence from its header."""
    run_line, cluster = meta_value(meta, "run"), meta_value(meta, "cluster")
    rows = int(re.search(r"N=(\d+)", run_line).group(1))
    rounds = "; ".join("%s: %s timed rounds after %s warm-up" % m
                       for m in re.findall(r"(\w+) (\d+) after (\d+)", run_line))
    return ("%s; N = %s rows; %s, the cases forward and backward in alternate rounds, a figure the median; %s."
            % (meta_value(meta, "pglite"), format(rows, ","), rounds, cluster.replace("; SET ", "; set: ")))


def scale_text(path):
    """A scale data file's section: one table, each series against the
    first one (bigint identity) of the same run."""
    meta, data, series, batches, per = scale_load_data(path)
    quarter = max(1, len(batches) // 4)
    first, last = batches[:quarter], batches[-quarter:]

    def get(part, s, x, metric):
        v = data.get((part, s, str(x), metric))
        return statistics.median(v) if v else None

    def mean(s, metric, xs):
        v = [x for x in (get("load", s, b, metric) for b in xs) if x is not None]
        return sum(v) / len(v) if v else None

    def over(a, b, spec="%.2f"):
        return spec % (a / b) if a and b else ""

    ref = series[0]
    pgbench = sorted({k[0] for k in data if k[0].startswith("pgbench")})
    top = max((int(k[2]) for k in data if k[0] == "pgbench"), default=None)
    out = ["%d batches of %s rows per table, interleaved. Ratios to %s's (the first column: to the series' own "
           "first batches); %s clients: time per insert:" % (len(batches), format(per, ","), ref, top),
           "",
           "| Series | time/row, last %d ÷ first %d batches | time/row, last %d | WAL/row | key size "
           "| leaf density | %s clients | warm window |" % (quarter, quarter, quarter, top),
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for s in series:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s, over(mean(s, "seconds", last), mean(s, "seconds", first)),
            over(mean(s, "seconds", last), mean(ref, "seconds", last)),
            over(mean(s, "wal_bytes", last), mean(ref, "wal_bytes", last)),
            over(get("load", s, batches[-1], "index_bytes"), get("load", ref, batches[-1], "index_bytes")),
            "%.0f%%" % get("load", s, batches[-1], "leaf_density")
            if get("load", s, batches[-1], "leaf_density") else "",
            over(get("pgbench", ref, top, "tps"), get("pgbench", s, top, "tps")),
            over(get("read", s, "warm", "window_ms"), get("read", ref, "warm", "window_ms"))))
    for part in pgbench[1:]:
        names = list(dict.fromkeys(k[1] for k in data if k[0] == part))
        for s in names[1:]:
            out.append("| %s, %s | | | | | | %s | |" % (s, part[len("pgbench_"):], over(
                get(part, names[0], top, "tps"), get(part, s, top, "tps"))))
    out += ["", "Plots: [by batch](bench/plots/scale.png), [by clients](bench/plots/scale_clients.png)."]
    return out


def link(path):
    return "[%s](%s)" % (os.path.basename(path), os.path.relpath(path, ROOT))


def kind_of(path):
    """A data file of a run: "main" (the workloads in the server), "pglite"
    or "scale"."""
    if is_scale_data(path):
        return "scale"
    return "pglite" if meta_value(meta_of(path), "pglite") else "main"


def render(paths, check=True):
    """BENCHMARKS.md and the README's performance table, from the data files
    of one recording run (one main file, at most one PGlite and one scale
    file), all of one commit.  With check, refuses files that cannot be
    recorded (recordable())."""
    by_kind = {}
    for path in paths:
        why = recordable(path) if check else None
        if why:
            fail("%s cannot be recorded: %s" % (os.path.relpath(path, ROOT), why))
        if kind_of(path) in by_kind:
            fail("two data files of one kind (%s) for one report" % kind_of(path))
        by_kind[kind_of(path)] = path
    if "main" not in by_kind:
        fail("a report needs the data file of the workloads in the server")
    commits = {meta_value(meta_of(p), "commit").split()[0] for p in paths}
    if len(commits) > 1:
        fail("the data files are of different commits (%s): one report is one run" % ", ".join(sorted(commits)))
    main = by_kind["main"]
    meta, figures = load(main)
    files = ", ".join(link(p) for p in paths)
    out = ["# Benchmarks", "",
           "How `ulid` compares with what a user would pick instead: `uuid` (`gen_random_uuid()`), UUIDv7 "
           "or ULID made in SQL, `text`, `bigint` keys, pgcrypto. A cell is its row's median ÷ the median of the "
           "peer heading its column (or named after the ×) in the same run: **below 1.00, faster or "
           "smaller**. Ratios carry over to other machines; absolute times do not. \"(size)\": index sizes; "
           "pgbench cases: time per transaction. In bold: the figures the README quotes.", "",
           "One run of `bench/run --record`: %s. Data: %s." % (facts(meta), files)]
    skipped = dict.fromkeys(re.sub(r" \(requires.*| \(pg_tle.*", "", l[len("skipped: "):])
                            for l in meta if l.startswith("skipped: "))
    if skipped:
        out[-1] += " Skipped, not on this server: %s." % ", ".join(skipped)
    found = questions(figures, HEADLINES)
    for title, rows in found:
        out += ["", "## " + title, ""] + ratio_table(rows)
    done = [t for t, _ in found]
    if "pglite" in by_kind:
        pmeta, pfigures = load(by_kind["pglite"])
        rows = [r for _, rs in questions(pfigures) for r in rs]
        title = QUESTIONS[-1][0]
        load_avg = re.match(r"(\S+ \S+ \S+) at start, (\S+ \S+ \S+)", meta_value(pmeta, "load average"))
        out += ["", "## " + title, "", "In %s Its server: %s; load average %s at start, %s at end; %s."
                % (pglite_method(pmeta), re.search(r"PostgreSQL [\d.]+", meta_value(pmeta, "postgresql")).group(0),
                   load_avg.group(1), load_avg.group(2), meta_value(pmeta, "runtime")), ""]
        out += ratio_table(rows, by_column=False)
        notes = ["Note: %s." % l[len("note: "):].split(": ", 1)[1] for l in pmeta if l.startswith("note: ")]
        out += [""] * bool(notes) + notes
        done.append("PGlite (WebAssembly, 32-bit)")
    if "scale" in by_kind:
        out += ["", "## As tables grow", ""] + scale_text(by_kind["scale"])
        done.append("As tables grow (20M rows a table)")
    out += ["", "Plots: [ratios](bench/plots/ratios.png), [generation](bench/plots/generation.png)."]
    elsewhere = []
    for title, how, pattern in ELSEWHERE:
        if title in done or (title.startswith("Generating and inserting") and "peers_v7" in
                             {k[0] for k in figures}):
            continue
        elsewhere.append("- %s: %s; earlier runs: `bench/results/%s`." % (title, how, pattern))
    if elsewhere:
        out += ["", "## Not in this run", "",
                "Each needs another server or a run of its own; its figures are not repeated here, as they "
                "are of another commit:", ""] + elsewhere
    out += ["", "## Method", "",
            "Workloads in [bench/workloads/](bench/workloads/), each naming its peers, run by `bench/run` in "
            "throwaway clusters (plain, preloaded, durable, with pg_tle) with durability off (never run a real "
            "database so), the cases interleaved round by round; a figure is the median of the timed rounds. "
            "Run to run, statements vary by about ±10%, pgbench by ±15%: trust ratios that repeat. "
            "`bench/run --report FILE` prints a data file's full table with times, `--history` each ratio "
            "across [all runs](bench/results/). How it measures, and how to rerun each part: "
            "[bench/README.md](bench/README.md). To rerun this report, on a committed tree:", "",
            "```sh", "bench/run --record        # every workload; rewrites this file and the README's table",
            "```"]
    text = "\n".join(out) + "\n"
    headings = re.findall(r"^#+ .*$", text, re.M)
    twice = {h for h in headings if headings.count(h) > 1}
    if twice:
        fail("the report would have a heading twice: %s" % ", ".join(sorted(twice)))
    if len(text.encode()) > REPORT_BYTES:
        fail("the report would weigh %d bytes, more than %d" % (len(text.encode()), REPORT_BYTES))
    return text, readme_table(figures)


def readme_table(figures):
    """The README's performance table, from the main data file's figures."""
    out = ["| question | ulid | against |", "|---|---:|---|"]
    for question, keys, against in README_ROWS:
        cells = [ratio_of(figures, key[:3], key[3]) for key in keys]
        if all(cells):
            out.append("| %s | %s | %s |" % (question, ", ".join("%s×" % show_ratio(r) for r in cells), against))
        else:
            say("not in the README's table, not in this run: %s" % question)
    return "\n".join(out) + "\n"


def write_report(paths, benchmarks=None, readme=None, check=True):
    """Rewrite BENCHMARKS.md whole and the README's table between its
    markers; return the two paths."""
    text, table_text = render(paths, check)
    benchmarks = benchmarks or os.path.join(ROOT, "BENCHMARKS.md")
    readme = readme or os.path.join(ROOT, "README.md")
    with open(benchmarks, "w") as f:
        f.write(text)
    doc = open(readme).read()
    if README_BEGIN not in doc or README_END not in doc:
        fail("%s has no performance table between %s and %s" % (readme, README_BEGIN.strip(), README_END.strip()))
    head, rest = doc.split(README_BEGIN, 1)
    with open(readme, "w") as f:
        f.write(head + README_BEGIN + table_text + README_END + rest.split(README_END, 1)[1])
    say("wrote %s (%d bytes) and the table of %s" % (os.path.relpath(benchmarks, ROOT), len(text.encode()),
                                                    os.path.relpath(readme, ROOT)))
    return benchmarks, readme
