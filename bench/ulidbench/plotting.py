"""Plotting: the ratio and generation plots of a run, the plots of a scale
run.  matplotlib, where it is installed (Debian's python3-matplotlib); a run
without it says so and makes none."""

import os

from .common import say
from .reporting import budget, ratio_of, show_ratio


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        say("no matplotlib here, so no plots: bench/run --report FILE makes them where it is")
        return None, None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return matplotlib, plt


def plot(figures, folder, stem):
    """ratios.png: each ulid case against its first peer; generation.png: ns per
    call over the floor, with the budget for 10x gen_random_uuid()'s rate."""
    matplotlib, plt = _pyplot()
    if not plt:
        return False

    os.makedirs(folder, exist_ok=True)
    bars = [(k, f["vs"][0], ratio_of(figures, k, f["vs"][0])) for k, f in figures.items() if f["vs"]]
    bars = [b for b in bars if b[2] and "ulid" in b[0][1]][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.26 * len(bars) + 1.2))
    ax.barh(range(len(bars)), [b[2] for b in bars], color="tab:blue")
    ax.set_yticks(range(len(bars)))
    ax.set_yticklabels(["%s: %s%s vs %s" % (k[0], k[1], " (size)" if k[2] == "bytes" else "", p)
                        for k, p, _ in bars], fontsize=7)
    ax.set_xscale("log")
    ax.axvline(1, color="black", linewidth=0.8)
    for i, (_, _, r) in enumerate(bars):
        ax.text(r, i, " " + show_ratio(r), va="center", fontsize=6)
    ax.set_xlabel("ratio to the peer's median (log scale; below 1 is better)")
    ax.set_title("ulid against its first peer, %s" % stem, fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(folder, "ratios.png"), dpi=110)
    plt.close(fig)

    groups = [w for w in dict.fromkeys(k[0] for k in figures) if budget(figures, w) is not None]
    if not groups:
        return True
    fig, axes = plt.subplots(1, len(groups), figsize=(4.6 * len(groups), 3.6), squeeze=False,
                             layout="constrained")
    for ax, w in zip(axes[0], groups):
        cases = [(k[1], (f["median"] - figures[(w, f["baseline"], "ms")]["median"]) * 1e6 / int(f["rows"]))
                 for k, f in figures.items() if k[0] == w and k[2] == "ms" and k[1] != f["baseline"]]
        ax.barh(range(len(cases)), [max(c[1], 0.1) for c in cases][::-1], color="tab:blue")
        ax.set_yticks(range(len(cases)))
        ax.set_yticklabels([c[0] for c in cases][::-1], fontsize=7)
        ax.set_xscale("log")
        b = budget(figures, w)
        if b > 0:
            ax.axvline(b, color="tab:red", linestyle="--", linewidth=1)
            ax.text(b, len(cases) - 0.5, " 10× uuid's rate:\n %.1f ns" % b, color="tab:red",
                    fontsize=7, va="top", bbox={"facecolor": "white", "edgecolor": "none"})
        ax.set_title(w, fontsize=9)
        ax.set_xlabel("ns per call over the floor (log)", fontsize=8)
    fig.suptitle("Where generation time goes, %s" % stem, fontsize=9)
    fig.savefig(os.path.join(folder, "generation.png"), dpi=110)
    plt.close(fig)
    return True


def scale_plot(data, series, batches, per, folder, stem):
    """scale.png: per batch against rows so far (time per 1M rows, WAL per
    row, index size, leaf fill); scale_clients.png: TPS against clients."""
    matplotlib, plt = _pyplot()
    if not plt:
        return False

    os.makedirs(folder, exist_ok=True)
    panels = [("seconds", per / 1e6, "seconds per 1M rows"), ("wal_bytes", per, "WAL bytes per row"),
              ("index_bytes", 2**20, "primary key, MB"), ("leaf_density", 1, "primary key leaf density, %")]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7.5), layout="constrained")
    for ax, (metric, div, label) in zip(axes.flat, panels):
        for i, s in enumerate(series):
            xs = [per * b / 1e6 for b in batches if data.get(("load", s, str(b), metric))]
            ys = [data[("load", s, str(b), metric)][0] / div for b in batches
                  if data.get(("load", s, str(b), metric))]
            # Markers and dashes of their own, so that series that coincide
            # (two generators packing alike) stay visible.
            ax.plot(xs, ys, marker="o^sDvP*"[i % 7], markersize=4, linestyle=["-", "--", ":", "-."][i % 4],
                    alpha=0.85, label=s)
        ax.set_xlabel("rows in the table after the batch, millions", fontsize=8)
        ax.set_ylabel(label, fontsize=8)
        ax.set_ylim(0, 100 if metric == "leaf_density" else None)
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=7)
    fig.suptitle("Cost as the tables grow, %s" % stem, fontsize=9)
    fig.savefig(os.path.join(folder, "scale.png"), dpi=100)
    plt.close(fig)

    parts = sorted({k[0] for k in data if k[0].startswith("pgbench")})
    if not parts:
        return True
    fig, ax = plt.subplots(figsize=(8, 5), layout="constrained")
    colour = {s: "C%d" % i for i, s in enumerate(dict.fromkeys(k[1] for k in data if k[0] in parts))}
    for part in parts:
        for s in dict.fromkeys(k[1] for k in data if k[0] == part):
            clients = sorted({int(k[2]) for k in data if k[0] == part and k[1] == s})
            ax.plot(clients, [data[(part, s, str(c), "tps")][0] for c in clients], marker="o",
                    linestyle="-" if part == "pgbench" else "--", color=colour[s],
                    label=s + ("" if part == "pgbench" else " (%s)" % part[len("pgbench_"):]))
    ax.set_xscale("log", base=2)
    ax.set_xticks([int(c) for c in sorted({k[2] for k in data if k[0] in parts}, key=int)])
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.set_xlabel("pgbench clients (-j 2)")
    ax.set_ylabel("TPS, single-row INSERT")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("Concurrent inserts, %s" % stem, fontsize=9)
    fig.savefig(os.path.join(folder, "scale_clients.png"), dpi=100)
    plt.close(fig)
    return True
