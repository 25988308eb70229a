import argparse

import warp as wp

wp.config.mode = "debug"
wp.config.verify_fp = True
wp.config.print_launches = False
wp.config.cache_kernels = True
wp.init()

wp.set_module_options({"enable_backward": False})
wp.set_module_options({"max_unroll": 4})

DTYPE = wp.float64


@wp.kernel
def accumulate(a: wp.array(dtype=DTYPE), total: wp.array(dtype=DTYPE)):
    i = wp.tid()
    wp.atomic_add(total, 0, a[i])


def make_power_kernel(exponent: int, dtype=wp.float32):
    @wp.kernel
    def power(a: wp.array(dtype=dtype), out: wp.array(dtype=dtype)):
        i = wp.tid()
        r = dtype(1.0)
        for _ in range(exponent):
            r = r * a[i]
        out[i] = r

    return power


def main():
    parser = argparse.ArgumentParser(description="power benchmark")
    parser.add_argument("--exponent", type=int, default=3)
    parser.add_argument("--double", action="store_true")
    args = parser.parse_args()
    dtype = wp.float64 if args.double else wp.float32
    kernel = make_power_kernel(args.exponent, dtype)
    a = wp.full(1000, 1.1, dtype=dtype)
    out = wp.zeros_like(a)
    wp.launch(kernel, dim=1000, inputs=[a, out])
    print(out.numpy()[:4])


if __name__ == "__main__":
    main()
