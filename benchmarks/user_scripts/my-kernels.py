"""A few reductions, written with a kernel factory per operator."""

import warp as wp


@wp.func
def op_add(a: float, b: float):
    return a + b


@wp.func
def op_max(a: float, b: float):
    return wp.max(a, b)


@wp.func
def op_min(a: float, b: float):
    return wp.min(a, b)


def reduction_kernel(op):
    @wp.kernel
    def reduce(values: wp.array(dtype=float), result: wp.array(dtype=float)):
        i = wp.tid()
        # not a real tree reduction, just good enough for the demo
        wp.atomic_add(result, 0, op(values[i], 0.0))

    return reduce


REDUCTIONS = {
    "sum": reduction_kernel(op_add),
    "max": reduction_kernel(op_max),
    "min": reduction_kernel(op_min),
}


@wp.kernel
def square(values: wp.array(dtype=float)):
    i = wp.tid()
    values[i] = values[i] * values[i]


def run(name, values):
    result = wp.zeros(1, dtype=float, device=values.device)
    wp.launch(REDUCTIONS[name], dim=values.shape[0], inputs=[values, result], device=values.device)
    return result.numpy()[0]


if __name__ == "__main__":
    v = wp.array([1.0, 2.0, 3.0], dtype=float)
    for k in REDUCTIONS:
        print(k, run(k, v))
