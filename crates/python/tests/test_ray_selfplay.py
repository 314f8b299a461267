"""The Ray self-play example plays 100 games on a local Ray (select with `-m ray`)."""

import importlib.util
import json

import pytest
import spielleiter
from conftest import REPO
from diplomacy.utils.export import from_saved_game_format

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.ray


def load_example():
    path = REPO / "examples" / "ray_selfplay.py"
    spec = importlib.util.spec_from_file_location("ray_selfplay", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_one_hundred_games_across_workers(local_ray):
    example = load_example()
    records = example.self_play(games=100, tasks=4, max_phases=30, seed=500)
    assert len(records) == 100
    assert len({r["id"] for r in records}) == 100
    for record in records:
        assert record["map"] == "standard"
        assert len(record["phases"]) >= 2
        game = spielleiter.Game.from_saved_game_format(record)
        assert game.is_game_done or game.phases_played == 30
    # The records are saved games of the diplomacy package, and deterministic per seed.
    theirs = from_saved_game_format(json.loads(json.dumps(records[0])))
    assert theirs.get_current_phase() == records[0]["phases"][-1]["name"]
    again = example.play_batch("standard", [500], 30)[0]
    assert again == next(r for r in records if r["id"] == "standard-500")
