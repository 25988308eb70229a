import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import warp as wp
from kfactory import *  # noqa: F403


def main():
    idx = wp.array([0, 1, 2, 5], dtype=int)
    out = wp.zeros(4, dtype=float)
    wp.launch(make_lut((0.0, 0.5, 0.75, 1.0)), dim=4, inputs=[idx, out])
    wp.launch(make_gamma(2.2), dim=4, inputs=[out])
    print(lut_size, out.numpy())


if __name__ == "__main__":
    main()
