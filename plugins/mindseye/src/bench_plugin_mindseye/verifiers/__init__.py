"""The artefact verifiers of the Mind's Eye tasks, one module per task.

A verifier reads only a scene record (JSON, as written in ``items.jsonl``) and pixels.  It must not import
the generator modules (the task modules, ``attributes``, ``folding``, ``recursion``, ``motion``,
``raster3d``, ``options``): a solver that reuses the construction or acceptance code of the generator
proves nothing.  ``tests/test_verifier_independence.py`` enforces this.
"""
