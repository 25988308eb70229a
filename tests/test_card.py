"""The rendered card: a valid Hub card whose numbers are the files' numbers."""

from __future__ import annotations

import re

from huggingface_hub import DatasetCard

from warp_cuda_ir import card, schema
from warp_cuda_ir.build import BuildResult


def test_card_parses_and_lists_every_config(small_build: BuildResult) -> None:
    parsed = DatasetCard.load(small_build.out / "README.md")
    configs = {c["config_name"]: c for c in parsed.data.configs}
    assert set(configs) == {c.name for c in schema.CONFIGS}
    assert configs["full"]["default"] is True
    assert configs["cuda_forward"]["columns"] == list(schema.CONFIGS_BY_NAME["cuda_forward"].columns)
    assert parsed.data.license == "apache-2.0"


def test_no_placeholder_survives(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    assert not re.search(r"\$\{?\w+", text.split("```python")[0])


def test_card_numbers_equal_the_files(small_build: BuildResult) -> None:
    text = (small_build.out / "README.md").read_text()
    stats = card.compute_stats(small_build.out)
    assert f"**{stats['num_rows']:,} rows**" in text
    for split, n in stats["rows_per_split"].items():
        assert f"| {split} | {n:,} |" in text
    for category, n in stats["categories"].items():
        assert f"| {category} | {n:,} |" in text
    assert stats["rows_per_split"] == small_build.rows_per_split
