#!/usr/bin/env python3
"""A long python-chess session that alternates play, analysis and undo, as a user of a
python-chess front end (or lichess-bot between games) drives an engine for hours.

    python_chess_soak.py ENGINE [--cycles N] [--seed S] [--threads T]

One engine process serves the whole run. Each cycle picks a position (the start, or a
random opening of 2-16 plies), then in random order: plays 1-6 moves under a running
clock (both sides by the engine), runs an analysis for 0.05-0.5 s or to a small depth,
and takes back 1-4 moves (python-chess sends undo/remove when the next request's board
is shorter). Counted as faults: illegal or missing moves, a move slower than its limit,
analysis without a legal principal variation, and any EngineError or termination. The
last line is `soak: N cycles, P moves, A analyses, U undos, F faults`; the exit status
is 1 when F > 0.
"""
import argparse
import random
import sys
import time

import chess
import chess.engine

# What a move may take beyond its fixed time before it counts as too slow (python-chess
# measures round trips through its own event loop).
ST_TOLERANCE = 0.15


class Soak:
    def __init__(self, engine, rng):
        self.engine = engine
        self.rng = rng
        self.counts = {"cycles": 0, "moves": 0, "analyses": 0, "undos": 0}
        self.faults = []

    def fault(self, why):
        self.faults.append(why)
        print(f"FAULT: {why}", file=sys.stderr)

    def play(self, board, game):
        for _ in range(self.rng.randint(1, 6)):
            if board.is_game_over(claim_draw=True):
                return
            if self.rng.random() < 0.5:
                limit = chess.engine.Limit(time=self.rng.choice([0.05, 0.1, 0.2]))
            else:
                clock = self.rng.uniform(0.5, 5.0)
                limit = chess.engine.Limit(white_clock=clock, black_clock=clock,
                                           white_inc=0.02, black_inc=0.02)
            start = time.monotonic()
            result = self.engine.play(board, limit, game=game)
            took = time.monotonic() - start
            if result.resigned or result.move is None:
                return
            if result.move not in board.legal_moves:
                self.fault(f"illegal move {result.move} in {board.fen()}")
                return
            if limit.time is not None and took > limit.time + ST_TOLERANCE:
                self.fault(f"st {limit.time} took {took:.3f} s in {board.fen()}")
            if limit.white_clock is not None and took > limit.white_clock:
                self.fault(f"clock {limit.white_clock:.2f} s ran out ({took:.3f} s)")
            board.push(result.move)
            self.counts["moves"] += 1

    def analyse(self, board, game):
        if board.is_game_over():
            return
        if self.rng.random() < 0.5:
            limit = chess.engine.Limit(time=self.rng.uniform(0.05, 0.5))
        else:
            limit = chess.engine.Limit(depth=self.rng.randint(1, 6))
        info = self.engine.analyse(board, limit, game=game)
        pv = info.get("pv", [])
        if not pv or pv[0] not in board.legal_moves:
            self.fault(f"analysis gave {info} in {board.fen()}")
        self.counts["analyses"] += 1

    def undo(self, board):
        for _ in range(min(self.rng.randint(1, 4), len(board.move_stack))):
            board.pop()
            self.counts["undos"] += 1

    def cycle(self, n):
        board = chess.Board()
        for _ in range(self.rng.choice([0, 2, 4, 8, 16])):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(self.rng.choice(moves))
        game = f"cycle-{n}"
        steps = [self.play, self.analyse, self.play, self.undo, self.play, self.analyse]
        self.rng.shuffle(steps)
        for step in steps:
            if step == self.undo:
                step(board)
            else:
                step(board, game)
        self.counts["cycles"] += 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--cycles", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    engine = chess.engine.SimpleEngine.popen_xboard(args.engine)
    soak = Soak(engine, random.Random(args.seed))
    try:
        engine.configure({"Threads": args.threads})
        for n in range(args.cycles):
            soak.cycle(n)
    except chess.engine.EngineError as e:
        soak.fault(f"EngineError: {e}")
    except chess.engine.EngineTerminatedError as e:
        soak.fault(f"engine terminated: {e}")
    finally:
        try:
            engine.quit()
        except chess.engine.EngineTerminatedError:
            pass
    c = soak.counts
    print(f"soak: {c['cycles']} cycles, {c['moves']} moves, {c['analyses']} analyses, "
          f"{c['undos']} undos, {len(soak.faults)} faults")
    sys.exit(1 if soak.faults else 0)


if __name__ == "__main__":
    main()
