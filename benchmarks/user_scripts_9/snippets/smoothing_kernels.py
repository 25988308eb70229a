# Included by exec_include.py with exec(compile(...)); not meant to run on its own:
# RADIUS and EPS come from the including script's globals.


@wp.kernel
def box_smooth(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    n = x.shape[0]
    acc = float(0.0)
    for k in range(-RADIUS, RADIUS + 1):
        j = wp.clamp(i + k, 0, n - 1)
        acc += x[j]
    y[i] = acc / float(2 * RADIUS + 1)


@wp.kernel
def safe_inverse(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = 1.0 / (wp.abs(x[i]) + EPS)
