"""Real rows in the build: harvested kernels as rows with provenance, their own config and splits.

The build fixture harvests the fixture folder tests/data/harvest/kernels (every kernel form) and one
installed module set of warp-lang (`warp._src.optim`), next to a tiny synthetic part, and is checked
against the contract every build meets (`assert_publishable`).
"""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest
from huggingface_hub import DatasetCard

from tests.helpers import assert_publishable, run_cli
from warp_cuda_ir import real, schema, writing
from warp_cuda_ir.errors import RealTargetError
from warp_cuda_ir.harvest import cache as harvest_cache
from warp_cuda_ir.record import BuildRecord
from warp_cuda_ir.shards import BuildSpec

DATA = Path(__file__).parent / "data" / "harvest"
KERNELS = DATA / "kernels"
TINY_SPEC = BuildSpec(seed=0, seeds_per_shard=24)
TARGETS = (str(KERNELS), "warp._src.optim", "no_such_package_wci")


@pytest.fixture(scope="module")
def real_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("real") / "out"
    warnings: list[str] = []
    from warp_cuda_ir.build import run_build
    from warp_cuda_ir.record import BuildOptions

    cache = out.parent / "cache"  # this build's own machine cache, so a test can count its entries
    options = BuildOptions(out=out, spec=TINY_SPEC, target_mb=0.05, workers=2, real=TARGETS, cache_dir=cache)
    result = run_build(options, on_warning=warnings.append)
    return out, result, warnings, options


def _load(out: Path, config: str) -> dict[str, datasets.Dataset]:
    return dict(datasets.load_dataset(str(out), config, cache_dir=str(out.parent / "hf")))


@pytest.mark.slow
def test_real_build_is_publishable_and_configs_select_by_source(real_build):
    out, _, warnings, _ = real_build
    assert_publishable(out)
    real_rows = _load(out, "real")
    synthetic = _load(out, "synthetic")
    full = _load(out, "full")
    assert all(set(ds["source"]) == {"real"} for ds in real_rows.values())
    assert all(set(ds["source"]) == {"synthetic"} for ds in synthetic.values())
    n_real = sum(ds.num_rows for ds in real_rows.values())
    n_synthetic = sum(ds.num_rows for ds in synthetic.values())
    assert n_real == sum(pq.read_metadata(p).num_rows for p in (out / "data" / "real").glob("*.parquet"))
    assert n_real >= 11 + 3  # the fixture forms (test_harvest lists 11 records) and optim's kernels
    assert n_synthetic > 0 and sum(ds.num_rows for ds in full.values()) == n_real + n_synthetic
    # The unknown name is one warning line; the build went on with the others.
    assert warnings == ["--real no_such_package_wci: no installed package or folder of that name"]


@pytest.mark.slow
def test_real_rows_carry_provenance_and_no_launch_record(real_build):
    out, *_ = real_build
    rows = [r for ds in _load(out, "real").values() for r in ds]
    packages = {r["provenance"]["package"] for r in rows}
    assert packages == {"kernels", "warp-lang"}
    import warp

    bases = {"kernels": KERNELS, "warp-lang": Path(warp.__file__).resolve().parent.parent}
    for r in rows:
        p = r["provenance"]
        assert p["file"] and p["line"] >= 1 and "def " in p["upstream_source"]
        assert r["category"] == p["package"] and r["seed"] is None and r["launch_dim"] is None
        assert r["generator_version"] is None
        # The upstream file holds the kernel's text at that line, as recorded.
        upstream = p["upstream_source"].splitlines()
        lines = (bases[p["package"]] / p["file"]).read_text().splitlines()
        assert lines[p["line"] - 1 : p["line"] - 1 + len(upstream)] == upstream, (p["file"], p["line"])
    warp_rows = [r for r in rows if r["provenance"]["package"] == "warp-lang"]
    assert warp_rows and all(r["provenance"]["license"] == "Apache-2.0" for r in warp_rows)
    assert all(r["provenance"]["file"].startswith("warp/_src/optim/") for r in warp_rows)
    args = {a["name"]: a for r in rows if r["kernel_name"] == "integrate" for a in r["arguments"]}
    assert args and all(a["role"] is None and a["init"] is None and a["shape"] == [] for a in args.values())
    # Every kernel takes arguments here: each row found its signature (`name=` kernels included).
    assert all(r["arguments"] for r in rows)


@pytest.mark.slow
def test_no_program_twice_and_no_file_straddles_splits(real_build):
    out, *_ = real_build
    real_rows = _load(out, "real")
    synthetic = _load(out, "synthetic")
    real_ids = {i for ds in real_rows.values() for i in ds["id"]}
    synthetic_ids = {i for ds in synthetic.values() for i in ds["id"]}
    assert not real_ids & synthetic_ids
    splits_of_file: dict[tuple[str, str], set[str]] = {}
    for split, ds in real_rows.items():
        for p in ds["provenance"]:
            splits_of_file.setdefault((p["package"], p["file"]), set()).add(split)
    assert splits_of_file and all(len(s) == 1 for s in splits_of_file.values())


