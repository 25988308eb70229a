import functools

import warp as wp


# one kernel per activation, made in a loop
def make_activation(fn):
    @wp.kernel
    def activation(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = fn(x[i])

    return activation


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.func
def sigmoid(x: float):
    return 1.0 / (1.0 + wp.exp(-x))


@wp.func
def softplus(x: float):
    return wp.log(1.0 + wp.exp(x))


ACTIVATIONS = {}
for f in [relu, sigmoid, softplus]:
    ACTIVATIONS[f.key] = make_activation(f)


kernels_by_power = []
for p in range(1, 4):

    @wp.kernel
    def power(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = wp.pow(x[i], float(p))

    kernels_by_power.append(power)


def make_stencil(radius: int, weight: float):
    @wp.kernel
    def stencil(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        s = float(0.0)
        for k in range(-radius, radius + 1):
            j = wp.clamp(i + k, 0, x.shape[0] - 1)
            s += x[j] * weight
        y[i] = s

    return stencil


box3 = functools.partial(make_stencil, 1)(1.0 / 3.0)
make_box5 = functools.partial(make_stencil, radius=2, weight=0.2)
box5 = make_box5()


@functools.lru_cache(maxsize=None)
def get_fill_kernel(dtype):
    @wp.kernel
    def fill(a: wp.array(dtype=dtype), v: dtype):
        i = wp.tid()
        a[i] = v

    return fill


fill_f = get_fill_kernel(wp.float32)
fill_v = get_fill_kernel(wp.vec3)


@functools.cache
def get_copy_kernel(n: int):
    @wp.kernel
    def copy_strided(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
        i = wp.tid()
        dst[i] = src[i * n]

    return copy_strided


if __name__ == "__main__":
    x = wp.array([-1.0, 0.0, 1.0, 2.0], dtype=float)
    y = wp.zeros_like(x)
    for name, k in ACTIVATIONS.items():
        wp.launch(k, dim=4, inputs=[x, y])
        print(name, y)
    wp.launch(get_copy_kernel(2), dim=2, inputs=[x, y])
