"""Default settings kept as text inside the script (JSON, TOML and INI flavours)."""

import configparser
import json
import tomllib

import warp as wp

DEFAULTS_JSON = """
{"relax": {"omega": 0.8, "iters": 3}}
"""

DEFAULTS_TOML = """
[drag]
coefficient = 0.25
"""

DEFAULTS_INI = """
[clamp]
lo = -0.5
hi = 0.5
"""


def make_relax(omega, iters):
    @wp.kernel
    def relax_json(u: wp.array(dtype=float), f: wp.array(dtype=float)):
        i = wp.tid()
        n = u.shape[0]
        for _ in range(iters):
            left = u[wp.max(i - 1, 0)]
            right = u[wp.min(i + 1, n - 1)]
            u[i] = (1.0 - omega) * u[i] + omega * 0.5 * (left + right + f[i])

    return relax_json


def make_drag(c):
    @wp.kernel
    def drag_toml(v: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        s = wp.length(v[i])
        v[i] = v[i] - c * s * v[i]

    return drag_toml


def make_clamp(lo, hi):
    @wp.kernel
    def clamp_ini(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = wp.clamp(a[i], lo, hi)

    return clamp_ini


def main():
    settings = json.loads(DEFAULTS_JSON)
    toml_cfg = tomllib.loads(DEFAULTS_TOML)
    ini = configparser.ConfigParser()
    ini.read_string(DEFAULTS_INI)

    relax = make_relax(**settings["relax"])
    drag = make_drag(toml_cfg["drag"]["coefficient"])
    clamp = make_clamp(ini.getfloat("clamp", "lo"), ini.getfloat("clamp", "hi"))

    u = wp.zeros(8, dtype=float)
    f = wp.full(8, 0.1, dtype=float)
    v = wp.full(8, wp.vec3(1.0, 0.0, 0.0), dtype=wp.vec3)
    wp.launch(relax, dim=8, inputs=[u, f])
    wp.launch(drag, dim=8, inputs=[v])
    wp.launch(clamp, dim=8, inputs=[u])
    print(u.numpy(), v.numpy()[0])


if __name__ == "__main__":
    main()
