"""RLCard's UNO with random agents: moves and games per CPU-second, the yardstick of issue 27 item 5.

    python -m venv .bench-venv && .bench-venv/bin/pip install rlcard     # not a dependency of cardwright
    .bench-venv/bin/python bench/uno.py [--games 300] [--seed 27]
    python bench/search.py --uno .bench-venv/bin/python                 # side by side, in one run

Plays ``--games`` 2-player games of RLCard's UNO environment (``rlcard.make('uno')``), every move
``RandomAgent.step`` (uniform over the legal actions, numpy's generator seeded once), the loop
written as RLCard's own ``env.run`` does it: ``reset``, then ``step`` until ``is_over``. Prints one
JSON line: games, moves, CPU seconds (this process), moves and games per CPU-second, load average.
"""
from __future__ import annotations

import argparse
import json
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args()
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": args.seed})
    np.random.seed(args.seed)
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]

    def play() -> int:
        state, player = env.reset()
        moves = 0
        while not env.is_over():
            state, player = env.step(agents[player].step(state))
            moves += 1
        return moves

    play()  # warm
    t = time.process_time()
    moves = sum(play() for _ in range(args.games))
    cpu = time.process_time() - t
    print(json.dumps({"game": "rlcard uno", "players": env.num_players, "games": args.games, "moves": moves,
                      "cpu_s": round(cpu, 3), "moves_per_cpu_s": round(moves / cpu, 1),
                      "games_per_cpu_s": round(args.games / cpu, 2), "load": round(os.getloadavg()[0], 2),
                      "rlcard": rlcard.__version__ if hasattr(rlcard, "__version__") else "?"}))


if __name__ == "__main__":
    main()
