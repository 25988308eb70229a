"""Validation pass: every row compiled (NVRTC, Clang), run (CPU, GPU when present), compared,
gradient-checked, and annotated in the schema's validation columns.

Modules, one job each: `compile_cuda` (batched NVRTC with bisection), `execute` (CPU run),
`outputs` (digest, output names), `output_stats` (degenerate outputs, per output and straight from a
generated program),
`gradients` (adjoint vs finite differences over whole inputs), `gpu` (GPU run and comparison), `row` (one row's
columns, and what a failed stage leaves), `stages` (how each stage of `schema.PASS` runs: what a worker does
with a batch of rows), `runner` (the batches on the executor, blame, resume), `dataset` (folder checks,
atomic rewrite), `pipeline` (the whole pass), `console` (the command line's summary).
"""