@pytest.mark.slow
def test_licenses_record_and_card(real_build):
    out, *_ = real_build
    record = BuildRecord.load(out)
    assert record is not None and record.real is not None
    licenses = [f for f in record.files if f.startswith("LICENSES/warp-lang/")]
    assert licenses and all((out / f).is_file() for f in licenses)
    by_package = {p.package: p for p in record.real.packages}
    assert by_package["kernels"].reasons == {}  # its generic kernel nobody specialised: a chosen overload
    assert record.real.target_errors == ("--real no_such_package_wci: no installed package or folder of that name",)
    # Every discovered kernel is a record or a reason (the fixture forms: 14 found, test_harvest lists them).
    assert (by_package["kernels"].discovered, by_package["kernels"].records) == (14, 14)
    assert by_package["warp-lang"].records == by_package["warp-lang"].rows > 0
    text = (out / writing.CARD).read_text()
    assert "| warp-lang | 1.19" in text and "Apache-2.0" in text
    assert "runs their code" in text and "Near-duplicates" in text
    # Built without a capture: the card says real rows are compile-only, and no row has a replayed launch.
    assert "This build ran no capture" in text and "| replayed launch |" in text
    assert "Launches: the build ran" not in text
    # The first line counts generator categories and real packages apart (a real row's category is its package).
    rows = pq.read_table(out / "data", columns=["source", "category"]).to_pylist()
    generated = {r["category"] for r in rows if r["source"] == "synthetic"}
    real = [r for r in rows if r["source"] == "real"]
    n_generated, n_packages = len(rows) - len(real), len({r["category"] for r in real})
    assert f"{n_generated:,} generated rows in {len(generated)} generator categories" in text
    assert f"{len(real):,} real kernels from {n_packages} packages" in text
    # Limitations and license state both sources, each package present (the fixture folder has no license).
    limits = text.split("\n## Limitations\n")[1].split("\n## ")[0]
    license = text.split("\n## License and attribution\n")[1].split("\n## ")[0]
    assert f"The {n_generated:,} generated kernels are synthetic" in limits
    assert f"The {len(real):,} real kernels come from 2 packages (kernels, warp-lang)" in limits
    assert f"{len(real):,} of the {len(real):,} real rows have no launch (built without a capture)" in limits
    assert "| kernels | unknown | unknown |" in license and "check its terms" in license
    assert "| warp-lang | 1.19.0 | Apache-2.0 |" in license and "`LICENSES/warp-lang/`: `LICENSE.md`" in license
    assert DatasetCard.load(out / writing.CARD).data.license == "unknown"


@pytest.mark.slow
def test_resume_does_not_harvest_again_and_gives_the_same_rows(real_build, monkeypatch):
    out, _, _, options = real_build
    before = {p.relative_to(out).as_posix(): pq.read_table(p) for p in writing.all_data_files(out)}
    assert options.cache_dir is not None
    cached = sorted(p for p in (options.cache_dir / "harvest").rglob("*") if p.is_file())
    assert len(cached) == 2  # one per target that resolved

    def no_harvest(*args, **kwargs):
        raise AssertionError("the harvest ran again")

    monkeypatch.setattr(harvest_cache, "harvest", no_harvest)
    from warp_cuda_ir.build import run_build

    result = run_build(options)
    assert result.resumed
    after = {p.relative_to(out).as_posix(): pq.read_table(p) for p in writing.all_data_files(out)}
    assert before.keys() == after.keys() and all(before[k].equals(after[k]) for k in before)


@pytest.mark.slow
def test_bad_real_targets_give_one_line_and_exit_non_zero(tmp_path):
    for target in ("no_such_package_wci", str(DATA / "no_python"), str(DATA / "no_kernels")):
        out = tmp_path / Path(target).name
        done = run_cli("--real", target, "--out", str(out), "--target-mb", "0.01", "--workers", "1")
        assert done.returncode == 2, done.stderr
        lines = [line for line in done.stderr.splitlines() if line.startswith("error:")]
        assert len(lines) == 1 and target in lines[0], done.stderr
        assert not (out / writing.CARD).exists() and not (out / writing.MANIFEST).exists()


def test_every_unknown_target_refuses_before_anything_is_written(tmp_path):
    from warp_cuda_ir.build import check_real_targets

    with pytest.raises(RealTargetError, match=r"no_such_package_wci.*and 1 more"):
        check_real_targets(("no_such_package_wci", str(DATA / "no_python")))
    assert check_real_targets((str(KERNELS), "no_such_package_wci")) == [
        "--real no_such_package_wci: no installed package or folder of that name"
    ]


