"""The rendered card: a valid Hub card whose YAML datasets accepts and whose numbers are the files' numbers."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard

from tests.helpers import copy_build
from warp_cuda_ir import card, schema, writing
from warp_cuda_ir.build import BuildResult
from warp_cuda_ir.readback import PackageRows, Readback, read_back
from warp_cuda_ir.record import BuildRecord, RealPackage, RealRecord
from warp_cuda_ir.validation.console import describe

# The small build has no real rows: the `real` config has no files, so the card does not list it.
LISTED = [c for c in schema.CONFIGS if c.source != "real"]


def test_card_parses_and_lists_every_config(small_build: BuildResult) -> None:
    parsed = DatasetCard.load(small_build.out / "README.md")
    configs = {c["config_name"]: c for c in parsed.data.configs}
    assert set(configs) == {c.name for c in LISTED}
    assert configs["full"]["default"] is True
    assert configs["cuda_forward"]["columns"] == list(schema.CONFIGS_BY_NAME["cuda_forward"].columns)
    assert parsed.data.license == "apache-2.0"
    assert parsed.data.size_categories == ["n<1K"]
    assert parsed.data.task_categories == ["text-generation"]


def test_yaml_is_what_datasets_reads(small_build: BuildResult) -> None:
    data = DatasetCard.load(small_build.out / "README.md").data
    configs = MetadataConfigs.from_dataset_card_data(data)
    for entry in configs.values():
        MetadataConfigs._raise_if_data_files_field_not_valid(entry)
    assert configs.get_default_config_name() == schema.DEFAULT_CONFIG
    infos = DatasetInfosDict.from_dataset_card_data(data)
    assert set(infos) == {c.name for c in LISTED}
    for config in LISTED:
        assert infos[config.name].features == config.features()
        assert {s: i.num_examples for s, i in infos[config.name].splits.items()} == small_build.rows_per_split


def test_dataset_info_sizes_equal_the_arrow_tables(small_build: BuildResult) -> None:
    # An independent computation (whole-table reads) of what the card states per config and split.
    infos = DatasetInfosDict.from_dataset_card_data(DatasetCard.load(small_build.out / "README.md").data)
    for config in LISTED:
        for split, paths in writing.data_files(small_build.out, config.source).items():
            table = pq.read_table(paths, columns=list(config.columns))
            assert infos[config.name].splits[split].num_bytes == table.nbytes
            assert infos[config.name].splits[split].num_examples == table.num_rows
        assert infos[config.name].download_size == small_build.bytes


def test_stale_dataset_info_is_refused_by_load_dataset_and_by_verify(small_build: BuildResult, tmp_path: Path) -> None:
    out = copy_build(small_build, tmp_path)
    assert card.verify(out) == []
    n = small_build.rows_per_split["train"]
    readme = out / "README.md"
    readme.write_text(readme.read_text().replace(f"num_examples: {n}\n", f"num_examples: {n + 1}\n"))
    with pytest.raises(datasets.exceptions.NonMatchingSplitsSizesError):
        datasets.load_dataset(str(out), "cuda_forward", cache_dir=str(tmp_path / "cache"))
    problems = card.verify(out)
    assert problems and f"(train: card {n + 1:,} rows, files {n:,})" in problems[0]


def test_no_placeholder_survives(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    assert "$" not in text
    for placeholder in ("[More Information Needed]", "TODO", "<org>", "None rows"):
        assert placeholder not in text


def split_tables(out: Path, columns: list[str]) -> dict[str, pa.Table]:
    """Each split's rows read straight from its Parquet files: counts independent of the read-back."""
    return {
        split: pq.read_table(sorted((out / "data").glob(f"*/{split}-*.parquet")), columns=columns)
        for split in schema.SPLITS
    }


