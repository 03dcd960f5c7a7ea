"""PNG encode time and size per zlib level, as RGB and as a palette image, on real images of every task.

The measurement behind the settings in ``bench_core.images``: it renders ``--count`` items of every selected
task (default: all tasks of all installed families), and encodes each image at zlib levels 1..9 twice -- as
the RGB image it is, and (when it has at most 256 colours) as the exact palette image ``encode_png`` writes,
the conversion counted in the time.  Times are CPU ms (``process_time``, the median of ``--repeat``) to
encode one image; sizes are KiB.  Rows group the images by kind within each task:

* ``palette``: images with at most 256 colours, written as palette PNGs;
* ``rgb (<=256)``: the same images written as RGB, for comparison;
* ``rgb (>256)``: images with more colours, which stay RGB;

each with the images' size; the last rows pool every task's images by kind and size.

    python benchmarks/png_settings.py                   # every task, 12 items
    python benchmarks/png_settings.py --tasks traversal --count 4
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections import defaultdict

from bench_core.generation import build_item, plan
from bench_core.host import default_host
from bench_core.images import palette_image

LEVELS = tuple(range(1, 10))


def encode_ms(image, level: int, palette: bool, repeat: int) -> tuple[float, int]:
    """(median CPU ms, bytes) of encoding ``image`` at ``level``, via its palette image if ``palette``."""
    times = []
    for _ in range(repeat):
        buffer = io.BytesIO()
        start = time.process_time()
        source = palette_image(image) if palette else image
        source.save(buffer, format="PNG", compress_level=level, optimize=False)
        times.append(time.process_time() - start)
    return 1000 * statistics.median(times), len(buffer.getvalue())


def task_images(host, task, count: int, seed: int) -> list:
    """The RGB images of ``count`` items of ``task``, built as ``bench generate`` builds them."""
    images = []
    for job in plan(task, {}, seed, count):
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix, encode=False)
        images += [image.convert("RGB") if image.mode != "RGB" else image for image in built.images]
    return images


def measure(images: list, repeat: int) -> dict[str, dict[int, list[tuple[float, int]]]]:
    """{row: {level: [(ms, bytes) per image]}} for the rows described in the module docstring, each row name
    followed by the images' size (``palette 1024x1024``)."""
    rows: dict[str, dict[int, list[tuple[float, int]]]] = defaultdict(lambda: defaultdict(list))
    for image in images:
        few = image.getcolors(256) is not None
        size = "x".join(map(str, image.size))
        rgb = f"rgb (<=256) {size}" if few else f"rgb (>256) {size}"
        for level in LEVELS:
            rows[rgb][level].append(encode_ms(image, level, False, repeat))
            if few:
                rows[f"palette {size}"][level].append(encode_ms(image, level, True, repeat))
    return rows


def print_rows(label: str, rows: dict[str, dict[int, list[tuple[float, int]]]]) -> None:
    """One table row per kind of image in ``rows``: mean ms / mean KiB at each level."""
    for kind in sorted(rows, key=lambda k: (not k.startswith("palette"), k)):
        cells = [f"{statistics.mean(f[0] for f in rows[kind][level]):.1f} / "
                 f"{statistics.mean(f[1] for f in rows[kind][level]) / 1024:.1f}" for level in LEVELS]
        print(f"| {label} | {len(rows[kind][1])} | {kind} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=12, help="items per task (default 12)")
    parser.add_argument("--repeat", type=int, default=3, help="encodes per image and level; median (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tasks", nargs="*", default=[], metavar="SELECTOR", help="families or tasks (default: all)")
    args = parser.parse_args()
    if args.count < 1 or args.repeat < 1:
        parser.error("--count and --repeat must be at least 1")
    from PIL import __version__ as pillow_version
    from PIL import features

    ng = features.version("zlib_ng")
    zlib = f"zlib-ng {ng}" if ng else f"zlib {features.version('zlib')}"
    host = default_host()
    print(f"mean CPU ms to encode one image / mean KiB, {args.count} items per task, Pillow {pillow_version}, {zlib}\n")
    print("| task | images | kind | " + " | ".join(f"level {level}" for level in LEVELS) + " |")
    print("|---|---:|---|" + "---|" * len(LEVELS))
    every: dict[str, dict[int, list[tuple[float, int]]]] = defaultdict(lambda: defaultdict(list))
    for task in host.select(args.tasks):
        rows = measure(task_images(host, task, args.count, args.seed), args.repeat)
        print_rows(task.id, rows)
        for kind, levels in rows.items():
            for level, figures in levels.items():
                every[kind][level] += figures
    print_rows("all tasks", every)

if __name__ == "__main__":
    main()
