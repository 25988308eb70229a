"""Scoring a model against the dataset: planted candidates get each verdict, bad input one line each, pass@k."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers import TILE_STACKS, build, compile_only_row, make_cuda, read_rows, run_script
from warp_cuda_ir import rows, synthesis
from warp_cuda_ir.evaluation import judge, passk, plants, prompts, sandbox
from warp_cuda_ir.evaluation.candidate import batch_safe, candidate_program
from warp_cuda_ir.evaluation.predictions import Bad, Candidate, parse_line, read_predictions
from warp_cuda_ir.evaluation.run import Options, dataset_folder, judge_entries, summary_path
from warp_cuda_ir.shards import BuildSpec
from warp_cuda_ir.standalone import program, program_columns, reference_columns, stage
from warp_cuda_ir.standalone.digest import digest_line
from warp_cuda_ir.validation import dataset

needs_cxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
# Generated rows (generator as of this commit): a nested loop with vec3 outputs, and a mat22 kernel.
SEEDS = (3, 5)


def _validated_row(seed: int) -> dict[str, Any]:
    """A generated row with its programs and Warp's reference digests, as the validation pass leaves it."""
    row = rows.make_row(seed, list(synthesis.CATEGORIES))
    row |= program_columns(row)
    return row | reference_columns(row)


@pytest.fixture(scope="module")
def validated_rows() -> dict[str, dict[str, Any]]:
    made = [_validated_row(seed) for seed in SEEDS]
    assert all(r["standalone_reference_digest"] for r in made)
    return {r["id"]: r for r in made}


def _gone(pid: int) -> bool:
    """The process ended (a zombie waiting for init to reap it counts as ended)."""
    for _ in range(50):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state == "Z":
            return True
        time.sleep(0.1)
    return False


def test_a_candidate_leaves_no_process_behind_whether_it_exits_or_runs_out_of_time(tmp_path: Path) -> None:
    limits = sandbox.Limits(memory_bytes=None, cpu_seconds=30)
    forked = sandbox.run(["sh", "-c", "sleep 300 & echo $!"], tmp_path, 10.0, limits)
    assert forked.status == "ok" and _gone(int(forked.stdout))  # its background child went with it
    hung = sandbox.run(["sh", "-c", "sleep 300 & echo $!; sleep 300"], tmp_path, 1.0, limits)
    assert hung.status == "timeout" and "1 s" in hung.detail and _gone(int(hung.stdout))


# --- pass@k -----------------------------------------------------------------------------------------------


def test_pass_at_k_is_the_unbiased_estimator() -> None:
    # n=5 samples, c=2 correct: pass@1 = 2/5; pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10.
    assert passk.pass_at_k(5, 2, 1) == pytest.approx(0.4)
    assert passk.pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert passk.pass_at_k(5, 0, 3) == 0.0
    assert passk.pass_at_k(5, 3, 3) == 1.0  # fewer than k wrong samples: every draw holds a correct one
    records = [{"id": "a", "column": "cpu_forward", "verdict": v, "detail": ""} for v in ("correct",) * 2]
    records += [{"id": "a", "column": "cpu_forward", "verdict": "wrong_output", "detail": ""}] * 3
    records += [{"id": "b", "column": "cpu_forward", "verdict": "correct", "detail": ""}]
    records += [{"id": "b", "column": "cpu_forward", "verdict": "not_checkable", "detail": "x"}]  # not a sample
    group = {"column": "cpu_forward", "source": "synthetic", "category": "matrix", "package": "(generated)"}
    summary = passk.summarize(records, {("a", "cpu_forward"): group, ("b", "cpu_forward"): group})
    # Problem a: n=5, c=2; problem b: n=1, c=1. pass@1 = (0.4 + 1) / 2; pass@5 from problem a alone.
    assert summary["overall"]["pass@1"] == pytest.approx(0.7)
    assert summary["overall"]["pass@5"] == pytest.approx(1.0) and summary["overall"]["pass@5_problems"] == 1
    assert summary["by_category"]["matrix"]["samples"] == 6
    assert summary["verdicts"] == {"correct": 3, "not_checkable": 1, "wrong_output": 3}


# --- predictions file ---------------------------------------------------------------------------------------


