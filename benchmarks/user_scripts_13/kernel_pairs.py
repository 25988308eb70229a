import warp as wp


def make_pair(scale):
    """Forward and inverse scaling, made together."""

    @wp.kernel
    def pair_fwd(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * scale

    @wp.kernel
    def pair_inv(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] / scale

    return pair_fwd, pair_inv


def make_ops(shift):
    @wp.kernel
    def op_shift(a: wp.array(dtype=int), out: wp.array(dtype=int)):
        i = wp.tid()
        n = a.shape[0]
        out[i] = a[(i + shift) % n]

    return {"shift": op_shift, "shift_amount": shift}


fwd, inv = make_pair(2.0)

if __name__ == "__main__":
    a = wp.full(4, 3.0, dtype=float)
    wp.launch(fwd, dim=4, inputs=[a])
    wp.launch(inv, dim=4, inputs=[a])
    ops = make_ops(3)
    b = wp.array([0, 1, 2, 3, 4], dtype=int)
    c = wp.zeros_like(b)
    wp.launch(ops["shift"], dim=5, inputs=[b, c])
    print(a.numpy(), c.numpy())
