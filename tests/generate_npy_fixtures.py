#!/usr/bin/env python3
"""Writes tests/fixtures/npy/ with NumPy (and ml_dtypes for bfloat16).

good/NAME.npy   files NumPy writes or reads; good/NAME.txt says what cupp must
                find in them: dtype, shape, fortran flag, version, byte order,
                data offset, the elements as little-endian C-order bytes (hex),
                and `resave`: the file whose bytes cupp's save of the loaded
                array must reproduce (NumPy's np.save of the same array).
ref/NAME.npy    np.save output for those resaves and for views of good files;
                ref/views.txt describes each view (base file, byte offset,
                shape, byte strides) so the C++ test can build the same view.
bad/NAME.npy    broken or unsupported files; bad/expected.txt gives the
                exception cupp must throw and a piece of its message, and (as
                a comment) what NumPy's format.read_array raises.

Run from anywhere: python3 tests/generate_npy_fixtures.py
"""
import io
import pathlib
import re
import shutil
import struct
import warnings

import ml_dtypes
import numpy as np
from numpy.lib import _format_impl as npf_impl
from numpy.lib import format as npf

OUT = pathlib.Path(__file__).parent / "fixtures" / "npy"
BF16 = np.dtype(ml_dtypes.bfloat16)


def cupp_name(dt):
    return "bfloat16" if dt == BF16 or dt == BF16.newbyteorder(">") else dt.name


def np_save_bytes(a, version=None):
    f = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if version is None:
            np.save(f, a)
        else:
            npf.write_array(f, a, version=version)
    return f.getvalue()


def le_bytes(a):
    """Elements in C order, little-endian, bools as 0/1."""
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "b":
        return np.not_equal(a.view(np.uint8), 0).astype(np.uint8).tobytes()
    if a.dtype.kind == "V":  # bfloat16 stored as '<V2' or '>V2'
        raw = np.frombuffer(a.tobytes(), dtype=np.uint16).reshape(a.shape)
        big = a.dtype.str.startswith(">") or a.dtype.byteorder == ">"
        return (raw.byteswap() if big else raw).tobytes()
    return a.astype(a.dtype.newbyteorder("<")).tobytes()


def raw_npy(header, data=b"", version=(1, 0), declared_len=None):
    """A file with a hand-written header, padded as NumPy pads."""
    h = header.encode("latin1" if version != (3, 0) else "utf8")
    fmt = "<H" if version == (1, 0) else "<I"
    hlen = len(h) + 1
    pad = 64 - ((8 + struct.calcsize(fmt) + hlen) % 64)
    n = hlen + pad if declared_len is None else declared_len
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, n) + h + b" " * pad + b"\n" + data


def header_info(blob):
    """(major, minor, data offset, descr, fortran_order) as the header says."""
    import ast
    major, minor = blob[6], blob[7]
    n = 2 if major == 1 else 4
    hlen = int.from_bytes(blob[8:8 + n], "little")
    text = blob[8 + n:8 + n + hlen].decode("utf8" if major == 3 else "latin1")
    text = re.sub(r"(\d)L", r"\1", text)  # Python 2 long literals
    d = ast.literal_eval(text)
    return major, minor, 8 + n + hlen, d["descr"], d["fortran_order"]


def numpy_load(blob):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return npf.read_array(io.BytesIO(blob))


GOOD = {}  # name -> (file bytes, expected array as NumPy reads it, note)


def good(name, blob, expect_array, resave_array=None, note=""):
    a = numpy_load(blob)
    # NumPy must read back exactly what the test expects.
    assert a.shape == expect_array.shape, name
    if a.dtype.kind == "V":  # NumPy reads bfloat16 as raw 2-byte voids
        assert a.tobytes() == np.ascontiguousarray(expect_array).tobytes(), name
    else:
        assert le_bytes(a) == le_bytes(expect_array), name
    GOOD[name] = (blob, expect_array, expect_array if resave_array is None else resave_array, note)


