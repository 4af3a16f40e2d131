#!/usr/bin/env python3
"""Writes tests/fixtures/mask/cases.txt: NumPy's boolean-mask indexing,
assignment through masks and the nonzero family.

As in tests/generate_indexing_fixtures.py, each case starts from a storage
of M elements whose values are their ids 0 .. M-1 and a base array over it
(offset and strides in elements); the test fills the storage of any dtype
with cupp_test::sample(id) and compares ids. Each line:

    NAME M OFF ND SHAPE... STRIDES... OP ARG... -> RESULT

Arguments:
    m:L:ND:SHAPE:BITS   a bool mask array, BITS its elements in C order
                        (SHAPE comma-separated), laid out C, F or R
                        (reversed: negative strides on every axis)
    e:MD:K:R            the lazy mask ids[(:,)*MD + (0,)*(ND-MD)] % K == R,
                        ids an int64 array of the base's ids in its layout
    b:0 / b:1           a C++ bool (NumPy's x[False] / x[True])
    s                   the scalar sample(999) (id -1)
    v:ND:SHAPE          a C-ordered array whose element k has id 1000 + k
    c:BITS              a 1-d bool condition
    p:BITS              nonzero cases: the storage holds 1 where the bit is
                        set and 0 elsewhere (any dtype), not sample(id)
    AXIS                an integer or none

Results:
    ! TYPE|MESSAGE      NumPy raised TYPE (IndexError, ValueError, TypeError,
                        AxisError); the test also checks nothing was written
    arr ND SHAPE... N ID...       one array (ids, or index values)
    arrs K (arr ...)xK            several (nonzero)
    set N ID...                   the storage's ids after a write (-1: s)
    num N V...                    the storage's values after an in-place
                                  operator (storage holds ids as numbers)

Run from anywhere: python3 tests/generate_mask_fixtures.py
"""
import pathlib

import numpy as np
from fixture_bases import c_order, f_order, negative, strided

OUT = pathlib.Path(__file__).parent / "fixtures" / "mask"
rng = np.random.default_rng(5)
lines = []


def layouts():
    yield "c1", *c_order((7,))
    yield "c2", *c_order((4, 3))
    yield "f2", *f_order((4, 3))
    yield "s2", *strided((4, 3))
    yield "n2", *negative((4, 3), every_axis=True)
    yield "c3", *c_order((2, 3, 4))
    yield "f3", *f_order((2, 3, 4))
    yield "n3", *negative((2, 3, 4), every_axis=True)
    s = np.arange(3)
    yield "z0", s, s[1:2].reshape(())
    s = np.arange(1)
    yield "e2", s, s[:0].reshape(0, 3)
    # Seven axes: C-contiguous (an F-ordered mask then does not merge with
    # it and is laid out densely first), and axes that do not merge at all
    # (the array is read and written through a dense copy).
    yield "c7", *c_order((2,) * 7)
    s = np.arange(3 ** 7)
    yield "u7", s, s.reshape((3,) * 7)[(slice(0, 2),) * 7]


