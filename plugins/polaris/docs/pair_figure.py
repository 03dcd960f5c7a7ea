"""Write ``docs/path-counting-pair.png``: the Cartesian and the polar item of one Polaris pair side by side, for
the plugin README (one logical problem, two renderings).

    python3 plugins/polaris/docs/pair_figure.py            # pair 0 of polaris/path-counting, seed 0
    python3 plugins/polaris/docs/pair_figure.py --task polaris/knight-paths --pair 2 --out /tmp/pair.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from bench_core import build_item, default_host, plan

HERE = Path(__file__).resolve().parent


def pair_images(task_id: str, seed: int, pair: int):
    """The two built items (Cartesian, polar) of pair ``pair`` of a default run of ``task_id``."""
    host = default_host()
    task = host.task(task_id)
    jobs = plan(task, {}, seed, 2 * pair + 2)[2 * pair:]
    return [build_item(host, task, j.seed, j.index, j.params, j.suffix) for j in jobs]


def side_by_side(images, width: int = 1100, gap: int = 24) -> Image.Image:
    """The images next to each other on white, scaled to ``width`` px in all, reduced to a 64-colour palette."""
    w, h = images[0].size
    canvas = Image.new("RGB", (2 * w + gap, h), (255, 255, 255))
    for k, image in enumerate(images):
        canvas.paste(image, (k * (w + gap), 0))
    scale = width / canvas.width
    small = canvas.resize((width, round(canvas.height * scale)), Image.Resampling.LANCZOS)
    return small.quantize(64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="polaris/path-counting")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pair", type=int, default=0)
    parser.add_argument("--out", type=Path, default=HERE / "path-counting-pair.png")
    args = parser.parse_args(argv)
    built = pair_images(args.task, args.seed, args.pair)
    side_by_side([b.images[0] for b in built]).save(args.out, optimize=True)
    item = built[0].item
    print(f"{args.out}: {args.task} pair {args.pair} (seed {args.seed}); answer {item.answer} in both renderings; "
          f"options {item.options}")
    print(item.question)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
