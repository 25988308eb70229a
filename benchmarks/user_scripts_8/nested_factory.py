import numpy as np
import warp as wp


def make_pipeline(gain):
    def make_stage(offset):
        @wp.kernel
        def stage(a: wp.array(dtype=float)):
            i = wp.tid()
            a[i] = a[i] * gain + offset

        return stage

    return make_stage


def make_power(p):
    @wp.kernel
    def power(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wp.pow(a[i], float(p))

    return power


stage = make_pipeline(2.0)(1.0)
powers = list(map(make_power, [2, 3]))

a = wp.array(np.arange(5, dtype=np.float32))
wp.launch(stage, dim=5, inputs=[a])
out = wp.zeros(5, dtype=float)
for k in powers:
    wp.launch(k, dim=5, inputs=[a, out])
    print(out.numpy())
