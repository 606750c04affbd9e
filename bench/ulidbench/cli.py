"""The command line of bench/run."""

import argparse
import os
import shutil
import subprocess
import tempfile

from . import plotting, reporting, running
from . import workloads as wl
from .common import BENCH, ROOT, fail, say, uncommitted

USAGE = """
  bench/run [--quick | --tiny] [--build] [--out DIR] [NAME...]
                                   run the workloads (all, or the NAMEs); scale and
                                   pglite run by name only
  bench/run --record [pglite] [scale]
                                   the report: every workload on the committed tree,
                                   built into a private copy of the server; rewrites
                                   BENCHMARKS.md whole and the README's table
  bench/run --record FILE...       the same from the data files of one earlier run
  bench/run --list                 the workloads
  bench/run --report FILE          the full table (and plots, in bench/out/) of a data file
  bench/run --history [FILE...]    each case's ratio to its first peer across data files
"""


def make_plots(path, folder):
    """The plots of a data file into folder; whether there are any."""
    stem = os.path.basename(path)[:-4]
    if reporting.is_scale_data(path):
        meta, data, series, batches, per = reporting.scale_load_data(path)
        return plotting.scale_plot(data, series, batches, per, folder, stem)
    return plotting.plot(reporting.load(path)[1], folder, stem)


def record(names):
    """A recording run: refuse a tree with uncommitted changes, build the
    commit into a private copy of the server, run every workload there (and
    PGlite's and scale's when named), write the data files into
    bench/results/, then the report and the plots."""
    dirty = uncommitted()
    if dirty is None:
        fail("--record needs git, to know that the tree is committed")
    if dirty:
        fail("--record refuses a tree with uncommitted changes: %s" % " ".join(dirty))
    for name in names:
        if name not in ("pglite", "scale"):
            fail("--record runs every workload; it takes pglite or scale alone, or data files")
    tmp = tempfile.mkdtemp(prefix="ulid-bench-server.")
    os.chmod(tmp, 0o755)
    try:
        running.private_server(tmp)
        paths = [running.run([], wl.FULL, os.path.join(BENCH, "results"))]
        if "pglite" in names:
            paths.append(running.run_pglite(wl.pglite_names(), wl.PGLITE_FULL, os.path.join(BENCH, "results")))
        if "scale" in names:
            paths.append(running.run_scale(wl.SCALE_FULL, os.path.join(BENCH, "results")))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if uncommitted():
        fail("the tree changed during the run (%s): the data files are in bench/results/, not recorded"
             % " ".join(uncommitted()))
    write(paths)


def write(paths):
    """The report and the plots of the data files of one run."""
    folder = os.path.join(BENCH, "plots")
    for path in paths:
        if reporting.kind_of(path) in ("main", "scale"):
            make_plots(path, folder)
    reporting.write_report(paths)


def main():
    ap = argparse.ArgumentParser(usage=USAGE)
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="small sizes, one round: about a minute")
    size.add_argument("--tiny", action="store_true", help="tiny sizes, one round, no warm-up: that the driver "
                      "and every workload still run (bench/test)")
    ap.add_argument("--build", action="store_true", help="make and make install first")
    ap.add_argument("--out", metavar="DIR", help="where the data file goes (results/ for a full run of all, "
                    "else out/)")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--report", metavar="FILE")
    ap.add_argument("--record", action="store_true")
    ap.add_argument("--history", action="store_true")
    ap.add_argument("--inside", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--inside-scale", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--cluster", help=argparse.SUPPRESS)
    ap.add_argument("--batches", type=int, help="scale: batches per table (full 20, --quick 3)")
    ap.add_argument("--batch-rows", type=int, help="scale: rows per batch (full 1000000, --quick 100000)")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    os.environ["LC_ALL"] = "C"
    # Passed on to the run inside the cluster as SCALE_BATCHES, SCALE_ROWS.
    if args.batches:
        os.environ["SCALE_BATCHES"] = str(args.batches)
    if args.batch_rows:
        os.environ["SCALE_ROWS"] = str(args.batch_rows)
    for params in (wl.SCALE_FULL, wl.SCALE_QUICK, wl.SCALE_TINY):
        params["BATCHES"] = int(os.environ.get("SCALE_BATCHES", params["BATCHES"]))
        params["B"] = int(os.environ.get("SCALE_ROWS", params["B"]))

    def sizes(kind):
        return wl.sizes(kind, args.quick, args.tiny)

    if args.inside:
        running.run_inside(args.inside, args.names, sizes("server"))
    elif args.inside_scale:
        running.scale_inside(args.inside_scale, args.cluster, sizes("scale"))
    elif args.list:
        for w in wl.workloads(wl.QUICK):
            first = open(w["file"]).readline()[3:].strip()
            print("%-26s %-9s %s" % (w["name"], w["cluster"], first))
        for path in wl.scale_workloads():
            first = open(path).readline()[3:].strip()
            print("%-26s %-9s %s" % (os.path.basename(path)[:-4], "own", first + " (by name only)"))
        for name in wl.pglite_names():
            first = open(os.path.join(BENCH, "workloads", name + ".sql")).readline()[3:].strip()
            print("%-26s %-9s %s" % (name, "pglite", first + " (by name only)"))
    elif args.report:
        print(reporting.report(args.report))
        folder = os.path.join(BENCH, "out")
        if make_plots(args.report, folder):
            say("plots in %s" % os.path.relpath(folder, ROOT))
    elif args.record and args.names and all(n.endswith(".csv") for n in args.names):
        write(args.names)
    elif args.record:
        record(args.names)
    elif args.history:
        print(reporting.history(args.names), end="")
    else:
        if args.build:
            subprocess.run(["make", "-s", "-C", ROOT], check=True)
            subprocess.run(["make", "-s", "-C", ROOT, "install"], check=True, stdout=subprocess.DEVNULL)
        scale = [n for n in args.names if n in wl.scale_names()]
        pglite = [n for n in args.names if n in wl.pglite_names()]
        others = [n for n in args.names if n not in scale + pglite]
        paths = []
        if others or not (scale or pglite):
            paths.append(running.run(others, sizes("server"), args.out))
        if scale:
            paths.append(running.run_scale(sizes("scale"), args.out))
        if pglite:
            paths.append(running.run_pglite(pglite, sizes("pglite"), args.out))
        for path in paths:
            print(reporting.report(path))
            make_plots(path, os.path.join(BENCH, "out"))
