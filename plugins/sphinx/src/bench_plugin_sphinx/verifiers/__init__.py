"""Independent verifiers: each reads only the written item (question, options, answer, scene record) and
its decoded PNGs, and re-derives the answer by a route that shares no code with the task's construction or
acceptance checks (the kit's motif, tiling and comparison code is not imported here)."""
