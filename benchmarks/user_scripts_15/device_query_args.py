import warp as wp


def make_chunked(chunk: int):
    @wp.kernel
    def chunk_sum(x: wp.array(dtype=float), out: wp.array(dtype=float)):
        c = wp.tid()
        s = float(0.0)
        for k in range(chunk):
            s += x[c * chunk + k]
        out[c] = s

    return chunk_sum


def make_fill(v: float):
    @wp.kernel
    def fill_devcount(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = v

    return fill_devcount


def main():
    device = wp.get_device()
    chunk = 4 if device.is_cpu else 64
    n = chunk * 2
    x = wp.ones(n, dtype=float)
    out = wp.zeros(2, dtype=float)
    wp.launch(make_chunked(chunk), dim=2, inputs=[x, out])
    ngpu = wp.get_cuda_device_count()
    wp.launch(make_fill(float(max(ngpu, 1))), dim=n, inputs=[x])
    print(out.numpy(), x.numpy()[:2])


if __name__ == "__main__":
    main()
