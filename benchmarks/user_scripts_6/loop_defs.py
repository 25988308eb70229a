# a kernel defined in a top-level for loop and launched within each pass (a global read at build time)
import warp as wp

out = wp.zeros(4, dtype=float)
for gain in (2.0, 3.0):

    @wp.kernel
    def apply_gain_loop(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = float(i) * gain

    wp.launch(apply_gain_loop, dim=4, inputs=[out])
    print(gain, out.numpy())
