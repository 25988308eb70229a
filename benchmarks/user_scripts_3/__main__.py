"""Entry point when the folder is run with `python -m` or `python folder`."""

import warp as wp


@wp.kernel
def count_positive(vals: wp.array(dtype=float), counter: wp.array(dtype=int)):
    i = wp.tid()
    if vals[i] > 0.0:
        wp.atomic_add(counter, 0, 1)


def main() -> None:
    vals = wp.array([1.0, -2.0, 3.0, 4.0], dtype=float, device="cpu")
    counter = wp.zeros(1, dtype=int, device="cpu")
    wp.launch(count_positive, dim=4, inputs=[vals, counter], device="cpu")
    print("positive:", counter.numpy()[0])


if __name__ == "__main__":
    main()
