import enum

import warp as wp


class Mode(enum.Enum):
    FAST = (1, 0.5)
    ACCURATE = (4, 0.125)


class Material(enum.IntEnum):
    RUBBER = 1
    STEEL = 7
    GLASS = 3


MODE = Mode["ACCURATE"]


@wp.kernel
def substep_mode(x: wp.array(dtype=float)):
    i = wp.tid()
    for _ in range(wp.static(MODE.value[0])):
        x[i] = x[i] + wp.static(MODE.value[1])


@wp.kernel
def material_weights(ids: wp.array(dtype=int), w: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for k in range(wp.static(len(Material))):
        if ids[i] == wp.static(list(Material)[k].value):
            acc = acc + wp.static(float(list(Material)[k]) / 10.0)
    w[i] = acc


x = wp.zeros(3, dtype=float)
wp.launch(substep_mode, dim=3, inputs=[x])
ids = wp.array([1, 7, 3], dtype=int)
w = wp.zeros(3, dtype=float)
wp.launch(material_weights, dim=3, inputs=[ids, w])
print(x.numpy(), w.numpy())
