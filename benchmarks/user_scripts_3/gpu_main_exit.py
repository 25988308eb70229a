import warp as wp


@wp.kernel
def gemv(A: wp.array2d(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(A.shape[1]):
        acc += A[i, j] * x[j]
    y[i] = acc


def main():
    if not wp.is_cuda_available():
        raise SystemExit("this example needs a CUDA device")
    A = wp.ones((256, 256), dtype=float, device="cuda")
    x = wp.ones(256, dtype=float, device="cuda")
    y = wp.zeros(256, dtype=float, device="cuda")
    wp.launch(gemv, dim=256, inputs=[A, x, y])


if __name__ == "__main__":
    try:
        main()
    except SystemExit as e:
        print(e)
