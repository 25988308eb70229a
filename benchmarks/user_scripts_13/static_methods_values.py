import warp as wp


class Grid:
    N = 16
    LENGTH = 4.0

    @classmethod
    def cell_size(cls):
        return cls.LENGTH / cls.N


class Table:
    """Lookup table computed on access."""

    def __init__(self, scale):
        self.scale = scale

    def __getitem__(self, k):
        return self.scale * k * k


TABLE = Table(0.5)
N = 20


@wp.kernel
def grid_centers_cm(out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = (float(i) + 0.5) * wp.static(Grid.cell_size())


@wp.kernel
def table_lookup_gi(out: wp.array(dtype=float), bits: wp.array(dtype=int)):
    i = wp.tid()
    out[i] = wp.static(TABLE[3]) * float(i)
    bits[i] = wp.static((N - 1).bit_length())


if __name__ == "__main__":
    out = wp.zeros(Grid.N, dtype=float)
    bits = wp.zeros(Grid.N, dtype=int)
    wp.launch(grid_centers_cm, dim=Grid.N, inputs=[out])
    print(out.numpy()[:3])
    wp.launch(table_lookup_gi, dim=Grid.N, inputs=[out, bits])
    print(out.numpy()[:3], bits.numpy()[0])
