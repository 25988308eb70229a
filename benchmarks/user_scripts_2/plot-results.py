import numpy as np
import matplotlib.pyplot as plt
import warp as wp


@wp.kernel
def wave(u: wp.array(dtype=float), t: float, k: float, omega: float):
    i = wp.tid()
    x = float(i) / float(u.shape[0])
    u[i] = wp.sin(k * x - omega * t)


@wp.kernel
def energy(u: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * u[i] * u[i])


u = wp.zeros(256, dtype=float)
frames = []
for t in np.linspace(0.0, 1.0, 20):
    wp.launch(wave, dim=256, inputs=[u, float(t), 12.0, 3.0])
    frames.append(u.numpy().copy())

plt.imshow(np.array(frames))
plt.savefig("wave.png")