def test_each_bad_prediction_line_says_why(tmp_path: Path) -> None:
    good = {"id": "r1", "column": "cpu_forward", "prediction": "x"}
    lines = [
        json.dumps(good).encode(),
        json.dumps({"id": "r1", "column": "cpu_forward"}).encode(),
        json.dumps(good | {"score": 1}).encode(),
        b'{"id": "r1", "column": "cpu_forward", "prediction": "\xff\xfe"}',
        json.dumps(good | {"prediction": "  \n"}).encode(),
        json.dumps(good | {"column": "python_source"}).encode(),
        b"not json",
        b"",
    ]
    path = tmp_path / "p.jsonl"
    path.write_bytes(b"\n".join(lines))
    entries = read_predictions(path)
    assert len(entries) == 7  # the blank line is no record
    assert entries[0] == Candidate(1, "r1", "cpu_forward", "x")
    reasons = [e.reason for e in entries[1:] if isinstance(e, Bad)]
    assert len(reasons) == 6
    for expected, reason in zip(
        ["missing field 'prediction'", "extra field 'score'", "not UTF-8", "empty prediction", "is not one of", "JSON"],
        reasons,
        strict=True,
    ):
        assert expected in reason
    assert reasons[0].startswith("line 2: ")
    assert isinstance(parse_line(9, b"[1, 2]"), Bad)


# --- batch safety -------------------------------------------------------------------------------------------


def test_warps_own_code_shares_a_batch_and_text_that_reaches_out_does_not(validated_rows: dict) -> None:
    for row in validated_rows.values():
        assert all(batch_safe(row[c]) for c in ("cpu_forward", "cpu_backward", "cuda_forward", "cuda_backward"))
    kernel = "static void k(int a) {\n    int b = a + 1;\n    if (b == 2) { b = 3; }\n}\n"
    assert batch_safe(kernel)
    for reaching in (
        "#define wp_sub wp_add\n" + kernel,  # a macro reaches every later namespace
        kernel + "}\n",  # closes the candidate's namespace
        kernel + 'static int x = printf("hi");\n',  # runs at start-up of every row of the binary
        kernel + 'static int y{printf("hi")};\n',
        kernel + 'static int z(printf("hi"));\n',
        "__attribute__((constructor)) " + kernel,
        "struct S { static int s; };\n" + kernel,
        kernel + "namespace wp_row_0 { }\n",
        'extern "C" {\nint w = 1;\n}\n',
    ):
        assert not batch_safe(reaching), reaching
    assert batch_safe('extern "C" {\nvoid f(int* a) { a[0] = 1; }\n}\n')


# --- comparison -----------------------------------------------------------------------------------------------


def test_judge_catches_degenerate_and_permuted_outputs() -> None:
    rng = np.random.default_rng(1)
    values = rng.normal(size=64).astype(np.float32)
    given = rng.normal(size=64).astype(np.float32)
    reference = [digest_line("output", "out", values)]
    inputs = digest_line("input", "given", given)

    def verdict(candidate: np.ndarray, exact: bool = True) -> tuple[str, str]:
        return judge.judge(reference, inputs + "\n" + digest_line("output", "out", candidate), exact)

    assert verdict(values)[0] == "correct"
    assert verdict(np.zeros_like(values)) == ("degenerate", "output out: all zeros (the reference's is not)")
    assert "one constant value" in verdict(np.full_like(values, 0.25))[1]
    assert "a copy of input 'given'" in verdict(given)[1]
    shifted = verdict(np.roll(values, 1))  # the same sums: no tolerance may pass it on the CPU
    assert shifted[0] == "wrong_output" and "sums agree within the GPU tolerance" in shifted[1]
    # GPU: sums within tolerance pass, zeros never, even where the reference is smaller than the tolerance.
    assert verdict(values * np.float32(1 + 1e-6), exact=False)[0] == "correct"
    tiny = [digest_line("output", "out", values * np.float32(1e-6))]
    assert judge.judge(tiny, digest_line("output", "out", np.zeros_like(values)), False)[0] == "degenerate"
    missing = judge.judge([*reference, digest_line("adjoint", "given", given)], reference[0], True)
    assert missing[0] == "wrong_output" and "expected 2 lines" in missing[1]


