# kernels in the else: and finally: arms of a try statement
import warp as wp

try:
    import scipy  # noqa: F401
except ImportError:
    HAVE_SCIPY = False
else:
    HAVE_SCIPY = True

try:
    import json

    SETTINGS = json.loads('{"gain": 2.0}')
except ValueError:
    SETTINGS = {"gain": 1.0}
else:

    @wp.kernel
    def apply_gain(a: wp.array(dtype=float), g: float):
        a[wp.tid()] = a[wp.tid()] * g

finally:

    @wp.kernel
    def clamp_unit(a: wp.array(dtype=float)):
        a[wp.tid()] = wp.clamp(a[wp.tid()], -1.0, 1.0)


a = wp.array([0.3, -0.8, 0.9], dtype=float)
wp.launch(apply_gain, dim=3, inputs=[a, SETTINGS["gain"]])
wp.launch(clamp_unit, dim=3, inputs=[a])
print(HAVE_SCIPY, a.numpy())
