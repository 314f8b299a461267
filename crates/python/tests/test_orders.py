"""Orders in every notation, structured orders, and errors as exceptions."""

import pytest
import spielleiter


def moved(game, power):
    game.process()
    return sorted(game.get_units(power))


@pytest.mark.parametrize(
    "order",
    [
        "A PAR - BUR",
        "A Par-Bur",
        "Army Paris -> Burgundy",
        "A Paris to Burgundy",
        "A Paris → Burgund",
        "A Par nach Bur",
        {"type": "move", "unit": "A PAR", "to": "BUR"},
    ],
)
def test_one_move_in_every_notation(standard, order):
    standard.set_orders("FRANCE", [order])
    assert standard.get_orders("FRANCE") == ["A PAR - BUR"]
    assert "A BUR" in moved(standard, "FRANCE")


def test_orders_as_one_text_and_with_the_power_in_any_case(standard):
    standard.set_orders("france", "A PAR - BUR\nF BRE - MAO\n\nA MAR S A PAR - BUR")
    assert standard.get_orders() == {
        "FRANCE": ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]
    }


def test_structured_orders_of_every_kind(standard):
    standard.set_orders(
        "ENGLAND",
        [
            {"type": "move", "unit": "F LON", "to": "ENG"},
            {"type": "hold", "unit": "F EDI"},
            {"type": "support", "unit": "A LVP", "target": "F EDI"},
        ],
    )
    standard.set_orders(
        "FRANCE", [{"type": "support", "unit": "A MAR", "target": "A PAR", "to": "BUR"}]
    )
    assert standard.get_orders() == {
        "ENGLAND": ["F LON - ENG", "F EDI H", "A LVP S F EDI"],
        "FRANCE": ["A MAR S A PAR - BUR"],
    }
    with pytest.raises(spielleiter.OrderError, match="needs `to`"):
        standard.set_orders("FRANCE", [{"type": "move", "unit": "A PAR"}])
    with pytest.raises(spielleiter.OrderError, match="unknown type `fly`"):
        standard.set_orders("FRANCE", [{"type": "fly", "unit": "A PAR"}])


def test_convoys_retreats_and_builds_by_text():
    game = spielleiter.Game.from_state(
        {
            "phase": "S1901M",
            "units": {
                "ENGLAND": ["A LON", "F NTH"],
                "FRANCE": ["A BEL"],
                "GERMANY": ["A HOL", "A RUH"],
            },
            "centers": {"ENGLAND": ["LON"], "GERMANY": ["BER"]},
        }
    )
    game.set_orders(
        "ENGLAND",
        ["A LON - BEL VIA", {"type": "convoy", "unit": "F NTH", "target": "A LON", "to": "BEL"}],
    )
    game.set_orders("GERMANY", ["A HOL S A RUH - BEL", "A RUH - BEL"])
    game.process()
    assert game.get_last_results()["A BEL"] == ["dislodged"]
    assert game.phase == "S1901R"
    assert game.get_state()["retreats"]["FRANCE"]["A BEL"] == ["BUR", "PIC"]
    game.set_orders("FRANCE", [{"type": "retreat", "unit": "A BEL", "to": "PIC"}])
    game.process()
    assert game.get_units("FRANCE") == ["A PIC"]


def test_a_refused_line_raises_order_error_with_the_engine_message(standard):
    standard.set_orders("FRANCE", ["A PAR - BUR"])
    with pytest.raises(spielleiter.OrderError) as caught:
        standard.set_orders("FRANCE", ["F BRE - MAO", "A Pariss - Bur"])
    e = caught.value
    assert isinstance(e, spielleiter.SpielleiterError) and isinstance(e, ValueError)
    assert e.order == "A Pariss - Bur"
    assert e.power == "FRANCE"
    assert e.position == 2
    assert e.suggestion == "Paris"
    assert "unknown province `Pariss`" in str(e)
    # Nothing of the refused set was kept.
    assert standard.get_orders("FRANCE") == ["A PAR - BUR"]


def test_orders_for_another_powers_unit_are_refused(standard):
    with pytest.raises(spielleiter.OrderError, match="FRANCE"):
        standard.set_orders("FRANCE", ["A MUN - BUR"])


def test_not_strict_keeps_the_lines_and_returns_the_refusals(standard):
    refused = standard.set_orders("FRANCE", ["A PAR - BUR", "A PAR - MOS"], strict=False)
    assert refused == [
        {
            "order": "A PAR - MOS",
            "error": refused[0]["error"],
            "position": refused[0]["position"],
            "suggestion": None,
        }
    ]
    assert "Mos" in refused[0]["error"] or "MOS" in refused[0]["error"].upper()
    standard.process()
    last = standard.last_phase()
    assert last["rejected_orders"]["FRANCE"][0]["order"] == "A PAR - MOS"
    assert "A BUR" in standard.get_units("FRANCE")


