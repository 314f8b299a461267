"""Speed of the package on one core: random self-play games per second, and the cost of the
common calls from Python.

    python crates/python/bench.py [--games 50] [--max-phases 40]
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

import spielleiter
from spielleiter.selfplay import random_orders


def self_play(games: int, max_phases: int) -> tuple[float, int, float]:
    """Games per second, phases played and the share of time in `process`."""
    phases = 0
    in_process = 0.0
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        game = spielleiter.Game("standard")
        while not game.is_game_done and game.phases_played < max_phases:
            for power, orders in random_orders(game, rng).items():
                game.set_orders(power, orders)
            t = time.perf_counter()
            game.process()
            in_process += time.perf_counter() - t
            phases += 1
    seconds = time.perf_counter() - start
    return games / seconds, phases, in_process / seconds


def per_call(statement: str, setup_globals: dict, number: int = 20000) -> float:
    """Microseconds per call (best of five)."""
    times = timeit.repeat(statement, globals=setup_globals, number=number, repeat=5)
    return min(times) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--max-phases", type=int, default=40)
    args = parser.parse_args()
    rate, phases, share = self_play(args.games, args.max_phases)
    print(f"random self-play: {rate:.1f} games/s, {phases} phases, {share:.0%} in process()")
    orders = ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]
    ordered = spielleiter.Game("standard")
    ordered.set_orders("FRANCE", orders)
    names = {
        "fresh": spielleiter.Game("standard"),
        "ordered": ordered,
        "orders": orders,
        "sets": [{"FRANCE": orders, "GERMANY": ["A MUN - BUR"]}] * 1000,
    }
    calls = [
        ("game.phase", "fresh.phase", 20000),
        ("game.clone()", "fresh.clone()", 20000),
        ("game.set_orders(power, 3 orders)", "fresh.set_orders('FRANCE', orders)", 20000),
        ("game.get_state()", "fresh.get_state()", 20000),
        ("clone + process, no orders", "fresh.clone().process()", 5000),
        ("clone + process, 3 orders given", "ordered.clone().process()", 5000),
        ("process_many, per order set of 4 orders", "fresh.process_many(sets)", 20),
    ]
    for label, statement, number in calls:
        micros = per_call(statement, names, number)
        if "process_many" in label:
            micros /= len(names["sets"])
        print(f"{label}: {micros:.2f} µs")


if __name__ == "__main__":
    main()
