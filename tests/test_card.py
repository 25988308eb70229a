"""The rendered card: a valid Hub card whose YAML datasets accepts and whose numbers are the files' numbers."""

from __future__ import annotations

import shutil
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard

from warp_cuda_ir import card, schema, writing
from warp_cuda_ir.build import BuildResult
from warp_cuda_ir.validation import report


def copy_build(build: BuildResult, to: Path) -> Path:
    """A copy of the shared build that a test may damage (the resume state is left behind)."""
    return Path(shutil.copytree(build.out, to / "copy", ignore=shutil.ignore_patterns(writing.WORK_DIR)))


def test_card_parses_and_lists_every_config(small_build: BuildResult) -> None:
    parsed = DatasetCard.load(small_build.out / "README.md")
    configs = {c["config_name"]: c for c in parsed.data.configs}
    assert set(configs) == {c.name for c in schema.CONFIGS}
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
    assert set(infos) == {c.name for c in schema.CONFIGS}
    for config in schema.CONFIGS:
        assert infos[config.name].features == config.features()
        assert {s: i.num_examples for s, i in infos[config.name].splits.items()} == small_build.rows_per_split


def test_dataset_info_sizes_equal_the_arrow_tables(small_build: BuildResult) -> None:
    # An independent computation (whole-table reads) of what the card states per config and split.
    infos = DatasetInfosDict.from_dataset_card_data(DatasetCard.load(small_build.out / "README.md").data)
    for config in schema.CONFIGS:
        for split, paths in card.data_files(small_build.out).items():
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


def test_card_numbers_equal_the_files(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    stats = card.compute_stats(small_build.out)
    assert f"**{stats['num_rows']:,} rows**" in text
    for split, n in stats["rows_per_split"].items():
        assert f"| {split} | {n:,} |" in text
    for category, by_split in stats["categories_per_split"].items():
        cells = " | ".join(f"{n:,}" for n in by_split.values())
        assert f"| {category} | {cells} | {stats['categories'][category]:,} |" in text
    assert stats["rows_per_split"] == small_build.rows_per_split
    assert sum(stats["categories"].values()) == stats["num_rows"]


def test_schema_section_explains_every_column(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    for name, _, description in schema.COLUMNS:
        assert f"| `{name}` |" in text and description in text
    for config in schema.CONFIGS:
        assert f'load_dataset("{card.DEFAULT_REPO_ID}", "{config.name}")' in text


def test_both_sections_are_in_the_card(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    assert card.variety_section(small_build.out) in text
    assert card.validation_section(small_build.out) in text


def test_an_unvalidated_build_says_so(small_build: BuildResult) -> None:
    assert "has not been validated" in card.validation_section(small_build.out)
    assert report.describe(small_build.out) == [report.NOT_VALIDATED]  # one line for the CLI, not characters


@pytest.mark.parametrize(("rows", "label"), [(0, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (250_000, "100K<n<1M")])
def test_size_category_follows_the_hub_buckets(rows: int, label: str) -> None:
    assert card.size_category(rows) == label
