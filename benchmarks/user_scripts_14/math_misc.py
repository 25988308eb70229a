import warp as wp


@wp.kernel
def shape_funcs(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    t = x[i]
    s = wp.smoothstep(0.0, 1.0, t) + wp.step(t - 0.5) * wp.sign(t)
    s += wp.lerp(wp.frac(t), wp.trunc(t), 0.25) + wp.rint(t) + wp.round(t)
    s += wp.log2(1.0 + wp.abs(t)) + wp.log10(1.0 + t * t) + wp.cbrt(t) + wp.erf(t)
    y[i] = s


@wp.kernel
def clean_nans(x: wp.array(dtype=float), bad: wp.array(dtype=int)):
    i = wp.tid()
    v = x[i]
    if wp.isnan(v) or wp.isinf(v):
        x[i] = 0.0
        wp.atomic_add(bad, 0, 1)
    elif not wp.isfinite(v * v):
        x[i] = wp.sign(v)
    bad[1] = int(wp.nonzero(float(bad[0])))


if __name__ == "__main__":
    x = wp.array([0.25, 0.75, 1.5, -0.5], dtype=float)
    y = wp.zeros(4, dtype=float)
    wp.launch(shape_funcs, dim=4, inputs=[x, y])
    z = wp.array([1.0, float("nan"), float("inf"), 2.0], dtype=float)
    bad = wp.zeros(2, dtype=int)
    wp.launch(clean_nans, dim=4, inputs=[z, bad])
    print(y.numpy(), z.numpy(), bad.numpy())
