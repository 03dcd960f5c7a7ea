"""The words of the three topology tasks (spec T21-T23): question stems (the paper's first, then paraphrases)
and the definitions each question states.  Plain data, read by the generators and by the verifiers alike."""

from __future__ import annotations

ANSWER = "Answer with an integer."

# -- tiles geometry --------------------------------------------------------------------------------------------
REGIONS_RULE = ("Each colour on the board forms one region: a single group of cells connected through shared "
                "edges.")
AREA_RULE = "The area of a region is the number of cells it covers."
PERIMETER_RULE = ("The perimeter is the number of cell edges on the shape's boundary: every edge between one of "
                  "its cells and a cell outside it counts, and so does every edge on the outer border of the "
                  "board.")
HOLES_RULE = ("A hole is a group of cells outside the shape, connected through shared edges, that the shape "
              "encloses completely, so it does not touch the border of the board; holes are drawn near-black. "
              "Cells that meet only at a corner belong to different holes.")

GEOMETRY_STEMS: dict[str, tuple[str, ...]] = {
    "area": (
        "What is the area of the {c} region, measured in cells?",
        "How many cells does the {c} region cover?",
        "How many cells belong to the {c} shape?",
        "What is the cell count of the {c} region?",
        "Count the cells of the {c} shape. What is its area?",
        "What is the size of the {c} region in cells?",
    ),
    "perimeter": (
        "What is the perimeter of the {c} shape, counted in boundary edges?",
        "How many boundary edges does the {c} region have?",
        "How many cell edges form the perimeter of the {c} shape?",
        "What is the length of the {c} region's boundary, in edges?",
        "Count the edges on the boundary of the {c} shape. What is its perimeter?",
        "What is the perimeter of the {c} region in edge steps?",
    ),
    "holes": (
        "How many holes does the {c} shape enclose?",
        "How many separate holes lie inside the {c} region?",
        "Count the holes enclosed by the {c} shape.",
        "What is the number of holes in the {c} region?",
        "How many distinct holes are completely surrounded by the {c} shape?",
        "How many enclosed holes does the {c} region contain?",
    ),
    "area_difference": (
        "What is the absolute difference in area, in cells, between the {c1} and {c2} regions?",
        "By how many cells do the areas of the {c1} region and the {c2} region differ?",
        "How many more cells does the larger of the {c1} and {c2} regions have than the smaller?",
        "What is the difference in cell count between the {c1} shape and the {c2} shape (larger minus smaller)?",
        "Compare the {c1} and {c2} regions. What is the absolute difference of their areas in cells?",
        "How far apart are the areas of the {c1} region and the {c2} region, in cells?",
    ),
    "union_perimeter": (
        "Treat the {c1} and {c2} regions together as one shape. What is its perimeter?",
        "Consider the union of the {c1} and {c2} regions. What is the perimeter of the combined shape?",
        "If the {c1} and {c2} regions are merged into one, what is the perimeter of the result?",
        "How many boundary edges does the shape formed by the {c1} and {c2} regions together have?",
        "What is the perimeter, in edges, of the single shape made of the {c1} and {c2} regions?",
        "Join the {c1} and {c2} regions into one shape. How many edges lie on its boundary?",
    ),
}

GEOMETRY_RULES: dict[str, tuple[str, ...]] = {
    "area": (REGIONS_RULE, AREA_RULE),
    "perimeter": (REGIONS_RULE, PERIMETER_RULE),
    "holes": (REGIONS_RULE, HOLES_RULE),
    "area_difference": (REGIONS_RULE, AREA_RULE),
    "union_perimeter": (REGIONS_RULE, "The two regions share at least one edge, so together they form one shape.",
                        PERIMETER_RULE),
}

# -- connected components --------------------------------------------------------------------------------------
EDGE_ADJACENCY = "Cells are adjacent if they share an edge; cells that meet only at a corner are not adjacent."
TOUCH_ADJACENCY = "Each disk is one cell; two disks are adjacent if they touch."
COMPONENT_RULE = ("A connected component of a colour is a largest group of cells of that colour in which any two "
                  "cells are joined by a chain of adjacent cells of that colour.")
MEASURE_PHRASES = {
    "size_largest": "the size (in cells) of the largest connected component of {c} cells",
    "size_smallest": "the size (in cells) of the smallest connected component of {c} cells",
    "count_components": "the number of connected components of {c} cells",
}
COMPONENT_STEMS = (
    "What is {measure}?",
    "Find {measure}.",
    "On this board, what is {measure}?",
    "Give {measure}.",
    "Considering the board, what is {measure}?",
    "Determine {measure}.",
)

# -- shortest path ---------------------------------------------------------------------------------------------
PATH_RULE = ("Dark gray cells are obstacles and cannot be entered; light gray cells are free, and so are the "
             "Start and End cells. A step moves from a cell to an adjacent cell, so the answer counts moves, not "
             "cells (two adjacent cells are 1 step apart). If no path exists, answer -1.")
PATH_STEMS = (
    "Start = {s}, End = {e}. What is the fewest number of steps from Start to End?",
    "The Start cell is {s} and the End cell is {e}. What is the minimum number of steps from Start to End?",
    "Start is the {s} cell and End is the {e} cell. What is the length of the shortest path in steps?",
    "Start is the {s} cell, End is the {e} cell. How many steps does the shortest path from Start to End take?",
    "Moving only through free cells, what is the fewest number of steps from the {s} Start cell to the {e} "
    "End cell?",
    "How many steps long is the shortest path from the {s} Start cell to the {e} End cell?",
)


def geometry_question(stem: str, query: str, **colours: str) -> str:
    return " ".join([*GEOMETRY_RULES[query], stem.format(**colours), ANSWER])


def component_question(stem: str, measure: str, colour: str, circles: bool) -> str:
    phrase = MEASURE_PHRASES[measure].format(c=colour)
    adjacency = TOUCH_ADJACENCY if circles else EDGE_ADJACENCY
    return " ".join([adjacency, COMPONENT_RULE, stem.format(measure=phrase, c=colour), ANSWER])


def path_question(stem: str, start: str, end: str, circles: bool) -> str:
    adjacency = TOUCH_ADJACENCY if circles else EDGE_ADJACENCY
    return " ".join([adjacency, PATH_RULE, stem.format(s=start, e=end), ANSWER])
