"""What the driver's modules and bench/cold_lookups share: paths, messages,
psql, the server's binaries, git, the machine and its load."""

import datetime
import os
import re
import subprocess
import sys

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
# The major this machine measures by default: a data file of another major
# says so in its name.
HOST_MAJOR = "15"
# What the messages of a run begin with (bench/cold_lookups sets its own).
PROGRAM = ["bench"]


def say(*words):
    print(PROGRAM[0] + ":", *words, file=sys.stderr, flush=True)


def fail(message):
    say(message)
    sys.exit(1)


def pg_config_path():
    """The pg_config of the server measured: PG_CONFIG, else PG_MAJOR's (15),
    as bin/tempcluster chooses."""
    return os.environ.get("PG_CONFIG") or "/usr/lib/postgresql/%s/bin/pg_config" % os.environ.get("PG_MAJOR", "15")


def pg_config(option):
    return subprocess.run([pg_config_path(), option], capture_output=True, text=True).stdout.strip()


def pgbin(program):
    """The path of one of the server's programs (psql, pgbench, pg_ctl)."""
    if os.environ.get("PG_CONFIG"):
        return os.path.join(pg_config("--bindir"), program)
    return "/usr/lib/postgresql/%s/bin/%s" % (os.environ.get("PG_MAJOR", "15"), program)


def psql(script, variables=None, check=True):
    """Run a psql script in one session, in the cluster of the environment,
    with these psql variables; its standard output."""
    env = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")
    cmd = [pgbin("psql"), "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"]
    for k, v in (variables or {}).items():
        cmd += ["-v", "%s=%s" % (k, v)]
    done = subprocess.run(cmd + ["-f", "-"], input=script, text=True, cwd=ROOT, env=env, capture_output=True)
    if done.returncode != 0 and check:
        fail("psql failed:\n%s\n--- script was:\n%s" % (done.stderr, script[:3000]))
    return done.stdout


def tempcluster(settings, argv, locale=None):
    """Run argv in a throwaway cluster of bin/tempcluster with these settings;
    whether it succeeded."""
    cmd = [os.path.join(ROOT, "bin", "tempcluster"), *[a for s in settings for a in ("-c", s)],
           *(["-l", locale] if locale else []), "--", *argv]
    return subprocess.run(cmd, cwd=ROOT).returncode == 0


# The catalogs a session reads before the data of a cold read: so that the
# first table read after a restart does not pay for everyone's catalog.
CATALOGS = ["pg_class", "pg_attribute", "pg_index", "pg_statistic", "pg_type", "pg_proc", "pg_operator",
            "pg_amop", "pg_amproc", "pg_opclass", "pg_cast", "pg_namespace", "pg_depend"]


def restart_cold(required=False, drop=True):
    """Restart the server of the environment, empty the kernel's page cache
    (as root; not without drop, for a tiny run on a shared machine), then
    read the catalogs (and load ulid.so) in a session of their own: the next
    reads of data come from disk.  Returns what was done, for a data file;
    without root, fails if required, else says so."""
    pgdata = os.environ["PGDATA"]
    owner = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run([*owner, pgbin("pg_ctl"), "-D", pgdata, "-w", "-m", "fast", "-l",
                    os.path.join(os.path.dirname(pgdata), "server.log"), "restart"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["sync"])
    if not drop:
        how = "server restarted; page cache not dropped (a tiny run)"
    else:
        how = drop_caches(required)
    psql("".join("SELECT count(*) FROM pg_catalog.%s;\n" % c for c in CATALOGS)
         + "SELECT '00000000000000000000000000'::ulid;\n")
    return how


def drop_caches(required):
    try:
        with open("/proc/sys/vm/drop_caches", "w") as f:
            f.write("3\n")
        how = "server restarted, page cache dropped (echo 3 > /proc/sys/vm/drop_caches)"
    except OSError as e:
        if required:
            fail("could not drop the page cache (%s)" % e)
        say("could not drop the page cache (%s): cold reads are after a restart only" % e)
        how = "server restarted; page cache NOT dropped (%s)" % e
    return how


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(round(p / 100 * (len(sorted_values) - 1))))]


def sha256(path):
    return subprocess.run(["sha256sum", path], capture_output=True, text=True).stdout[:12]


def library():
    """The installed ulid.so: its checksum, and a line for the data file."""
    path = os.path.join(pg_config("--pkglibdir"), "ulid.so")
    if not os.path.exists(path):
        fail("the ulid extension is not installed; run bin/setup or bench/run --build")
    stamp = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
    digest = sha256(path)
    return digest, "%s of %s, sha256 %s" % (path, stamp.strftime("%Y-%m-%d %H:%M UTC"), digest)


def git(*args):
    return subprocess.run(["git", "-C", ROOT, *args], capture_output=True, text=True).stdout


def uncommitted():
    """The paths of the tree with uncommitted changes (tracked files), or
    None where git is missing."""
    try:
        done = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                              capture_output=True, text=True)
    except FileNotFoundError:
        return None
    if done.returncode != 0:        # not a checkout: a copy of the tree
        return None
    return [l[3:] for l in done.stdout.splitlines()]


def commit():
    """The commit of the tree, and the paths it has uncommitted changes to.
    Without git (a chroot made for testing another major has none), the
    commit is read from .git and the changes go unchecked; without .git, it
    is unknown."""
    dirty = uncommitted()
    if dirty is not None:
        head = git("rev-parse", "--short", "HEAD").strip() or "?"
        return head + (" with uncommitted changes to " + " ".join(dirty) if dirty else "")
    gitdir = os.path.join(ROOT, ".git")
    try:
        ref = open(os.path.join(gitdir, "HEAD")).read().strip()
        if ref.startswith("ref: "):
            name = ref[5:]
            loose = os.path.join(gitdir, name)
            if os.path.exists(loose):
                ref = open(loose).read().strip()
            else:
                packed = open(os.path.join(gitdir, "packed-refs")).read()
                ref = re.search(r"^([0-9a-f]{40}) %s$" % re.escape(name), packed, re.M).group(1)
        head = ref[:7]
    except (OSError, AttributeError):
        head = "?"
    return "%s (read from .git: git is not installed here, uncommitted changes not checked)" % head


def load_average():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def machine():
    """The machine line of a data file."""
    cpu = re.search(r"model name\s*:\s*(.*)", open("/proc/cpuinfo").read())
    mem = int(re.search(r"MemTotal:\s*(\d+)", open("/proc/meminfo").read()).group(1)) // 2**20
    return "nproc %d, %s, %d GiB RAM" % (os.cpu_count(), cpu.group(1) if cpu else "?", mem)


def now():
    return datetime.datetime.now(datetime.timezone.utc)
