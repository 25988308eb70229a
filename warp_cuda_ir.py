"""WarpCudaIR: the Hugging Face `datasets` builder for Warp kernels and their generated C++.

datasets 5.x no longer runs loading scripts, so this file is driven by `scripts/build.py`
(through `warp_cuda_ir.builder_class()`); users load the Parquet folder it produces.

`_split_generators` plays the part of a download: it hands each split the build's
`ShardFeed`. The first split's `_generate_tables` drives generation through it and writes
each shard's rows as soon as the shards before it are finished, so writing overlaps
generation; the other splits replay the finished shards. Rows are routed to their split by
seed, and programs already seen at a lower seed are dropped.

An `ArrowBasedBuilder`: a shard's rows go from its Parquet file to the writer as Arrow tables,
never as Python dicts (converting them to dicts and encoding them back cost ~0.3 ms per row in
the builder's one process, which runs beside the workers).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import datasets
import pyarrow as pa

from warp_cuda_ir import schema
from warp_cuda_ir.feed import ShardFeed


class WarpCudaIRConfig(datasets.BuilderConfig):
    """One config: a column projection of the rows (`schema.CONFIGS`), plus the build's feed.

    `shards` is the `ShardFeed` that decides the rows (spec and size target); `scripts/build.py`
    (through `build.run_build`) passes it. The named configs in BUILDER_CONFIGS carry none: they
    describe the projections for `_info`.
    """

    def __init__(
        self, *, columns: tuple[str, ...] = schema.COLUMN_NAMES, shards: ShardFeed | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.columns = columns
        self.shards = shards

    def create_config_id(self, config_kwargs: dict[str, Any], custom_features: Any = None) -> str:
        # Only what changes the rows goes into the cache id: the shards' key and the size target.
        size = {"spec": self.shards.spec.fingerprint(), "target_bytes": self.shards.target_bytes} if self.shards else {}
        return super().create_config_id(size, custom_features)


class WarpCudaIR(datasets.ArrowBasedBuilder):
    """Warp kernels paired with the CUDA/CPU code Warp generates for them."""

    VERSION = datasets.Version("1.0.0")
    BUILDER_CONFIG_CLASS = WarpCudaIRConfig
    BUILDER_CONFIGS: ClassVar[list[WarpCudaIRConfig]] = [
        WarpCudaIRConfig(name=c.name, description=c.description, columns=c.columns) for c in schema.CONFIGS
    ]
    DEFAULT_CONFIG_NAME = schema.DEFAULT_CONFIG

    def _info(self) -> datasets.DatasetInfo:
        return datasets.DatasetInfo(
            description=self.config.description,
            features=datasets.Features({c: schema.FEATURES[c] for c in self.config.columns}),
            homepage="https://github.com/NVIDIA/warp",
            license="apache-2.0",
        )

    def _split_generators(self, dl_manager: datasets.DownloadManager) -> list[datasets.SplitGenerator]:
        shards = self.config.shards
        if shards is None:
            raise ValueError("the builder is driven by a ShardFeed: build with scripts/build.py (build.run_build)")
        # datasets prepares the splits one after another, in this order.
        return [
            datasets.SplitGenerator(name=split, gen_kwargs={"shards": shards, "split": split})
            for split in schema.SPLITS
        ]

    def _generate_tables(self, shards: ShardFeed, split: str) -> Iterator[tuple[int, pa.Table]]:
        columns = list(dict.fromkeys([*self.config.columns, "seed"]))
        for index in shards:
            table = shards.cache.read(index, columns, split)  # only this split's row group is decoded
            dropped = shards.dropped  # repeats of programs seen at a lower seed
            keep = [s not in dropped for s in table.column("seed").to_pylist()]
            table = table.filter(pa.array(keep, pa.bool_())).select(list(self.config.columns))
            if table.num_rows:
                yield index, table
