# Warp's decorators taken by name.
import warp as wp
from warp import func, kernel


@func
def twice(x: float):
    return 2.0 * x


@kernel
def doubled(a: wp.array(dtype=float)):
    a[wp.tid()] = twice(a[wp.tid()])
