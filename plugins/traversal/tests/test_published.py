"""Importing published TraversalBench backbones (issues 9 and 10): self-contained items that verify and
reproduce without the file, glyphs and pair keys from the path's identity, settings a published record
cannot honour refused, directories and globs of the release layout, the publisher's bins recorded and
grouped on, and a fixture README that names the release's real files."""

from __future__ import annotations

import json
import re
import shutil
from collections import defaultdict
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from bench_core import ParameterError, build_item, plan
from bench_core import command_line as main
from bench_plugin_traversal.artefact import verify_path

FIXTURES = Path(__file__).parent / "fixtures"
BASE, CONFOUND, PAIR = (FIXTURES / n for n in ("published_backbones.jsonl", "published_confound.jsonl",
                                                "published_pair.jsonl"))




def build(host, task, settings, seed=0):
    return [build_item(host, task, j.seed, j.index, j.params, j.suffix) for j in plan(task, settings, seed, None)]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- 1. a dataset made from a backbone file needs the file no more ---------------------------------------


def test_dataset_verifies_and_reproduces_after_the_backbone_file_moved(tmp_path):
    source = tmp_path / "input" / "backbones.jsonl"
    source.parent.mkdir()
    source.write_text("".join(line + "\n" for line in lines(CONFOUND) + lines(PAIR)), encoding="utf-8")
    out = tmp_path / "d"
    run("generate", "traversal/path", "--set", f"backbones={source}", "--seed", "3", "--out", str(out))
    shutil.move(str(source.parent), str(tmp_path / "moved"))
    assert "verified 8 items" in run("verify", str(out))
    assert "records identical, images identical bytes" in run("verify", "--reproduce", str(out))
    shutil.rmtree(tmp_path / "moved")
    assert "records identical" in run("verify", "--reproduce", str(out))


def test_items_store_their_record_and_its_hash(host, path_task):
    builts = build(host, path_task, {"backbones": str(CONFOUND)})
    for built, line in zip(builts, lines(CONFOUND), strict=True):
        item = built.item
        assert item.params["record"] == line
        assert re.fullmatch(r"[0-9a-f]{64}", item.metadata["published"]["sha256"])
    # the item is proved against its stored record: an edited record, or a record of another path, fails
    item, image = builts[0].item, builts[0].images[0]
    assert verify_path(item, [image]) == []
    other = attrs.evolve(item, params={**item.params, "record": lines(CONFOUND)[1]})
    failures = verify_path(other, [image])
    assert any("SHA-256" in f for f in failures) and any("not the stored record's path" in f for f in failures)
    gone = attrs.evolve(item, params={**item.params, "record": None})
    assert "the item does not store its published record (params.record)" in verify_path(gone, [image])


def test_a_published_item_is_built_from_its_stored_record_alone(host, path_task, tmp_path):
    source = tmp_path / "one.jsonl"
    shutil.copy(BASE, source)
    (job,) = plan(path_task, {"backbones": str(source), "source": 4}, 0, None)
    first = build_item(host, path_task, job.seed, job.index, job.params, job.suffix)
    source.unlink()
    again = build_item(host, path_task, job.seed, job.index, job.params, job.suffix)
    assert again.item.to_json() == first.item.to_json() and again.pngs == first.pngs


# -- 2. glyphs follow the backbone, not the line number ----------------------------------------------------


def test_glyphs_follow_the_backbone_not_the_record_number(host, path_task):
    base = build(host, path_task, {"backbones": str(BASE)})
    confound = build(host, path_task, {"backbones": str(CONFOUND)})
    for b, c in zip(base, confound, strict=False):  # record k of each file: different paths, different glyphs
        assert b.item.metadata["scene"]["line"] != c.item.metadata["scene"]["line"]
        assert b.item.answer != c.item.answer
    # one backbone on two lines (base, then its conf_low variant with spurs): the same glyphs and pair key
    plain, spurred = (b.item for b in build(host, path_task, {"backbones": str(PAIR)}))
    assert (plain.variant, spurred.variant) == ("base", "conf_low")
    assert plain.metadata["scene"]["line"] == spurred.metadata["scene"]["line"]
    assert plain.metadata["scene"]["markers"] == spurred.metadata["scene"]["markers"]
    assert plain.answer == spurred.answer and plain.pair == spurred.pair
    assert plain.metadata["spurs"] == 0 and spurred.metadata["spurs"] >= 2


