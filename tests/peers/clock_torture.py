#!/usr/bin/env python3
"""Clock torture: how long Ferrimax takes for a move under tiny and awkward clocks.

For each situation the engine is set up over a pipe, sent the move that starts its
think, and timed until its `move` line arrives (the time a GUI measures). The budget is
what the clock allows; the overshoot is the time taken beyond it (0 when inside). The
report lists the worst time and overshoot per situation, and the worst overall.

usage: clock_torture.py FERRIMAX [ROUNDS]     (standard library only)
"""
import subprocess
import sys
import time


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("xboard", "protover 2")
        self.wait(lambda line: line == "feature done=1")

    def send(self, *lines):
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait(self, done):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            line = line.rstrip("\n")
            if done(line):
                return line

    def timed_move(self, setup, trigger):
        self.send(*setup)
        self.send("ping 1")
        self.wait(lambda line: line == "pong 1")
        start = time.monotonic()
        self.send(trigger)
        self.wait(lambda line: line.startswith("move "))
        return time.monotonic() - start

    def quit(self):
        self.send("quit")
        self.proc.wait(timeout=5)


def situations():
    """(name, setup lines, trigger, budget in seconds)."""
    for centis in (1, 2, 3, 5, 10, 20, 30, 50):
        yield (f"time {centis}", ["new", "level 0 0:10 0", f"time {centis}", f"otim {centis}"],
               "usermove e2e4", centis / 100)
    yield ("increment 0.01 s, 0.05 s left", ["new", "level 0 0:01 0.01", "time 5", "otim 5"],
           "usermove e2e4", 0.05 + 0.01)
    yield ("40 moves in 1 s, all left", ["new", "level 40 0:01 0", "time 100", "otim 100"],
           "usermove e2e4", 1.0)
    yield ("last move before the control, 1 s left",
           ["new", "force", "level 2 0:30 0", "usermove e2e4", "usermove e7e5", "time 100",
            "otim 100"], "go", 1.0)
    yield ("st 0.05", ["new", "st 0.05"], "usermove e2e4", 0.05)
    yield ("st 1", ["new", "st 1"], "usermove e2e4", 1.0)
    yield ("nps 20000 + st 1 (node clock)", ["new", "nps 20000", "st 1"], "usermove e2e4", 1.0)


def main():
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    worst_overshoot = 0.0
    print(f"{'situation':42} {'budget':>8} {'worst':>8} {'overshoot':>10}")
    for name, setup, trigger, budget in situations():
        worst = 0.0
        for _ in range(rounds):
            engine = Engine(path)
            worst = max(worst, engine.timed_move(setup, trigger))
            engine.quit()
        over = max(0.0, worst - budget)
        worst_overshoot = max(worst_overshoot, over)
        print(f"{name:42} {budget*1000:7.0f}ms {worst*1000:7.1f}ms {over*1000:9.1f}ms")
    print(f"worst overshoot: {worst_overshoot*1000:.1f} ms")


if __name__ == "__main__":
    main()
