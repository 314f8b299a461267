"""Random self-play with Ray: N games across workers, the game records collected.

Each Ray task plays a batch of games in lockstep: every phase draws random orders for all
its games, then adjudicates them in one `spielleiter.process_games` call (no GIL held, no
Python per game inside the engine). The records are saved games in the JSON of the
`diplomacy` package, one line each.

    python examples/ray_selfplay.py --games 200 --out games.jsonl          # a local Ray
    python examples/ray_selfplay.py --address ray://head:10001 --games 100000 --tasks 512

The same code runs on a Ray cluster: `--address` is handed to `ray.init` (the package must be
installed on every node). Until legal-order generation lands, orders are drawn from each
unit's neighbouring places (`spielleiter.selfplay.random_orders`, the one place to switch to
`Game.get_all_possible_orders()`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import ray
import spielleiter
from spielleiter.selfplay import random_orders


def play_batch(variant: str, seeds: list[int], max_phases: int) -> list[dict]:
    """Plays one game per seed to its end or `max_phases` phases; their saved games."""
    games = [spielleiter.Game(variant, game_id=f"{variant}-{seed}") for seed in seeds]
    rngs = [random.Random(seed) for seed in seeds]
    playing = list(range(len(games)))
    while playing:
        orders = []
        for i in playing:
            drawn = random_orders(games[i], rngs[i])
            # Hegemony's rules close some passages the map has: such orders are left out.
            for power, lines in drawn.items():
                games[i].set_orders(power, lines, strict=False)
            orders.append({})
        spielleiter.process_games([games[i] for i in playing], orders)
        playing = [
            i for i in playing if not games[i].is_game_done and games[i].phases_played < max_phases
        ]
    return [g.to_saved_game_format() for g in games]


@ray.remote
def play_batch_remote(variant: str, seeds: list[int], max_phases: int) -> list[dict]:
    """`play_batch` as a Ray task."""
    return play_batch(variant, seeds, max_phases)


def self_play(
    games: int, tasks: int, variant: str = "standard", max_phases: int = 40, seed: int = 0
) -> list[dict]:
    """Plays `games` games in `tasks` Ray tasks (Ray must be initialised); their records."""
    seeds = list(range(seed, seed + games))
    chunks = [seeds[i::tasks] for i in range(tasks) if seeds[i::tasks]]
    futures = [play_batch_remote.remote(variant, chunk, max_phases) for chunk in chunks]
    records = [record for batch in ray.get(futures) for record in batch]
    return sorted(records, key=lambda r: r["id"])


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="a Ray cluster to join (default: start a local Ray)")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local Ray")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--max-phases", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="write the records here, one JSON line each")
    args = parser.parse_args(argv)
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus)
    start = time.perf_counter()
    records = self_play(args.games, args.tasks, args.variant, args.max_phases, args.seed)
    seconds = time.perf_counter() - start
    phases = sum(len(r["phases"]) - 1 for r in records)
    rate = len(records) / seconds
    print(f"{len(records)} games, {phases} phases in {seconds:.1f} s ({rate:.1f} games/s)")
    if args.out:
        with open(args.out, "w") as out:
            for record in records:
                out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