def test_other_errors_are_exceptions(standard):
    with pytest.raises(spielleiter.SpielleiterError, match="unknown power `ATLANTIS`"):
        standard.set_orders("ATLANTIS", ["A PAR - BUR"])
    with pytest.raises(TypeError):
        standard.set_orders("FRANCE", [42])
    with pytest.raises(TypeError):
        standard.set_orders("FRANCE", 42)
    with pytest.raises(ValueError, match="unit type"):
        standard.neighbours("PAR", "Z")
    with pytest.raises(ValueError, match="unknown location"):
        standard.neighbours("XYZ", "A")
    with pytest.raises(spielleiter.StateError):
        spielleiter.Game.from_state({"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}})
    with pytest.raises(spielleiter.StateError):
        spielleiter.Game.from_state("{not json")
    with pytest.raises(spielleiter.StateError):
        spielleiter.Game.from_saved_game_format({"id": "x", "map": "standard", "phases": []})


def test_a_finished_game_refuses_orders_and_processing():
    game = spielleiter.Game.from_state(
        {
            "phase": "F1901M",
            "units": {"FRANCE": ["A PAR"]},
            "centers": {
                "FRANCE": ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE"]
                + ["BER", "DEN", "SWE", "NWY", "LON", "LVP", "EDI", "VEN", "ROM"]
            },
        }
    )
    game.process()
    assert game.is_game_done
    assert game.phase == "COMPLETED"
    assert game.winner == "FRANCE"
    assert game.result == {"kind": "victory", "powers": ["FRANCE"]}
    with pytest.raises(spielleiter.GameOverError):
        game.process()
    with pytest.raises(spielleiter.GameOverError):
        game.set_orders("FRANCE", ["A PAR H"])


def test_a_draw_of_the_survivors_ends_the_game_and_is_saved(standard):
    standard.process()
    standard.set_orders("FRANCE", ["A PAR - BUR"])
    standard.draw()
    assert standard.is_game_done and standard.phase == "COMPLETED"
    assert standard.result == {"kind": "draw", "powers": sorted(standard.powers)}
    assert standard.winner is None
    assert standard.get_orders() == {}
    with pytest.raises(spielleiter.GameOverError):
        standard.process()
    with pytest.raises(spielleiter.GameOverError):
        standard.concede("FRANCE")
    again = spielleiter.Game.from_saved_game_format(standard.to_saved_game_format())
    assert again.result == standard.result


def test_a_concession_to_a_power_still_in_the_game(standard):
    with pytest.raises(spielleiter.SpielleiterError, match="unknown power `ATLANTIS`"):
        standard.concede("ATLANTIS")
    assert not standard.is_game_done
    standard.concede("england")
    assert standard.result == {"kind": "concession", "powers": ["ENGLAND"]}
    with pytest.raises(spielleiter.GameOverError):
        standard.draw()


def test_no_concession_to_a_power_out_of_the_game():
    game = spielleiter.Game.from_state(
        {
            "phase": "S1905M",
            "units": {"FRANCE": ["A PAR"], "ENGLAND": ["F LON"]},
            "centers": {"FRANCE": ["PAR"]},
        }
    )
    with pytest.raises(spielleiter.SpielleiterError, match="not in the game"):
        game.concede("GERMANY")
    game.draw()
    assert game.result == {"kind": "draw", "powers": ["ENGLAND", "FRANCE"]}


def test_legal_orders_of_the_opening(standard):
    possible = standard.get_all_possible_orders()
    assert standard.get_orderable_locations("FRANCE") == ["BRE", "MAR", "PAR"]
    assert set(standard.get_orderable_locations()) == set(standard.powers)
    assert "A PAR - BUR" in possible["PAR"] and "A PAR - MUN" not in possible["PAR"]
    assert "F STP/SC - BOT" in possible["STP/SC"]
    assert len(possible) == 23  # 22 units, and F STP/SC under STP too
    for location in standard.get_orderable_locations("FRANCE"):
        for order in possible[location]:
            assert standard.clone().set_orders("FRANCE", [order]) == [], order


def test_neighbours_build_sites_and_counts(standard):
    assert set(standard.neighbours("PAR", "A")) == {"BRE", "PIC", "BUR", "GAS"}
    assert "SPA/NC" in standard.neighbours("MAO", "F")
    assert standard.neighbours("PAR", "F") == []
    assert standard.get_adjustment_counts() == {}
    assert standard.get_build_sites("FRANCE") == []
