#!/usr/bin/env python3
"""The basic mates against Stockfish's defence: Ferrimax takes the stronger side of KQK,
KRK, KBBK and KBNK from start positions with the lone king in the centre and must mate
before the 50-move rule.

Usage: python3 tests/peers/basic_mates.py FERRIMAX [--stockfish PATH] [--depth N]
       [--defence-nodes N]

Ferrimax searches to a fixed depth (`sd`) and Stockfish to a fixed node count, so the
games do not depend on how loaded the machine is. Stockfish without tablebases still
defends these endings well: its king heads for the centre and, in KBNK, for the corner the
bishop does not control. Exits 1 if any game ends without mate.
"""

import argparse
import sys

import chess
import chess.engine

# (name, FEN): the stronger side to move, the lone king in the centre, away from the
# corners the attacker needs, the pieces scattered.
POSITIONS = [
    ("KQK", "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"),
    ("KRK", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"),
    ("KRK, Black mates", "r3k3/8/8/8/3K4/8/8/8 b - - 0 1"),
    ("KBBK", "8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1"),
    ("KBNK dark bishop", "8/8/8/8/3k3B/8/5K2/1N6 w - - 0 1"),
    ("KBNK light bishop, king near the wrong corner", "8/8/3k4/4N1B1/8/K7/8/8 w - - 0 1"),
    ("KBNK dark bishop, king near the wrong corner", "4K3/2B5/8/5k2/1N6/8/8/8 w - - 0 1"),
    ("KBNK, Black mates", "6k1/8/8/3K4/8/8/8/3bn3 b - - 0 1"),
    ("KBNK from the wrong corner", "7k/8/8/8/8/8/8/1K1BN3 w - - 0 1"),
    ("KBNK with the pieces far apart", "8/8/7K/5k2/8/1N6/8/7B w - - 0 1"),
]


def play(ferrimax, stockfish, fen, depth, defence_nodes):
    board = chess.Board(fen)
    strong = board.turn
    while not board.is_game_over(claim_draw=True):
        if board.turn == strong:
            result = ferrimax.play(board, chess.engine.Limit(depth=depth), game=fen)
        else:
            result = stockfish.play(board, chess.engine.Limit(nodes=defence_nodes), game=fen)
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    moves = (len(board.move_stack) + 1) // 2
    return outcome.termination == chess.Termination.CHECKMATE and outcome.winner == strong, (
        f"{outcome.termination.name.lower()} after {moves} moves"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ferrimax")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--defence-nodes", type=int, default=50_000)
    args = parser.parse_args()
    ferrimax = chess.engine.SimpleEngine.popen_xboard(args.ferrimax)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    failures = 0
    try:
        for name, fen in POSITIONS:
            mated, how = play(ferrimax, stockfish, fen, args.depth, args.defence_nodes)
            failures += not mated
            print(f"{'ok  ' if mated else 'FAIL'} {name}: {how}", flush=True)
    finally:
        ferrimax.quit()
        stockfish.quit()
    print(f"{len(POSITIONS) - failures}/{len(POSITIONS)} mated")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
