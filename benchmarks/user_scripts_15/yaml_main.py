import textwrap

import warp as wp
import yaml

CONFIG_TEXT = textwrap.dedent(
    """
    relax:
      omega: 0.7
    limits: [-2.0, 2.0]
    """
)


def make_relax(omega: float):
    @wp.kernel
    def relax_yaml(x: wp.array(dtype=float), t: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] + omega * (t[i] - x[i])

    return relax_yaml


def make_clamp(lo: float, hi: float):
    @wp.kernel
    def clamp_yaml(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = wp.clamp(x[i], lo, hi)

    return clamp_yaml


def main():
    cfg = yaml.safe_load(CONFIG_TEXT)
    x = wp.zeros(4, dtype=float)
    t = wp.full(4, 5.0, dtype=float)
    wp.launch(make_relax(cfg["relax"]["omega"]), dim=4, inputs=[x, t])
    wp.launch(make_clamp(*cfg["limits"]), dim=4, inputs=[x])
    print(x.numpy())


if __name__ == "__main__":
    main()
