#!/usr/bin/env python3
"""Converting won endings and holding drawn ones with Syzygy tablebases: positions drawn
at random from the tables themselves (python-chess's chess.syzygy reads them), played by
Ferrimax (CECP, `egtpath syzygy`) against Stockfish using the same tables, a fixed time a
move each.

    tablebase_conversion.py ENGINE --tables DIR [--stockfish PATH] [--won N] [--drawn N]
                            [--movetime S] [--seed S] [--min-dtz PLIES] [--materials A,B]

Won positions: the side to move (Ferrimax) wins, with at least --min-dtz plies to the
next capture or pawn move of the best play; Ferrimax must mate before the game is drawn
(by the fifty-move rule, repetition or a stalemate). Drawn positions: Ferrimax has the
weaker side, is to move, and has a move that loses; it must not lose. Materials are taken in
turn from the list below whose tables the folder holds. One line a position, then a
table per material and `conversion: W of N won converted, L of M drawn lost`; exit
status 1 when a win was missed or a draw lost.
"""
import argparse
import random
import sys

import chess
import chess.engine
import chess.syzygy

# (material, White's pieces, Black's pieces): the winner (or the stronger side) is White.
MATERIALS = [
    ("KQvKR", "KQ", "KR"),
    ("KBNvK", "KBN", "K"),
    ("KRPvKR", "KRP", "KR"),
    ("KBNvKR", "KBN", "KR"),
    ("KRvK", "KR", "K"),
    ("KPvK", "KP", "K"),
]
PIECE = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
         "N": chess.KNIGHT, "P": chess.PAWN}
MAX_PLIES = 400
TRIES = 200_000


def random_position(rng, white, black):
    """A legal position with these pieces, either side to move, no castling."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, len(white) + len(black))
    for letters, color, offset in ((white, chess.WHITE, 0), (black, chess.BLACK, len(white))):
        for i, letter in enumerate(letters):
            square = squares[offset + i]
            if letter == "P" and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, chess.Piece(PIECE[letter], color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def find_positions(rng, tables, materials, won, drawn, min_dtz):
    """`won` won and `drawn` drawn positions, the materials taken in turn."""
    wins, draws = [], []
    index = 0
    for _ in range(TRIES):
        if len(wins) >= won and len(draws) >= drawn:
            break
        name, white, black = materials[index % len(materials)]
        index += 1
        board = random_position(rng, white, black)
        if board is None or board.is_game_over():
            continue
        try:
            wdl = tables.probe_wdl(board)
            dtz = tables.probe_dtz(board)
        except (KeyError, chess.syzygy.MissingTableError):
            continue
        stronger_to_move = board.turn == chess.WHITE
        if wdl == 2 and stronger_to_move and abs(dtz) >= min_dtz and len(wins) < won:
            wins.append((name, board.fen(), "win"))
        elif wdl == 0 and len(draws) < drawn and not stronger_to_move and can_go_wrong(tables, board):
            draws.append((name, board.fen(), "draw"))
    return wins, draws


def can_go_wrong(tables, board):
    """Whether the side to move (the defender) has a move that loses the draw."""
    for move in board.legal_moves:
        board.push(move)
        try:
            lost = not board.is_game_over() and tables.probe_wdl(board) == 2
        except (KeyError, chess.syzygy.MissingTableError):
            lost = False
        board.pop()
        if lost:
            return True
    return False


def play(engine, stockfish, fen, ferrimax_color, movetime):
    board = chess.Board(fen)
    limit = chess.engine.Limit(time=movetime)
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        player = engine if board.turn == ferrimax_color else stockfish
        result = player.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            return "fault", board
        board.push(result.move)
    return board.outcome(claim_draw=True), board


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--won", type=int, default=50)
    ap.add_argument("--drawn", type=int, default=50)
    ap.add_argument("--movetime", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=55)
    ap.add_argument("--min-dtz", type=int, default=20)
    ap.add_argument("--materials", help="only these, comma-separated (e.g. KRPvKR,KBNvKR)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tables = chess.syzygy.open_tablebase(args.tables)
    wanted = set(args.materials.split(",")) if args.materials else None
    available = [m for m in MATERIALS
                 if m[0] in _table_names(args.tables) and (wanted is None or m[0] in wanted)]
    wins, draws = find_positions(rng, tables, available, args.won, args.drawn, args.min_dtz)
    engine = chess.engine.SimpleEngine.popen_xboard(args.engine)
    engine.configure({"egtpath syzygy": args.tables})
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"SyzygyPath": args.tables, "Threads": 1, "Hash": 16})
    tally = {}
    failures = []
    try:
        for name, fen, kind in wins + draws:
            board = chess.Board(fen)
            if kind == "win":
                ours = board.turn
            else:
                ours = chess.BLACK  # the weaker side of every material here
            outcome, end = play(engine, stockfish, fen, ours, args.movetime)
            if outcome == "fault":
                good = False
                how = "fault"
            elif kind == "win":
                good = outcome is not None and outcome.winner == ours
                how = outcome.termination.name if outcome else "unfinished"
            else:
                good = outcome is None or outcome.winner != (not ours)
                how = outcome.termination.name if outcome else "unfinished"
            row = tally.setdefault((name, kind), [0, 0])
            row[0] += 1
            row[1] += int(good)
            print(f"{kind:4} {name:7} {fen:45} {'ok ' if good else 'BAD'} {how} in {end.ply()} plies",
                  flush=True)
            if not good:
                failures.append((kind, name, fen))
    finally:
        engine.quit()
        stockfish.quit()
    print("\n| material | kind | positions | held |")
    print("|---|---|---|---|")
    for (name, kind), (n, good) in sorted(tally.items()):
        print(f"| {name} | {kind} | {n} | {good} |")
    won_good = sum(g for (_, k), (_, g) in tally.items() if k == "win")
    drawn_lost = sum(n - g for (_, k), (n, g) in tally.items() if k == "draw")
    print(f"conversion: {won_good} of {len(wins)} won converted, {drawn_lost} of {len(draws)} drawn lost")
    sys.exit(1 if failures else 0)


def _table_names(folder):
    import os
    return {os.path.splitext(f)[0] for f in os.listdir(folder) if f.endswith(".rtbw")}


if __name__ == "__main__":
    main()
