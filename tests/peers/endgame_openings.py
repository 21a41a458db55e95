#!/usr/bin/env python3
"""Balanced endgame positions for matches that measure what tablebases are worth: random
positions of six or seven pieces whose captures lead into the 5-piece tables at hand
(rook and pawn endings, rook and minor piece against rook and minor piece), kept when a
short search of Ferrimax scores them within a margin of equal and neither side can take
anything at once. Written as EPD, one position a line, for match.py's --openings.

    endgame_openings.py ENGINE --out FILE [--count N] [--seed S] [--depth D] [--margin CP]
                        [--least CP]

With --least the positions are one side's to win or lose (scored between --least and
--margin from equal): where the tables' technique decides more games.
"""
import argparse
import random
import sys

import chess
import chess.engine

# Material as White's and Black's pieces besides the kings; colours are swapped at random.
MATERIALS = [
    ("RP", "RP"),
    ("RPP", "RP"),
    ("RB", "RN"),
    ("RB", "RP"),
    ("RN", "RP"),
    ("RPP", "RPP"),
]
PIECE = {"Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
         "P": chess.PAWN}
TRIES = 100_000


def random_position(rng, white, black):
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 2 + len(white) + len(black))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    rest = squares[2:]
    for letters, color in ((white, chess.WHITE), (black, chess.BLACK)):
        for letter in letters:
            square = rest.pop()
            if letter == "P" and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, chess.Piece(PIECE[letter], color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if not board.is_valid() or board.is_check() or board.is_game_over():
        return None
    if any(board.is_capture(m) for m in board.legal_moves):
        return None
    return board


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=55)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--margin", type=int, default=80)
    ap.add_argument("--least", type=int, default=0,
                    help="keep only positions scored at least this far from equal (centipawns)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    found = []
    try:
        for _ in range(TRIES):
            if len(found) >= args.count:
                break
            white, black = rng.choice(MATERIALS)
            if rng.random() < 0.5:
                white, black = black, white
            board = random_position(rng, white, black)
            if board is None:
                continue
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].relative.score(mate_score=100_000)
            if args.least <= abs(score) <= args.margin:
                found.append(board.epd())
    finally:
        engine.quit()
    with open(args.out, "w") as f:
        for epd in found:
            f.write(epd + "\n")
    print(f"{len(found)} positions written to {args.out}")
    return 0 if len(found) >= args.count else 1


if __name__ == "__main__":
    sys.exit(main())
