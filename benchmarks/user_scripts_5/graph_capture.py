# the CUDA graph path only runs on a GPU; on the CPU we loop
import warp as wp

N = 256


@wp.kernel
def decay(x: wp.array(dtype=float), rate: float):
    i = wp.tid()
    x[i] = x[i] * (1.0 - rate)


@wp.kernel
def add_source(x: wp.array(dtype=float), src: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = x[i] + src[i]


def simulate(device):
    x = wp.zeros(N, dtype=float, device=device)
    src = wp.full(N, 0.1, dtype=float, device=device)
    use_graph = wp.get_device(device).is_cuda and wp.is_mempool_enabled(device)
    if use_graph:
        with wp.ScopedCapture(device=device) as capture:
            wp.launch(add_source, dim=N, inputs=[x, src], device=device)
            wp.launch(decay, dim=N, inputs=[x, 0.05], device=device)
        for _ in range(100):
            wp.capture_launch(capture.graph)
    else:
        for _ in range(100):
            wp.launch(add_source, dim=N, inputs=[x, src], device=device)
            wp.launch(decay, dim=N, inputs=[x, 0.05], device=device)
    return x.numpy()[0]


if __name__ == "__main__":
    device = "cuda:0" if wp.get_cuda_device_count() > 0 else "cpu"
    print(device, simulate(device))
