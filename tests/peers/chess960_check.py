#!/usr/bin/env python3
"""Chess960 against python-chess's own move generator, and python-chess driving it.

    chess960_check.py ENGINE [--walks N] [--seed S]

1. Move generation: random walks from random Chess960 start positions, biased towards
   castling and rook and king moves so that rights are lost, rooks captured, and kings
   stand next to or between their rooks; in every position the legal moves of
   `ENGINE divide 1 FEN` (Shredder-FEN) must be python-chess's, and every tenth position
   also the leaf count of `ENGINE perft 3`.
2. A game: python-chess plays a Chess960 game with the engine on both sides (it sends
   `variant fischerandom`, the Shredder-FEN start and castling as `O-O`), and analyses
   a position where castling is possible.
Prints `chess960 check: P positions, C castling moves, G plies played, all ok` or FAIL
lines; exit status 1 on any failure.
"""
import argparse
import logging
import random
import subprocess
import sys

import chess
import chess.engine


def fail(why):
    print(f"FAIL: {why}")
    sys.exit(1)


def our_key(board, move):
    """The engine's divide names castling by the king's target (g or c file)."""
    if board.is_castling(move):
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        target = chess.square(6 if kingside else 2, chess.square_rank(move.from_square))
        return chess.square_name(move.from_square) + chess.square_name(target)
    return move.uci()


def engine_divide(engine, fen, depth):
    out = subprocess.run([engine, "divide", str(depth), fen], capture_output=True,
                         text=True, check=True).stdout
    counts = {}
    for line in out.splitlines():
        parts = line.replace(":", " ").split()
        if len(parts) == 2 and parts[1].isdigit() and parts[0] != "total":
            counts[parts[0]] = int(parts[1])
    return counts


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


def check_move_generation(engine, rng, walks):
    positions = castles = 0
    for walk in range(walks):
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(rng.randint(10, 60)):
            fen = board.fen(shredder=True)
            ours = engine_divide(engine, fen, 1)
            theirs = {our_key(board, m) for m in board.legal_moves}
            if set(ours) != theirs:
                fail(f"{fen}: engine only {set(ours) - theirs}, python-chess only {theirs - set(ours)}")
            positions += 1
            if positions % 10 == 0 and board.legal_moves.count():
                ours3 = sum(engine_divide(engine, fen, 3).values())
                if ours3 != perft(board, 3):
                    fail(f"{fen}: perft 3 {ours3}, python-chess {perft(board, 3)}")
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            castling = [m for m in moves if board.is_castling(m)]
            heavy = [m for m in moves
                     if board.piece_type_at(m.from_square) in (chess.ROOK, chess.KING)]
            # Minor pieces and queens leaving the first rank open the castling paths.
            home = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
            clearing = [m for m in moves
                        if chess.BB_SQUARES[m.from_square] & home
                        and board.piece_type_at(m.from_square)
                        in (chess.KNIGHT, chess.BISHOP, chess.QUEEN)]
            pick = rng.random()
            if castling and pick < 0.5:
                move = rng.choice(castling)
                castles += 1
            elif clearing and pick < 0.7:
                move = rng.choice(clearing)
            elif heavy and pick < 0.85:
                move = rng.choice(heavy)
            else:
                move = rng.choice(moves)
            board.push(move)
    return positions, castles


def play_and_analyse(engine_path, rng):
    engine = chess.engine.SimpleEngine.popen_xboard(engine_path)
    try:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        plies = 0
        while not board.is_game_over(claim_draw=True) and plies < 120:
            result = engine.play(board, chess.engine.Limit(time=0.05), game="chess960")
            if result.move is None or result.move not in board.legal_moves:
                fail(f"move {result.move} in {board.fen(shredder=True)}")
            board.push(result.move)
            plies += 1
        # Analysis of a position where both sides may still castle either way.
        start = chess.Board.from_chess960_pos(rng.randrange(960))
        for uci in ("b2b3", "g7g6", "g2g3", "b7b6"):
            start.push_uci(uci)
        info = engine.analyse(start, chess.engine.Limit(depth=6))
        pv = info.get("pv", [])
        if not pv or pv[0] not in start.legal_moves:
            fail(f"analysis gave {info} in {start.fen(shredder=True)}")
        return plies
    finally:
        engine.quit()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--walks", type=int, default=40)
    ap.add_argument("--seed", type=int, default=960)
    args = ap.parse_args()
    # python-chess's warnings (a rejected feature, unexpected output) reach stderr.
    logging.basicConfig(level=logging.WARNING)
    rng = random.Random(args.seed)
    positions, castles = check_move_generation(args.engine, rng, args.walks)
    if castles == 0:
        fail("no castling move was played")
    plies = play_and_analyse(args.engine, rng)
    print(f"chess960 check: {positions} positions, {castles} castling moves, "
          f"{plies} plies played, all ok")


if __name__ == "__main__":
    main()
