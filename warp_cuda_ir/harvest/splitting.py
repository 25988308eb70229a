"""Splits for real rows: by a hash of (package, file), with near-duplicate clusters kept in one split.

Kernels of one file never straddle train and test (a file is the unit a model could memorise). Real
code also holds near-copies across files (Warp's tests parametrise one kernel in many files; a kernel
harvested from two packages), so files joined by a near-duplicate pair form one group, and a group takes
one split. Near-duplicates are found with MinHash/LSH (`datasketch`) over token shingles of the
self-contained source: Jaccard similarity of the shingle sets >= `threshold`.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SPLIT_WEIGHTS = (("train", 90), ("validation", 5), ("test", 5))  # as synthetic rows (rows.split_for_seed)
DEFAULT_THRESHOLD = 0.8
NUM_PERM = 128
SHINGLE = 5  # tokens per shingle


def split_for_file(package: str, file: str) -> str:
    """train / validation / test from a stable hash of the file's place (90/5/5)."""
    bucket = int.from_bytes(hashlib.sha256(f"{package}\0{file}".encode()).digest()[:8], "big") % 100
    for name, weight in SPLIT_WEIGHTS:
        if bucket < weight:
            return name
        bucket -= weight
    return SPLIT_WEIGHTS[0][0]


def _tokens(source: str) -> list[str]:
    """Python tokens without comments and layout; names and literals kept (they carry the differences)."""
    out: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                continue
            if tok.type == tokenize.STRING and tok.string.startswith(('"""', "'''")):
                continue  # docstrings
            out.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        out = re.findall(r"\w+|[^\w\s]", source)
    return out


def _shingles(source: str) -> set[bytes]:
    toks = _tokens(source)
    if len(toks) < SHINGLE:
        return {" ".join(toks).encode()}
    return {" ".join(toks[i : i + SHINGLE]).encode() for i in range(len(toks) - SHINGLE + 1)}


@dataclass(frozen=True)
class NearDuplicates:
    pairs: list[tuple[int, int]]  # (i, j), i < j: indices of sources estimated >= threshold similar
    with_partner: int  # sources having at least one near-duplicate
    threshold: float

    def rate(self, n: int) -> float:
        return self.with_partner / n if n else 0.0


def signature(source: str) -> Any:
    """The MinHash signature `near_duplicates` compares (its hash values, an array of `NUM_PERM` numbers).

    Computed per source, so the rows' own workers can make them; most of the measure's time is here
    (tokenizing: ~3 ms per real kernel), not in the comparison.
    """
    m = _minhash()
    m.update_batch(list(_shingles(source)))
    return m.hashvalues


def near_duplicates(
    sources: Sequence[str], threshold: float = DEFAULT_THRESHOLD, signatures: Sequence[Any] | None = None
) -> NearDuplicates:
    """Near-duplicate pairs among `sources` (MinHash LSH candidates, confirmed by estimated Jaccard).

    `signatures`: `signature(source)` of each source, where a caller made them already.
    """
    from datasketch import MinHashLSH

    hashes = []
    lsh = MinHashLSH(threshold=threshold, num_perm=NUM_PERM)
    for i, source in enumerate(sources):
        m = _minhash(signatures[i] if signatures is not None else signature(source))
        hashes.append(m)
        lsh.insert(str(i), m)
    pairs: set[tuple[int, int]] = set()
    for i, m in enumerate(hashes):
        for key in lsh.query(m):
            j = int(key)
            if j != i and m.jaccard(hashes[j]) >= threshold:
                pairs.add((min(i, j), max(i, j)))
    partners = {i for p in pairs for i in p}
    return NearDuplicates(sorted(pairs), len(partners), threshold)


@functools.cache
def _first() -> Any:
    from datasketch import MinHash

    return MinHash(num_perm=NUM_PERM, seed=1)  # its permutations are drawn once: ~0.3 ms per source


def _minhash(hashvalues: Any = None) -> Any:
    from datasketch import MinHash

    first = _first()
    return MinHash(
        num_perm=NUM_PERM, seed=1, hashvalues=hashvalues, permutations=first.permutations, scheme=first.scheme
    )


def assign_splits(keys: Sequence[tuple[str, str]], pairs: Sequence[tuple[int, int]]) -> list[str]:
    """A split per row (`keys`: its (package, file)): files joined by a near-duplicate pair share a split.

    A group of files takes the split of its smallest (package, file), so the result depends only on the
    rows, not on their order.
    """
    parent: dict[tuple[str, str], tuple[str, str]] = {k: k for k in keys}

    def find(k: tuple[str, str]) -> tuple[str, str]:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i, j in pairs:
        a, b = find(keys[i]), find(keys[j])
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [split_for_file(*find(k)) for k in keys]
