# run on its own or from runpy_driver.py
import numpy as np
import warp as wp

RATE = 0.5


@wp.kernel
def decay(c: wp.array(dtype=float), dt: float):
    i = wp.tid()
    c[i] = c[i] * wp.exp(-RATE * dt)


@wp.kernel
def total(c: wp.array(dtype=float), s: wp.array(dtype=float)):
    wp.atomic_add(s, 0, c[wp.tid()])


c = wp.array(np.ones(32, dtype=np.float32))
for _ in range(3):
    wp.launch(decay, dim=32, inputs=[c, 0.1])
s = wp.zeros(1, dtype=float)
wp.launch(total, dim=32, inputs=[c, s])
result = float(s.numpy()[0])
if __name__ == "__main__":
    print("sub_sim total", result)