def test_glyphs_of_a_backbone_do_not_depend_on_its_file(host, path_task, tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(lines(BASE)[0] + "\n" + lines(PAIR)[0] + "\n", encoding="utf-8")
    second.write_text(lines(PAIR)[1] + "\n", encoding="utf-8")
    (_, plain) = build(host, path_task, {"backbones": str(first)})
    (spurred,) = build(host, path_task, {"backbones": str(second)})
    assert plain.item.answer == spurred.item.answer and plain.item.pair == spurred.item.pair


# -- 3. pair keys name the geometry ----------------------------------------------------------------------


def test_pair_keys_group_exactly_the_items_of_one_path(host, path_task, tmp_path):
    # two different paths under one id and source id, as the release has across its runs
    a, b = json.loads(lines(BASE)[1]), json.loads(lines(BASE)[2])
    b["id"] = a["id"]
    clash = tmp_path / "clash.jsonl"
    clash.write_text(json.dumps(a) + "\n" + json.dumps(b) + "\n", encoding="utf-8")
    groups = defaultdict(set)
    for source in (BASE, CONFOUND, PAIR, clash):
        for built in build(host, path_task, {"backbones": str(source)}):
            groups[built.item.pair].add(json.dumps(built.item.metadata["scene"]["line"]["vertices"]))
    assert all(len(paths) == 1 for paths in groups.values()), "a pair key groups different paths"
    paths = [p for ps in groups.values() for p in ps]
    assert len(paths) == len(set(paths)), "one path under two pair keys"
    assert len(groups) == len(lines(BASE)) + len(lines(CONFOUND)) + 1  # PAIR is one path, clash repeats BASE


# -- 4. settings a published record cannot honour are refused --------------------------------------------


@pytest.mark.parametrize(("setting", "value"), [("confounders", "high"), ("confounders", "low"), ("vertices", 9),
                                                ("tort_bin", 2), ("cross_bin", 1), ("profile", "paper")])
def test_settings_a_published_record_fixes_are_refused(path_task, setting, value):
    with pytest.raises(ParameterError, match=rf"{setting}={value} would not be applied; drop --set {setting}"):
        plan(path_task, {"backbones": str(CONFOUND), setting: value}, 0, None)


def test_the_record_parameter_is_not_set_by_hand(path_task):
    with pytest.raises(ParameterError, match="filled in per item from backbones"):
        plan(path_task, {"record": lines(BASE)[0]}, 0, None)


# -- 5. a directory or a glob of the release layout ------------------------------------------------------


def release_tree(root: Path) -> Path:
    """A folder laid out like the release, with its non-backbone files and editor leftovers."""
    base9 = root / "backbones_no_confounding_lines" / "vertices_9"
    base13 = root / "backbones_no_confounding_lines" / "vertices_13"
    conf9 = root / "backbones_yes_confounding_lines" / "vertices_9"
    for folder in (base9, base13, conf9, base9 / ".ipynb_checkpoints"):
        folder.mkdir(parents=True)
    records = lines(BASE)
    (base9 / "backbones.jsonl").write_text("\n".join(records[:6]) + "\n", encoding="utf-8")
    (base13 / "backbones.jsonl").write_text("\n".join(records[6:]) + "\n", encoding="utf-8")
    (conf9 / "backbones.jsonl").write_text("\n".join(lines(CONFOUND)) + "\n", encoding="utf-8")
    (base9 / "backbones.jsonl.bak").write_text(records[0] + "\n", encoding="utf-8")
    (base9 / "backbones.jsonl~").write_text(records[0] + "\n", encoding="utf-8")
    (base9 / ".ipynb_checkpoints" / "backbones-checkpoint.jsonl").write_text(records[0] + "\n", encoding="utf-8")
    (base13 / "seeds_used.jsonl").write_text('{"id": 0, "seed": 1, "tort_bin": 0, "self_int_bin": 0}\n')
    (base13 / "quarantine.jsonl").write_text(json.dumps({**json.loads(records[6]), "quarantine_reason": "x"}) + "\n")
    (base9 / "params.json").write_text("{}\n")
    (conf9 / "cell_summary.json").write_text("{}\n")
    return root


def test_a_directory_of_backbone_files_is_read_and_backups_skipped_with_a_warning(path_task, tmp_path, capsys):
    root = release_tree(tmp_path / "release")
    jobs = plan(path_task, {"backbones": str(root)}, 0, None)
    err = capsys.readouterr().err
    assert len(jobs) == len(lines(BASE)) + len(lines(CONFOUND))
    files = [Path(j.params["backbones"]).relative_to(root).as_posix() for j in jobs]
    assert files == (["backbones_no_confounding_lines/vertices_9/backbones.jsonl"] * 6
                     + ["backbones_no_confounding_lines/vertices_13/backbones.jsonl"] * 6
                     + ["backbones_yes_confounding_lines/vertices_9/backbones.jsonl"] * 6)  # natural order
    assert [j.params["source"] for j in jobs] == list(range(6)) * 3
    assert [j.params["record"] for j in jobs] == lines(BASE) + lines(CONFOUND)
    for leftover in ("backbones.jsonl.bak (an editor backup)", "backbones.jsonl~ (an editor backup)",
                     ".ipynb_checkpoints (notebook checkpoints)", "seeds_used.jsonl (not backbone records",
                     "quarantine.jsonl (the generator's quarantine"):
        assert leftover in err, f"no warning about {leftover}"
    assert "params.json" not in err and "cell_summary" not in err


def test_a_glob_of_backbone_files_is_read_and_backups_skipped(path_task, tmp_path, capsys):
    from bench_plugin_traversal.published import backbone_files

    root = release_tree(tmp_path / "release")
    jobs = plan(path_task, {"backbones": str(root / "backbones_no_confounding_lines" / "*" / "backbones.jsonl*")}, 0,
                None)
    assert [j.params["record"] for j in jobs] == lines(BASE)
    assert "backbones.jsonl.bak (an editor backup)" in capsys.readouterr().err
    everything = backbone_files(str(root / "**" / "*.jsonl"))
    assert [Path(f).name for f in everything.files] == ["backbones.jsonl"] * 3
    with pytest.raises(ParameterError, match="picks a record of one file"):
        plan(path_task, {"backbones": str(root), "source": 0}, 0, None)
    with pytest.raises(ParameterError, match="holds no backbone file"):
        plan(path_task, {"backbones": str(root / "*" / "*" / "seeds_used.jsonl")}, 0, None)


# -- 6. the publisher's bins are recorded, and --by groups imported items --------------------------------


def test_published_bins_are_filled_and_score_groups_on_them(host, path_task, tmp_path):
    records = [json.loads(line) for line in lines(BASE)]
    untargeted = tmp_path / "untargeted.jsonl"
    untargeted.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "target"}) + "\n" for r in records))
    for built, record in zip(build(host, path_task, {"backbones": str(untargeted)}), records, strict=True):
        published = built.item.metadata["published"]
        assert (published["tort_bin"], published["self_int_bin"]) == (record["target"]["tort_bin"],
                                                                     record["target"]["self_int_bin"])
    out = tmp_path / "d"
    run("generate", "traversal/path", "--set", f"backbones={BASE}", "--seed", "0", "--out", str(out))
    items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": i["id"], "response": i["answer"]}) + "\n" for i in items))
    report = json.loads(run("score", str(out), str(predictions), "--json", "--by", "tort_bin,cross_bin,vertices"))
    by = report["by"]
    assert sorted(by["vertices"]) == ["13", "9"] and "null" not in by["tort_bin"]
    assert sorted(by["cross_bin"]) == ["0", "1", "2", "3", "4", "5"]
    assert {k: v["n"] for k, v in by["cross_bin"].items()} == {str(b): 2 for b in range(6)}
    assert all(i["metadata"]["published"]["self_int_bin"] == i["metadata"]["cross_bin"] for i in items)


