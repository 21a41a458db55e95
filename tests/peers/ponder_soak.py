#!/usr/bin/env python3
"""Games with pondering on, driven the way lichess-bot drives an XBoard engine: through
python-chess's `play(..., ponder=True, info=INFO_ALL)` under a running clock kept by the
script (as a server keeps it), the opponent's draw offer passed on, both sides Ferrimax
in two processes, so each ponders while the other thinks.

    ponder_soak.py ENGINE [--controls 60+1:10,5+0.05:100] [--seed S] [--max-plies N] [--uci]

With --uci the engines speak UCI (`popen_uci`): python-chess then ponders with `go ponder`,
and answers a hit with `ponderhit`, a miss with `stop` and the new position.

A control is BASE+INC seconds, then the number of games at it. Counted as faults: an
EngineError or a dead engine, an illegal or missing move, a clock run out, and an
account of the search (the info python-chess gathered before the pong after the move)
whose principal variation does not start with the move played, which is what made
lichess-bot forfeit. Expected replies are counted where the opponent played the reply
the other side's last principal variation expected, the move it pondered on (python-chess
sends `force` before each move, so the engine starts over with what the ponder search put
in its table). One line per control, then
`ponder soak: G games, P plies, E expected replies, F faults`; exit status 1 when F > 0.
"""
import argparse
import logging
import random
import sys
import time

import chess
import chess.engine

# Python-side overhead a move may add to the engine's time before the clock counts it as
# run out: the server's own lag allowance is far larger.
CLOCK_SLACK = 0.05


class Tally:
    def __init__(self):
        self.games = 0
        self.plies = 0
        self.hits = 0
        self.faults = []

    def fault(self, why):
        self.faults.append(why)
        print(f"FAULT: {why}", file=sys.stderr)


def play_game(engines, base, inc, opening, tally, game_id, max_plies):
    """One game from `opening` (a list of moves); returns how it ended."""
    board = chess.Board()
    for m in opening:
        board.push(m)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    # The reply the side that just moved expects: what it now ponders on.
    expected_reply = None
    draw_offered = False
    while not board.is_game_over(claim_draw=True) and len(board.move_stack) < max_plies:
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=inc, black_inc=inc)
        start = time.monotonic()
        result = engines[side].play(board, limit, game=game_id, ponder=True,
                                    info=chess.engine.INFO_ALL, draw_offered=draw_offered)
        took = time.monotonic() - start
        if result.resigned:
            return "resigned"
        if result.move is None or result.move not in board.legal_moves:
            tally.fault(f"move {result.move} in {board.fen()}")
            return "fault"
        clocks[side] -= took
        if clocks[side] < -CLOCK_SLACK:
            tally.fault(f"clock ran out: {took:.3f} s taken, {clocks[side] + took:.3f} s left")
            return "time"
        clocks[side] += inc
        pv = result.info.get("pv")
        if pv and pv[0] != result.move:
            tally.fault(f"info of another search before the pong: pv {pv[0]} for move "
                        f"{result.move} in {board.fen()}")
        if expected_reply == result.move:
            tally.hits += 1
        expected_reply = pv[1] if pv and len(pv) > 1 else None
        draw_offered = result.draw_offered
        board.push(result.move)
        tally.plies += 1
    return str(board.outcome(claim_draw=True))


def random_opening(rng, plies):
    board = chess.Board()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return list(board.move_stack)


def parse_controls(text):
    controls = []
    for item in text.split(","):
        tc, games = item.split(":")
        base, inc = tc.split("+")
        controls.append((float(base), float(inc), int(games)))
    return controls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("--controls", default="5+0.05:4")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--uci", action="store_true")
    args = ap.parse_args()
    # python-chess's warnings (a rejected feature, unexpected output) reach stderr, where
    # the test looks for them.
    logging.basicConfig(level=logging.WARNING)
    rng = random.Random(args.seed)
    total = Tally()
    engines = None
    try:
        popen = chess.engine.SimpleEngine.popen_uci if args.uci else chess.engine.SimpleEngine.popen_xboard
        engines = {side: popen(args.engine) for side in (chess.WHITE, chess.BLACK)}
        for base, inc, games in parse_controls(args.controls):
            tally = Tally()
            endings = {}
            for n in range(games):
                opening = random_opening(rng, rng.choice([0, 2, 4, 6, 8]))
                # Colours swap every game, as the two processes keep their sides.
                pair = engines if n % 2 == 0 else {chess.WHITE: engines[chess.BLACK],
                                                   chess.BLACK: engines[chess.WHITE]}
                game_id = f"{base}+{inc}-{n}"
                ending = play_game(pair, base, inc, opening, tally, game_id, args.max_plies)
                endings[ending] = endings.get(ending, 0) + 1
                tally.games += 1
            print(f"{base:g}+{inc:g}: {tally.games} games, {tally.plies} plies, "
                  f"{tally.hits} expected replies, {len(tally.faults)} faults; {endings}", flush=True)
            total.games += tally.games
            total.plies += tally.plies
            total.hits += tally.hits
            total.faults += tally.faults
    except chess.engine.EngineError as e:
        total.fault(f"EngineError: {e}")
    except chess.engine.EngineTerminatedError as e:
        total.fault(f"engine terminated: {e}")
    finally:
        for engine in (engines or {}).values():
            try:
                engine.quit()
            except chess.engine.EngineTerminatedError:
                pass
    print(f"ponder soak: {total.games} games, {total.plies} plies, {total.hits} expected replies, "
          f"{len(total.faults)} faults")
    sys.exit(1 if total.faults else 0)


if __name__ == "__main__":
    main()
