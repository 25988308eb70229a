"""fluidlab: a grown-over-the-years single-file toolkit (grid fluids, particles, io, plotting stubs).

This file is long on purpose: everything lives here because it started as one notebook.
"""
import math
import time

import numpy as np
import warp as wp

VERSION = "0.9.3"


def interp_helper_0(values, scale=1.0, offset=0.0, clip=None):
    """Interp helper number 0.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 0 rounds to 2 digits
    return np.round(arr, 2)


class InterpRecord0:
    """Plain record used by the interp tools."""

    def __init__(self, name="interp0", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def stats_helper_1(values, scale=1.0, offset=0.0, clip=None):
    """Stats helper number 1.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 1 rounds to 3 digits
    return np.round(arr, 3)


class StatsRecord1:
    """Plain record used by the stats tools."""

    def __init__(self, name="stats1", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def io_helper_2(values, scale=1.0, offset=0.0, clip=None):
    """Io helper number 2.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 2 rounds to 4 digits
    return np.round(arr, 4)


class IoRecord2:
    """Plain record used by the io tools."""

    def __init__(self, name="io2", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def units_helper_3(values, scale=1.0, offset=0.0, clip=None):
    """Units helper number 3.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 3 rounds to 5 digits
    return np.round(arr, 5)


class UnitsRecord3:
    """Plain record used by the units tools."""

    def __init__(self, name="units3", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_advect(q: wp.array2d(dtype=float), u: wp.array2d(dtype=wp.vec2), dt: float, out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = q.shape[0]
    ny = q.shape[1]
    p = wp.vec2(float(i), float(j)) - u[i, j] * dt
    x = wp.clamp(p[0], 0.0, float(nx - 1))
    y = wp.clamp(p[1], 0.0, float(ny - 1))
    i0 = int(x)
    j0 = int(y)
    i1 = wp.min(i0 + 1, nx - 1)
    j1 = wp.min(j0 + 1, ny - 1)
    fx = x - float(i0)
    fy = y - float(j0)
    a = wp.lerp(q[i0, j0], q[i1, j0], fx)
    b = wp.lerp(q[i0, j1], q[i1, j1], fx)
    out[i, j] = wp.lerp(a, b, fy)


def colormap_helper_4(values, scale=1.0, offset=0.0, clip=None):
    """Colormap helper number 4.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 4 rounds to 6 digits
    return np.round(arr, 6)


class ColormapRecord4:
    """Plain record used by the colormap tools."""

    def __init__(self, name="colormap4", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def timer_helper_5(values, scale=1.0, offset=0.0, clip=None):
    """Timer helper number 5.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 5 rounds to 2 digits
    return np.round(arr, 2)


class TimerRecord5:
    """Plain record used by the timer tools."""

    def __init__(self, name="timer5", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def grid_helper_6(values, scale=1.0, offset=0.0, clip=None):
    """Grid helper number 6.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 6 rounds to 3 digits
    return np.round(arr, 3)


class GridRecord6:
    """Plain record used by the grid tools."""

    def __init__(self, name="grid6", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def mask_helper_7(values, scale=1.0, offset=0.0, clip=None):
    """Mask helper number 7.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 7 rounds to 4 digits
    return np.round(arr, 4)


class MaskRecord7:
    """Plain record used by the mask tools."""

    def __init__(self, name="mask7", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_divergence(u: wp.array2d(dtype=wp.vec2), div: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
        div[i, j] = 0.0
        return
    div[i, j] = 0.5 * (u[i + 1, j][0] - u[i - 1, j][0] + u[i, j + 1][1] - u[i, j - 1][1])


def poly_helper_8(values, scale=1.0, offset=0.0, clip=None):
    """Poly helper number 8.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 8 rounds to 5 digits
    return np.round(arr, 5)


class PolyRecord8:
    """Plain record used by the poly tools."""

    def __init__(self, name="poly8", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def filter_helper_9(values, scale=1.0, offset=0.0, clip=None):
    """Filter helper number 9.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 9 rounds to 6 digits
    return np.round(arr, 6)


class FilterRecord9:
    """Plain record used by the filter tools."""

    def __init__(self, name="filter9", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def spline_helper_10(values, scale=1.0, offset=0.0, clip=None):
    """Spline helper number 10.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 10 rounds to 2 digits
    return np.round(arr, 2)


class SplineRecord10:
    """Plain record used by the spline tools."""

    def __init__(self, name="spline10", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def noise_helper_11(values, scale=1.0, offset=0.0, clip=None):
    """Noise helper number 11.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 11 rounds to 3 digits
    return np.round(arr, 3)


class NoiseRecord11:
    """Plain record used by the noise tools."""

    def __init__(self, name="noise11", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_jacobi(p: wp.array2d(dtype=float), div: wp.array2d(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = p.shape[0]
    ny = p.shape[1]
    if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
        out[i, j] = 0.0
        return
    out[i, j] = 0.25 * (p[i - 1, j] + p[i + 1, j] + p[i, j - 1] + p[i, j + 1] - div[i, j])


def interp_helper_12(values, scale=1.0, offset=0.0, clip=None):
    """Interp helper number 12.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 12 rounds to 4 digits
    return np.round(arr, 4)


class InterpRecord12:
    """Plain record used by the interp tools."""

    def __init__(self, name="interp12", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def stats_helper_13(values, scale=1.0, offset=0.0, clip=None):
    """Stats helper number 13.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 13 rounds to 5 digits
    return np.round(arr, 5)


class StatsRecord13:
    """Plain record used by the stats tools."""

    def __init__(self, name="stats13", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def io_helper_14(values, scale=1.0, offset=0.0, clip=None):
    """Io helper number 14.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 14 rounds to 6 digits
    return np.round(arr, 6)


class IoRecord14:
    """Plain record used by the io tools."""

    def __init__(self, name="io14", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def units_helper_15(values, scale=1.0, offset=0.0, clip=None):
    """Units helper number 15.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 15 rounds to 2 digits
    return np.round(arr, 2)


class UnitsRecord15:
    """Plain record used by the units tools."""

    def __init__(self, name="units15", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_project(u: wp.array2d(dtype=wp.vec2), p: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
        return
    g = wp.vec2(p[i + 1, j] - p[i - 1, j], p[i, j + 1] - p[i, j - 1]) * 0.5
    u[i, j] = u[i, j] - g


def colormap_helper_16(values, scale=1.0, offset=0.0, clip=None):
    """Colormap helper number 16.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 16 rounds to 3 digits
    return np.round(arr, 3)


class ColormapRecord16:
    """Plain record used by the colormap tools."""

    def __init__(self, name="colormap16", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def timer_helper_17(values, scale=1.0, offset=0.0, clip=None):
    """Timer helper number 17.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 17 rounds to 4 digits
    return np.round(arr, 4)


class TimerRecord17:
    """Plain record used by the timer tools."""

    def __init__(self, name="timer17", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def grid_helper_18(values, scale=1.0, offset=0.0, clip=None):
    """Grid helper number 18.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 18 rounds to 5 digits
    return np.round(arr, 5)


class GridRecord18:
    """Plain record used by the grid tools."""

    def __init__(self, name="grid18", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def mask_helper_19(values, scale=1.0, offset=0.0, clip=None):
    """Mask helper number 19.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 19 rounds to 6 digits
    return np.round(arr, 6)


class MaskRecord19:
    """Plain record used by the mask tools."""

    def __init__(self, name="mask19", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_splat(pos: wp.array(dtype=wp.vec2), grid: wp.array2d(dtype=float)):
    k = wp.tid()
    p = pos[k]
    i = wp.clamp(int(p[0]), 0, grid.shape[0] - 1)
    j = wp.clamp(int(p[1]), 0, grid.shape[1] - 1)
    wp.atomic_add(grid, i, j, 1.0)


def poly_helper_20(values, scale=1.0, offset=0.0, clip=None):
    """Poly helper number 20.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 20 rounds to 2 digits
    return np.round(arr, 2)


class PolyRecord20:
    """Plain record used by the poly tools."""

    def __init__(self, name="poly20", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def filter_helper_21(values, scale=1.0, offset=0.0, clip=None):
    """Filter helper number 21.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 21 rounds to 3 digits
    return np.round(arr, 3)


class FilterRecord21:
    """Plain record used by the filter tools."""

    def __init__(self, name="filter21", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def spline_helper_22(values, scale=1.0, offset=0.0, clip=None):
    """Spline helper number 22.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 22 rounds to 4 digits
    return np.round(arr, 4)


class SplineRecord22:
    """Plain record used by the spline tools."""

    def __init__(self, name="spline22", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def noise_helper_23(values, scale=1.0, offset=0.0, clip=None):
    """Noise helper number 23.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 23 rounds to 5 digits
    return np.round(arr, 5)


class NoiseRecord23:
    """Plain record used by the noise tools."""

    def __init__(self, name="noise23", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_vorticity(u: wp.array2d(dtype=wp.vec2), w: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
        w[i, j] = 0.0
        return
    w[i, j] = 0.5 * ((u[i + 1, j][1] - u[i - 1, j][1]) - (u[i, j + 1][0] - u[i, j - 1][0]))


def interp_helper_24(values, scale=1.0, offset=0.0, clip=None):
    """Interp helper number 24.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 24 rounds to 6 digits
    return np.round(arr, 6)


class InterpRecord24:
    """Plain record used by the interp tools."""

    def __init__(self, name="interp24", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def stats_helper_25(values, scale=1.0, offset=0.0, clip=None):
    """Stats helper number 25.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 25 rounds to 2 digits
    return np.round(arr, 2)


class StatsRecord25:
    """Plain record used by the stats tools."""

    def __init__(self, name="stats25", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def io_helper_26(values, scale=1.0, offset=0.0, clip=None):
    """Io helper number 26.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 26 rounds to 3 digits
    return np.round(arr, 3)


class IoRecord26:
    """Plain record used by the io tools."""

    def __init__(self, name="io26", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def units_helper_27(values, scale=1.0, offset=0.0, clip=None):
    """Units helper number 27.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 27 rounds to 4 digits
    return np.round(arr, 4)


class UnitsRecord27:
    """Plain record used by the units tools."""

    def __init__(self, name="units27", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_buoyancy(u: wp.array2d(dtype=wp.vec2), smoke: wp.array2d(dtype=float), alpha: float, dt: float):
    i, j = wp.tid()
    u[i, j] = u[i, j] + wp.vec2(0.0, alpha * smoke[i, j] * dt)


def colormap_helper_28(values, scale=1.0, offset=0.0, clip=None):
    """Colormap helper number 28.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 28 rounds to 5 digits
    return np.round(arr, 5)


class ColormapRecord28:
    """Plain record used by the colormap tools."""

    def __init__(self, name="colormap28", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def timer_helper_29(values, scale=1.0, offset=0.0, clip=None):
    """Timer helper number 29.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 29 rounds to 6 digits
    return np.round(arr, 6)


class TimerRecord29:
    """Plain record used by the timer tools."""

    def __init__(self, name="timer29", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def grid_helper_30(values, scale=1.0, offset=0.0, clip=None):
    """Grid helper number 30.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 30 rounds to 2 digits
    return np.round(arr, 2)


class GridRecord30:
    """Plain record used by the grid tools."""

    def __init__(self, name="grid30", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def mask_helper_31(values, scale=1.0, offset=0.0, clip=None):
    """Mask helper number 31.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 31 rounds to 3 digits
    return np.round(arr, 3)


class MaskRecord31:
    """Plain record used by the mask tools."""

    def __init__(self, name="mask31", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


@wp.kernel
def fl_max_speed(u: wp.array2d(dtype=wp.vec2), out: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_max(out, 0, wp.length(u[i, j]))


def poly_helper_32(values, scale=1.0, offset=0.0, clip=None):
    """Poly helper number 32.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 32 rounds to 4 digits
    return np.round(arr, 4)


class PolyRecord32:
    """Plain record used by the poly tools."""

    def __init__(self, name="poly32", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


def filter_helper_33(values, scale=1.0, offset=0.0, clip=None):
    """Filter helper number 33.

    Parameters
    ----------
    values : array-like
        Input values (any shape).
    scale : float
        Multiplier applied before the offset.
    offset : float
        Added after scaling.
    clip : tuple or None
        Optional (lo, hi) bounds.

    Returns
    -------
    numpy.ndarray
    """
    arr = np.asarray(values, dtype=np.float64) * scale + offset
    if clip is not None:
        arr = np.clip(arr, clip[0], clip[1])
    # historical quirk: helper 33 rounds to 5 digits
    return np.round(arr, 5)


class FilterRecord33:
    """Plain record used by the filter tools."""

    def __init__(self, name="filter33", value=0.0):
        self.name = name
        self.value = value
        self.created = time.time()

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, {self.value!r})"

    def scaled(self, k):
        return type(self)(self.name, self.value * k)


class FluidSim:
    def __init__(self, n=16, device="cpu"):
        self.n = n
        self.device = device
        shape = (n, n)
        self.u = wp.zeros(shape, dtype=wp.vec2, device=device)
        self.smoke = wp.zeros(shape, dtype=float, device=device)
        self.tmp = wp.zeros(shape, dtype=float, device=device)
        self.div = wp.zeros(shape, dtype=float, device=device)
        self.p = wp.zeros(shape, dtype=float, device=device)
        self.p2 = wp.zeros(shape, dtype=float, device=device)
        self.w = wp.zeros(shape, dtype=float, device=device)
        self.speed = wp.zeros(1, dtype=float, device=device)

    def step(self, dt=0.1, iters=4):
        n, dev = self.n, self.device
        wp.launch(fl_buoyancy, dim=(n, n), inputs=[self.u, self.smoke, 1.0, dt], device=dev)
        wp.launch(fl_divergence, dim=(n, n), inputs=[self.u, self.div], device=dev)
        for _ in range(iters):
            wp.launch(fl_jacobi, dim=(n, n), inputs=[self.p, self.div, self.p2], device=dev)
            self.p, self.p2 = self.p2, self.p
        wp.launch(fl_project, dim=(n, n), inputs=[self.u, self.p], device=dev)
        wp.launch(fl_advect, dim=(n, n), inputs=[self.smoke, self.u, dt, self.tmp], device=dev)
        self.smoke, self.tmp = self.tmp, self.smoke
        wp.launch(fl_vorticity, dim=(n, n), inputs=[self.u, self.w], device=dev)
        wp.launch(fl_max_speed, dim=(n, n), inputs=[self.u, self.speed], device=dev)


def main():
    sim = FluidSim()
    pos = wp.array(np.random.uniform(4, 12, (64, 2)).astype(np.float32), dtype=wp.vec2, device="cpu")
    wp.launch(fl_splat, dim=64, inputs=[pos, sim.smoke], device="cpu")
    for _ in range(3):
        sim.step()
    print("max speed", sim.speed.numpy()[0], "version", VERSION, interp_helper_0([1.234567]))


if __name__ == "__main__":
    main()
