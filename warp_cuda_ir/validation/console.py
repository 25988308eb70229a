"""The pass on the command line: progress bar, the no-GPU note, the summary.

Shared by `scripts/validate.py` and `scripts/build.py --validate`; they turn a refusal
(`errors.WarpCudaIRError`) or Ctrl-C into their one `error:` line.
"""

from __future__ import annotations

from pathlib import Path

from warp_cuda_ir.card import NOT_VALIDATED, percent
from warp_cuda_ir.readback import ValidationCounts
from warp_cuda_ir.validation.pipeline import validate_dataset
from warp_cuda_ir.validation.runner import PassOptions


def validate_and_report(folder: Path, options: PassOptions) -> None:
    """Run the pass over `folder` and print what it found."""
    from tqdm import tqdm

    bars: list[tqdm] = []

    def on_start(total: int, done: int, gpu_reason: str | None) -> None:
        if gpu_reason:
            print(f"note: GPU execution skipped ({gpu_reason}); GPU columns are marked skipped")
        if done:
            print(f"resuming: {done:,} of {total:,} rows already validated (this folder's pass or the machine cache)")
        bars.append(tqdm(total=total, initial=done, unit="row", desc="validating"))

    try:
        result = validate_dataset(folder, options, on_start, lambda _: bars[0].update(1))
    finally:
        for bar in bars:
            bar.close()
    rate = result.validated_now / result.seconds if result.seconds else 0.0
    print(
        f"validated {folder}: {result.rows:,} rows ({result.validated_now:,} now, {rate:.1f} rows/s; "
        f"{result.from_cache:,} from the machine cache)"
    )
    for line in describe(result.readback.validation):
        print(line)
    times = result.times
    per_step = ", ".join(f"{step} {seconds / times.rows:.2f}" for step, seconds in times.seconds.items() if times.rows)
    if per_step:
        print(f"  core-seconds per row, by step of the pass: {per_step}")


def describe(counts: ValidationCounts) -> list[str]:
    """Short lines for the command line: per stage, ok among the rows where it ran; skips by reason."""
    if not counts.validated:
        return [NOT_VALIDATED]
    lines = []
    for stage, n in counts.status.items():
        ran = counts.applied(stage)
        detail = ", ".join(f"{k} {v:,}" for k, v in n.items() if k != "skipped")
        skipped = ", ".join(f"{r} {v:,}" for r, v in counts.skip_reasons.get(stage, {}).items())
        line = f"  {stage:<22} {percent(n.get('ok', 0), ran):>8} ok of {ran:,} run ({detail or 'none'})"
        lines.append(line + (f"; skipped: {skipped}" if skipped else ""))
    lines.append(
        f"  degenerate_output  {counts.degenerate_rows:,} rows (every output), "
        f"{counts.rows_with_degenerate:,} with at least one, of {counts.rows_with_outputs:,} that ran"
    )
    lines.append(f"  nonfinite_output   {counts.nonfinite_output:,} rows")
    return lines
