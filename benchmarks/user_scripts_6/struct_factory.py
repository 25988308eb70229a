# a wp.struct class made per dtype by a factory, and a kernel made with it
import warp as wp


def make_state(dtype):
    @wp.struct
    class State:
        value: dtype
        rate: dtype

    return State


def make_state_kernel(dtype):
    State = make_state(dtype)

    @wp.kernel
    def decay_state(s: wp.array(dtype=State), dt: dtype):
        i = wp.tid()
        st = s[i]
        st.value = st.value - st.rate * st.value * dt
        s[i] = st

    return State, decay_state


for dt_type in (wp.float32, wp.float64):
    State, kern = make_state_kernel(dt_type)
    items = []
    for k in range(3):
        st = State()
        st.value = dt_type(1.0 + k)
        st.rate = dt_type(0.5)
        items.append(st)
    arr = wp.array(items, dtype=State)
    wp.launch(kern, dim=3, inputs=[arr, dt_type(0.1)])
    print(dt_type.__name__, arr.numpy()["value"])
