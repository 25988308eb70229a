import warp as wp

with wp.ScopedDevice("cpu"):

    @wp.kernel
    def negate(a: wp.array(dtype=wp.vec2)):
        i = wp.tid()
        a[i] = -a[i]

    @wp.kernel
    def lengths(a: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
        i = wp.tid()
        out[i] = wp.length(a[i])

    pts = wp.array([[3.0, 4.0], [1.0, 0.0]], dtype=wp.vec2)
    out = wp.zeros(2, dtype=float)
    wp.launch(negate, dim=2, inputs=[pts])
    wp.launch(lengths, dim=2, inputs=[pts, out])
    print(out.numpy())
