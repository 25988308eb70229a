# newer Python syntax around the kernels
import numpy as np
import warp as wp

try:
    @wp.kernel
    def group_guarded(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.sign(a[i])
except* (TypeError, ValueError) as eg:
    print("could not build", eg.exceptions)


DTYPES: dict[str, type] = {"f32": wp.float32, "f64": wp.float64}


@wp.kernel
def count_equal(a: wp.array(dtype=wp.float64), b: wp.array(dtype=wp.float64), hits: wp.array(dtype=int)):
    i = wp.tid()
    if a[i] == b[i]:
        wp.atomic_add(hits, 0, 1)


def run(n: int = 8, /, *, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    a = wp.array(rng.standard_normal(n).astype(np.float32))
    wp.launch(group_guarded, dim=n, inputs=[a])
    x = wp.array(np.arange(n, dtype=np.float64), dtype=DTYPES["f64"])
    hits = wp.zeros(1, dtype=int)
    wp.launch(count_equal, dim=n, inputs=[x, x, hits])
    print(a.numpy(), hits.numpy())


if __name__ == "__main__":
    run(16, seed=1)
