"""libkladder through ctypes: finding the library, its functions' signatures, its errors.

The library is build/libkladder.so (engine/api/kladder.h is its contract). It is found through
KLADDER_LIB (a path), else beside this package's source in a checkout (../../build), else in the
checkout an installed package was built from (_built_from.py, written by the build), else by
the system's loader ("libkladder.so" on its path).
"""
import ctypes
import os

API_VERSION = 1


class KladderError(Exception):
    """A call into libkladder failed; the message names the field or value at fault."""


def _find():
    env = os.environ.get("KLADDER_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "build", "libkladder.so")
    if os.path.exists(built):
        return built
    try:
        from kladder._built_from import LIB
        if os.path.exists(LIB):
            return LIB
    except ImportError:
        pass
    return "libkladder.so"


LAUNCH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)

_P, _S, _I, _Z = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t
_SIGS = {
    "kl_api_version": (_I, []),
    "kl_version": (_S, []),
    "kl_error": (_S, []),
    "kl_db_open": (_P, [_S]),
    "kl_db_close": (None, [_P]),
    "kl_op_new": (_P, [_S]),
    "kl_op_free": (None, [_P]),
    "kl_op_param": (_I, [_P, _S, ctypes.c_double]),
    "kl_op_buffer": (_I, [_P, _S, _S, _S, ctypes.POINTER(_S), _Z]),
    "kl_op_buffer_set": (_I, [_P, _S, _S, _S]),
    "kl_op_tolerance": (_I, [_P, ctypes.c_double, ctypes.c_double]),
    "kl_op_set": (_I, [_P, _S, _S]),
    "kl_op_files": (_I, [_P, _S]),
    "kl_op_rung": (_I, [_P, _I, _S]),
    "kl_rung_unavailable": (_S, [_I]),
    "kl_op_plan": (_I, [_P, ctypes.POINTER(_I), _Z, _S, ctypes.c_ulonglong]),
    "kl_op_checks": (_Z, [_P]),
    "kl_check_name": (_S, [_P, _Z]),
    "kl_check_rung": (_I, [_P, _Z]),
    "kl_check_values": (_S, [_P, _Z]),
    "kl_run_begin": (_P, [_P, _P, _S]),
    "kl_run_id": (_S, [_P]),
    "kl_run_check": (_I, [_P, _Z, LAUNCH, _P]),
    "kl_check_verdict": (_S, [_P, _Z]),
    "kl_check_oracle": (_S, [_P, _Z]),
    "kl_check_shape": (_S, [_P, _Z]),
    "kl_check_detail": (_S, [_P, _Z]),
    "kl_check_first_bad": (ctypes.c_longlong, [_P, _Z]),
    "kl_run_end": (_I, [_P, ctypes.POINTER(_S)]),
    "kl_run_free": (None, [_P]),
    "kl_call_buffers": (_Z, [_P]),
    "kl_call_buffer_name": (_S, [_P, _Z]),
    "kl_call_buffer_dtype": (_S, [_P, _Z]),
    "kl_call_is_output": (_I, [_P, _Z]),
    "kl_call_data": (_P, [_P, _Z]),
    "kl_call_ndims": (_Z, [_P, _Z]),
    "kl_call_dim": (ctypes.c_longlong, [_P, _Z, _Z]),
    "kl_call_padded_dim": (ctypes.c_longlong, [_P, _Z, _Z]),
    "kl_call_param": (_I, [_P, _S, ctypes.POINTER(ctypes.c_double)]),
    "kl_call_check": (_S, [_P]),
    "kl_call_fail": (None, [_P, _S]),
}

_lib = None


def lib():
    """The loaded library, its signatures set; KladderError when it is missing or too old."""
    global _lib
    if _lib is None:
        path = _find()
        try:
            handle = ctypes.CDLL(path)
        except OSError as e:
            raise KladderError("cannot load libkladder (%s): %s; build it with `make` or set "
                               "KLADDER_LIB" % (path, e)) from None
        for name, (res, args) in _SIGS.items():
            f = getattr(handle, name)
            f.restype, f.argtypes = res, args
        if handle.kl_api_version() < API_VERSION:
            raise KladderError("%s has API version %d; this package needs %d"
                               % (path, handle.kl_api_version(), API_VERSION))
        _lib = handle
    return _lib


def text(b):
    return None if b is None else b.decode("utf-8", "replace")


def check(rc):
    """rc of a call that returns -1 (or NULL) on error: raises with kl_error()'s message."""
    if rc is None or (isinstance(rc, int) and rc < 0):
        raise KladderError(text(lib().kl_error()))
    return rc


def enc(s):
    return None if s is None else str(s).encode()
