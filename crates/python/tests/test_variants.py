"""Games of every built-in variant, and of a variant given as TOML text."""

import pytest
import spielleiter
from conftest import REPO, play

BUILT_IN = ["standard", "ancmed", "colonial", "hegemony-1689", "hegemony-1701"]


def test_every_variant_the_brief_names_is_built_in():
    assert set(BUILT_IN) <= set(spielleiter.variants())
    assert "hegemony-1741" in spielleiter.incomplete_variants()


@pytest.mark.parametrize("variant", BUILT_IN)
def test_random_games_of_every_variant_play_three_years(variant):
    game = spielleiter.Game(variant)
    start = game.phase
    units_at_start = sum(len(u) for u in game.get_units().values())
    assert units_at_start > 0
    play(game, seed=7, phases=12, strict=not variant.startswith("hegemony"))
    assert game.phases_played == 12 or game.is_game_done
    assert game.phase != start
    history = game.to_saved_game_format()["phases"]
    assert [p["name"] for p in history][0] == start
    assert len(history) == game.phases_played + 1
    # Units stand in distinct provinces and centres have one owner each.
    places = [u.split()[1].split("/")[0] for us in game.get_units().values() for u in us]
    live = [p for p in places if not p.startswith("*")]
    assert len(live) == len(set(live))
    centres = [c for cs in game.get_centers().values() for c in cs]
    assert len(centres) == len(set(centres))


def test_standard_phases_follow_the_calendar(standard):
    seen = [standard.phase]
    play(standard, seed=3, phases=6)
    for record in standard.to_saved_game_format()["phases"][1:]:
        seen.append(record["name"])
    assert seen[0] == "S1901M"
    assert seen[1] in ("S1901R", "F1901M")
    assert all(name[0] in "SFW" and name[-1] in "MRA" for name in seen)
    years = [int(name[1:5]) for name in seen]
    assert years == sorted(years)
    assert "F1901M" in seen


def test_colonial_plays_with_its_other_calendar():
    two_year = spielleiter.Game("colonial")
    original = spielleiter.Game("colonial", calendar="original")
    two_year.process()
    original.process()
    assert two_year.phase != original.phase
    assert original.get_state()["options"]["calendar"] == "original"


def test_a_variant_from_toml_text_plays_like_the_built_in_one():
    text = (REPO / "variants" / "standard" / "variant.toml").read_text()
    game = spielleiter.Game(variant_toml=text)
    built_in = spielleiter.Game("standard")
    for g in (game, built_in):
        g.set_orders("FRANCE", ["A PAR - BUR"])
        g.process()
    assert game.get_units() == built_in.get_units()
    copy = spielleiter.Game.from_saved_game_format(game.to_json(), variant_toml=text)
    assert copy.get_state() == game.get_state()


def test_unknown_variants_and_broken_toml_raise_variant_error():
    with pytest.raises(spielleiter.VariantError, match="unknown variant `nowhere`"):
        spielleiter.Game("nowhere")
    with pytest.raises(spielleiter.VariantError):
        spielleiter.Game(variant_toml="[variant]\nname = 3\n")
    with pytest.raises(spielleiter.VariantError, match="no game can be started"):
        spielleiter.Game("hegemony-1741")
    with pytest.raises(spielleiter.VariantError, match="calendar"):
        spielleiter.Game("standard", calendar="original")
