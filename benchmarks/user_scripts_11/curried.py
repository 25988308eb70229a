import warp as wp


def make_blend(alpha):
    def with_beta(beta):
        @wp.kernel
        def blend_ab(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
            i = wp.tid()
            out[i] = alpha * a[i] + beta * b[i]

        return blend_ab

    return with_beta


half_blend = make_blend(0.5)
BLEND = half_blend(0.25)
OTHER = make_blend(1.0)(2.0)

a = wp.ones(4, dtype=float)
b = wp.ones(4, dtype=float)
out = wp.zeros(4, dtype=float)
for k in (BLEND, OTHER):
    wp.launch(k, dim=4, inputs=[a, b, out])
print(out.numpy())
