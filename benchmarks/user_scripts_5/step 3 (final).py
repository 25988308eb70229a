# step 3 of the tutorial: everything together, helpers imported through a chain of files
import numpy as np
import warp as wp

from chain_a import converged, total_energy
import chain_c


@wp.kernel
def check_convergence(prev: wp.array(dtype=float), curr: wp.array(dtype=float), flags: wp.array(dtype=int)):
    i = wp.tid()
    flags[i] = converged(curr[i], prev[i], 1.0e-3)


@wp.kernel
def energies(v: wp.array(dtype=wp.vec3), h: wp.array(dtype=float), m: float, e: wp.array(dtype=float)):
    i = wp.tid()
    e[i] = total_energy(v[i], m, h[i]) + chain_c.sq(h[i])


def main():
    n = 16
    old = wp.array(np.linspace(1.0, 2.0, n, dtype=np.float32))
    new = wp.array(np.linspace(1.0, 2.001, n, dtype=np.float32))
    flags = wp.zeros(n, dtype=int)
    wp.launch(check_convergence, dim=n, inputs=[old, new, flags])
    v = wp.ones(n, dtype=wp.vec3)
    e = wp.zeros(n, dtype=float)
    wp.launch(energies, dim=n, inputs=[v, new, 2.0, e])
    print(flags.numpy().sum(), e.numpy()[:3])


if __name__ == "__main__":
    main()