def test_score_by_groups_confound_imports_and_generated_items_alike(tmp_path):
    """The README's ``--by tort_bin,cross_bin,vertices`` finds every value, none under null: published confound
    records (params hold None for all three) and a default generated run (drawn, recorded in metadata; any 32
    consecutive items of the cell schedule show the 7 crossing bins)."""
    for name, settings, expected in (("confound", ["--set", f"backbones={CONFOUND}"], {"vertices": ["9"]}),
                                     ("generated", ["--count", "32"], {"cross_bin": [str(b) for b in range(7)]})):
        out = tmp_path / name
        run("generate", "traversal/path", *settings, "--seed", "0", "--out", str(out))
        items = [json.loads(line) for line in (out / "items.jsonl").read_text().splitlines()]
        assert all(i["params"][k] is None for i in items for k in ("tort_bin", "cross_bin", "vertices"))
        predictions = tmp_path / f"{name}.jsonl"
        predictions.write_text("".join(json.dumps({"id": i["id"], "response": i["answer"]}) + "\n" for i in items))
        by = json.loads(run("score", str(out), str(predictions), "--json", "--by", "tort_bin,cross_bin,vertices"))["by"]
        for field in ("tort_bin", "cross_bin", "vertices"):
            assert "null" not in by[field], f"{name}: {field} grouped under null"
            assert sum(group["n"] for group in by[field].values()) == len(items)
            assert sorted(by[field]) == sorted(expected.get(field, by[field]))


