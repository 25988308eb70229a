import warp as wp

POWERS = (2, 3)


def power_kernels():
    for p in POWERS:

        @wp.kernel
        def pow_n(a: wp.array(dtype=float), out: wp.array(dtype=float)):
            i = wp.tid()
            r = float(1.0)
            for _k in range(wp.static(p)):
                r = r * a[i]
            out[i] = r

        yield p, pow_n


KERNELS = dict(power_kernels())


@wp.kernel
def gen_sum(a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    a[i] += b[i]


a = wp.full(4, 2.0, dtype=float)
o = wp.zeros(4, dtype=float)
for p, k in KERNELS.items():
    wp.launch(k, dim=4, inputs=[a, o])
    wp.launch(gen_sum, dim=4, inputs=[a, o])
print(a.numpy())
