import asyncio

import numpy as np
import warp as wp


@wp.kernel
def count_hits(samples: wp.array(dtype=wp.vec2), hits: wp.array(dtype=int)):
    i = wp.tid()
    p = samples[i]
    if wp.dot(p, p) <= 1.0:
        wp.atomic_add(hits, 0, 1)


async def produce(n, seed):
    await asyncio.sleep(0)
    rng = np.random.default_rng(seed)
    return wp.array(rng.uniform(-1, 1, (n, 2)).astype(np.float32), dtype=wp.vec2, device="cpu")


async def main():
    @wp.kernel
    def sum_counts(counts: wp.array(dtype=int), total: wp.array(dtype=int)):
        i = wp.tid()
        wp.atomic_add(total, 0, counts[i])

    batches = await asyncio.gather(*(produce(256, s) for s in range(4)))
    counts = wp.zeros(len(batches), dtype=int, device="cpu")
    for b, s in enumerate(batches):
        h = wp.zeros(1, dtype=int, device="cpu")
        wp.launch(count_hits, dim=s.shape, inputs=[s, h], device="cpu")
        wp.copy(counts, h, dest_offset=b, count=1)
    total = wp.zeros(1, dtype=int, device="cpu")
    wp.launch(sum_counts, dim=len(batches), inputs=[counts, total], device="cpu")
    print("pi ~", 4.0 * total.numpy()[0] / (256 * len(batches)))


if __name__ == "__main__":
    asyncio.run(main())
