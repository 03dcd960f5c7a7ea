"""Random polycubes for the mental-rotation tests: one sampler of chains and colours, shared by the test files that
draw random views, meshes and poses."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from bench_plugin_mindseye import mental_rotation as mt


def random_chains(rng: np.random.Generator) -> Iterator[np.ndarray]:
    """Endless random chains of 6-10 cubes with 3-4 turns (``mental_rotation.random_chain``; a draw that finds none
    is drawn again), each drawn from ``rng`` only when asked for, so the caller's own draws between two chains keep
    their place in the stream."""
    while True:
        chain = mt.random_chain(rng, int(rng.integers(6, 11)), int(rng.integers(3, 5)))
        if chain is not None:
            yield chain


def random_colours(rng: np.random.Generator, count: int) -> list:
    """``count`` cube colours drawn from the task's palette."""
    return [mt.PALETTE[name] for name in rng.choice(list(mt.PALETTE), size=count)]
