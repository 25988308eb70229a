# -*- coding: utf-8 -*-
# Wärmeleitung (heat equation) — Variablennamen auf Deutsch/Griechisch
import numpy as np
import warp as wp

Δt = 0.01
κ = 0.2


@wp.kernel
def wärme_schritt(T: wp.array(dtype=float), T_neu: wp.array(dtype=float), α: float):
    i = wp.tid()
    n = T.shape[0]
    links = T[wp.max(i - 1, 0)]
    rechts = T[wp.min(i + 1, n - 1)]
    T_neu[i] = T[i] + α * (links - 2.0 * T[i] + rechts)


@wp.kernel
def énergie(T: wp.array(dtype=float), somme: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(somme, 0, T[i])


T = wp.array(np.r_[np.ones(5), np.zeros(5)].astype(np.float32), device="cpu")
T2 = wp.zeros_like(T)
for _ in range(10):
    wp.launch(wärme_schritt, dim=10, inputs=[T, T2, κ * Δt * 10.0], device="cpu")
    T, T2 = T2, T
s = wp.zeros(1, dtype=float, device="cpu")
wp.launch(énergie, dim=10, inputs=[T, s], device="cpu")
print("Σ =", s.numpy()[0])
