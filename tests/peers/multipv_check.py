#!/usr/bin/env python3
"""python-chess reading a multi-PV analysis of the engine.

    multipv_check.py ENGINE

python-chess manages the name MultiPV itself (its xboard analysis takes no multipv
argument), so the option is sent as XBoard sends it, `option MultiPV=3`; then an
analysis to depth 6 through python-chess must deliver, at every depth from 2 to 5, three
lines with different first moves (python-chess stops at the first line of depth 6), and
no warning. Prints `multipv check: all ok`.
"""
import logging
import sys

import chess
import chess.engine

LINES = 3


def main():
    logging.basicConfig(level=logging.WARNING)
    engine = chess.engine.SimpleEngine.popen_xboard(sys.argv[1])
    try:
        engine.protocol.loop.call_soon_threadsafe(
            engine.protocol.send_line, f"option MultiPV={LINES}")
        firsts = {}
        with engine.analysis(chess.Board(), chess.engine.Limit(depth=6)) as analysis:
            for info in analysis:
                if "pv" in info and info["pv"]:
                    firsts.setdefault(info["depth"], set()).add(info["pv"][0])
        for depth in range(2, 6):
            if len(firsts.get(depth, ())) < LINES:
                print(f"FAIL: depth {depth}: first moves {firsts.get(depth)}")
                sys.exit(1)
    finally:
        engine.quit()
    print("multipv check: all ok")


if __name__ == "__main__":
    main()
