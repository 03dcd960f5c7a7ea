"""Contact sheets of MaRVL-QA items for checking by eye, and a per-style throughput measurement.

For every plot style it writes ``marvl-counting-<style>.png``: one marvl/counting item per countable
family, each titled above the plot with the family, what is counted, the gold count and the item id (the
title sits outside the plot, so the plot is exactly what a model sees).  ``--markers`` adds a second
sheet per style with the gold extrema circled (red: maxima, cyan: minima) for checking the count.  A text
file per sheet lists the items, the gold positions and the certifier's record, and the run ends with how
often each certifier reason code fired over the items' discarded draws.

When marvl/transformation is installed it also writes ``marvl-transformation-<style>.png``: one item per
family with Plot A and Plot B in that style.

    python benchmarks/marvl_contact_sheet.py --out sheets/ --markers
    python benchmarks/marvl_contact_sheet.py --styles contour --count-type minima
    python benchmarks/marvl_contact_sheet.py --speed 40          # items/s per style, no sheets
"""

from __future__ import annotations

import argparse
import importlib
import time
from collections import Counter
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from bench_core import hookimpl
from bench_core.generation import Built, build_item, plan
from bench_core.host import Host, create_host

TITLE = 30  # pixels of title band above each tile


def host_with_marvl() -> tuple[Host, dict[str, Any]]:
    """A private host with the marvl task descriptions that exist (registered or not yet)."""
    tasks = {}
    for name in ("counting", "transformation"):
        try:
            tasks[name] = importlib.import_module(f"bench_plugin_marvl.descriptions.{name}").TASK
        except ImportError:
            continue

    class _Plugin:
        @hookimpl
        def bench_register_tasks(self) -> list:
            return list(tasks.values())

    return create_host(entry_points=False, plugins=[("marvl-contact-sheet", _Plugin())]), tasks


def build(host: Host, task: Any, settings: dict[str, Any], seed: int) -> Built:
    (job,) = plan(task, settings, seed, 1)
    return build_item(host, task, job.seed, job.index, job.params, job.suffix)


def count_type_for(family: str, requested: str, turn: int) -> str | None:
    """The count type to show for ``family``: the requested one if the family counts it, else None;
    ``auto`` takes the family's only feature, alternating maxima / minima for families that count both."""
    from bench_plugin_marvl.functions import FAMILIES

    counts = FAMILIES[family].counts
    if requested == "auto":
        if len(counts) == 1:
            return next(iter(counts))
        return ("maxima", "minima")[turn % 2]
    if requested == "both":
        return "both" if len(counts) == 2 else None
    return requested if requested in counts else None


def mark(image: Image.Image, built: Built) -> Image.Image:
    """A copy of a counting image with the gold extrema circled."""
    from bench_plugin_marvl import plotting

    image = image.copy()
    left, top, right, bottom = plotting.axes_boxes("plot", tuple(image.size))[0]
    xmin, xmax, ymin, ymax = built.item.metadata["extent"]
    draw = ImageDraw.Draw(image)
    for kind, colour in (("maxima", (230, 30, 30)), ("minima", (0, 200, 230))):
        for x, y in built.item.metadata["extrema"].get(kind, []):
            px = left + (x - xmin) / (xmax - xmin) * (right - left)
            py = bottom - (y - ymin) / (ymax - ymin) * (bottom - top)
            # a black ring around a coloured one stays visible on any colour map
            draw.ellipse([px - 9, py - 9, px + 9, py + 9], outline=(0, 0, 0), width=2)
            draw.ellipse([px - 7, py - 7, px + 7, py + 7], outline=colour, width=3)
    return image


def tile(image: Image.Image, title: str, width: int) -> Image.Image:
    scale = width / image.size[0]
    body = image.resize((width, round(image.size[1] * scale)), Image.Resampling.LANCZOS)
    out = Image.new("RGB", (width, body.size[1] + TITLE), "white")
    out.paste(body, (0, TITLE))
    ImageDraw.Draw(out).text((6, 4), title, fill="black")
    return out