# --- prompt view ----------------------------------------------------------------------------------------------


def test_prompt_view_gives_the_kernel_and_the_heads_the_answer_must_have(validated_rows: dict) -> None:
    row = next(iter(validated_rows.values()))
    symbol = row["kernel_symbol"]
    view = prompts.prompt_view(row, "cpu_forward")
    heads = view["signatures"]
    assert heads[0].startswith(f"struct wp_args_{symbol} {{")
    assert any(f"void {symbol}_cpu_kernel_forward(" in h and h.startswith("template <") for h in heads)
    assert any(h.startswith(f"WP_API void {symbol}_cpu_forward(") for h in heads)
    cuda = prompts.prompt_view(row, "cuda_backward")
    assert cuda["signatures"] == [row["cuda_backward"][: row["cuda_backward"].index("\n{\n")]]
    assert row["python_source"] in cuda["prompt"] and cuda["signatures"][0] in cuda["prompt"]
    with pytest.raises(ValueError):
        prompts.prompt_view(row, "python_source")


def test_a_candidate_equal_to_the_rows_own_code_gives_the_rows_program(validated_rows: dict) -> None:
    for row in validated_rows.values():
        for column in ("cpu_forward", "cpu_backward", "cuda_forward", "cuda_backward"):
            text = candidate_program(row, column, row[column])
            program = row[f"{column.split('_')[0]}_program"]
            kept = [line for line in text.splitlines(keepends=True) if '("input", ' not in line]
            assert "".join(kept) == program and len(kept) < len(text.splitlines())


@pytest.mark.slow
@needs_nvcc
def test_a_cuda_candidate_of_a_tile_row_compiles_against_the_copy_its_makefile_makes(tmp_path: Path) -> None:
    """A tile-stack kernel's candidate declaring another stack type than the row's compiles with nvcc against the
    copy of Warp's headers (what the evaluator and the row's Makefile use), as the row's own code does."""
    row = compile_only_row(TILE_STACKS, "stacks")
    prediction = row["cuda_forward"].replace("wp::int32, 64>", "wp::int32, 48>")
    assert prediction != row["cuda_forward"]
    text = candidate_program(row, "cuda_forward", prediction)
    assert "tile_stack_alloc<wp::int32, 48>" in text  # the candidate's forward; the row's backward keeps its own
    done = make_cuda(tmp_path, text, program.makefile(row))
    assert done.returncode == 0, done.stderr[-2000:]


def test_missing_compilers_make_their_targets_not_checkable(validated_rows: dict) -> None:
    row = next(iter(validated_rows.values()))
    entries = [Candidate(1, row["id"], column, row[column]) for column in ("cpu_forward", "cuda_backward")]
    no_tools = stage.Tools(None, None, program.warp_native_dir())
    records, _ = judge_entries(entries, validated_rows, Options("", Path(), Path()), None, tools=no_tools)
    assert [(r["verdict"], r["detail"].split(" (")[0]) for r in records] == [
        ("not_checkable", "C++ compiler not found"),
        ("not_checkable", "nvcc not found"),
    ]


def test_a_backward_whose_reference_has_no_adjoint_line_is_not_checkable(validated_rows: dict) -> None:
    """Judged against a reference without adjoint lines, any backward that compiles would be `correct`: the row
    of a backward the programs leave out (`atomic_result`, `spin_wait`), or one that prints no adjoint."""
    row = next(r for r in validated_rows.values() if "adjoint " in r["standalone_reference_digest"])
    forward_only = "\n".join(
        line for line in row["standalone_reference_digest"].splitlines() if not line.startswith("adjoint ")
    )
    flagged = {**row, "standalone_reference_digest": forward_only, "adjoint_hazards": ["atomic_result:c"]}
    silent = {**flagged, "adjoint_hazards": [], "id": "silent"}
    rows = {row["id"]: flagged, "silent": silent}
    entries = [Candidate(1, row["id"], "cpu_backward", "x"), Candidate(2, "silent", "cuda_backward", "x")]
    entries.append(Candidate(3, row["id"], "cpu_forward", row["cpu_forward"]))
    no_tools = stage.Tools(None, None, program.warp_native_dir())
    records, _ = judge_entries(entries, rows, Options("", Path(), Path()), None, tools=no_tools)
    assert [r["verdict"] for r in records] == ["not_checkable"] * 3
    assert "leave out a backward that never ends" in records[0]["detail"]
    assert "prints no input adjoint" in records[1]["detail"]
    assert records[2]["detail"].startswith("C++ compiler not found")  # a forward is judged by its outputs


