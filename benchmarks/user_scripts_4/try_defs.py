# kernels defined inside try/except, with a fallback when scipy is missing
import numpy as np
import warp as wp

try:
    import scipy.special  # noqa: F401

    HAVE_SCIPY = True
except ImportError:
    HAVE_SCIPY = False

try:

    @wp.kernel
    def softplus(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = wp.log(1.0 + wp.exp(x[i]))

    @wp.kernel
    def sigmoid(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        y[i] = 1.0 / (1.0 + wp.exp(-x[i]))

except Exception as e:  # warp too old?
    print("could not define kernels:", e)
    softplus = sigmoid = None

try:
    from fast_kernels import gelu  # an optional compiled module of mine
except ImportError:

    @wp.kernel
    def gelu(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        v = x[i]
        y[i] = 0.5 * v * (1.0 + wp.tanh(0.7978845608 * (v + 0.044715 * v * v * v)))


x = wp.array(np.linspace(-3, 3, 7, dtype=np.float32), device="cpu")
y = wp.zeros_like(x)
for k in (softplus, sigmoid, gelu):
    if k is not None:
        wp.launch(k, dim=x.shape, inputs=[x, y], device="cpu")
        print(k.key, y.numpy().round(3))
