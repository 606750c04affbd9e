"""The workload files of bench/workloads/: their parsing, the clusters they
are measured in, the order of a run, and the sizes of full, quick and tiny
runs.  bench/README.md describes the format."""

import glob
import os
import re

from .common import BENCH, fail

# The order of the workloads, by the names of their results (a file's name,
# with _<cluster> in its other cluster), in a run and in the table; one not
# named here runs after these, in name order.
ORDER = ["generate", "generate_v7", "decompose", "text_io", "order_by", "create_index", "distinct",
         "bulk_insert", "pgbench_insert", "joins", "lookup", "half_converted", "time_window", "public_ids",
         "generate_preloaded", "generate_v7_preloaded", "pgbench_insert_preloaded",
         "contention", "sort_generated", "clients64", "peers_v7", "tle"]

# Full, --quick and --tiny runs (tiny: the least that still plans as a full
# run does, so that the workloads' checks pass): rows of table d, rows of the bulk insert,
# timed rounds after the warm-up rounds (a workload may ask for other
# counts; quick and tiny runs time one round of everything), and seconds per
# pgbench run (tiny: transactions per client, "-t", so that 64 clients cost
# no more than one).
FULL = {"name": "full", "N": 1000000, "BULK": 3000000, "rounds": 5, "warmup": 1, "seconds": 10}
QUICK = {"name": "quick", "N": 100000, "BULK": 500000, "rounds": 1, "warmup": 1, "seconds": 3}
TINY = {"name": "tiny", "N": 10000, "BULK": 10000, "rounds": 1, "warmup": 0, "transactions": 5}

# Durability is not what is measured, and disk flushes are the noisiest,
# most machine-dependent cost: they would weigh the same on both sides of
# every ratio (bin/tempcluster already sets fsync = off).  Sorts, hashes and
# index builds stay in memory; one process per statement, nothing beside it.
# Never run a real database like this.  The server's key file of public ids
# is named in every cluster; public_ids.sql writes it.
SETTINGS = ["synchronous_commit=off", "full_page_writes=off", "shared_buffers=128MB",
            "max_wal_size=4GB", "work_mem=256MB", "maintenance_work_mem=256MB",
            "max_parallel_workers_per_gather=0", "max_parallel_maintenance_workers=0",
            "jit=off", "autovacuum=off", "log_min_messages=warning", "log_checkpoints=off",
            "ulid.public_id_key_file='ulid_public_id.key'"]
# A tiny run's tables are too small for parallel plans to pay: with these,
# aggregate.sql's parallel cases plan as at full size (elsewhere workers
# are off).
TINY_SETTINGS = ["parallel_setup_cost=0", "parallel_tuple_cost=0"]
# durable: the settings of scale.sql's cluster (a small buffer pool, commits
# that flush, full-page images after each checkpoint), where 1.1's 64-client
# figures were taken; later settings win over SETTINGS'.
CLUSTERS = {"plain": [], "preloaded": ["shared_preload_libraries=ulid"],
            "durable": ["synchronous_commit=on", "full_page_writes=on", "shared_buffers=64MB",
                        "checkpoint_timeout=60s"],
            # tle: pg_tle loaded, for the trusted-language edition (tle.sql)
            "tle": ["shared_preload_libraries=pg_tle"],
            # pglite: no server, one PGlite instance in Node (running.run_pglite),
            # where PGLITE_SETTINGS are SET in its one session
            "pglite": []}

# SETTINGS as far as a session can SET them in PGlite, whose data directory
# is in memory with fsync off and which runs no autovacuum (shared_buffers
# is 128MB already); jit and parallel workers set off as on the server,
# though a single-user wasm server has neither.
PGLITE_SETTINGS = ["synchronous_commit=off", "work_mem=256MB", "maintenance_work_mem=256MB", "jit=off",
                   "max_parallel_workers_per_gather=0", "max_parallel_maintenance_workers=0"]
# Full, --quick and --tiny PGlite runs: 100,000 rows, a table a browser tab
# holds; a workload's own rounds line wins over these.
PGLITE_FULL = {"name": "full", "N": 100000, "BULK": 100000, "rounds": 5, "warmup": 1}
PGLITE_QUICK = {"name": "quick", "N": 10000, "BULK": 10000, "rounds": 1, "warmup": 1}
PGLITE_TINY = {"name": "tiny", "N": 1000, "BULK": 1000, "rounds": 1, "warmup": 0}

