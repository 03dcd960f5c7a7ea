"""Light task descriptions (bench_core.Task); importing them loads no numpy or Pillow."""
