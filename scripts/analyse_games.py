#!/usr/bin/env python3
"""Analyse every position of every game in a game file, into CSV or JSON lines.

A game file holds one GameString per line, such as the games.txt that
`waggle arena` writes. For each game, every position from the first move to
the last is sent to `waggle analyse --json` (one process for the whole file),
and one row per position is written.

Usage:
    scripts/analyse_games.py GAMES.txt [--out analysis.csv] [--json]
                             [--depth N | --time SECONDS] [--waggle PATH]
                             [--max-plies N]

CSV columns: game, ply, side_to_move, move_played, best_move, score,
mate, depth, nodes, white_score. `score` and `mate` are from the side to
move's point of view as in the JSON schema (README / src/tools/analyse.rs);
`white_score` is the score from White's point of view, with a forced result
written as +-30000 minus the plies, ready for an evaluation curve
(scripts/plot.py eval). With --json the analyse objects are written as they
come, with "game" and "ply" fields added.

Only the Python standard library is needed.
"""

import argparse
import csv
import json
import os
import subprocess
import sys


def default_waggle():
    here = os.path.dirname(os.path.abspath(__file__))
    for profile in ("release", "debug"):
        path = os.path.join(here, "..", "target", profile, "waggle")
        if os.path.exists(path):
            return path
    return "waggle"


def positions(game_string, max_plies):
    """The GameStrings of every position of a game, with the move played there."""
    fields = game_string.strip().split(";")
    game_type, moves = fields[0], fields[3:]
    out = []
    for ply in range(min(len(moves), max_plies) + 1):
        prefix = ";".join([game_type, "InProgress", "White[1]"] + moves[:ply])
        played = moves[ply] if ply < len(moves) else ""
        out.append((ply, prefix, played))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games")
    p.add_argument("--out", default="-", help="output file (default: stdout)")
    p.add_argument("--json", action="store_true", help="JSON lines instead of CSV")
    p.add_argument("--depth", type=int, default=None)
    p.add_argument("--time", type=float, default=None, help="seconds per position")
    p.add_argument("--waggle", default=default_waggle())
    p.add_argument("--max-plies", type=int, default=10_000)
    args = p.parse_args()

    with open(args.games) as f:
        games = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    jobs = []
    for g, gs in enumerate(games, 1):
        for ply, prefix, played in positions(gs, args.max_plies):
            jobs.append((g, ply, prefix, played))

    cmd = [args.waggle, "analyse", "--json"]
    if args.time is not None:
        cmd += ["--time", str(args.time)]
    else:
        cmd += ["--depth", str(args.depth if args.depth is not None else 2)]
    stdin = "".join(prefix + "\n" for _, _, prefix, _ in jobs)
    done = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    results = [json.loads(l) for l in done.stdout.splitlines() if l.strip()]
    if len(results) != len(jobs):
        sys.exit(f"waggle analyse answered {len(results)} of {len(jobs)} positions:\n{done.stderr}")

    out = sys.stdout if args.out == "-" else open(args.out, "w", newline="")
    if args.json:
        for (g, ply, _, _), r in zip(jobs, results):
            out.write(json.dumps({"game": g, "ply": ply, **r}) + "\n")
    else:
        w = csv.writer(out)
        w.writerow(["game", "ply", "side_to_move", "move_played", "best_move",
                    "score", "mate", "depth", "nodes", "white_score"])
        for (g, ply, _, played), r in zip(jobs, results):
            score = r.get("score")
            white = None
            if score is not None:
                white = score if r.get("side_to_move") == "White" else -score
            elif r.get("outcome"):
                white = {"WhiteWins": 30000, "BlackWins": -30000}.get(r["outcome"], 0)
            w.writerow([g, ply, r.get("side_to_move") or "", played, r.get("best_move") or "",
                        "" if score is None else score,
                        "" if r.get("mate") is None else r["mate"],
                        "" if r.get("depth") is None else r["depth"],
                        r.get("nodes", 0), "" if white is None else white])
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
