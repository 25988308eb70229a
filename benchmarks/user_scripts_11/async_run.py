import asyncio

import warp as wp


async def build(gain: float):
    await asyncio.sleep(0)

    @wp.kernel
    def async_gain(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * gain

    return async_gain


@wp.kernel
def async_fill(a: wp.array(dtype=float), v: float):
    a[wp.tid()] = v


async def main():
    k = await build(3.0)
    a = wp.zeros(4, dtype=float)
    wp.launch(async_fill, dim=4, inputs=[a, 2.0])
    wp.launch(k, dim=4, inputs=[a])
    print(a.numpy())


if __name__ == "__main__":
    asyncio.run(main())