def test_a_hub_repo_id_is_downloaded_as_a_dataset_repo(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import huggingface_hub

    calls: list[dict] = []

    def fake_download(**kwargs: Any) -> str:  # the Hub cannot be reached from the tests
        calls.append(kwargs)
        return str(tmp_path)

    monkeypatch.setattr(huggingface_hub, "snapshot_download", fake_download)
    assert dataset_folder("someone/warp_cuda_ir") == tmp_path
    assert calls == [{"repo_id": "someone/warp_cuda_ir", "repo_type": "dataset"}]
    assert dataset_folder(str(tmp_path)) == tmp_path and len(calls) == 1


# --- compile and run: every verdict -----------------------------------------------------------------------------

# Statements put at the start of the forward kernel's body.
_BODY = "    //---------\n    // primal vars\n"
PLANTED_BODIES = {
    "timeout": "    for (volatile int spin = 0; ; spin = spin + 1) {}\n",
    "null write": "    *(volatile int*)nullptr = 1;\n",
    "abort": "    __builtin_trap();\n",
    # 1 GiB touched: over the 512 MB address-space limit the test sets, so calloc returns NULL.
    "huge allocation": "    { char* p = (char*)calloc(1024, 1 << 20); memset(p, 1, 1024u << 20); }\n",
}


def _insert(text: str, statements: str) -> str:
    at = text.index(_BODY)
    return text[:at] + statements + text[at:]


@pytest.mark.slow
@needs_cxx
def test_planted_candidates_get_each_verdict_and_mark_only_themselves(validated_rows: dict) -> None:
    first, second = validated_rows.values()
    entries: list[Candidate | Bad] = []
    expected: list[str] = []

    def add(row: dict, column: str, text: str, verdict: str) -> None:
        entries.append(Candidate(len(entries) + 1, row["id"], column, text))
        expected.append(verdict)

    for row in (first, second):
        add(row, "cpu_forward", row["cpu_forward"], "correct")
        add(row, "cpu_backward", row["cpu_backward"], "correct")
    for kind in ("zeros", "constant", "copy"):
        add(first, "cpu_forward", plants.plant(first, "cpu_forward", kind), "degenerate")
        add(first, "cpu_backward", plants.plant(first, "cpu_backward", kind), "degenerate")
    add(first, "cpu_forward", plants.plant(first, "cpu_forward", "operator", seed=0), "wrong_output")
    add(first, "cpu_forward", first["cpu_forward"].replace(";", "", 1), "does_not_compile")
    for name, statements in PLANTED_BODIES.items():
        verdict = "timeout" if name == "timeout" else "crashed"
        add(second, "cpu_forward", _insert(second["cpu_forward"], statements), verdict)
    # A row without a reference digest, a column the row lacks, an unknown id.
    unvalidated = dict(first, id="unvalidated", standalone_reference_digest=None)
    no_backward = dict(first, id="no_backward", cpu_backward="")
    add(unvalidated, "cpu_forward", first["cpu_forward"], "not_checkable")
    add(no_backward, "cpu_backward", first["cpu_backward"], "bad_input")
    entries.append(Candidate(len(entries) + 1, "no-such-row", "cpu_forward", "x"))
    expected.append("bad_input")
    table = validated_rows | {"unvalidated": unvalidated, "no_backward": no_backward}
    options = Options(dataset="", predictions=Path(), report=Path(), workers=2, time_limit=3.0, memory_mb=512)
    records, _ = judge_entries(entries, table, options, gpu_reason="no GPU in this test")
    got = [r["verdict"] for r in records]
    assert got == expected, "\n".join(f"{r['verdict']}: {r['detail'][:200]}" for r in records)
    assert "unknown id 'no-such-row'" in records[-1]["detail"]


@pytest.mark.slow
@needs_nvcc
def test_cuda_candidates_compile_without_a_gpu_and_say_they_could_not_run(validated_rows: dict) -> None:
    # Two rows' own forward: one nvcc call (a batch), both compile, neither can run here.
    entries = [
        Candidate(k, row["id"], "cuda_forward", row["cuda_forward"]) for k, row in enumerate(validated_rows.values())
    ]
    options = Options(dataset="", predictions=Path(), report=Path())
    records, _ = judge_entries(entries, validated_rows, options, gpu_reason="no CUDA driver")
    assert [r["verdict"] for r in records] == ["not_checkable", "not_checkable"]
    assert records[0]["detail"] == f"{passk.COMPILES} (no CUDA driver)"
    summary = passk.summarize(records, {})
    assert summary["compile_only"] == {"candidates": 2, "compiles": 2}


@pytest.mark.slow
@needs_nvcc
def test_cuda_candidates_run_on_a_gpu(validated_rows: dict) -> None:
    from warp_cuda_ir.validation.gpu import unavailable_reason

    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"needs a CUDA device: {reason}")
    row = next(iter(validated_rows.values()))
    entries = [
        Candidate(1, row["id"], "cuda_forward", row["cuda_forward"]),
        Candidate(2, row["id"], "cuda_backward", row["cuda_backward"]),
    ]
    records, _ = judge_entries(entries, validated_rows, Options("", Path(), Path()), gpu_reason=None)
    assert [r["verdict"] for r in records] == ["correct", "correct"], records


