# waits (at most 5 s) for the solver's "ready" flag file before post-processing; deliberately slow
import os
import time

import warp as wp


@wp.kernel
def threshold_mask(x: wp.array(dtype=float), t: float, mask: wp.array(dtype=wp.uint8)):
    i = wp.tid()
    if x[i] > t:
        mask[i] = wp.uint8(1)
    else:
        mask[i] = wp.uint8(0)


FLAG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "solver.ready")
deadline = time.time() + 5.0
while not os.path.exists(FLAG):
    if time.time() > deadline:
        print("no ready flag, using defaults")
        break
    time.sleep(0.25)


@wp.kernel
def count_mask(mask: wp.array(dtype=wp.uint8), n: wp.array(dtype=int)):
    i = wp.tid()
    if mask[i] == wp.uint8(1):
        wp.atomic_add(n, 0, 1)


x = wp.array([0.1, 0.7, 0.4, 0.9], dtype=float)
mask = wp.zeros(4, dtype=wp.uint8)
wp.launch(threshold_mask, dim=4, inputs=[x, 0.5, mask])
n = wp.zeros(1, dtype=int)
wp.launch(count_mask, dim=4, inputs=[mask, n])
print(n.numpy())