def sample(dt):
    """Distinctive values: extremes, signed zeros, nan and infinities."""
    if dt.kind == "b":
        return np.array([[True, False, False], [True, True, False]])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [info.min, info.max, 0, 1, info.max // 3, info.min + 1 if dt.kind == "i" else 128]
        return np.array(vals, dtype=dt).reshape(2, 3)
    if dt.kind == "c":
        f = np.finfo(dt)
        return np.array([complex(1.5, -2.25), complex(np.nan, 0.0), complex(np.inf, -np.inf),
                         complex(-0.0, 0.0), complex(f.max, f.tiny), complex(0.1, -1e-3)], dtype=dt)
    if dt == BF16:
        vals = [0.0, -0.0, 1.5, -2.25, np.nan, np.inf, -np.inf, 3.3895e38, 1.1755e-38, 0.1]
        return np.array(vals, dtype=np.float32).astype(BF16).reshape(2, 5)
    f = np.finfo(dt)
    vals = [0.0, -0.0, 1.5, -2.25, np.nan, np.inf, -np.inf, f.max, f.tiny, f.smallest_subnormal]
    return np.array(vals, dtype=dt).reshape(2, 5)


DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]


def make_good():
    for n in DTYPES:
        dt = BF16 if n == "bfloat16" else np.dtype(n)
        a = sample(dt)
        good(f"dtype_{n}", np_save_bytes(a), a)

    f2 = np.asfortranarray((np.arange(12, dtype=np.float32) * 1.5 - 4).reshape(3, 4))
    good("forder_2d_float32", np_save_bytes(f2), f2)
    f3 = np.asfortranarray((np.arange(24, dtype=np.int16) * 37 - 300).reshape(2, 3, 4))
    good("forder_3d_int16", np_save_bytes(f3), f3)
    fc = np.asfortranarray(np.array([[1 + 2j, 3 - 4j], [-5j, 6]], dtype=np.complex128))
    good("forder_2d_complex128", np_save_bytes(fc), fc)

    z = np.array(3.25)
    good("scalar_0d_float64", np_save_bytes(z), z)
    zb = np.array(True)
    good("scalar_0d_bool", np_save_bytes(zb), zb)
    e1 = np.zeros((0,), dtype=np.float32)
    good("empty_1d_float32", np_save_bytes(e1), e1)
    e3 = np.zeros((2, 0, 3), dtype=np.int64)
    good("empty_3d_int64", np_save_bytes(e3), e3)

    base = np.arange(24, dtype=np.float64).reshape(4, 6) * 0.5 - 3
    good("base_float64_4x6", np_save_bytes(base), base)
    base3 = (np.arange(24, dtype=np.int16) * 5 - 40).reshape(2, 3, 4)
    good("base_int16_2x3x4", np_save_bytes(base3), base3)

    v2 = np.linspace(-1, 1, 7, dtype=np.float32)
    good("version_2_0", np_save_bytes(v2, (2, 0)), v2)
    v3 = np.arange(5, dtype=np.uint16) * 1000
    good("version_3_0", np_save_bytes(v3, (3, 0)), v3)
    v2f = np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3))
    good("version_2_0_forder", np_save_bytes(v2f, (2, 0)), v2f)

    be = (np.arange(6, dtype=np.float64) * -1.25).reshape(2, 3)
    be[0, 1] = np.nan
    good("bigendian_float64", np_save_bytes(be.astype(">f8")), be)
    bc = np.array([1.5 - 2j, -0.0 + np.inf * 1j, 3], dtype=np.complex64)
    good("bigendian_complex64", np_save_bytes(bc.astype(">c8")), bc)
    bi = np.array([-2, 70000, 2**31 - 1, -(2**31)], dtype=np.int32)
    good("bigendian_int32", np_save_bytes(bi.astype(">i4")), bi)
    bh = np.asfortranarray(np.array([[1.0, -2.0, 65504.0], [0.5, -0.0, np.inf]], dtype=np.float16))
    good("bigendian_forder_float16", np_save_bytes(bh.astype(">f2", order="F")), bh)
    bb = sample(BF16)
    bbe = bb.astype(BF16.newbyteorder(">"))
    assert np_save_bytes(bbe)[10:60].find(b"'>V2'") >= 0
    good("bigendian_bfloat16", np_save_bytes(bbe), bbe, resave_array=bb)

    # A bool array holding bytes other than 0 and 1 (NumPy keeps them; cupp
    # reads any non-zero byte as True, so that bool values are always 0/1).
    nb = np.frombuffer(bytes([0, 1, 2, 255]), dtype=np.bool_)
    good("bool_nonzero_bytes", np_save_bytes(nb), np.array([False, True, True, True]))

    # Headers NumPy reads although np.save never writes them this way.
    body = np.arange(3, dtype=np.float32) - 1
    data = body.tobytes()

    def hand(name, header, a=body, d=data, version=(1, 0)):
        good(name, raw_npy(header, d, version), a)

    hand("hdr_double_quotes", '{"descr": "<f4", "fortran_order": False, "shape": (3,)}')
    hand("hdr_key_order", "{'shape': (3,), 'fortran_order': False, 'descr': '<f4'}")
    hand("hdr_whitespace", "{ 'descr' :'<f4' ,\n\t'fortran_order':False,'shape':( 3 , ) , }")
    hand("hdr_native_order", "{'descr': '=f4', 'fortran_order': False, 'shape': (3,), }")
    hand("hdr_pipe_order", "{'descr': '|f4', 'fortran_order': False, 'shape': (3,), }")
    hand("hdr_no_order", "{'descr': 'f4', 'fortran_order': False, 'shape': (3,), }")
    hand("hdr_char_code", "{'descr': 'f', 'fortran_order': False, 'shape': (3,), }")
    hand("hdr_type_name", "{'descr': 'float32', 'fortran_order': False, 'shape': (3,), }")
    hand("hdr_python2_long", "{'descr': '<f4', 'fortran_order': False, 'shape': (3L,), }")
    hand("hdr_bool_lt", "{'descr': '<b1', 'fortran_order': False, 'shape': (2,), }",
         np.array([True, False]), b"\x01\x00")
    hand("hdr_int8_gt", "{'descr': '>i1', 'fortran_order': False, 'shape': (2,), }",
         np.array([-1, 5], dtype=np.int8), b"\xff\x05")
    hand("hdr_trailing_bytes", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
         body, data + b"extra bytes after the array")
    hand("hdr_fortran_1d", "{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }")
    hand("hdr_version_3_utf8", "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
         version=(3, 0))


