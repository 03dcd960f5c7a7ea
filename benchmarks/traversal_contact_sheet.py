"""Contact sheets of traversal/path: one item per populated cell at one vertex count, labelled with the
cell and the item id, so a person can look at every cell and trace items by hand.

    python benchmarks/traversal_contact_sheet.py --vertices 13 --out sheets/
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

from bench_core.generation import build_item, plan
from bench_core.host import default_host


def sheet(vertices: int, seed: int, profile: str, confounders: str, thumb: int) -> tuple[Image.Image, list[str]]:
    from bench_plugin_traversal.task_path import reachable_cells

    host = default_host()
    task = host.task("traversal/path")
    cells = reachable_cells(vertices, profile)
    columns = 6
    rows = -(-len(cells) // columns)
    canvas = Image.new("RGB", (columns * thumb, rows * (thumb + 18)), "white")
    draw = ImageDraw.Draw(canvas)
    answers = []
    for k, (t, s) in enumerate(cells):
        settings = {"vertices": vertices, "tort_bin": t, "cross_bin": s, "profile": profile, "confounders": confounders}
        (job,) = plan(task, settings, seed, 1)
        built = build_item(host, task, job.seed, job.index, job.params, job.suffix)
        x, y = (k % columns) * thumb, (k // columns) * (thumb + 18)
        canvas.paste(built.images[0].resize((thumb, thumb), Image.Resampling.LANCZOS), (x, y + 18))
        meta = built.item.metadata
        draw.text((x + 4, y + 3), f"t{t} s{s}  tau={meta['tortuosity']:.2f} x={meta['crossings']}", fill="black")
        answers.append(f"t{t} s{s} {built.item.id}: {built.item.answer}")
    return canvas, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vertices", type=int, nargs="+", default=[9, 13, 17])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", default="strict", choices=("strict", "paper"))
    parser.add_argument("--confounders", default="none", choices=("none", "low", "high"))
    parser.add_argument("--thumb", type=int, default=336)
    parser.add_argument("--out", type=Path, default=Path("sheets"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for vertices in args.vertices:
        image, answers = sheet(vertices, args.seed, args.profile, args.confounders, args.thumb)
        stem = f"traversal-{args.profile}-{args.confounders}-v{vertices}"
        image.save(args.out / f"{stem}.png")
        (args.out / f"{stem}.txt").write_text("\n".join(answers) + "\n")
        print(f"wrote {args.out / stem}.png ({len(answers)} cells)")


if __name__ == "__main__":
    main()
