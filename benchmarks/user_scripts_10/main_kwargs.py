import argparse

import warp as wp


@wp.kernel
def fill_value(a: wp.array(dtype=float), value: float):
    a[wp.tid()] = value


def main(n: int = 8, gain: float = 2.0, bias: float = 0.0) -> None:
    @wp.kernel
    def affine_main(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = gain * a[i] + bias

    a = wp.zeros(n, dtype=float)
    wp.launch(fill_value, dim=n, inputs=[a, 1.0])
    wp.launch(affine_main, dim=n, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=4)
    parser.add_argument("--gain", type=float, default=3.0)
    parser.add_argument("--bias", type=float, default=0.5)
    main(**vars(parser.parse_args()))
