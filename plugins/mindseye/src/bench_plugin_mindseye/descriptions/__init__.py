"""Light task descriptions (bench_core.Task), one module per task; importing them loads no numpy or Pillow."""
