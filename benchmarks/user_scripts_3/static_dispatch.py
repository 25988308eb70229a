import warp as wp


@wp.func
def op_add(a: float, b: float) -> float:
    return a + b


@wp.func
def op_mul(a: float, b: float) -> float:
    return a * b


OPS = [op_add, op_mul]


def make_binary(op_index: int):
    @wp.kernel
    def binary(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wp.static(OPS[op_index])(a[i], b[i])

    return binary


@wp.kernel
def unrolled_poly(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(wp.static(4)):
        acc = acc * x[i] + float(k + 1)
    out[i] = acc


a = wp.full(3, 2.0, dtype=float, device="cpu")
b = wp.full(3, 5.0, dtype=float, device="cpu")
o = wp.zeros(3, dtype=float, device="cpu")
for idx in range(len(OPS)):
    wp.launch(make_binary(idx), dim=3, inputs=[a, b, o], device="cpu")
    print(o.numpy())
wp.launch(unrolled_poly, dim=3, inputs=[a, o], device="cpu")
print(o.numpy())