def write_good():
    (OUT / "good").mkdir(parents=True)
    (OUT / "ref").mkdir(parents=True)
    for name, (blob, a, resave, note) in GOOD.items():
        (OUT / "good" / f"{name}.npy").write_bytes(blob)
        major, minor, offset, descr, fortran_order = header_info(blob)
        ref = np_save_bytes(resave)
        if ref == blob:
            resave_path = f"good/{name}.npy"
        else:
            resave_path = f"ref/{name}.npy"
            (OUT / resave_path).write_bytes(ref)
        stored = numpy_load(blob)
        big = descr.startswith(">") and np.dtype(descr.replace("V2", "u2")).itemsize > 1
        lines = [
            f"dtype {cupp_name(a.dtype)}",
            "shape " + " ".join(str(s) for s in a.shape),
            f"fortran_order {int(fortran_order)}",
            f"f_layout {int(stored.flags.f_contiguous and not stored.flags.c_contiguous)}",
            f"version {major} {minor}",
            f"big_endian {int(big)}",
            f"data_offset {offset}",
            f"data {le_bytes(a).hex() or '-'}",
            f"resave {resave_path}",
        ]
        (OUT / "good" / f"{name}.txt").write_text("\n".join(lines) + "\n")


def write_views():
    """Views of good files: cupp must save them as np.save does."""
    lines = ["# name base offset_bytes ndim shape... strides...  (ref/NAME.npy is np.save(view))"]
    bases = {
        "base_float64_4x6": np.load(OUT / "good" / "base_float64_4x6.npy"),
        "base_int16_2x3x4": np.load(OUT / "good" / "base_int16_2x3x4.npy"),
    }
    b2, b3 = bases["base_float64_4x6"], bases["base_int16_2x3x4"]
    views = {
        "view_transposed": ("base_float64_4x6", b2.T),
        "view_strided": ("base_float64_4x6", b2[::2, 1::2]),
        "view_reversed": ("base_float64_4x6", b2[::-1]),
        "view_reversed_cols": ("base_float64_4x6", b2[:, ::-1]),
        "view_strided_transposed": ("base_float64_4x6", b2[:, ::2].T),
        "view_column": ("base_float64_4x6", b2[:, 2:3]),
        "view_row_transposed": ("base_float64_4x6", b2[1:2, :].T),
        "view_rows": ("base_float64_4x6", b2[1:3]),
        "view3_transposed": ("base_int16_2x3x4", b3.T),
        "view3_permuted": ("base_int16_2x3x4", b3.transpose(1, 0, 2)),
        "view3_slice_f": ("base_int16_2x3x4", b3.T[1:3]),
    }
    for name, (base_name, v) in views.items():
        base = bases[base_name]
        off = v.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        (OUT / "ref" / f"{name}.npy").write_bytes(np_save_bytes(v))
        lines.append(" ".join(str(x) for x in [name, base_name, off, v.ndim, *v.shape, *v.strides]))
    (OUT / "ref" / "views.txt").write_text("\n".join(lines) + "\n")