def sheet(tiles: list[Image.Image], columns: int) -> Image.Image:
    w, h = tiles[0].size
    rows = -(-len(tiles) // columns)
    canvas = Image.new("RGB", (columns * w, rows * h), (235, 235, 235))
    for k, t in enumerate(tiles):
        canvas.paste(t, ((k % columns) * w, (k // columns) * h))
    return canvas


def counting_sheets(host: Host, task: Any, args: argparse.Namespace) -> Counter:
    from bench_plugin_marvl.functions import COUNTABLE

    rejected: Counter = Counter()
    for style in args.styles:
        plain, marked, lines = [], [], []
        for turn, family in enumerate(COUNTABLE):
            count_type = count_type_for(family, args.count_type, turn + args.seed)
            if count_type is None:
                continue
            settings = {"family": family, "style": style, "count_type": count_type, "source": args.seed * 1000 + turn}
            built = build(host, task, settings, args.seed)
            meta = built.item.metadata
            rejected.update(meta["certifier"]["rejected"])
            title = f"{family} | {count_type}: {built.item.answer}\n{built.item.id}"
            plain.append(tile(built.images[0], title, args.thumb))
            if args.markers:
                marked.append(tile(mark(built.images[0], built), title, args.thumb))
            lines.append(
                f"{built.item.id} {family} {count_type} answer={built.item.answer} "
                f"target={meta['target_count']} extrema={meta['extrema']} certifier={meta['certifier']}"
            )
        stem = args.out / f"marvl-counting-{style}"
        sheet(plain, args.columns).save(f"{stem}.png")
        if marked:
            sheet(marked, args.columns).save(f"{stem}-marked.png")
        Path(f"{stem}.txt").write_text("\n".join(lines) + "\n")
        print(f"wrote {stem}.png ({len(plain)} items)")
    return rejected


def transformation_sheets(host: Host, task: Any, args: argparse.Namespace) -> None:
    from bench_plugin_marvl.functions import FAMILIES

    for style in args.styles:
        tiles, lines = [], []
        for turn, family in enumerate(FAMILIES):
            settings = {
                "family": family,
                "family_fallback": True,
                "style_a": style,
                "style_b": style,
                "source": args.seed * 1000 + turn,
            }
            try:
                built = build(host, task, settings, args.seed)
            except Exception as exc:  # a family the filters reject: say so and go on
                lines.append(f"{family}: {type(exc).__name__}: {exc}")
                continue
            meta = built.item.metadata
            answer = built.item.answer
            label = meta.get("transformation", answer)
            tiles.append(
                tile(
                    built.images[0],
                    f"{meta.get('function_family', family)} | {label} (answer {answer})\n{built.item.id}",
                    args.thumb * 2,
                )
            )
            lines.append(f"{built.item.id} {family} answer={answer} {label}")
        if tiles:
            stem = args.out / f"marvl-transformation-{style}"
            sheet(tiles, max(1, args.columns // 2)).save(f"{stem}.png")
            Path(f"{stem}.txt").write_text("\n".join(lines) + "\n")
            print(f"wrote {stem}.png ({len(tiles)} items)")


def speed(host: Host, task: Any, args: argparse.Namespace) -> None:
    """Items/s of marvl/counting per style, the way ``bench generate`` builds them (generate, render,
    verify, PNG encode), on this one process: wall-clock and CPU time (the latter is what one core gives
    when the machine is shared)."""
    print(f"marvl/counting, {args.speed} items per style, seed {args.seed}:")
    for style in args.styles:
        jobs = plan(task, {"style": style}, args.seed, args.speed)
        wall, cpu = time.perf_counter(), time.process_time()
        for job in jobs:
            build_item(host, task, job.seed, job.index, job.params, job.suffix)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"  {style:<26} {len(jobs) / wall:6.1f} items/s wall   {len(jobs) / cpu:6.1f} items/s cpu")


def main() -> None:
    from bench_plugin_marvl.descriptions.counting import STYLES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--styles", nargs="+", default=list(STYLES), choices=STYLES)
    parser.add_argument("--count-type", default="auto", choices=("auto", "maxima", "minima", "both"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--thumb", type=int, default=320)
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--markers", action="store_true", help="also write sheets with the gold extrema circled")
    parser.add_argument("--no-transformation", action="store_true", help="skip the transformation sheets")
    parser.add_argument("--speed", type=int, default=0, metavar="N", help="only time N items per style")
    parser.add_argument("--out", type=Path, default=Path("sheets"))
    args = parser.parse_args()
    host, tasks = host_with_marvl()
    if args.speed:
        speed(host, tasks["counting"], args)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    rejected = counting_sheets(host, tasks["counting"], args)
    if "transformation" in tasks and not args.no_transformation:
        transformation_sheets(host, tasks["transformation"], args)
    total = sum(rejected.values())
    print(f"certifier rejections over the discarded draws of these items ({total}):")
    for code, n in rejected.most_common():
        print(f"  {code:<20} {n}")


if __name__ == "__main__":
    main()
