import warp as wp

WEIGHTS_TEXT = "0.25, 0.5, 0.25"
SHAPE_TEXT = "3x4"


def make_fir(w0: float, w1: float, w2: float):
    @wp.kernel
    def fir_split(x: wp.array(dtype=float), y: wp.array(dtype=float)):
        i = wp.tid()
        n = x.shape[0]
        y[i] = w0 * x[wp.max(i - 1, 0)] + w1 * x[i] + w2 * x[wp.min(i + 1, n - 1)]

    return fir_split


def make_index(rows: int, cols: int):
    @wp.kernel
    def index_partition(flat: wp.array(dtype=int)):
        r, c = wp.tid()
        flat[r * cols + c] = r * 100 + c

    return index_partition


def main():
    weights = [float(s.strip()) for s in WEIGHTS_TEXT.split(",")]
    rows, _, cols = SHAPE_TEXT.partition("x")
    x = wp.ones(5, dtype=float)
    y = wp.zeros(5, dtype=float)
    wp.launch(make_fir(*weights), dim=5, inputs=[x, y])
    flat = wp.zeros(int(rows) * int(cols), dtype=int)
    wp.launch(make_index(int(rows), int(cols)), dim=(int(rows), int(cols)), inputs=[flat])
    print(y.numpy(), flat.numpy())


if __name__ == "__main__":
    main()
