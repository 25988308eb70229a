# factories taking *args and **kwargs
import warp as wp


def make_poly(*coeffs):
    @wp.kernel
    def horner(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        acc = float(0.0)
        for k in range(wp.static(len(coeffs))):
            acc = acc * x[i] + wp.static(coeffs[k])
        y[i] = acc

    return horner


def make_mix(**weights):
    wa = weights.get("a", 1.0)
    wb = weights.get("b", 0.0)

    @wp.kernel
    def mix_two(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wa * a[i] + wb * b[i]

    return mix_two


COEFFS = (1.0, -2.0, 0.5)
poly = make_poly(*COEFFS)
mix = make_mix(a=0.25, b=0.75)

x = wp.full(3, 2.0, dtype=float)
y = wp.zeros(3, dtype=float)
wp.launch(poly, dim=3, inputs=[x, y])
wp.launch(mix, dim=3, inputs=[x, y, y])
print(y.numpy())