# The scaling workload (kind: scale), full, --quick and --tiny: batches per
# table, rows per batch, seconds per pgbench point (tiny: transactions per
# client, and the first client count alone), keys looked up, warm
# repetitions of each read.
SCALE_FULL = {"name": "full", "BATCHES": 20, "B": 1000000, "seconds": 20, "K": 10000, "warm": 3}
SCALE_QUICK = {"name": "quick", "BATCHES": 3, "B": 100000, "seconds": 3, "K": 1000, "warm": 2}
SCALE_TINY = {"name": "tiny", "BATCHES": 2, "B": 1000, "transactions": 5, "K": 10, "warm": 1}


def sizes(kind, quick=False, tiny=False):
    """The sizes of a run of kind "server", "pglite" or "scale"."""
    full, q, t = {"server": (FULL, QUICK, TINY), "pglite": (PGLITE_FULL, PGLITE_QUICK, PGLITE_TINY),
                  "scale": (SCALE_FULL, SCALE_QUICK, SCALE_TINY)}[kind]
    return t if tiny else q if quick else full


def files():
    return sorted(glob.glob(os.path.join(BENCH, "workloads", "*.sql")))


def parse_workload(path, params):
    """A workload file as a dict: its directives, setup, checks and cases,
    and the clusters it is measured in (a case or a check may name fewer)."""
    w = {"name": os.path.basename(path)[:-4], "file": path, "cluster": "plain", "rows": "", "baseline": "",
         "rounds": None, "warmup": None, "pgbench": None, "requires": "", "setup": "",
         "checks": [], "notes": [], "cases": []}
    part = None                 # (dict, key) that the next SQL line goes to
    for line in open(path):
        marker = re.match(r"--\s*@(\w+)\s*(.*?)\s*$", line)
        directive = re.match(r"--\s*(cluster|rows|baseline|rounds|warmup|pgbench|requires):\s*(.*?)\s*$",
                             line)
        if marker:
            kind, arg = marker.groups()
            if kind == "setup":
                part = (w, "setup")
            elif kind == "check":
                w["checks"].append({"sql": "", "requires": "", "cluster": ""})
                part = (w["checks"][-1], "sql")
            elif kind == "note":
                w["notes"].append({"sql": "", "requires": "", "cluster": ""})
                part = (w["notes"][-1], "sql")
            elif kind == "case":
                name, _, vs = arg.partition(" vs ")
                case = {"name": name.strip(), "vs": [p.strip() for p in vs.split(",") if p.strip()],
                        "requires": "", "cluster": "", "before": "", "timed": "", "size": ""}
                w["cases"].append(case)
                part = (case, "timed")
            elif kind == "timed" and part and part[1] == "timed":
                part[0]["before"], part[0]["timed"] = part[0]["timed"], ""
            elif kind == "size" and part and part[1] == "timed":
                part = (part[0], "size")
            else:
                fail("%s: unknown or misplaced marker: %s" % (path, line.strip()))
        elif directive and part is None:
            w[directive.group(1)] = directive.group(2)
        elif directive and directive.group(1) in ("requires", "cluster"):
            if part[0] is w:
                fail("%s: a %s line belongs before the first marker, in a case or in a check"
                     % (path, directive.group(1)))
            part[0][directive.group(1)] = directive.group(2)    # of this case or check alone
        elif part is not None:
            part[0][part[1]] += line
    # cluster names the clusters the workload is measured in; a case or a
    # check without its own cluster line runs in all of them.
    w["clusters"] = w.pop("cluster").split()
    for item in w["cases"] + w["checks"] + w["notes"]:
        item["clusters"] = item.pop("cluster").split() or w["clusters"]
        for cluster in item["clusters"]:
            if cluster not in w["clusters"] or cluster not in CLUSTERS:
                fail("%s: cluster %s is not one of the workload's (%s)"
                     % (path, cluster, " ".join(w["clusters"])))
    for case in w["cases"]:
        for peer in case["vs"]:
            if peer not in [c["name"] for c in w["cases"]]:
                fail("%s: case %s: no case named %s" % (path, case["name"], peer))
    # rows may name a psql variable (":N"); it is the count of rows each
    # timed statement handles, for the rows/s and ns/row of the table.
    w["rows"] = re.sub(r":(\w+)", lambda m: str(params[m.group(1)]), w["rows"])
    return w


