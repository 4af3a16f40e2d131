#!/usr/bin/env python3
"""Writes tests/fixtures/linalg/einsum/ with NumPy's numpy.einsum results
(optimize=False, its default) for tests/linalg_einsum_test.cu.

cases.txt   one call per line, fields separated by '|':
                NAME | SUBSCRIPTS | DTYPES | VIEWS
            NAME_0.npy, NAME_1.npy ... are the operands (C order) and
            NAME_out.npy NumPy's result (a 0-d array where NumPy returns a
            scalar). DTYPES is the operands' dtypes, comma-separated. VIEWS
            is '-' or, per operand, the shape the test broadcasts it to
            (a stride-0 view) or '-' to use it as stored: "(2,3);-".
errors.txt  SUBSCRIPTS | SHAPES | MESSAGE: float64 operands of the shapes
            (semicolon-separated, () for 0-d), the ValueError NumPy raises.

Operand values are small integers (real and imaginary parts), so that every
sum is exact in every dtype and order and the test compares exactly.
Run with the repository's .venv/bin/python.
"""

import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "linalg", "einsum")

DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "bool"]

# Every pattern of the brief with the operands' shapes.
PATTERNS = [
    ("matmul", "ij,jk->ik", [(2, 3), (3, 4)]),
    ("matmul_implicit", "ij,jk", [(2, 3), (3, 4)]),
    ("matmul_bt", "ij,kj->ik", [(2, 3), (4, 3)]),
    ("matmul_out_t", "ij,jk->ki", [(2, 3), (3, 4)]),
    ("matvec", "ij,j->i", [(3, 4), (4,)]),
    ("diag", "ii->i", [(3, 3)]),
    ("trace", "ii", [(3, 3)]),
    ("diag_apart", "iji->j", [(3, 2, 3)]),
    ("diag_keep", "iij->ij", [(2, 2, 3)]),
    ("diag_contract", "iij,jk->ik", [(2, 2, 3), (3, 4)]),
    ("ellipsis_matmul", "...ij,...jk->...ik", [(2, 2, 3), (2, 3, 4)]),
    ("ellipsis_bcast", "...ij,...jk->...ik", [(2, 1, 2, 3), (3, 3, 4)]),
    ("ellipsis_implicit", "...ij,...jk", [(2, 2, 3), (3, 4)]),
    ("ellipsis_sum", "...i->...", [(2, 3, 4)]),
    ("ellipsis_end", "i...,i...->...", [(3, 2), (3, 2)]),
    ("ellipsis_mid", "i...j->j...i", [(2, 3, 4, 5)]),
    ("inner", "i,i", [(4,), (4,)]),
    ("transpose", "ij->ji", [(2, 3)]),
    ("transpose_implicit", "ji", [(2, 3)]),
    ("batched", "bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("batch_free", "bij,jk->bik", [(2, 2, 3), (3, 4)]),
    ("batch_out_mid", "bij,bjk->ibk", [(2, 2, 3), (2, 3, 4)]),
    ("outer", "i,j->ij", [(3,), (4,)]),
    ("sum_all", "ijk->", [(2, 3, 4)]),
    ("sum_axis", "ij->i", [(2, 3)]),
    ("sum_first", "ij->j", [(2, 3)]),
    ("elementwise", "ij,ij->ij", [(2, 3), (2, 3)]),
    ("elementwise_t", "ij,ji->ij", [(2, 3), (3, 2)]),
    ("frobenius", "ij,ij->", [(2, 3), (2, 3)]),
    ("two_contracted", "ijk,jkl->il", [(2, 3, 4), (3, 4, 2)]),
    ("summed_alone", "ij,jk->k", [(2, 3), (3, 4)]),
    ("case", "Ab,bC->CA", [(2, 3), (3, 4)]),
    ("case_implicit", "aA,Ab", [(2, 3), (3, 4)]),
    ("chain", "ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]),
    ("chain_implicit", "ij,jk,kl", [(2, 3), (3, 4), (4, 2)]),
    ("three_elementwise", "i,i,i->i", [(3,), (3,), (3,)]),
    ("three_outer", "i,j,k->ijk", [(2,), (3,), (2,)]),
    ("letter_bcast", "ij,jk->ik", [(2, 1), (3, 4)]),
    ("contracted_bcast", "ij,jk->ik", [(2, 3), (1, 4)]),
    ("scalar_operand", "i,->i", [(3,), ()]),
    ("scalars", ",->", [(), ()]),
    ("scalar_self", "->", [()]),
    ("spaces", " ij , jk -> ik ", [(2, 3), (3, 4)]),
    ("empty_k", "ij,jk->ik", [(2, 0), (0, 3)]),
    ("empty_m", "ij,jk->ik", [(0, 3), (3, 2)]),
    ("empty_sum", "ijk->", [(0, 3, 2)]),
    ("empty_trace", "ii", [(0, 0)]),
    ("empty_inner", "i,i", [(0,), (0,)]),
    ("empty_batch", "bij,bjk->bik", [(0, 2, 3), (0, 3, 4)]),
]

# Mixed dtypes: NumPy's promotion.
MIXED = [
    ("mixed_f32_i32", "ij,jk->ik", [(2, 3), (3, 4)], ["float32", "int32"]),
    ("mixed_bool_i32", "ij,jk->ik", [(2, 3), (3, 4)], ["bool", "int32"]),
    ("mixed_c64_f64", "i,i", [(4,), (4,)], ["complex64", "float64"]),
    ("mixed_f32_c64", "ij,j->i", [(3, 4), (4,)], ["float32", "complex64"]),
]

# Operands stored small and broadcast (stride 0) to a larger shape.
BROADCAST = [
    ("bcast_matmul", "ij,jk->ik", [(1, 3), (3, 1)], [(2, 3), (3, 4)]),
    ("bcast_batched", "bij,bjk->bik", [(1, 2, 3), (3, 3, 4)], [(3, 2, 3), None]),
    ("bcast_trace", "ii", [(1, 3)], [(3, 3)]),
    ("bcast_sum", "ij->j", [(3,)], [(4, 3)]),
]

ERRORS = [
    ("ij,jk", [(2, 3)]),
    ("ij", [(2, 3), (3, 4)]),
    ("ij,jk,kl", [(2, 3), (3, 4)]),
    ("ijk", [(2, 3)]),
    ("ij,jk->ik", [(2, 3), (3,)]),
    ("i", [(2, 3)]),
    ("", [(2, 3)]),
    ("ij->ii", [(2, 3)]),
    ("ij->k", [(2, 3)]),
    ("i$j", [(2, 3)]),
    ("i1", [(2, 3)]),
    ("ij->i->j", [(2, 3)]),
    ("ij-i", [(2, 3)]),
    ("ij,j-", [(2, 3), (3,)]),
    ("ij>i", [(2, 3)]),
    ("ij->i,", [(2, 3)]),
    ("..i", [(2, 3)]),
    ("...i...", [(2, 3)]),
    ("ij->i.", [(2, 3)]),
    ("ij->...i...", [(2, 3)]),
    ("...i->i", [(2, 3)]),
    ("...i->", [(2, 3)]),
    ("ii", [(2, 3)]),
    ("ii->i", [(2, 3)]),
    ("iij->i", [(2, 3, 4)]),
    ("ijj->i", [(2, 3, 4)]),
    ("ii,i->i", [(3, 3), (4,)]),
    ("ij,jk->ik", [(2, 2), (3, 4)]),
    ("ij,ij->ij", [(2, 3), (2, 2)]),
    ("i,j,i->", [(3,), (2,), (4,)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 3, 4)]),
    ("...i,...i", [(2, 3), (3, 3)]),
    ("bij,bjk->bik", [(2, 2, 3), (3, 3, 4)]),
]


def values(shape, dtype, seed):
    n = int(np.prod(shape))
    i = np.arange(n)
    v = ((i * 7 + seed * 5) % 9) - 4
    if dtype == "bool":
        return (((i * 5 + seed * 3) % 3) != 0).reshape(shape)
    if dtype.startswith("complex"):
        w = ((i * 3 + seed) % 5) - 2
        return (v + 1j * w).astype(dtype).reshape(shape)
    return v.astype(dtype).reshape(shape)


def shape_text(s):
    return "(" + ",".join(str(d) for d in s) + (",)" if len(s) == 1 else ")")


def write_case(lines, name, subscripts, shapes, dtypes, views=None):
    ops = [values(s, dt, k + 1) for k, (s, dt) in enumerate(zip(shapes, dtypes))]
    used = [np.broadcast_to(o, v) if v is not None else o for o, v in zip(ops, views or [None] * len(ops))]
    out = np.asarray(np.einsum(subscripts, *used))
    for k, o in enumerate(ops):
        np.save(os.path.join(OUT, f"{name}_{k}.npy"), np.array(o, order="C"))
    np.save(os.path.join(OUT, f"{name}_out.npy"), np.array(out, order="C"))
    view_text = "-" if views is None else ";".join("-" if v is None else shape_text(v) for v in views)
    lines.append(f"{name}|{subscripts}|{','.join(dtypes)}|{view_text}")


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    lines = []
    for name, subscripts, shapes in PATTERNS:
        for dt in DTYPES:
            write_case(lines, f"{name}_{dt}", subscripts, shapes, [dt] * len(shapes))
    for name, subscripts, shapes, dts in MIXED:
        write_case(lines, name, subscripts, shapes, dts)
    for name, subscripts, shapes, views in BROADCAST:
        for dt in ["float64", "complex64", "int32"]:
            write_case(lines, f"{name}_{dt}", subscripts, shapes, [dt] * len(shapes), views)
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.write("# NAME|SUBSCRIPTS|DTYPES|VIEWS (see tests/generate_linalg_einsum_fixtures.py)\n")
        f.write("\n".join(lines) + "\n")
    errors = []
    for subscripts, shapes in ERRORS:
        try:
            np.einsum(subscripts, *[np.zeros(s) for s in shapes])
        except ValueError as e:
            errors.append(f"{subscripts}|{';'.join(shape_text(s) for s in shapes)}|{e}")
        else:
            raise SystemExit(f"no error for {subscripts!r} {shapes}")
    with open(os.path.join(OUT, "errors.txt"), "w") as f:
        f.write("# SUBSCRIPTS|SHAPES|MESSAGE (see tests/generate_linalg_einsum_fixtures.py)\n")
        f.write("\n".join(errors) + "\n")


if __name__ == "__main__":
    main()
