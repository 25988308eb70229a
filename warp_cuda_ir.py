"""WarpCudaIR: the Hugging Face `datasets` builder for Warp kernels and their generated C++.

datasets 5.x no longer runs loading scripts, so this file is driven by `scripts/build.py`
(through `warp_cuda_ir.builder_class()`); users load the Parquet folder it produces.

`_split_generators` plays the part of a download: it makes sure every seed shard exists
in the shard cache (generating missing ones), then `_generate_examples` reads them back,
routes each row to its split by seed and drops programs already seen at a lower seed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, ClassVar

import datasets
import pyarrow as pa

from warp_cuda_ir import schema
from warp_cuda_ir.engines.local import run_shards
from warp_cuda_ir.generation import BuildSpec, ShardCache, duplicate_seeds
from warp_cuda_ir.rows import split_for_seed


class WarpCudaIRConfig(datasets.BuilderConfig):
    """A config is a column projection plus the build parameters that decide the rows."""

    def __init__(
        self,
        *,
        columns: tuple[str, ...] = tuple(schema.FEATURES),
        spec: BuildSpec | None = None,
        num_shards: int = 1,
        shard_cache: str | None = None,
        workers: int = 1,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.columns = columns
        self.spec = spec or BuildSpec()
        self.num_shards = num_shards
        self.shard_cache = shard_cache
        self.workers = workers

    def create_config_id(self, config_kwargs: dict[str, Any], custom_features: Any = None) -> str:
        # Only what changes the rows goes into the cache id; the cache path and worker count do not.
        kept = {"spec": self.spec.fingerprint(), "num_shards": self.num_shards}
        return super().create_config_id(kept, custom_features)


class WarpCudaIR(datasets.GeneratorBasedBuilder):
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
        config: WarpCudaIRConfig = self.config
        cache_root = config.shard_cache or os.path.join(
            self._cache_dir_root, "warp_cuda_ir_shards", config.spec.fingerprint()
        )
        cache = ShardCache(cache_root)
        missing = [i for i in range(config.num_shards) if not cache.has(i)]
        for _ in run_shards(config.spec, missing, cache_root, config.workers):
            pass
        dropped = duplicate_seeds(cache, config.num_shards)
        shards = list(range(config.num_shards))
        return [
            datasets.SplitGenerator(
                name=split, gen_kwargs={"shards": shards, "split": split, "cache_root": cache_root, "dropped": dropped}
            )
            for split in schema.SPLITS
        ]

    def _generate_examples(
        self, shards: list[int], split: str, cache_root: str, dropped: set[int]
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        cache = ShardCache(cache_root)
        columns = list(dict.fromkeys([*self.config.columns, "id", "seed"]))
        for index in shards:
            table = cache.read(index, columns, split)  # only this split's row group is decoded
            # Drop repeats in Arrow first: only the kept rows are converted to Python.
            keep = [split_for_seed(s) == split and s not in dropped for s in table.column("seed").to_pylist()]
            for row in table.filter(pa.array(keep, pa.bool_())).select(list(self.config.columns)).to_pylist():
                yield row["id"], row
