#!/usr/bin/env python3
"""Drives Ferrimax through python-chess's UCI client (`popen_uci`), as lichess-bot, GUIs
and match runners do: games with pondering, an analysis with MultiPV, Chess960 games
(python-chess sets UCI_Chess960 itself), games at a limited strength, and `go` limits.
Exits non-zero (with a reason) on any EngineError, illegal move, time-out or warning
that python-chess logs.

    uci_client.py ENGINE [--games N] [--seed S]
"""
import argparse
import logging
import random
import sys
import time

import chess
import chess.engine


class WarningCounter(logging.Handler):
    """Counts what python-chess logs at WARNING or above (unexpected output, rejected
    options, ...)."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def fail(why):
    print(f"FAIL: {why}", file=sys.stderr)
    sys.exit(1)


def play_game(engines, base, inc, board, ponder):
    """One game on a running clock from `board`; returns how it ended."""
    clocks = {chess.WHITE: base, chess.BLACK: base}
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < 300:
        side = board.turn
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engines[side].play(board, limit, ponder=ponder, info=chess.engine.INFO_ALL)
        took = time.monotonic() - start
        if result.move is None or result.move not in board.legal_moves:
            fail(f"move {result.move} in {board.fen()}")
        clocks[side] -= took
        if clocks[side] < -0.05:
            fail(f"clock ran out: {took:.3f} s taken in {board.fen()}")
        clocks[side] += inc
        pv = result.info.get("pv")
        if pv and pv[0] != result.move:
            fail(f"last info's pv {pv[0]} is not the move {result.move} in {board.fen()}")
        board.push(result.move)
    return str(board.outcome(claim_draw=True))


def analyse_multipv(engine):
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    if len(infos) != 3:
        fail(f"MultiPV 3 gave {len(infos)} lines")
    firsts = [info["pv"][0] for info in infos]
    if len(set(firsts)) != 3:
        fail(f"MultiPV lines share a first move: {firsts}")
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    if scores != sorted(scores, reverse=True):
        fail(f"MultiPV lines not best first: {scores}")
    print(f"analysis: MultiPV 3 at depth 8: {[board.san(m) for m in firsts]} {scores}")


def limits(engine):
    """`go` with depth, nodes, movetime and mate."""
    board = chess.Board("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1")
    result = engine.play(board, chess.engine.Limit(mate=2), info=chess.engine.INFO_ALL)
    if result.move != chess.Move.from_uci("d5d8") or result.info["score"].relative.mate() != 2:
        fail(f"mate in two: {result.move} {result.info}")
    for limit in (chess.engine.Limit(depth=5), chess.engine.Limit(nodes=5000),
                  chess.engine.Limit(time=0.2)):
        start = time.monotonic()
        result = engine.play(chess.Board(), limit)
        if result.move not in chess.Board().legal_moves:
            fail(f"{limit}: {result.move}")
        if limit.time is not None and time.monotonic() - start > limit.time + 0.3:
            fail(f"{limit} took {time.monotonic() - start:.3f} s")
    print("limits: mate, depth, nodes and movetime kept")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    warnings = WarningCounter()
    logging.getLogger("chess.engine").addHandler(warnings)
    rng = random.Random(args.seed)
    engines = {side: chess.engine.SimpleEngine.popen_uci(args.engine) for side in chess.COLORS}
    try:
        for engine in engines.values():
            engine.configure({"Hash": 16})
        for n in range(args.games):
            print(f"pondering game {n + 1}: {play_game(engines, 2, 0.02, chess.Board(), True)}")
        for n in range(args.games):
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            print(f"Chess960 game {n + 1}: {play_game(engines, 2, 0.02, board, False)}")
        analyse_multipv(engines[chess.WHITE])
        limits(engines[chess.WHITE])
        engines[chess.BLACK].configure({"UCI_LimitStrength": True, "UCI_Elo": 1400})
        print(f"level 1400 game: {play_game(engines, 2, 0.02, chess.Board(), False)}")
    except chess.engine.EngineError as e:
        fail(f"EngineError: {e}")
    finally:
        for engine in engines.values():
            engine.quit()
    if warnings.records:
        fail(f"python-chess warned: {warnings.records}")
    print("uci client: all ok")


if __name__ == "__main__":
    main()
