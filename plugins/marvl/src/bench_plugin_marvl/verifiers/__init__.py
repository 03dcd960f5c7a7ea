"""The artefact verifiers of the MaRVL-QA tasks: ``counting`` and ``transformation``, on ``surfaces`` (the
verifiers' own evaluation of the 32 family formulas) and ``pixels`` (reading plots back from pixels).

A verifier reads only the item as written: its question, options and answer, its scene record
(``metadata["scene"]``) and its decoded PNG.  It must not import the generator's modules (``functions``,
``extrema``, ``certify``, ``plotting``, ``counting``, ``transformation``): a check that reuses the
construction or acceptance code of the generator proves nothing.  ``tests/test_verifier_independence.py``
enforces this.  matplotlib is imported for one thing only, the colour maps' lookup tables, to read a
heatmap's colours back as values.
"""
