"""The words of ``sphinx/tiles-line-length`` and ``sphinx/tiles-line-intersections``: the tilings' names
and the question stems (the paper's "Lines trace only along tile edges. What is the length of the purple
(#4b0082) line, in number of edge steps?" and paraphrases; colours as ``name (#hex)``).  Plain data, read by
the generators and by the verifier alike."""

from __future__ import annotations

TILING_NAMES = {"square": "square", "triangular": "triangular", "hexagonal": "hexagonal",
                "rhombille": "rhombille (rhombus)"}

#: Line length: ``{colour}`` is the line's colour as ``name (#hex)``.
LENGTH_STEMS = (
    "Lines trace only along tile edges. What is the length of the {colour} line, in number of edge steps?",
    "Coloured lines run along the edges of the tiling, from vertex to vertex. How many edge steps long is the "
    "{colour} line?",
    "How many tile edges make up the {colour} line?",
    "Each coloured line follows tile edges. Count the edges covered by the {colour} line.",
    "What is the length of the {colour} line, measured in tile edges?",
    "The {colour} line runs along the tile edges from one end to the other. How many edge steps does it take?",
    "Count the edge steps of the {colour} line (each step goes along one tile edge, between two neighbouring "
    "tile corners).",
    "How long is the {colour} line, counted in edges of the tiles?",
)
LENGTH_RULE = ("One edge step is one side of a tile between two neighbouring corners; a straight stretch along "
               "several tiles counts one step per tile edge.")

#: Intersections: ``{a}`` and ``{b}`` are the two lines' colours as ``name (#hex)``.
MEET_STEMS = (
    "How many grid vertices are touched by both the {a} and {b} lines?",
    "At how many tile corners do the {a} and {b} lines meet?",
    "Count the vertices of the tiling that lie on both the {a} line and the {b} line.",
    "How many points do the {a} and {b} lines have in common?",
    "At how many grid points do the {a} line and the {b} line cross or touch?",
    "How many tile corners belong to both the {a} and the {b} line?",
    "Count the intersection points of the {a} and {b} lines.",
    "How many vertices are shared by the {a} line and the {b} line?",
)
MEET_RULE = ("Lines run only along tile edges and never share an edge, so they can meet only at tile corners; "
             "count every corner on both lines, whether they cross there, touch, or one of them ends there.")

ANSWER = "Answer with an integer."
