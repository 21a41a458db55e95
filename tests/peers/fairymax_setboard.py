#!/usr/bin/env python3
"""Gives Fairy-Max 5.0b the CECP `setboard` command that python-chess requires.

    fairymax_setboard.py [ENGINE [ARG...]]        ENGINE defaults to /usr/games/fairymax

Fairy-Max announces `feature setboard=0`, and python-chess refuses XBoard engines without
setboard. This adapter runs the engine as a child process and relays lines between it and
the CECP client on stdin/stdout, flushing each line. Lines pass through unchanged, except:

Engine to client
  * `feature` lines say `setboard=1` where the engine said `setboard=0`.

Client to engine
  * `setboard FEN` is replaced by the edit-mode sequence XBoard sends to engines without
    setboard: `new`, `force`, `a2a3` if Black is to move (a dummy White move; `new` has just
    set up the initial position, so a2 holds a White pawn), `edit`, `#` (clear the board),
    one line per White piece such as `Ke1` or `Pe2`, `c` (switch colour), the Black pieces
    in the same upper-case form, and `.` (leave edit mode). The engine is left in force mode,
    as setboard expects. A FEN the adapter cannot read is answered with
    `tellusererror Illegal position` and nothing reaches the engine.
  * `.` (analyze mode's status request, which Fairy-Max answers with an error that
    python-chess treats as a failure) is dropped. After a client's own `edit`, the `.`
    that ends edit mode is passed on.
  * `computer` is dropped: Fairy-Max answers it with `Error (unknown command)`, and
    Debian's build has been seen to crash on it in XBoard engine-vs-engine games.

Edit mode cannot say everything a FEN says, so a position set up this way differs when
  * the FEN has an en passant square: the capture is not available to either side;
  * castling rights are missing although king and rook stand on their home squares: the
    engine considers the castling allowed;
  * the halfmove clock is not zero: fifty-move counting restarts (move numbers are lost too).
Start games from a move list instead of a FEN where any of this matters. Only orthodox
chess is supported: 8x8 FENs with pieces KQRBNP, and no `variant` command.

When the client closes stdin, the adapter sends `quit`, gives the engine 5 s to exit (then
kills it) and exits. When the engine exits, the adapter exits with the engine's status.
"""
import os
import re
import subprocess
import sys
import threading

DEFAULT_ENGINE = "/usr/games/fairymax"
FILES = "abcdefgh"
SETBOARD_OFF = re.compile(rb"(?<=\s)setboard=0(?=\s|$)")


def edit_sequence(fen):
    """The commands that set up `fen` through edit mode; ValueError if it is no chess FEN."""
    fields = fen.split()
    if len(fields) < 2 or fields[1] not in ("w", "b"):
        raise ValueError("need placement and side to move")
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise ValueError("need 8 ranks")
    pieces = {True: [], False: []}  # is White -> ["Ke1", ...]
    for row, text in enumerate(rows):
        rank = 8 - row
        file = 0
        for ch in text:
            if ch in "12345678":
                file += int(ch)
            elif ch in "KQRBNPkqrbnp" and file < 8:
                pieces[ch.isupper()].append(f"{ch.upper()}{FILES[file]}{rank}")
                file += 1
            else:
                raise ValueError(f"bad rank {text!r}")
        if file != 8:
            raise ValueError(f"bad rank {text!r}")
    for white in (True, False):
        if sum(p[0] == "K" for p in pieces[white]) != 1:
            raise ValueError("need one king a side")
    dummy = ["a2a3"] if fields[1] == "b" else []
    return ["new", "force", *dummy, "edit", "#", *pieces[True], "c", *pieces[False], "."]


class Relay:
    def __init__(self, command):
        self.engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.out_lock = threading.Lock()
        self.client_editing = False

    def to_client(self, line):
        with self.out_lock:
            try:
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                pass  # the client is gone; its stdin EOF ends the adapter

    def to_engine(self, line):
        try:
            self.engine.stdin.write(line)
            self.engine.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass  # the engine is gone; engine_to_client ends the adapter

    def engine_to_client(self):
        for line in iter(self.engine.stdout.readline, b""):
            if line.startswith(b"feature"):
                line = SETBOARD_OFF.sub(b"setboard=1", line)
            self.to_client(line)
        status = self.engine.wait()
        os._exit(status if status >= 0 else 128 - status)

    def client_line(self, line):
        words = line.split(None, 1)
        command = words[0] if words else b""
        if command == b"setboard":
            fen = words[1].decode("ascii", "replace") if len(words) > 1 else ""
            try:
                sequence = edit_sequence(fen)
            except ValueError:
                self.to_client(b"tellusererror Illegal position\n")
                return
            for step in sequence:
                self.to_engine(step.encode() + b"\n")
            return
        if command == b"computer":
            return
        if command == b"edit":
            self.client_editing = True
        elif command == b".":
            if not self.client_editing:
                return
            self.client_editing = False
        self.to_engine(line)

    def run(self):
        reader = threading.Thread(target=self.engine_to_client, daemon=True)
        reader.start()
        for line in iter(sys.stdin.buffer.readline, b""):
            self.client_line(line)
        self.to_engine(b"quit\n")
        try:
            self.engine.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.engine.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.engine.kill()
        reader.join()  # engine_to_client exits the process once the engine's output ends


if __name__ == "__main__":
    Relay(sys.argv[1:] or [DEFAULT_ENGINE]).run()
