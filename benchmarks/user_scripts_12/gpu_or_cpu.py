import warp as wp

wp.init()

if wp.is_cuda_available():

    @wp.kernel
    def total(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        t = wp.tile_load(a, shape=64)
        wp.tile_atomic_add(out, wp.tile_sum(t))

else:

    @wp.kernel
    def total(a: wp.array(dtype=float), out: wp.array(dtype=float)):
        i = wp.tid()
        wp.atomic_add(out, 0, a[i])


def main():
    a = wp.ones(64, dtype=float)
    out = wp.zeros(1, dtype=float)
    if wp.is_cuda_available():
        wp.launch_tiled(total, dim=1, inputs=[a, out], block_dim=64)
    else:
        wp.launch(total, dim=64, inputs=[a, out])
    print("total", out.numpy())
    if not wp.is_cuda_available():
        print("no CUDA device: skipping the fused path")
        return

    @wp.kernel
    def fused_cuda(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.exp(a[i])

    wp.launch(fused_cuda, dim=64, inputs=[a])


if __name__ == "__main__":
    main()
