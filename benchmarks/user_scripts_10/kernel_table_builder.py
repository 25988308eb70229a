# kernels built by a top-level helper returning a dict, and a list built by a comprehension
import warp as wp


def _build():
    @wp.kernel
    def zero_out(a: wp.array(dtype=float)):
        a[wp.tid()] = 0.0

    @wp.kernel
    def iota(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = float(i)

    return {"zero": zero_out, "iota": iota}


def make_stage(shift: float):
    @wp.kernel
    def shift_stage(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + shift

    return shift_stage


KERNELS = _build()
STAGES = [make_stage(s) for s in (0.5, 1.5)]

a = wp.zeros(4, dtype=float)
wp.launch(KERNELS["iota"], dim=4, inputs=[a])
for stage in STAGES:
    wp.launch(stage, dim=4, inputs=[a])
print(a.numpy())
wp.launch(KERNELS["zero"], dim=4, inputs=[a])
