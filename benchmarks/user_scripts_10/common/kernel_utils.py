import warp as wp

EPS = wp.constant(1.0e-6)


@wp.func
def safe_div(a: float, b: float):
    return a / (b + EPS)


def make_scaler(scale: float):
    @wp.kernel
    def scaler(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = safe_div(a[i] * scale, 1.0)

    return scaler


def make_normalizer(norm_kind: str):
    if norm_kind == "max":

        @wp.kernel
        def normalize_by(a: wp.array(dtype=float), ref: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = safe_div(a[i], ref[0])

    else:

        @wp.kernel
        def normalize_by(a: wp.array(dtype=float), ref: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = safe_div(a[i], wp.sqrt(ref[0]))

    return normalize_by
