# wp.Tape: a launch kept off the tape (record_tape=False), backward with grads=, tape.record_func
import numpy as np
import warp as wp


@wp.kernel
def copy_untracked(src: wp.array(dtype=wp.vec3), dst: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    dst[i] = src[i]


@wp.kernel
def spring_energy(x: wp.array(dtype=wp.vec3), rest: float, e: wp.array(dtype=float)):
    i = wp.tid()
    if i + 1 < x.shape[0]:
        d = wp.length(x[i + 1] - x[i]) - rest
        wp.atomic_add(e, 0, 0.5 * d * d)


@wp.kernel
def log_norm(e: wp.array(dtype=float), out: wp.array(dtype=float)):
    out[0] = wp.log(1.0 + e[0])


def main():
    n = 6
    x0 = wp.array(np.random.default_rng(4).random((n, 3)).astype(np.float32), dtype=wp.vec3)
    x = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(copy_untracked, dim=n, inputs=[x0, x], record_tape=False)
        wp.launch(spring_energy, dim=n, inputs=[x, 0.1, e])
        wp.launch(log_norm, dim=1, inputs=[e, out])
        tape.record_func(backward=lambda: None, arrays=[out])
    tape.backward(grads={out: wp.ones(1, dtype=float)})
    print(out.numpy(), tape.gradients[x].numpy()[0])
    tape.zero()


if __name__ == "__main__":
    main()