def head(name, storage, base):
    off = (base.__array_interface__["data"][0] - storage.__array_interface__["data"][0]) // 8
    st = [x // 8 for x in base.strides]
    return (f"{name} {storage.size} {off} {base.ndim} " + " ".join(map(str, base.shape)) +
            (" " if base.ndim else "") + " ".join(map(str, st)))


def tup(shape):
    return ",".join(map(str, shape))


def mask_arg(bits, layout):
    return f"m:{layout}:{bits.ndim}:{tup(bits.shape)}:" + "".join(
        "1" if b else "0" for b in bits.ravel())


def arr(a):
    a = np.asarray(a)
    return (f"arr {a.ndim} " + " ".join(map(str, a.shape)) + (" " if a.ndim else "") +
            f"{a.size} " + " ".join(str(int(v)) for v in a.ravel())).rstrip()


def err(e):
    return f"! {type(e).__name__}|{e}"


def emit(h, call, fn):
    try:
        r = fn()
    except (IndexError, ValueError, TypeError) as e:
        r = err(e)
    lines.append(f"{h} {call} -> {r}")


def storage_after(storage):
    return f"set {storage.size} " + " ".join(str(int(v)) for v in storage)


def masks_for(shape, n_lead):
    """Masks over the first n_lead axes: random, all false, all true."""
    s = shape[:n_lead]
    yield rng.random(s) < 0.5
    yield np.zeros(s, bool)
    yield np.ones(s, bool)


def values(shape):
    return 1000 + np.arange(int(np.prod(shape))).reshape(shape)


for name, storage0, base0 in layouts():
    nd = base0.ndim
    leads = range(0, nd + 1) if nd <= 3 else [nd]
    for md in leads:
        for k, bits in enumerate(masks_for(base0.shape, md)):
            layout = "CFR"[k % 3] if md >= 1 else "C"
            marg = mask_arg(bits, layout)
            h = head(name, storage0, base0)
            emit(h, f"get {marg}", lambda: arr(base0[bits]))
            # Writes: a scalar, count values, one row, and wrong counts.
            count = int(bits.sum())
            rest = base0.shape[md:]
            shapes = [None, (count,) + rest, rest, (count + 1,) + rest, (1,) + rest]
            if md == nd:
                shapes += [(2, 1)]
            if name == "u7":
                shapes = [None, (count,) + rest]
            for vs in shapes:
                storage = storage0.copy()
                view = np.ndarray(base0.shape, np.int64, storage,
                                  int(head(name, storage0, base0).split()[2]) * 8,
                                  base0.strides)
                if vs is None:
                    call = f"set {marg} s"
                    emit(h, call, lambda: (view.__setitem__(bits, -1), storage_after(storage))[1])
                else:
                    call = f"set {marg} v:{len(vs)}:{tup(vs)}"
                    emit(h, call,
                         lambda: (view.__setitem__(bits, values(vs)), storage_after(storage))[1])
            # In place (storage values are the ids as numbers).
            for vs in [None, (count,) + rest] if name != "u7" else []:
                storage = storage0.copy()
                view = np.ndarray(base0.shape, np.int64, storage,
                                  int(h.split()[2]) * 8, base0.strides)
                if vs is None:
                    call = f"iadd {marg} s"
                    fn = lambda: view.__setitem__(bits, view[bits] + 999)
                else:
                    call = f"iadd {marg} v:{len(vs)}:{tup(vs)}"
                    fn = lambda: view.__setitem__(bits, view[bits] + values(vs))
                emit(h, call, lambda: (fn(), "num " + storage_after(storage)[4:])[1])
        # Lazy masks computed from the ids.
        if md >= 1:
            for kk, rr in [(3, 1), (2, 0), (5, 7)]:
                ids = base0[(slice(None),) * md + (0,) * (nd - md)]
                mask = ids % kk == rr
                emit(head(name, storage0, base0), f"get e:{md}:{kk}:{rr}",
                     lambda: arr(base0[mask]))
                storage = storage0.copy()
                view = np.ndarray(base0.shape, np.int64, storage,
                                  int(head(name, storage0, base0).split()[2]) * 8, base0.strides)
                emit(head(name, storage0, base0), f"set e:{md}:{kk}:{rr} s",
                     lambda: (view.__setitem__(mask, -1), storage_after(storage))[1])
    h = head(name, storage0, base0)
    if nd > 3:
        continue
    # Masks of the wrong shape.
    if nd >= 1:
        for s in [(base0.shape[0] + 1,), base0.shape + (1,)] + ([base0.shape[:1] + (base0.shape[1] + 2,)] if nd >= 2 else []):
            bits = np.ones(s, bool)
            emit(h, f"get {mask_arg(bits, 'C')}", lambda: arr(base0[bits]))
            storage = storage0.copy()
            view = np.ndarray(base0.shape, np.int64, storage, int(h.split()[2]) * 8, base0.strides)
            emit(h, f"set {mask_arg(bits, 'C')} s",
                 lambda: (view.__setitem__(bits, -1), storage_after(storage))[1])
    # Bool scalars.
    for b in (0, 1):
        emit(h, f"get b:{b}", lambda: arr(base0[bool(b)]))
    # nonzero family over a pattern of zeros.
    pat = rng.random(storage0.size) < 0.4
    patt = "".join("1" if b else "0" for b in pat)
    view = np.ndarray(base0.shape, np.int64, pat.astype(np.int64),
                      int(h.split()[2]) * 8, base0.strides)
    emit(h, f"nonzero p:{patt}", lambda: f"arrs {nd} " + " ".join(arr(a) for a in np.nonzero(view)))
    emit(h, f"flatnonzero p:{patt}", lambda: arr(np.flatnonzero(view)))
    emit(h, f"argwhere p:{patt}", lambda: arr(np.argwhere(view)))
    # compress / extract.
    for axis in ["none"] + list(range(-1, nd)):
        ax = None if axis == "none" else axis
        length = base0.size if ax is None else (base0.shape[ax] if nd else 0)
        if nd == 0 and ax is not None:
            continue
        for extra in (0, -1, 1, 2):
            n = max(length + extra, 0)
            c = rng.random(n) < 0.5
            if extra > 0:
                c[length:] = False
                if extra == 2:
                    c[-1] = True
            ctext = "".join("1" if b else "0" for b in c)
            emit(h, f"compress c:{ctext} {axis}",
                 lambda: arr(np.compress(c, base0, axis=ax)))
    if base0.size:
        bits = rng.random(base0.shape) < 0.5
        emit(h, f"extract {mask_arg(bits, 'C')}", lambda: arr(np.extract(bits, base0)))
    # place / putmask (mask of the base's shape, or flattened).
    for k, bits in enumerate([rng.random(base0.shape) < 0.5, np.zeros(base0.shape, bool)]):
        marg = mask_arg(bits, "CFR"[k % 3] if nd else "C")
        flat = mask_arg(bits.ravel(), "C")
        for fn_name, fn in [("place", np.place), ("putmask", np.putmask)]:
            for vs in [(3,), (base0.size + 2,), (0,), base0.shape]:
                for m_arg, m_bits in [(marg, bits), (flat, bits.ravel())]:
                    storage = storage0.copy()
                    view = np.ndarray(base0.shape, np.int64, storage, int(h.split()[2]) * 8,
                                      base0.strides)
                    emit(h, f"{fn_name} {m_arg} v:{len(vs)}:{tup(vs)}",
                         lambda: (fn(view, m_bits, values(vs)), storage_after(storage))[1])
        # A mask of another size.
        storage = storage0.copy()
        view = np.ndarray(base0.shape, np.int64, storage, int(h.split()[2]) * 8, base0.strides)
        wrong = np.ones(base0.size + 1, bool)
        for fn_name, fn in [("place", np.place), ("putmask", np.putmask)]:
            emit(h, f"{fn_name} {mask_arg(wrong, 'C')} v:1:3",
                 lambda: (fn(view, wrong, values((3,))), storage_after(storage))[1])
    # select: choices are the base and values of its shape (ids 1000 + k).
    if nd >= 1:
        c1 = rng.random(base0.shape) < 0.4
        c2 = rng.random(base0.shape) < 0.6
        emit(h, f"select {mask_arg(c1, 'C')} {mask_arg(c2, 'F')}",
             lambda: arr(np.select([c1, c2], [base0, values(base0.shape)], -1)))
        emit(h, f"select1 {mask_arg(c1, 'C')} {mask_arg(c2, 'F')}",
             lambda: arr(np.select([c1], [base0, values(base0.shape)], -1)))

# nonzero of a 0-d array.
try:
    np.nonzero(np.array(3))
except ValueError as e:
    lines.append(f"z0 3 1 0 nonzero p:111 -> {err(e)}")

OUT.mkdir(parents=True, exist_ok=True)
(OUT / "cases.txt").write_text(
    "# Generated by tests/generate_mask_fixtures.py with NumPy " + np.__version__ + "\n" +
    "\n".join(lines) + "\n")
print(len(lines), "cases")
