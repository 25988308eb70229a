import click
import warp as wp


@wp.kernel
def heat_step(u: wp.array(dtype=float), u_new: wp.array(dtype=float), alpha: float):
    i = wp.tid()
    n = u.shape[0]
    if i == 0 or i == n - 1:
        u_new[i] = u[i]
        return
    u_new[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1])


@click.command()
@click.option("--n", default=32, help="grid points")
@click.option("--steps", default=10)
@click.option("--alpha", default=0.25)
def main(n: int, steps: int, alpha: float) -> None:
    u = wp.zeros(n, dtype=float, device="cpu")
    u_new = wp.zeros(n, dtype=float, device="cpu")
    u.fill_(0.0)
    tmp = u.numpy()
    tmp[n // 2] = 1.0
    u = wp.array(tmp, dtype=float, device="cpu")
    for _ in range(steps):
        wp.launch(heat_step, dim=n, inputs=[u, u_new, alpha], device="cpu")
        u, u_new = u_new, u
    click.echo(f"max {u.numpy().max():.4f}")


if __name__ == "__main__":
    main()
