# kernels under branches and loops at the top level
import warp as wp

DEBUG = False

if False:  # old version, kept for reference

    @wp.kernel
    def never_built(a: wp.array(dtype=float)):
        a[wp.tid()] = -1.0


if __debug__:

    @wp.kernel
    def debug_checks(a: wp.array(dtype=float), bad: wp.array(dtype=int)):
        i = wp.tid()
        if wp.isnan(a[i]) or wp.isinf(a[i]):
            wp.atomic_add(bad, 0, 1)


while True:

    @wp.kernel
    def loop_defined(a: wp.array(dtype=float)):
        a[wp.tid()] = a[wp.tid()] + 1.0

    break

for _name in ("a", "b"):
    if _name == "c":
        break
else:

    @wp.kernel
    def for_else_kernel(a: wp.array(dtype=float)):
        a[wp.tid()] = wp.sqrt(wp.abs(a[wp.tid()]))


a = wp.zeros(8, dtype=float)
bad = wp.zeros(1, dtype=int)
wp.launch(loop_defined, dim=8, inputs=[a])
wp.launch(for_else_kernel, dim=8, inputs=[a])
wp.launch(debug_checks, dim=8, inputs=[a, bad])
print(a.numpy(), bad.numpy())
