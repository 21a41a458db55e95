#!/usr/bin/env python3
"""Perft speed of Ferrimax against Stockfish's `go perft`, in one run on one machine.

Usage: python3 tests/peers/perft_vs_stockfish.py [FERRIMAX] [STOCKFISH] [ROUNDS]
(defaults: target/release/ferrimax, /usr/games/stockfish, 5).

The two programs alternate, ROUNDS times per position, and the median speed of each is
compared, so that a shared, noisy machine slows both alike. Stockfish is timed from
`go perft` to its node count (its start-up is not counted); Ferrimax reports its own
time. Not a test: it prints the ratio for the issue note and commit messages.
"""

import statistics
import subprocess
import sys
import time

POSITIONS = [
    ("startpos perft 6", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("Kiwipete perft 5", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


def stockfish_nps(stockfish, fen, depth):
    engine = subprocess.Popen(
        [stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    send("uci")
    send("isready")
    while "readyok" not in engine.stdout.readline():
        pass
    send(f"position fen {fen}")
    start = time.perf_counter()
    send(f"go perft {depth}")
    while not (line := engine.stdout.readline()).startswith("Nodes searched"):
        pass
    seconds = time.perf_counter() - start
    send("quit")
    engine.wait()
    return int(line.split()[-1]) / seconds


def ferrimax_nps(ferrimax, fen, depth):
    out = subprocess.run(
        [ferrimax, "perft", str(depth), *fen.split()], capture_output=True, text=True, check=True
    ).stdout
    fields = dict(line.split()[:2] for line in out.splitlines())
    return int(fields["nodes"]) / float(fields["time"])


def main():
    ferrimax = sys.argv[1] if len(sys.argv) > 1 else "target/release/ferrimax"
    stockfish = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/stockfish"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    for name, fen, depth in POSITIONS:
        theirs, ours = [], []
        for _ in range(rounds):
            theirs.append(stockfish_nps(stockfish, fen, depth))
            ours.append(ferrimax_nps(ferrimax, fen, depth))
        sf, fx = statistics.median(theirs), statistics.median(ours)
        print(
            f"{name}: stockfish {sf / 1e6:.1f} Mnps, ferrimax {fx / 1e6:.1f} Mnps, "
            f"ratio {fx / sf:.2f} (median of {rounds}, alternating)"
        )


if __name__ == "__main__":
    main()
