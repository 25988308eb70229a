import warp as wp


@wp.kernel
def ramp(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = float(i)


values = wp.zeros(8, dtype=float, device="cpu")
wp.launch(ramp, dim=8, inputs=[values], device="cpu")