def in_cluster(w, cluster):
    """The part of a workload measured in one cluster, under the name its
    results carry: the file's name in the first cluster it names, the file's
    name and the cluster's in the others (generate_preloaded).  The cases
    meant for other clusters drop out of their peers' vs."""
    first = cluster == w["clusters"][0]
    part = dict(w, cluster=cluster, name=w["name"] if first else "%s_%s" % (w["name"], cluster),
                checks=[c for c in w["checks"] if cluster in c["clusters"]],
                notes=[c for c in w["notes"] if cluster in c["clusters"]],
                cases=[dict(c) for c in w["cases"] if cluster in c["clusters"]])
    left = [c["name"] for c in part["cases"]]
    for case in part["cases"]:
        case["vs"] = [p for p in case["vs"] if p in left]
    return part


def workloads(params, names=None):
    """Each workload in each of its clusters, in the order of a run: the ones
    in ORDER, then the others in name order, but for PGlite's; or only the
    named ones."""
    found = {}
    for path in files():
        if is_scale(path):      # run by name alone, by running.run_scale()
            continue
        w = parse_workload(path, params)
        for cluster in w["clusters"]:
            part = in_cluster(w, cluster)
            if part["name"] in found:
                fail("two workloads named %s (bench/run --list)" % part["name"])
            found[part["name"]] = part
    for name in names or []:
        if name not in found and name not in scale_names():
            fail("no workload %s (bench/run --list)" % name)
    order = sorted(found, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))
    return [found[n] for n in order if (n in names if names else found[n]["cluster"] != "pglite")]


def scale_names():
    """The scale workloads, run by name alone."""
    return [os.path.basename(p)[:-4] for p in scale_workloads()]


def pglite_names():
    """The workloads measured in PGlite (cluster: pglite), run by name alone."""
    return [os.path.basename(p)[:-4] for p in files()
            if not is_scale(p) and "pglite" in parse_workload(p, PGLITE_QUICK)["clusters"]]


def rounds_of(w, params):
    """A workload's timed and warm-up rounds: its own, else the run's; a
    quick or tiny run times one round after at most the run's warm-up."""
    warmup = int(w["warmup"]) if w["warmup"] is not None else params["warmup"]
    rounds = int(w["rounds"]) if w["rounds"] is not None else params["rounds"]
    if params["name"] != "full":
        return 1, min(warmup, params["warmup"])
    return rounds, warmup


def is_scale(path):
    with open(path) as f:
        return any(re.match(r"--\s*kind:\s*scale\s*$", line) for line in f)


def parse_scale(path):
    """A kind: scale file: its settings, client counts, window divisor, and
    blocks; each series with its table, order column, clusters and blocks."""
    s = {"name": os.path.basename(path)[:-4], "file": path, "settings": [], "clients": [], "window": 480,
         "series": [], "setup": "", "before": "", "batch": "", "after": "", "lookup": "", "pgbench": ""}
    part = None
    for line in open(path):
        marker = re.match(r"--\s*@(\w+)\s*(.*?)\s*$", line)
        directive = re.match(r"--\s*(settings|clients|window|table|order|concurrency|requires):\s*(.*?)\s*$",
                             line)
        if marker:
            kind, arg = marker.groups()
            if kind == "series":
                s["series"].append({"name": arg, "table": "", "order": "id", "concurrency": "plain",
                                    "requires": "", "create": "", "window": ""})
                part = (s["series"][-1], "create")
            elif kind == "window" and s["series"]:
                part = (s["series"][-1], "window")
            elif kind in ("setup", "before", "batch", "after", "lookup", "pgbench"):
                part = (s, kind)
            else:
                fail("%s: unknown or misplaced marker: %s" % (path, line.strip()))
        elif directive and directive.group(1) in ("settings", "clients"):
            s[directive.group(1)] = directive.group(2).split()
        elif directive and directive.group(1) == "window":
            s["window"] = int(directive.group(2))
        elif directive and part and part[0] is not s:
            part[0][directive.group(1)] = directive.group(2)
        elif part is not None:
            part[0][part[1]] += line
    for series in s["series"]:
        series["concurrency"] = series["concurrency"].split()
        if not series["table"]:
            fail("%s: series %s has no table line" % (path, series["name"]))
    return s


def scale_workloads():
    return [p for p in files() if is_scale(p)]
