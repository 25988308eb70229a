"""The digest a standalone program prints for each array, defined once here.

One line per array: `<kind> <name> <count> <hash> <sum> <l1> <max_abs>`, where `kind` is `output`
(the array after the forward launch) or `adjoint` (its adjoint after the backward launch), `count`
the number of scalar components, `hash` 16 hex digits of a 64-bit polynomial hash over the array's
bytes (exact: any changed bit changes it), and `sum`, `l1`, `max_abs` the components as doubles
summed in order, their absolute values summed in order, and the largest absolute value (NaN once
any component is NaN), printed with `%.17g` (`nan`, `inf`, `-inf` spelled so on both sides).
Every floating-point NaN is hashed as numpy's `nan` of its type: C++ leaves a NaN result's sign and
payload unspecified (warp-lang's `check_nan_float16` twin got sqrt(-1) = 0xfe00 from g++ at run time,
where Warp's Clang had folded 0x7e00).

The hash makes "equal" exact (the CPU twin against Warp's own CPU launch); the three statistics
let a GPU run be compared within a tolerance. `CPP_DIGEST` is the same definition in C++, pasted
into every program; `tests/test_standalone.py` checks that both sides print the same lines.
"""

from __future__ import annotations

import math

import numpy as np

HASH_MULTIPLIER = 1099511628211  # the 64-bit FNV prime; h = h * M + (byte + 1), modulo 2**64


def _number(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.17g}"


def poly_hash(data: bytes) -> int:
    """h = 0; for each byte b: h = h * M + b + 1 (mod 2**64), vectorised: sum of (b_i + 1) * M**(n-1-i)."""
    if not data:
        return 0
    values = np.frombuffer(data, dtype=np.uint8).astype(np.uint64) + np.uint64(1)
    powers = np.empty(len(values), dtype=np.uint64)
    powers[0] = 1
    if len(values) > 1:
        powers[1:] = np.cumprod(np.full(len(values) - 1, HASH_MULTIPLIER, dtype=np.uint64))
    with np.errstate(over="ignore"):
        return int(np.sum(values * powers[::-1], dtype=np.uint64))


def digest_line(kind: str, name: str, values: np.ndarray) -> str:
    """The line a program prints for one array (`values`: its numpy contents, any shape)."""
    values = np.ascontiguousarray(values)
    # `invalid` is no warning here: a signalling NaN (an uninitialised float) raises it as it widens, and
    # inf + -inf is NaN in the sums as in the C++ loop.
    with np.errstate(invalid="ignore"):
        flat = values.reshape(-1).astype(np.float64)
        count = flat.size
        if count:
            total = float(np.cumsum(flat)[-1])  # cumsum adds in order, as the C++ loop does
            l1 = float(np.cumsum(np.abs(flat))[-1])
            max_abs = float(np.max(np.abs(flat)))  # NaN propagates, as in the C++ loop
        else:
            total = l1 = max_abs = 0.0
    if values.dtype.kind == "f":
        values = np.where(np.isnan(values), np.nan, values).astype(values.dtype)
    h = poly_hash(values.tobytes())
    return f"{kind} {name} {count} {h:016x} {_number(total)} {_number(l1)} {_number(max_abs)}"


def digest_lines(stdout: str) -> list[str]:
    """The digest lines among what a program printed: the kernel may print too (`wp.print`, a failed
    `wp.expect_eq` prints "Error, expect_eq() failed: ..."), and Warp's own launch prints the same to its
    process's stdout, never into the reference lines."""
    out = []
    for line in stdout.splitlines():
        words = line.split()
        if len(words) == 7 and words[0] in ("output", "adjoint") and words[2].isdigit() and len(words[3]) == 16:
            out.append(line)
    return out


def parse_line(line: str) -> tuple[str, str, int, str, float, float, float]:
    kind, name, count, h, total, l1, max_abs = line.split()
    return kind, name, int(count), h, float(total), float(l1), float(max_abs)


# C++ twin of digest_line. `S` is the storage type of one component (float, double, int32_t ...,
# uint8_t for bool, wp_half_bits for float16); `wp_component` turns it into a double.
CPP_DIGEST = r"""
struct wp_half_bits { unsigned short bits; };
static float wp_bits_to_float(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned int wp_float_to_bits(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
// float16 bits -> float, exact: move exponent and mantissa into place, rebias; subnormals are
// renormalised by one float subtraction, Inf/NaN get the all-ones exponent.
static float wp_half_to_float_exact(unsigned short h) {
    unsigned int u = (unsigned int)(h & 0x7fff) << 13;
    const unsigned int exponent = u & (0x7c00u << 13);
    u += (127u - 15u) << 23;
    if (exponent == (0x7c00u << 13)) {
        u += (128u - 16u) << 23;
    } else if (exponent == 0) {
        u += 1u << 23;
        u = wp_float_to_bits(wp_bits_to_float(u) - wp_bits_to_float(113u << 23));
    }
    return wp_bits_to_float(u | ((unsigned int)(h & 0x8000) << 16));
}
static double wp_component(wp_half_bits v) { return (double)wp_half_to_float_exact(v.bits); }
template <class S> static double wp_component(S v) { return (double)v; }
// Every NaN as numpy's of its type (see the module text): sign and payload of a NaN result are unspecified.
template <class S> static S wp_canonical(S v) { return v; }
static float wp_canonical(float v) { return v != v ? wp_bits_to_float(0x7fc00000u) : v; }
static double wp_canonical(double v) {
    const unsigned long long nan_bits = 0x7ff8000000000000ull;
    if (v == v) return v;
    memcpy(&v, &nan_bits, 8);
    return v;
}
static wp_half_bits wp_canonical(wp_half_bits v) {
    if ((v.bits & 0x7c00) == 0x7c00 && (v.bits & 0x03ff) != 0) v.bits = 0x7e00;
    return v;
}
static void wp_print_number(double x) {
    if (x != x) printf(" nan");
    else if (x == INFINITY) printf(" inf");
    else if (x == -INFINITY) printf(" -inf");
    else printf(" %.17g", x);
}
template <class S> static void wp_digest(const char* kind, const char* name, const void* data, size_t count) {
    const unsigned char* bytes = (const unsigned char*)data;
    unsigned long long h = 0;
    double total = 0.0, l1 = 0.0, max_abs = 0.0;
    for (size_t i = 0; i < count; ++i) {
        S s;
        memcpy(&s, bytes + i * sizeof(S), sizeof(S));
        s = wp_canonical(s);
        unsigned char b[sizeof(S)];
        memcpy(b, &s, sizeof(S));
        for (size_t k = 0; k < sizeof(S); ++k) h = h * 1099511628211ull + b[k] + 1ull;
        double v = wp_component(s);
        double a = fabs(v);
        total = i == 0 ? v : total + v;  // numpy's cumsum starts from the first value (keeps -0.0)
        l1 = i == 0 ? a : l1 + a;
        if (i == 0 || a != a || a > max_abs) max_abs = (max_abs != max_abs) ? max_abs : a;  // NaN sticks
    }
    printf("%s %s %zu %016llx", kind, name, count, (unsigned long long)h);
    wp_print_number(total);
    wp_print_number(l1);
    wp_print_number(max_abs);
    printf("\n");
}
"""