def test_rows_made_in_workers_are_the_rows_made_in_one_process(real_build, monkeypatch):
    from warp_cuda_ir.build import harvest_targets
    from warp_cuda_ir.cache import Cache
    from warp_cuda_ir.engines import get_executor

    options = real_build[3]
    records = harvest_targets(options, Cache.from_options(options.cache_dir))["records"]
    monkeypatch.setattr(real, "ROWS_PER_ITEM", 3)  # the fixture's records in several items
    assert len(records) > 2 * real.ROWS_PER_ITEM
    here = real.real_rows(records)
    with get_executor("local", 2) as executor:
        there = real.real_rows(records, executor=executor)
    assert [r["id"] for r in there.rows] == [r["id"] for r in here.rows]
    assert there.rows == here.rows
    assert (there.splits, there.near_duplicate_pairs, there.duplicates) == (
        here.splits,
        here.near_duplicate_pairs,
        here.duplicates,
    )


def test_arguments_come_from_the_signature():
    source = (
        "import warp as wp\n\n@wp.struct\nclass State:\n    x: wp.vec3\n\n"
        "@wp.kernel\ndef k(a: wp.array(dtype=wp.vec3), b: wp.array2d(dtype=float), s: State, n: int, f: wp.float32,"
        " idx: wp.indexedarray(dtype=wp.int32)):\n    pass\n"
    )
    got = [(a["name"], a["kind"], a["dtype"]) for a in real.signature_arguments(source, "k")]
    assert got == [
        ("a", "array", "vec3"),
        ("b", "array", "float"),
        ("s", "struct", "State"),
        ("n", "scalar", "int"),
        ("f", "scalar", "float32"),
        ("idx", "array", "int32"),
    ]


def test_kernels_made_by_calls_are_found_by_their_key():
    source = (
        "import warp as wp\n\ndef f(a: wp.array[wp.vec3], n: int):\n    pass\n\n"
        "f = wp.kernel(f, name='f_float32', enable_backward=True)\n"
    )
    got = [(a["name"], a["kind"], a["dtype"]) for a in real.signature_arguments(source, "f_float32")]
    assert got == [("a", "array", "vec3"), ("n", "scalar", "int")]
    plain = source.replace(", name='f_float32'", "")
    assert [a["name"] for a in real.signature_arguments(plain, "f")] == ["a", "n"]


def test_an_overload_row_gives_the_overload_types():
    source = (
        "from typing import Any\nimport warp as wp\n\n@wp.kernel\ndef fill(a: wp.array(dtype=Any), value: Any):\n"
        "    pass\n\nwp.overload(fill, [wp.array(dtype=wp.float32, ndim=1), wp.float32])\n"
    )
    got = [(a["name"], a["kind"], a["dtype"]) for a in real.signature_arguments(source, "fill")]
    assert got == [("a", "array", "float32"), ("value", "scalar", "float32")]
    by_name = source.replace("[wp.array(dtype=wp.float32, ndim=1), wp.float32]", '{"value": wp.int32}')
    got = [(a["name"], a["kind"], a["dtype"]) for a in real.signature_arguments(by_name, "fill")]
    assert got == [("a", "array", "Any"), ("value", "scalar", "int32")]


def test_real_configs_read_only_their_files(tmp_path):
    from warp_cuda_ir import card

    files = {
        "synthetic": {"train": [Path("a")], "validation": [], "test": [Path("b")]},
        "real": {"train": [Path("c")], "validation": [], "test": []},
    }
    entries = {e["config_name"]: e for e in card.configs_yaml(files)}
    assert entries["real"]["data_files"] == [{"split": "train", "path": "data/real/train-*"}]
    assert entries["synthetic"]["data_files"] == [
        {"split": "train", "path": "data/synthetic/train-*"},
        {"split": "test", "path": "data/synthetic/test-*"},
    ]
    assert entries["full"]["data_files"][0] == {
        "split": "train",
        "path": ["data/synthetic/train-*", "data/real/train-*"],
    }
    assert "columns" not in entries["real"] and entries["cuda_forward"]["columns"][-1] == "cuda_forward"
    no_real = {"synthetic": files["synthetic"], "real": {s: [] for s in schema.SPLITS}}
    assert "real" not in {e["config_name"] for e in card.configs_yaml(no_real)}


def test_build_json_round_trips_the_real_record(tmp_path):
    from warp_cuda_ir.record import RealPackage, RealRecord

    record = RealRecord(
        packages=(RealPackage("p", "p", "1.0", "MIT", 3, 2, 2, 0, 2, {"x": 1}),),
        reasons={"x": {"count": 1}},
        target_errors=("--real q: nope",),
        rows=2,
        rows_per_split={"train": 2, "validation": 0, "test": 0},
        duplicates_dropped=0,
        synthetic_dropped=1,
        near_duplicate_pairs=0,
        near_duplicate_rate=0.0,
        near_duplicate_threshold=0.8,
        licenses=("LICENSES/p/LICENSE",),
    )
    full = BuildRecord({"shards": {}}, 1, {}, {}, ("a",), None, record)
    again = BuildRecord.from_json(full.to_json())
    assert again == full and json.loads(full.to_json())["real"]["packages"][0]["package"] == "p"
