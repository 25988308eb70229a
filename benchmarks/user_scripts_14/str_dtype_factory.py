import warp as wp


def make_axpy(precision="f32"):
    dtype = {"f16": wp.float16, "f32": wp.float32, "f64": wp.float64}[precision]

    @wp.kernel
    def axpy_prec(a: dtype, x: wp.array(dtype=dtype), y: wp.array(dtype=dtype)):
        i = wp.tid()
        y[i] = a * x[i] + y[i]

    return axpy_prec, dtype


def make_norm(length, precision):
    scalar = wp.float64 if precision == "double" else wp.float32
    vec = wp.types.vector(length=length, dtype=scalar)

    @wp.kernel
    def norm_prec(v: wp.array(dtype=vec), out: wp.array(dtype=scalar)):
        i = wp.tid()
        out[i] = wp.length(v[i])

    return norm_prec, vec, scalar


def main():
    k, dt = make_axpy("f64")
    x = wp.full(4, 1.0, dtype=dt)
    y = wp.zeros(4, dtype=dt)
    wp.launch(k, dim=4, inputs=[dt(2.0), x, y])
    nk, vec, scalar = make_norm(4, "double")
    v = wp.full(2, vec(1.0, 1.0, 1.0, 1.0), dtype=vec)
    out = wp.zeros(2, dtype=scalar)
    wp.launch(nk, dim=2, inputs=[v, out])
    print(y.numpy(), out.numpy())


if __name__ == "__main__":
    main()
