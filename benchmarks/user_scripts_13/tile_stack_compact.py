import numpy as np
import warp as wp

CAPACITY = wp.constant(16)
COUNT = wp.constant(16)


@wp.kernel
def compact_positive_stack(data: wp.array(dtype=float), out: wp.array(dtype=float), num: wp.array(dtype=int)):
    _block, lane = wp.tid()
    s = wp.tile_stack(capacity=CAPACITY, dtype=float)
    for base in range(0, COUNT, wp.block_dim()):
        i = base + lane
        value = float(0.0)
        keep = False
        if i < COUNT:
            value = data[i]
            keep = value > 0.0
        wp.tile_stack_push(s, value, keep)
    if lane == 0:
        num[0] = wp.tile_stack_count(s)
    while wp.tile_stack_count(s) > 0:
        value, slot = wp.tile_stack_pop(s)
        if slot >= 0:
            out[slot] = value


@wp.kernel
def broadcast_lane0(data: wp.array(dtype=float), out: wp.array(dtype=float)):
    _block, lane = wp.tid()
    v = data[lane]
    t = wp.tile_from_thread(shape=8, value=v, thread_idx=0)
    wp.tile_store(out, t)


def main():
    data = wp.array(np.linspace(-1.0, 1.0, 16, dtype=np.float32), dtype=float, device="cpu")
    out = wp.zeros(16, dtype=float, device="cpu")
    num = wp.zeros(1, dtype=int, device="cpu")
    wp.launch_tiled(compact_positive_stack, dim=1, inputs=[data], outputs=[out, num], block_dim=4, device="cpu")
    b = wp.zeros(8, dtype=float, device="cpu")
    wp.launch_tiled(broadcast_lane0, dim=1, inputs=[data, b], block_dim=8, device="cpu")
    print(num.numpy(), b.numpy())


if __name__ == "__main__":
    main()
