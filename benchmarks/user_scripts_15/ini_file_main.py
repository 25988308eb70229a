import configparser
from pathlib import Path

import warp as wp


def make_relax(omega: float):
    @wp.kernel
    def omega_ini(x: wp.array(dtype=float), t: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + omega * (t[i] - x[i])

    return omega_ini


def make_grid(n: int, h: float):
    @wp.kernel
    def grid_ini(pos: wp.array(dtype=float)):
        i = wp.tid()
        pos[i] = float(i % n) * h

    return grid_ini


def main():
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).with_name("settings.ini"))
    relax = make_relax(cfg.getfloat("solver", "omega"))
    grid = make_grid(cfg["grid"].getint("n"), cfg["grid"].getfloat("spacing"))
    x = wp.zeros(16, dtype=float)
    t = wp.ones(16, dtype=float)
    for _ in range(cfg.getint("solver", "iters")):
        wp.launch(relax, dim=16, inputs=[x, t])
    wp.launch(grid, dim=16, inputs=[t])
    print(x.numpy(), t.numpy())


if __name__ == "__main__":
    main()
