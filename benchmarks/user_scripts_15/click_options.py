import click
import warp as wp


def make_gain(g: float):
    @wp.kernel
    def gain_click(x: wp.array(dtype=float)):
        i = wp.tid()
        x[i] = x[i] * g

    return gain_click


def make_steps(n: int):
    @wp.kernel
    def steps_click(x: wp.array(dtype=float)):
        i = wp.tid()
        for _ in range(n):
            x[i] = x[i] + 0.5

    return steps_click


@click.command()
@click.option("--gain", default=1.5, type=float, show_default=True)
@click.option("--steps", "-s", default=3, type=int)
def cli(gain, steps):
    x = wp.ones(4, dtype=float)
    wp.launch(make_gain(gain), dim=4, inputs=[x])
    wp.launch(make_steps(steps), dim=4, inputs=[x])
    click.echo(x.numpy())


if __name__ == "__main__":
    cli(standalone_mode=False, args=[])