def write_wrap():
    """Version and total size NumPy picks for long header dicts."""
    lines = ["# dict_length version total_header_bytes"]
    for n in [100, 65000, 65460, 65461, 65470, 65471, 65472, 65526, 65600, 70000]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            h = npf_impl._wrap_header_guess_version(" " * n)
        lines.append(f"{n} {h[6]} {len(h)}")
    (OUT / "ref" / "wrap.txt").write_text("\n".join(lines) + "\n")


BAD = []  # (name, bytes, cupp exception, message piece)


def bad(name, blob, kind, piece):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            npf.read_array(io.BytesIO(blob))
        numpy_says = "loads"
    except Exception as e:  # noqa: BLE001 - any failure is what we record
        numpy_says = f"{type(e).__name__}: {str(e)[:100]!r}"
    BAD.append((name, blob, kind, piece, numpy_says))


def make_bad():
    ok_header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"
    ok = raw_npy(ok_header, b"\0" * 12)
    bad("magic_wrong", b"\x93NUMPX" + ok[6:], "value_error", "the magic string is not correct")
    bad("magic_truncated", ok[:5], "value_error", "EOF: reading magic string")
    bad("empty_file", b"", "value_error", "EOF: reading magic string")
    bad("version_4_0", raw_npy(ok_header, b"\0" * 12, (4, 0)), "value_error", "not (4, 0)")
    bad("version_1_1", b"\x93NUMPY\x01\x01" + ok[8:], "value_error", "not (1, 1)")
    bad("header_len_truncated", ok[:9], "value_error", "EOF: reading array header length")
    bad("header_truncated", ok[:50], "value_error", "EOF: reading array header")
    bad("header_len_huge_v2", raw_npy(ok_header, b"\0" * 12, (2, 0), declared_len=0xFFFFFFF0),
        "value_error", "EOF: reading array header")
    bad("data_truncated", ok[:-5], "value_error", "EOF: reading array data, expected 12 bytes got 7")
    bad("data_missing_huge", raw_npy("{'descr': '<f8', 'fortran_order': False, "
                                     "'shape': (1000000000000,), }", b"\0" * 16),
        "value_error", "EOF: reading array data")
    bad("not_a_dict", raw_npy("[1, 2]"), "value_error", "Header is not a dictionary: [1, 2]")
    bad("not_a_dict_tuple", raw_npy("('descr', '<f4')"), "value_error", "Header is not a dictionary")
    bad("unparsable_unclosed", raw_npy(ok_header[:-2]), "value_error", "Cannot parse header")
    bad("unparsable_garbage", raw_npy("{'descr': <f4, 'fortran_order': False, 'shape': (3,)}"),
        "value_error", "Cannot parse header")
    bad("unparsable_nul", raw_npy("{'descr': '<f4',\0 'fortran_order': False, 'shape': (3,)}"),
        "value_error", "Cannot parse header")
    bad("unparsable_deep", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': " +
                                   "(" * 5000 + "3," + ")" * 5000 + "}"),
        "value_error", "Cannot parse header")
    bad("unparsable_two_values", raw_npy(ok_header + " {}"), "value_error", "Cannot parse header")
    bad("missing_key", raw_npy("{'descr': '<f4', 'shape': (3,), }", b"\0" * 12), "value_error",
        "Header does not contain the correct keys: ['descr', 'shape']")
    bad("extra_key", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}",
                             b"\0" * 12),
        "value_error", "Header does not contain the correct keys: ['descr', 'fortran_order', "
                       "'shape', 'x']")
    bad("shape_list", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': [3], }", b"\0" * 12),
        "value_error", "shape is not valid: [3]")
    bad("shape_int", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }", b"\0" * 12),
        "value_error", "shape is not valid: 3")
    bad("shape_str", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': ('3',), }",
                             b"\0" * 12),
        "value_error", "shape is not valid: ('3',)")
    bad("shape_negative", raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }",
                                  b"\0" * 24),
        "value_error", "negative dimensions are not allowed")
    bad("shape_overflow", raw_npy("{'descr': '<f4', 'fortran_order': False, "
                                  "'shape': (99999999999999999999999,), }"),
        "value_error", "array is too big")
    bad("shape_too_big", raw_npy("{'descr': '<f4', 'fortran_order': False, "
                                 "'shape': (1099511627776, 1099511627776), }"),
        "value_error", "array is too big")
    bad("fortran_not_bool", raw_npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (3,), }",
                                    b"\0" * 12),
        "value_error", "fortran_order is not a valid bool: 0")
    bad("descr_invalid", raw_npy("{'descr': 'zz9', 'fortran_order': False, 'shape': (3,), }"),
        "value_error", "descr is not a valid dtype descriptor: 'zz9'")
    bad("descr_not_str", raw_npy("{'descr': 4, 'fortran_order': False, 'shape': (3,), }"),
        "value_error", "descr is not a valid dtype descriptor: 4")
    bad("dtype_object", np_save_bytes(np.array([1, "a", None], dtype=object)), "type_error",
        "object arrays")
    bad("dtype_structured",
        np_save_bytes(np.zeros(2, dtype=[("a", "<i4"), ("b", "<f8")])), "type_error",
        "structured dtype")
    bad("dtype_unicode", np_save_bytes(np.array(["ab", "c"])), "type_error", "'<U2'")
    bad("dtype_float128", raw_npy("{'descr': '<f16', 'fortran_order': False, 'shape': (1,), }",
                                  b"\0" * 16),
        "type_error", "'<f16'")
    bad("dtype_datetime", np_save_bytes(np.array(["2020-01-01"], dtype="M8[D]")), "type_error",
        "'<M8[D]'")
    bad("dtype_plain_void", np_save_bytes(np.zeros(3, dtype="V2")), "type_error", "'|V2'")


def write_bad():
    (OUT / "bad").mkdir(parents=True)
    lines = ["# name exception message-piece   (# what numpy.lib.format.read_array does)"]
    for name, blob, kind, piece, numpy_says in BAD:
        (OUT / "bad" / f"{name}.npy").write_bytes(blob)
        lines.append(f"# numpy: {numpy_says}")
        lines.append(f"{name} {kind} {piece}")
    (OUT / "bad" / "expected.txt").write_text("\n".join(lines) + "\n")


def main():
    if OUT.exists():
        shutil.rmtree(OUT)
    make_good()
    make_bad()
    write_good()
    write_views()
    write_wrap()
    write_bad()
    (OUT / "README").write_text(
        f"Written by tests/generate_npy_fixtures.py with numpy {np.__version__}, "
        f"ml_dtypes {ml_dtypes.__version__}. Do not edit by hand.\n")


if __name__ == "__main__":
    main()