# --- the command line -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_folders(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a built folder without validation, the same folder with Warp's reference digests written in).

    The digests are what the validation pass's worker writes (`reference_columns`); writing only them
    keeps this fixture to seconds instead of the whole pass's minutes."""
    root = tmp_path_factory.mktemp("evaluate")
    plain = build(root / "plain", BuildSpec(seed=0, seeds_per_shard=8), 0.01).out
    validated = Path(shutil.copytree(plain, root / "validated"))
    for path in dataset.data_files(validated):
        dataset.rewrite(path, {r["id"]: reference_columns(r) for r in dataset.read_rows(path)})
    return plain, validated


@pytest.mark.slow
@needs_cxx
def test_evaluate_script_reports_each_line_in_order(tiny_folders: tuple[Path, Path], tmp_path: Path) -> None:
    _, folder = tiny_folders
    row = next(r for r in read_rows(folder).values() if r["standalone_reference_digest"])
    lines = [
        json.dumps({"id": row["id"], "column": "cpu_forward", "prediction": row["cpu_forward"]}).encode(),
        b'{"id": "nope", "column": "cpu_forward", "prediction": "x"}',
        b'{"id": "' + row["id"].encode() + b'", "column": "cpu_forward", "prediction": "\xff"}',
        json.dumps({"id": row["id"], "column": "cpu_forward", "prediction": "", "extra": 1}).encode(),
    ]
    predictions = tmp_path / "preds.jsonl"
    predictions.write_bytes(b"\n".join(lines) + b"\n")
    report = tmp_path / "out" / "verdicts.jsonl"
    done = run_script("evaluate", "--dataset", str(folder), "--predictions", str(predictions), "--report", str(report))
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in report.read_text().splitlines()]
    assert [r["verdict"] for r in records] == ["correct", "bad_input", "bad_input", "bad_input"]
    assert records[0]["id"] == row["id"] and records[2]["detail"].startswith("line 3: not UTF-8")
    summary = json.loads(summary_path(report).read_text())
    assert summary["overall"]["pass@1"] == 0.5  # the undecodable line names no row: the empty one counts
    assert "pass@1" in done.stdout


@pytest.mark.slow
def test_an_unvalidated_dataset_is_refused_with_one_line(tiny_folders: tuple[Path, Path], tmp_path: Path) -> None:
    plain, _ = tiny_folders
    predictions = tmp_path / "preds.jsonl"
    predictions.write_text(json.dumps({"id": "x", "column": "cpu_forward", "prediction": "y"}) + "\n")
    report = tmp_path / "verdicts.jsonl"
    done = run_script("evaluate", "--dataset", str(plain), "--predictions", str(predictions), "--report", str(report))
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "validate it first" in done.stderr
    assert not report.exists()
    assert dataset.data_files(plain)  # the folder is untouched: still a whole build
