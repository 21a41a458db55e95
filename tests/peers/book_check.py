#!/usr/bin/env python3
"""Checks Ferrimax's Polyglot book reader against the reference implementations.

A small PGN (written here) becomes a book through Debian's `polyglot make-book`; then,
for every position of those games, the moves and weights Ferrimax lists for `bk` must be
exactly those python-chess's book reader finds. Last, Ferrimax plays a game with the
book and its first moves must be book moves, each announced by a thinking line whose PV
starts with "(".

usage: book_check.py FERRIMAX [POLYGLOT]
"""
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import chess.polyglot

# Short games with results (make-book skips games without one); castling is in them so
# the king-takes-rook encoding is exercised.
PGN = """
[Result "1-0"]
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1-0

[Result "1/2-1/2"]
1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 1/2-1/2

[Result "0-1"]
1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 0-1

[Result "1-0"]
1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 1-0

[Result "1-0"]
1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4 1-0

[Result "0-1"]
1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. f3 O-O 0-1
"""


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("xboard")
        self.send("protover 2")
        self.until(lambda line: line == "feature done=1")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output; so far: %r" % lines)
            line = line.rstrip("\n")
            lines.append(line)
            if done(line):
                return lines

    def book(self, board):
        self.send("setboard " + board.fen())
        self.send("bk")
        lines = self.until(lambda line: line == "")[:-1]
        found = {}
        for line in lines:
            assert line.startswith(" "), "book lines start with a blank: %r" % line
            san, weight, _share = line.split()
            found[san] = int(weight)
        return found

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def reference(book_path, board):
    with chess.polyglot.open_reader(book_path) as reader:
        return {board.san(e.move): e.weight for e in reader.find_all(board) if e.weight > 0}


def main():
    ferrimax = sys.argv[1]
    polyglot = sys.argv[2] if len(sys.argv) > 2 else "/usr/games/polyglot"
    work = tempfile.mkdtemp(prefix="ferrimax-book-")
    pgn_path = os.path.join(work, "games.pgn")
    book_path = os.path.join(work, "book.bin")
    with open(pgn_path, "w") as f:
        f.write(PGN)
    subprocess.run(
        [polyglot, "make-book", "-pgn", pgn_path, "-bin", book_path, "-max-ply", "16",
         "-min-game", "1"],
        check=True, cwd=work, stdout=subprocess.DEVNULL,
    )
    assert os.path.getsize(book_path) % 16 == 0 and os.path.getsize(book_path) > 0

    engine = Engine(ferrimax)
    engine.send("option Book=" + book_path)
    checked = 0
    with open(pgn_path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            for move in game.mainline_moves():
                expected = reference(book_path, board)
                got = engine.book(board)
                assert got == expected, "%s: ferrimax %r, python-chess %r" % (
                    board.fen(), got, expected)
                checked += 1 + len(expected)
                board.push(move)
    print("book_check: %d positions and moves agree" % checked)

    # A game with the book: White's first moves come from it at once.
    engine.send("new")
    engine.send("post")
    engine.send("st 1")
    engine.send("force")
    board = chess.Board()
    engine.send("go")
    for _ in range(3):
        lines = engine.until(lambda line: line.startswith("move "))
        move = chess.Move.from_uci(lines[-1].split()[1])
        book_moves = reference(book_path, board)
        if not book_moves:
            break
        assert board.san(move) in book_moves, "%s not a book move %r" % (move, book_moves)
        thinking = [l for l in lines if l[:1].isdigit()]
        assert thinking and thinking[-1].split(None, 4)[4].startswith("("), lines
        board.push(move)
        reply = next(iter(reference(book_path, board)), None)
        if reply is None:
            break
        engine.send("usermove " + board.parse_san(reply).uci())
        board.push_san(reply)
    engine.quit()
    print("book_check: all ok")


if __name__ == "__main__":
    main()
