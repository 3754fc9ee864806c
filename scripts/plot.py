#!/usr/bin/env python3
"""Pictures from Waggle's tools: the evaluation curve of a game, or a match's
Elo estimate over time.

Install matplotlib first (any recent version):
    python3 -m pip install --user matplotlib

Usage:
    scripts/plot.py eval ANALYSIS.csv [--game N] [--out eval.png]
        ANALYSIS.csv from scripts/analyse_games.py; plots White's score
        (Queen liberties, forced results clipped to +-12) against the ply.
    scripts/plot.py elo RESULTS.csv [--engine NAME] [--out elo.png]
        RESULTS.csv from `waggle arena` (in its --out folder); plots the Elo
        difference of NAME (default: the first White engine) against its
        opponents, with the 95% interval, after each game pair.

The Elo model is the one `waggle arena` prints: logistic, with the interval
from the normal approximation of the score of game pairs (the two games of a
round, one opening with colours swapped), as its "Game pairs" line.
"""

import argparse
import csv
import math
import sys


def elo_from_score(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400 * math.log10(1 / s - 1)


def elo_interval(pairs):
    """Elo and its 95% interval from a list of pair scores (0 to 1 each)."""
    n = len(pairs)
    m = sum(pairs) / n
    var = sum((p - m) ** 2 for p in pairs) / n
    se = math.sqrt(var / n)
    clamp = lambda s: min(1.0, max(0.0, s))
    return (elo_from_score(m), elo_from_score(clamp(m - 1.959964 * se)),
            elo_from_score(clamp(m + 1.959964 * se)))


def plot_eval(args, plt):
    plies, scores = [], []
    with open(args.file) as f:
        for row in csv.DictReader(f):
            if int(row["game"]) != args.game or row["white_score"] == "":
                continue
            s = float(row["white_score"]) / 100.0
            plies.append(int(row["ply"]))
            scores.append(max(-12.0, min(12.0, s)))
    if not plies:
        sys.exit(f"no positions of game {args.game} in {args.file}")
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.plot(plies, scores, marker=".")
    ax.fill_between(plies, scores, 0, alpha=0.2)
    ax.set_xlabel("ply")
    ax.set_ylabel("score for White (Queen liberties)")
    ax.set_title(f"Evaluation curve, game {args.game}")
    return fig


def plot_elo(args, plt):
    with open(args.file) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"no games in {args.file}")
    name = args.engine or rows[0]["white"]
    games = 0
    pending = {}
    pairs = []
    xs, mid, lo, hi = [], [], [], []
    for row in rows:
        if name not in (row["white"], row["black"]):
            continue
        res = row["result"]
        if res == "Draw":
            score = 0.5
        elif (res == "WhiteWins") == (row["white"] == name):
            score = 1.0
        else:
            score = 0.0
        games += 1
        opponent = row["black"] if row["white"] == name else row["white"]
        key = (row["round"], opponent)
        if key not in pending:
            pending[key] = score
            continue
        pairs.append((pending.pop(key) + score) / 2)
        e, a, b = elo_interval(pairs)
        if all(math.isfinite(v) for v in (e, a, b)):
            xs.append(games)
            mid.append(e)
            lo.append(a)
            hi.append(b)
    if not xs:
        sys.exit("no finite Elo estimate yet (no game pair, or all pairs won or all lost)")
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.plot(xs, mid, label=f"{name}: Elo difference")
    ax.fill_between(xs, lo, hi, alpha=0.25, label="95% interval")
    ax.set_xlabel("games")
    ax.set_ylabel("Elo")
    ax.set_title(f"{name} over {xs[-1]} games: {mid[-1]:+.1f} [{lo[-1]:+.1f}, {hi[-1]:+.1f}]")
    ax.legend()
    return fig


def main():
    p = argparse.ArgumentParser(description="Plots from waggle analyse and waggle arena output.")
    sub = p.add_subparsers(dest="what", required=True)
    e = sub.add_parser("eval")
    e.add_argument("file")
    e.add_argument("--game", type=int, default=1)
    e.add_argument("--out", default="eval.png")
    m = sub.add_parser("elo")
    m.add_argument("file")
    m.add_argument("--engine", default=None)
    m.add_argument("--out", default="elo.png")
    args = p.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("matplotlib is missing: python3 -m pip install --user matplotlib")
    fig = plot_eval(args, plt) if args.what == "eval" else plot_elo(args, plt)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