def test_card_numbers_equal_the_files(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    tables = split_tables(small_build.out, ["category"])
    assert f"**{sum(t.num_rows for t in tables.values()):,} rows**" in text
    for split, table in tables.items():
        assert f"| {split} | {table.num_rows:,} |" in text
    per_split = {split: Counter(t.column("category").to_pylist()) for split, t in tables.items()}
    for category in sorted(set().union(*per_split.values())):
        cells = " | ".join(f"{per_split[split][category]:,}" for split in schema.SPLITS)
        total = sum(per_split[split][category] for split in schema.SPLITS)
        assert f"| {category} | {cells} | {total:,} |" in text
    assert {split: t.num_rows for split, t in tables.items()} == small_build.rows_per_split


def test_schema_section_explains_every_column(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    for name, _, description in schema.COLUMNS:
        assert f"| `{name}` |" in text and description in text
    for config in LISTED:
        assert f'load_dataset("{card.DEFAULT_REPO_ID}", "{config.name}")' in text
    # A config without files is not offered; an every-column config points at this table, not a list.
    assert f'load_dataset("{card.DEFAULT_REPO_ID}", "real")' not in text
    config_lines = [line for line in text.splitlines() if line.startswith("| `full` |")]
    assert len(config_lines) == 1 and "every column (see Schema)" in config_lines[0]


def test_variety_section_states_the_files_figures(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    table = pa.concat_tables(split_tables(small_build.out, ["warp_builtins", "program_shape", "arguments"]).values())
    used = {name for names in table.column("warp_builtins").to_pylist() for name in names}
    shapes = set(table.column("program_shape").to_pylist())
    assert f"| distinct Warp built-ins used | {len(used)} of " in text
    assert f"| distinct program shapes | {len(shapes)} ({len(shapes) / table.num_rows:.1%} of rows) |" in text
    dtypes = Counter(a["dtype"] for args in table.column("arguments").to_pylist() for a in args)
    for dtype, n in dtypes.items():
        assert f"| {dtype} | {n} |" in text


def test_an_unvalidated_build_says_so(small_build: BuildResult) -> None:
    assert card.NOT_VALIDATED in (small_build.out / "README.md").read_text()
    # One line for the command line, not characters.
    assert describe(read_back(small_build.out).validation) == [card.NOT_VALIDATED]


@pytest.mark.parametrize(("rows", "label"), [(0, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (250_000, "100K<n<1M")])
def test_size_category_follows_the_hub_buckets(rows: int, label: str) -> None:
    assert card.size_category(rows) == label


def planted_annotations(ids: list[str]) -> dict[str, dict]:
    """Validation columns with a known pattern of statuses, skips and degenerate outputs, row by row."""
    out: dict[str, dict] = {}
    for i, row_id in enumerate(ids):
        columns = {f"{stage}_status": "ok" for stage in schema.STAGES} | {"validation_warp_version": "1.19.0"}
        columns |= {"gpu_run_status": "skipped", "gpu_run_skip_reason": schema.NO_GPU}
        if i % 4 == 0:
            columns |= {"gradcheck_status": "skipped", "gradcheck_skip_reason": schema.NOTHING_TO_DIFFERENTIATE}
        elif i % 4 == 1:
            columns |= {"gradcheck_status": "mismatch", "gradcheck_dtype": "float64"}
        if i % 5 == 0:
            columns |= {"cpu_run_status": "timeout", "cpu_run_error": "worker timed out after 120 s"}
            columns |= {"gradcheck_status": "skipped", "gradcheck_skip_reason": schema.DID_NOT_RUN_CPU}
        else:
            kinds = ["all_zero", None] if i % 3 else ["copy", "two_valued"]
            stats = [{"name": f"o{k}", "degenerate": kind, "elements": 4} for k, kind in enumerate(kinds)]
            columns |= {
                "output_stats": stats,
                "degenerate_output": all(kinds),
                "degenerate_output_count": 2 - (None in kinds),
            }
        out[row_id] = columns
    return out


def test_validation_section_counts_skips_apart_and_states_the_files(small_build: BuildResult, tmp_path: Path) -> None:
    from warp_cuda_ir.validation import dataset

    out = copy_build(small_build.out, tmp_path / "annotated")
    files = writing.all_data_files(out)
    rows = pa.concat_tables(pq.read_table(f, columns=["id", "category"]) for f in files).to_pylist()
    planted = planted_annotations([r["id"] for r in rows])
    for path in files:
        dataset.rewrite(path, planted)
    text = card.validation_markdown(read_back(out))
    # Counted here, from the planted pattern, not by the read-back.
    n = len(rows)
    grad = Counter(planted[r["id"]]["gradcheck_status"] for r in rows)
    ran = n - grad["skipped"]
    assert f"| `gradcheck` | {ran:,} | {grad['ok']:,} | 0 | 0 | `mismatch` {grad['mismatch']:,} |" in text
    assert f"| {100.0 * grad['ok'] / ran:.2f}% | {grad['skipped']:,} |" in text
    timeouts = sum(1 for r in rows if planted[r["id"]]["cpu_run_status"] == "timeout")
    assert f"| `cpu_run` | {n:,} | {n - timeouts:,} | 0 | {timeouts:,} | - |" in text
    assert f"| `gpu_run` | 0 | 0 | 0 | 0 | - | n/a | {n:,} |" in text  # no GPU: nothing failed, nothing ran
    reasons = Counter(planted[r["id"]].get("gradcheck_skip_reason") for r in rows)
    for reason in (schema.NOTHING_TO_DIFFERENTIATE, schema.DID_NOT_RUN_CPU):
        assert f"| `gradcheck` | {reason} | {reasons[reason]:,} |" in text
    # Per category: skipped rows are not failures. Columns follow the stage list (standalone stages after).
    header = next(line for line in text.splitlines() if line.startswith("| category | rows |"))
    column = [c.strip() for c in header.strip("|").split("|")].index("gradcheck")
    for category in {r["category"] for r in rows}:
        mine = [planted[r["id"]] for r in rows if r["category"] == category]
        applied = [c for c in mine if c["gradcheck_status"] != "skipped"]
        ok = sum(1 for c in applied if c["gradcheck_status"] == "ok")
        rate = f"{100.0 * ok / len(applied):.2f}%" if applied else "n/a"
        line = next(line for line in text.splitlines() if line.startswith(f"| {category} | {len(mine):,} |"))
        assert [c.strip() for c in line.strip("|").split("|")][column] == f"{rate} of {len(applied):,}", line
    described = [planted[r["id"]] for r in rows if "output_stats" in planted[r["id"]]]
    every = sum(1 for c in described if c["degenerate_output"])
    kinds = Counter(o["degenerate"] for c in described for o in c["output_stats"] if o["degenerate"])
    assert f"{every:,} of the {len(described):,} rows that ran on the CPU" in text
    assert f"{sum(kinds.values()):,} of {2 * len(described):,} outputs" in text
    for kind, count in kinds.items():
        assert f"`{kind}` {count:,}" in text


def test_card_measures_comment_echo_and_near_duplicate_leakage(small_build: BuildResult) -> None:
    import re

    text = (small_build.out / "README.md").read_text()
    cuda = pa.concat_tables(split_tables(small_build.out, ["cuda_forward"]).values()).column("cuda_forward").to_pylist()
    # Counted line by line here: a comment line that ends in Warp's `<L n>` marker.
    echo = sum(len(line) + 1 for t in cuda for line in t.split("\n")[:-1] if re.fullmatch(r"\s*//.*<L \d+>\s*", line))
    total = sum(len(t) for t in cuda)
    assert f"({echo:,} of {total:,})" in text and f"**{echo / total:.1%} of the characters of `cuda_forward`**" in text
    recipe = re.search(r'ECHO = re.compile\(r"(.*)"\)', text)
    assert recipe and all("<L " not in line for line in re.sub(recipe.group(1), "", cuda[0]).splitlines())
    assert "no program leaks across splits" not in text
    assert "validation and test rows" in text or "Only one split holds rows" in text


def test_leakage_counts_held_out_rows_with_a_train_twin() -> None:
    from warp_cuda_ir.readback import _leakage

    body = "\n".join(f"    b[i] = a[i] * {k}.0 + wp.sin(a[i]) * c[i] - d[i]" for k in range(12))
    kernel = "import warp as wp\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    i = wp.tid()\n" + body
    other = "import numpy as np\n\ndef unrelated(x):\n    return np.fft.fft(x).real.sum() / len(x) + 17\n"
    sample = [("train", kernel), ("test", kernel.replace("12", "13")), ("validation", other), ("train", other + "\n")]
    leak = _leakage(sample, 4)
    assert leak is not None and (leak.held_out, leak.held_out_with_train_twin, leak.cross_split_pairs) == (2, 2, 2)


# ---- a card true to what the build holds: generated rows only, real rows only, both ----
def section(text: str, heading: str) -> str:
    """The body of the card's `## heading` section."""
    body = text.split(f"\n## {heading}\n", 1)[1]
    return body.split("\n## ", 1)[0]


def package_rows(rows: dict[str, int], license: str, replay: dict[str, int], backward: int) -> PackageRows:
    return PackageRows(["1.0"], [license], {s: rows.get(s, 0) for s in schema.SPLITS}, replay, backward)


PACKAGES = {  # by name, as the read-back orders them
    "my_scripts": package_rows({"train": 2}, "unknown", {"": 2}, 2),
    "newton": package_rows({"train": 5, "test": 1}, "Apache-2.0", {"equal": 3, "not launched": 3}, 2),
}
SHIPPED = ("LICENSES/newton/LICENSE.md", "LICENSES/newton/AUTHORS")


def with_real(readback: Readback, keep_generated: bool) -> Readback:
    """`readback` (a generated-only build) as if it also held PACKAGES' real rows, or held only those."""
    real = {s: sum(p.rows_per_split[s] for p in PACKAGES.values()) for s in schema.SPLITS}
    synthetic = readback.rows_per_source["synthetic"] if keep_generated else dict.fromkeys(schema.SPLITS, 0)
    files = readback.files_per_source["synthetic"] if keep_generated else {s: [] for s in schema.SPLITS}
    return dataclasses.replace(
        readback,
        rows_per_source={"synthetic": synthetic, "real": real},
        rows_per_split={s: synthetic[s] + real[s] for s in schema.SPLITS},
        files_per_source={"synthetic": files, "real": {s: [Path(f"{s}.parquet")] if real[s] else [] for s in real}},
        column_bytes_per_source={**readback.column_bytes_per_source, **({} if keep_generated else {"synthetic": {}})},
        column_bytes={},
        packages=PACKAGES,
        meaning=readback.meaning if keep_generated else None,
        module_options=readback.module_options if keep_generated else None,
    )


def real_record(record: BuildRecord) -> BuildRecord:
    packages = tuple(
        RealPackage(
            n, n, "1.0", None if p.licenses == ["unknown"] else p.licenses[0], p.rows, p.rows, p.rows, 0, p.rows, {}
        )
        for n, p in PACKAGES.items()
    )
    real = RealRecord(packages, {}, (), 8, {}, 0, 0, 0, 0.0, 0.8, SHIPPED)
    return dataclasses.replace(record, real=real)


def rendered(small_build: BuildResult, source: str) -> tuple[str, Readback]:
    readback = read_back(small_build.out)
    record = BuildRecord.load(small_build.out)
    assert record is not None
    if source != "synthetic":
        readback, record = with_real(readback, keep_generated=source == "both"), real_record(record)
    return card.render(record, readback), readback


def assert_license_table_names_the_packages(text: str, packages: dict[str, PackageRows]) -> None:
    lines = [line for line in section(text, "License and attribution").splitlines() if line.startswith("| ")][1:]
    assert {line.split(" | ")[0].removeprefix("| ") for line in lines} == set(packages)
    for name, p in packages.items():
        line = next(line for line in lines if line.startswith(f"| {name} |"))
        assert f"| {p.licenses[0]} | {p.rows:,} |" in line
        shipped = [f.removeprefix(f"LICENSES/{name}/") for f in SHIPPED if f.startswith(f"LICENSES/{name}/")]
        assert all(f"`{f}`" in line for f in shipped) and (
            f"`LICENSES/{name}/`" in line if shipped else "check its terms" in line
        )


def test_a_generated_only_card_says_nothing_of_real_kernels(small_build: BuildResult) -> None:
    text, readback = rendered(small_build, "synthetic")
    generated = readback.num_rows
    limits, license = section(text, "Limitations"), section(text, "License and attribution")
    assert f"The {generated:,} generated kernels are synthetic" in limits and "real kernels come from" not in limits
    assert "written by this project's generator" in license and "real rows" not in license
    assert "LICENSES/" not in license and "The data is released under **Apache-2.0**." in license
    data = DatasetCard(text).data
    assert data.license == "apache-2.0" and "synthetic" in data.tags
    assert "holds no real kernels" in text and "seeds 0 to" in section(text, "How the rows were made")


def test_a_real_only_card_says_nothing_of_generated_kernels(small_build: BuildResult) -> None:
    text, _ = rendered(small_build, "real")
    for heading in ("Limitations", "License and attribution", "Splits"):
        body = section(text, heading)
        assert "synthetic" not in body and "project's generator" not in body and "seed" not in body, heading
        assert "generated row" not in body and "generated kernel" not in body, heading
    assert "seeds" not in section(text, "How the rows were made").split("Build arguments")[0]
    assert "generated rows come from generator" not in text and "No generated rows to analyse." in text
    limits = section(text, "Limitations")
    assert "The 8 real kernels come from 2 packages (my_scripts, newton)" in limits
    assert "4 of the 8 real rows have no backward code" in limits
    assert "5 of the 8 real rows have no launch that replays" in limits
    assert_license_table_names_the_packages(text, PACKAGES)
    data = DatasetCard(text).data
    assert data.license == "unknown" and "synthetic" not in data.tags  # one package's license is not known
    assert {c["config_name"] for c in data.configs} == {c.name for c in schema.CONFIGS if c.source != "synthetic"}


def test_a_mixed_card_states_both_sources_and_only_the_packages_present(small_build: BuildResult) -> None:
    text, readback = rendered(small_build, "both")
    generated = sum(readback.rows_per_source["synthetic"].values())
    limits, license = section(text, "Limitations"), section(text, "License and attribution")
    assert f"The {generated:,} generated kernels are synthetic" in limits and "this build's 8 real rows" in limits
    assert "The 8 real kernels come from 2 packages" in limits
    assert f"The Python kernels of the {generated:,} generated rows are written by this project's generator" in license
    assert "The Python kernels of the 8 real rows are the work of their packages' authors" in license
    assert "The data is released under" not in license  # not all of it: one package's license is unknown
    assert_license_table_names_the_packages(text, PACKAGES)
    assert "mujoco" not in text.lower()
    only_apache = {"newton": PACKAGES["newton"]}
    apache = card.render(
        real_record(BuildRecord.load(small_build.out)), dataclasses.replace(readback, packages=only_apache)
    )
    assert DatasetCard(apache).data.license == "apache-2.0"
    assert "The data is released under **Apache-2.0**." in section(apache, "License and attribution")