# -- 7. the fixture README names the release's files -----------------------------------------------------

RELEASE_FILE = re.compile(r"(backbones_(no|yes)_confounding_lines/vertices_(9|11|13|15|17)/)?backbones\.jsonl")


def test_fixture_readme_names_the_fixtures_and_the_release_files_they_come_from():
    text = (FIXTURES / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([^`]+\.jsonl)`", text))
    fixtures = {p.name for p in FIXTURES.glob("*.jsonl")}
    assert fixtures <= named, f"the README does not describe {sorted(fixtures - named)}"
    others = {n for n in named - fixtures if not RELEASE_FILE.fullmatch(n)}
    assert not others, f"the README names files the release does not have: {sorted(others)}"
    for name in fixtures:  # every record's id is listed under its fixture
        section = text.split(f"`{name}`", 1)[1].split("\n- ", 1)[0]
        ids = {int(n) for n in re.findall(r"\b(\d+)\b", section.split("ids", 1)[-1])}
        assert {json.loads(line)["id"] for line in lines(FIXTURES / name)} <= ids, name
        # ... under a release file of its own vertex count and split ("ids 1, 2 of `...vertices_9/...`")
        sources = [({int(n) for n in re.findall(r"\d+", listed)}, RELEASE_FILE.fullmatch(file))
                   for listed, file in re.findall(r"\bids? ([\d,\s]+?)\s+of\s+`([^`]+)`", section)]
        for line in lines(FIXTURES / name):
            record = json.loads(line)
            split = "yes" if "confounders" in record else "no"
            count = str(len(json.loads(record["points"]) if isinstance(record["points"], str) else record["points"]))
            assert any(record["id"] in listed and match and match.group(2) == split and match.group(3) == count
                       for listed, match in sources), f"{name}: record {record['id']} is not listed under its file"
