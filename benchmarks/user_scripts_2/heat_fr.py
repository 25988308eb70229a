# -*- coding: latin-1 -*-
# Simulation de chaleur, écrit par René (température en °C)
import warp as wp

ALPHA = wp.constant(0.25)


@wp.kernel
def chaleur(t: wp.array(dtype=float), t_new: wp.array(dtype=float)):
    # équation de la chaleur, schéma explicite
    i = wp.tid()
    n = t.shape[0]
    g = t[wp.max(i - 1, 0)]
    d = t[wp.min(i + 1, n - 1)]
    t_new[i] = t[i] + ALPHA * (g - 2.0 * t[i] + d)


@wp.kernel
def moyenne(t: wp.array(dtype=float), m: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(m, 0, t[i] / float(t.shape[0]))
