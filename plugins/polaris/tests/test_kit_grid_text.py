"""kit.grid (boards, moves, the heading algebra) and kit.text (the C <-> P vocabulary and sentences)."""

from __future__ import annotations

import pytest
from bench_plugin_polaris.kit import grid, text


def test_bounded_board_never_steps_across_the_seam_and_a_wrapping_one_does():
    bounded, wrapping = grid.Board(3, 5), grid.Board(3, 5, wrap=True)
    assert bounded.step(1, 4, 0, 1) is None and bounded.step(1, 0, 0, -1) is None
    assert wrapping.step(1, 4, 0, 1) == (1, 0) and wrapping.step(1, 0, 0, -2) == (1, 3)
    assert bounded.step(0, 2, -1, 0) is None and wrapping.step(2, 2, 1, 0) is None  # rows never wrap
    assert bounded.crosses_seam(4, 1) and bounded.crosses_seam(0, -1) and not bounded.crosses_seam(2, 2)
    assert wrapping.with_wrap(False) == bounded


def test_move_respects_blocked_cells_and_walls_also_across_the_wrap():
    board = grid.Board(3, 4, wrap=True, blocked={(0, 1)}, walls=[((2, 3), (2, 0)), ((1, 1), (1, 2))])
    assert board.move(0, 0, 0, 1) is None  # blocked target
    assert board.move(2, 3, 0, 1) is None  # a wall on the wrap edge
    assert board.move(1, 2, 0, -1) is None and board.move(1, 2, 0, 1) == (1, 3)
    assert board.neighbours(1, 0) == [(0, 0), (1, 1), (2, 0), (1, 3)]
    assert board.neighbours(2, 0) == [(1, 0), (2, 1)]  # the wrap edge to (2, 3) is walled


def test_knight_moves_stay_distinct_only_on_enough_sectors():
    assert not grid.moves_distinct(grid.KNIGHT, 4)  # +2 and -2 sectors coincide
    assert grid.moves_distinct(grid.KNIGHT, 5)
    assert len(grid.Board(6, 4, wrap=True).neighbours(2, 0, grid.KNIGHT)) < 8


def test_heading_algebra_is_one_clockwise_cycle_in_both_renderings():
    for h in range(4):
        assert grid.turn_left(grid.turn_right(h)) == h and grid.reverse(grid.reverse(h)) == h
        assert grid.heading_of(*grid.heading_step(h)) == h
    names_c = [grid.heading_name(h, "cartesian") for h in range(4)]
    names_p = [grid.heading_name(h, "polar") for h in range(4)]
    assert names_c == ["Up", "Right", "Down", "Left"] and names_p == ["Out", "CW", "In", "CCW"]
    # spec 2.5: moving CW, a right turn points In (the centre is on the walker's right)
    assert grid.heading_name(grid.turn_right(grid.heading_from_name("CW", "polar")), "polar") == "In"
    assert grid.translate_heading("Left", "cartesian", "polar") == "CCW"
    assert grid.translate_heading("Out", "polar", "cartesian") == "Up"
    # orientation "in" (row 0 = innermost ring) swaps the radial names only
    assert grid.heading_name(0, "polar", "in") == "In" and grid.heading_name(1, "polar", "in") == "CW"
    with pytest.raises(ValueError):
        grid.heading_of(1, 1)


def test_vocabulary_maps_every_concept_both_ways():
    assert set(text.VOCABULARY["cartesian"]) == set(text.VOCABULARY["polar"])
    for key in text.VOCABULARY["cartesian"]:
        polar = text.word("polar", key)
        assert text.translate(text.word("cartesian", key), "cartesian", "polar") == polar or key in (
            "legend", "command_box", "diagonal", "board", "grid")  # words spelt alike in both
    assert text.word("polar", "row") == "ring" and text.word("polar", "Right") == "CW"
    assert text.word("cartesian", "cell") == "square" and text.word("polar", "cell") == "cell"
    with pytest.raises(KeyError, match="no polar word"):
        text.word("polar", "nonsense")


def test_sentences_name_the_rendering_conventions():
    assert "12 o'clock" in text.numbering("polar") and "innermost" in text.numbering("polar")
    assert "dashed" in text.boundary_sentence("cartesian", "wrapping")
    assert "dashed" not in text.boundary_sentence("cartesian", "wrapping", wraps=False)
    assert "wall at 12 o'clock" in text.boundary_sentence("polar", "bounded")
    assert "angular" in text.boundary_sentence("polar", "wrapping")
    assert "1 ring and 2 sectors" in text.moves_sentence("polar", "knight")
    assert "(A, B, C)" in text.answer_format("option", "polar", "ABC")
    assert "(ring, sector)" in text.answer_format("coordinate", "polar")
    assert text.coordinate("polar", 0, 2, rows=5) == (5, 3) and text.coordinate("polar", 0, 2, 5, "in") == (1, 3)
    assert text.coordinate("cartesian", 0, 2, rows=5) == (1, 3)
    assert text.options_sentence(["3", "5"], "AB") == "Options: (A) 3  (B) 5"
