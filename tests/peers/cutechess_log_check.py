#!/usr/bin/env python3
"""Reads the `-debug` log and the PGN of a cutechess-cli match and counts what a GUI of
cutechess would show wrongly of an engine's thinking:

    cutechess_log_check.py LOG PGN [--engine NAME]

- a thinking line whose principal variation does not begin with a legal move of the
  position cutechess has when it reads the line. cutechess makes the opponent's move on
  its board before it sends `ping` at the start of the engine's turn, and takes every
  thinking line after that `ping` as thinking on the coming move; so the opponent's move
  counts from the `ping` on (from the move itself where no `ping` precedes it);
- a move of the engine whose PGN comment carries no evaluation (not a book move).

The engine's lines are matched by the name cutechess gives it (`--engine`, default
Ferrimax), each instance (`Ferrimax(3)`) followed on its own board. Prints the counts and
the first offending lines; exit status 1 when any count is not 0. Needs python-chess.
"""
import argparse
import re
import sys

import chess
import chess.pgn

# `123 >Ferrimax(0): usermove e2e4` (to the engine) or `124 <Ferrimax(0): move e7e5`.
LOG_LINE = re.compile(r"^\d+ ([<>])(.+?)\((\d+)\): (.*)$")
# Clock commands that may come between cutechess's `ping` and the opponent's move.
CLOCK_COMMANDS = ("time ", "otim ")
SHOWN = 5


class Instance:
    """One engine process as cutechess sees it."""

    def __init__(self):
        self.board = chess.Board()
        # The opponent's move already made at a `ping`, still to come as `usermove`.
        self.made_early = None

    def apply(self, text):
        self.board.push(self.board.parse_uci(text) if len(text) <= 5 and text[1].isdigit()
                        else self.board.parse_san(text))


def pv_start(line):
    """The first PV move of a thinking line, or None if `line` is no thinking line."""
    fields = line.replace("\t", " ").split()
    if len(fields) < 5 or not all(re.fullmatch(r"-?\d+", f) for f in fields[:4]):
        return None
    rest = [f for f in fields[4:] if not re.fullmatch(r"-?\d+", f)]
    return rest[0] if rest else None


def check_log(path, engine):
    lines = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = LOG_LINE.match(raw.rstrip("\n"))
            if m and m.group(2) == engine:
                lines.append((m.group(1), m.group(3), m.group(4)))
    instances = {}
    thinking = 0
    stale = []
    for i, (direction, ident, text) in enumerate(lines):
        inst = instances.setdefault(ident, Instance())
        if direction == ">":
            if text == "new":
                inst.board = chess.Board()
            elif text.startswith("setboard "):
                inst.board = chess.Board(text[len("setboard "):])
            elif text.startswith("ping "):
                upcoming = next_usermove(lines, i, ident)
                if upcoming is not None:
                    inst.apply(upcoming)
                    inst.made_early = upcoming
            elif text.startswith("usermove ") or is_bare_move(text, inst.board):
                move = text.split()[-1]
                if inst.made_early == move:
                    inst.made_early = None
                else:
                    inst.apply(move)
            continue
        if text.startswith("move "):
            inst.apply(text.split()[1])
            continue
        first = pv_start(text)
        if first is None:
            continue
        thinking += 1
        try:
            inst.board.parse_san(first)
        except ValueError:
            try:
                inst.board.parse_uci(first)
            except ValueError:
                stale.append(f"{text!r} read in {inst.board.fen()}")
    return thinking, stale


def is_bare_move(text, board):
    try:
        board.parse_uci(text)
        return True
    except ValueError:
        return False


def next_usermove(lines, start, ident):
    """The move cutechess sends right after a `ping` (clock commands and the `pong`
    between), if that is what follows."""
    for direction, other, text in lines[start + 1:]:
        if other != ident:
            continue
        if direction == "<":
            if text.startswith("pong "):
                continue
            if pv_start(text) is not None:
                continue
            return None
        if text.startswith(CLOCK_COMMANDS):
            continue
        if text.startswith("usermove "):
            return text.split()[1]
        return None
    return None


def check_pgn(path, engine):
    moves = 0
    empty = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            ours = chess.WHITE if game.headers.get("White", "").startswith(engine) else chess.BLACK
            node = game
            while node.variations:
                node = node.variations[0]
                if node.parent.board().turn != ours:
                    continue
                comment = node.comment.strip()
                if comment == "book":
                    continue
                moves += 1
                if not re.match(r"^[+-]?(M?\d+(\.\d+)?)/\d+", comment):
                    empty.append(f"{game.headers.get('Round')}: {node.san()} {{{comment}}}")
    return moves, empty


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("pgn")
    ap.add_argument("--engine", default="Ferrimax")
    args = ap.parse_args()
    thinking, stale = check_log(args.log, args.engine)
    moves, empty = check_pgn(args.pgn, args.engine)
    print(f"thinking lines {thinking}, read against the wrong position {len(stale)}")
    for s in stale[:SHOWN]:
        print("  " + s)
    print(f"engine moves {moves}, without an evaluation comment {len(empty)}")
    for e in empty[:SHOWN]:
        print("  " + e)
    return 1 if stale or empty else 0


if __name__ == "__main__":
    sys.exit(main())
