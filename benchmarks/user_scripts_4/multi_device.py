import numpy as np
import warp as wp


def build_kernels():
    # defined under the device scope so the module loads where we run
    with wp.ScopedDevice("cpu"):

        @wp.kernel
        def fill_ramp(a: wp.array(dtype=float), start: float, step: float):
            i = wp.tid()
            a[i] = start + step * float(i)

        @wp.kernel
        def dot_partial(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
            i = wp.tid()
            wp.atomic_add(out, 0, a[i] * b[i])

        wp.load_module(device="cpu")
    return fill_ramp, dot_partial


fill_ramp, dot_partial = build_kernels()

results = {}
for device in wp.get_devices():
    with wp.ScopedDevice(device):
        a = wp.empty(10, dtype=float)
        b = wp.empty(10, dtype=float)
        wp.launch(fill_ramp, dim=10, inputs=[a, 0.0, 1.0])
        wp.launch(fill_ramp, dim=10, inputs=[b, 1.0, 0.0])
        out = wp.zeros(1, dtype=float)
        wp.launch(dot_partial, dim=10, inputs=[a, b, out])
        wp.synchronize_device()
        results[str(device)] = float(out.numpy()[0])
print(results, np.isclose(results["cpu"], 45.0))
