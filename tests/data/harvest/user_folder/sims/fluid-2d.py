# In a subfolder: `python sims/fluid-2d.py` finds its sibling by name.
import warp as wp
from helpers import halve


@wp.kernel
def relax(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = halve(a[i])
