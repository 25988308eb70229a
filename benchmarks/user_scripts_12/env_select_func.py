import os

import warp as wp


@wp.func
def relu(x: float):
    return wp.max(x, 0.0)


@wp.func
def tanh_act(x: float):
    return wp.tanh(x)


_ACTIVATIONS = {"relu": relu, "tanh": tanh_act}
ACT_NAME = os.environ.get("ACT", "tanh")
act = _ACTIVATIONS[ACT_NAME]


@wp.kernel
def dense_act(x: wp.array(dtype=float), w: float, b: float, y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = act(w * x[i] + b)


@wp.kernel
def static_act(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = wp.static(_ACTIVATIONS[ACT_NAME])(x[i]) + wp.static(_ACTIVATIONS["relu"])(-x[i])


if __name__ == "__main__":
    x = wp.array([-1.0, 0.0, 1.0], dtype=float)
    y = wp.zeros(3, dtype=float)
    wp.launch(dense_act, dim=3, inputs=[x, 2.0, 0.5, y])
    wp.launch(static_act, dim=3, inputs=[y])
    print(y.numpy())
