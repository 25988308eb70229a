"""The rendered card: a valid Hub card whose YAML datasets accepts and whose numbers are the files' numbers."""

from __future__ import annotations

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
from warp_cuda_ir.readback import read_back
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
    for config in schema.CONFIGS:
        assert f'load_dataset("{card.DEFAULT_REPO_ID}", "{config.name}")' in text


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
