"""What every script shares: argument types that reject bad values, and one-line failures."""

from __future__ import annotations

import argparse
import math
import sys


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def fail(message: str, code: int = 2) -> int:
    print(f"error: {message}", file=sys.stderr)
    return code


def error_line(e: BaseException) -> str:
    """An exception's message cut to its first line, for `error: ...` output."""
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__
