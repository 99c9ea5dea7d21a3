"""ptxi — run NVIDIA PTX kernels on the CPU with numpy arrays.

A thin ctypes layer over libptxi's C API (ptxi.h):

    m = ptxi.Module(ptx_text_or_path)
    outs = m.launch("kernel", grid=..., block=..., cluster=..., smem=...,
                    args=[numpy arrays, scalars, ptxi.TensorMap.tiled(...)])

`launch` returns, for every numpy array among the arguments, a new array
of the same dtype and shape holding the device buffer after the kernel
ran (the inputs are not modified).  Scalars are converted to the type the
entry's .param list declares.  A kernel that faults, deadlocks, runs past
its limits, or a launch ptxi refuses, raises a PtxiError subclass whose
`report` is ptxi's full report (where, which rule, where every warp is).

`run_triton` runs a kernel compiled by Triton from its artifacts (the PTX
text, its metadata and the call's arguments), expanding host tensor
descriptors as Triton passes them.
"""
import ctypes
import ctypes.util
import json
import os
import struct
import threading

import numpy as np

__all__ = [
    "Module", "TensorMap", "TensorDescriptor", "run_triton", "PtxiError", "ParseError",
    "LaunchFailed", "Fault", "Deadlock", "Trap", "StepLimit", "Interrupted", "Unsupported",
    "LaunchError", "library_path", "version",
]

# ---- the shared library ------------------------------------------------------

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("PTXI_LIBRARY")
    if env:
        yield env
    tree = os.path.normpath(os.path.join(_HERE, "..", ".."))
    for b in ("build", os.environ.get("B", "build")):
        yield os.path.join(tree, b, "libptxi.so")
    found = ctypes.util.find_library("ptxi")
    if found:
        yield found
    yield "libptxi.so.0"


def _load():
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError("ptxi: libptxi.so not found (set PTXI_LIBRARY, build the tree with `make`, "
                      "or `make install`); tried: " + "; ".join(errors or ["nothing found"]))


_lib, library_path = _load()

_c_p = ctypes.c_void_p
_u64 = ctypes.c_uint64
_sigs = {
    "ptxi_version": (ctypes.c_char_p, []),
    "ptxi_status_name": (ctypes.c_char_p, [ctypes.c_int]),
    "ptxi_module_load": (ctypes.c_int, [ctypes.c_char_p, ctypes.POINTER(_c_p)]),
    "ptxi_module_load_text": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_c_p)]),
    "ptxi_module_errmsg": (ctypes.c_char_p, [_c_p]),
    "ptxi_module_nentries": (ctypes.c_int, [_c_p]),
    "ptxi_module_entry": (ctypes.c_char_p, [_c_p, ctypes.c_int]),
    "ptxi_module_nparams": (ctypes.c_int, [_c_p, ctypes.c_char_p]),
    "ptxi_module_param": (ctypes.c_int, [_c_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p),
                                         ctypes.POINTER(_u64), ctypes.POINTER(ctypes.c_int)]),
    "ptxi_module_free": (None, [_c_p]),
    "ptxi_launch_new": (_c_p, [_c_p, ctypes.c_char_p]),
    "ptxi_launch_free": (None, [_c_p]),
    "ptxi_launch_shape": (ctypes.c_int, [_c_p, ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
                                         ctypes.POINTER(ctypes.c_uint), ctypes.c_uint]),
    "ptxi_launch_buffer": (ctypes.c_int, [_c_p, ctypes.c_char_p, _u64, _c_p]),
    "ptxi_launch_tensor_map": (ctypes.c_int, [_c_p, ctypes.c_char_p]),
    "ptxi_launch_param": (ctypes.c_int, [_c_p, ctypes.c_char_p, _u64]),
    "ptxi_launch_param_pointer": (ctypes.c_int, [_c_p, ctypes.c_char_p, _u64]),
    "ptxi_launch_param_tensor_map": (ctypes.c_int, [_c_p, ctypes.c_char_p]),
    "ptxi_launch_param_json": (ctypes.c_int, [_c_p, ctypes.c_char_p]),
    "ptxi_launch_limits": (ctypes.c_int, [_c_p, _u64, ctypes.c_double]),
    "ptxi_launch_option": (ctypes.c_int, [_c_p, ctypes.c_char_p, ctypes.c_char_p]),
    "ptxi_launch_run": (ctypes.c_int, [_c_p]),
    "ptxi_launch_interrupt": (None, [_c_p]),
    "ptxi_launch_report": (ctypes.c_char_p, [_c_p]),
    "ptxi_launch_errmsg": (ctypes.c_char_p, [_c_p]),
    "ptxi_launch_steps": (_u64, [_c_p]),
    "ptxi_launch_read": (ctypes.c_int, [_c_p, ctypes.c_char_p, _c_p, _u64]),
}
for _name, (_res, _args) in _sigs.items():
    _f = getattr(_lib, _name)
    _f.restype = _res
    _f.argtypes = _args


def version():
    """The library's version string."""
    return _lib.ptxi_version().decode()


# ---- errors --------------------------------------------------------------------

(OK, ERROR, NOMEM, FAIL, FAULT, DEADLOCK, UNSUPPORTED, TRAP, LAUNCH_ERROR, STEP_LIMIT,
 INTERRUPTED) = range(11)


class PtxiError(Exception):
    """A ptxi error; `report` holds ptxi's whole report, `status` its kind."""

    def __init__(self, message, report="", status="error"):
        super().__init__(message)
        self.report = report
        self.status = status


class ParseError(PtxiError):
    """The PTX does not parse or validate (the report lists file:line:col errors)."""


class LaunchFailed(PtxiError):
    """The kernel stopped with a run-time error (base class of the kinds below)."""


class Fault(LaunchFailed):
    """A memory, alignment, TMA or mbarrier rule was broken (also data races)."""


class Deadlock(LaunchFailed):
    """Every thread waits and nothing in flight can wake one."""


class Trap(LaunchFailed):
    """trap / brkpt executed."""


class StepLimit(LaunchFailed):
    """The kernel ran past max_steps warp instructions."""


class Interrupted(LaunchFailed):
    """The kernel ran past the timeout."""


class Unsupported(LaunchFailed):
    """An instruction or form ptxi does not execute."""


class LaunchError(LaunchFailed):
    """ptxi refused the launch (shape beyond CUDA's limits, parameters, shared memory)."""


_STOP_CLASS = {FAULT: Fault, DEADLOCK: Deadlock, TRAP: Trap, STEP_LIMIT: StepLimit,
               INTERRUPTED: Interrupted, UNSUPPORTED: Unsupported, LAUNCH_ERROR: LaunchError}


def _s(x):
    return x.decode("utf-8", "replace") if x else ""


# ---- tensor maps ----------------------------------------------------------------

_TMA_DTYPE = {
    np.dtype(np.uint8): "UINT8", np.dtype(np.int8): "UINT8",
    np.dtype(np.uint16): "UINT16", np.dtype(np.int16): "UINT16",
    np.dtype(np.uint32): "UINT32", np.dtype(np.int32): "INT32",
    np.dtype(np.uint64): "UINT64", np.dtype(np.int64): "INT64",
    np.dtype(np.float16): "FLOAT16", np.dtype(np.float32): "FLOAT32", np.dtype(np.float64): "FLOAT64",
}


class TensorMap:
    """A tensor map (cuTensorMapEncodeTiled) over a numpy array, passed by value.

    Sizes are given in numpy order (outermost axis first), as the array's
    shape is; ptxi's launch files list them innermost first."""

    def __init__(self, array, fields):
        self.array = array
        self.fields = fields

    @classmethod
    def tiled(cls, array, box, swizzle="NONE", element_strides=None, interleave="NONE",
              l2_promotion="NONE", oob_fill="NONE", data_type=None):
        if not isinstance(array, np.ndarray):
            raise TypeError("TensorMap.tiled: array must be a numpy array, got %s" % type(array).__name__)
        rank = array.ndim
        if not 1 <= rank <= 5:
            raise ValueError("TensorMap.tiled: rank %d (1 to 5 dimensions)" % rank)
        box = tuple(int(b) for b in (box if np.iterable(box) else (box,)))
        if len(box) != rank:
            raise ValueError("TensorMap.tiled: box has %d sizes, the array %d dimensions" % (len(box), rank))
        dt = data_type or _TMA_DTYPE.get(array.dtype)
        if dt is None:
            raise TypeError("TensorMap.tiled: no tensor-map data type for %s (give data_type=)" % array.dtype)
        es = tuple(element_strides) if element_strides is not None else (1,) * rank
        c = np.ascontiguousarray(array)
        fields = {
            "encode": "tiled", "data_type": dt, "rank": rank,
            "global_dim": [int(d) for d in reversed(c.shape)],
            "global_strides": [int(s) for s in reversed(c.strides[:-1])],
            "box_dim": list(reversed(box)), "element_strides": [int(e) for e in reversed(es)],
            "interleave": interleave, "swizzle": swizzle, "l2_promotion": l2_promotion, "oob_fill": oob_fill,
        }
        return cls(array, fields)


class TensorDescriptor:
    """Triton's host TensorDescriptor (triton.tools.tensor_descriptor): an
    array and the block shape a program loads.  As a kernel argument it
    becomes the tensor map (box = block shape, the swizzle Triton chooses
    for the block's inner row), then the shape (u32 each) and the strides
    in elements (u64 each)."""

    def __init__(self, array, block_shape, swizzle=None, l2_promotion="L2_128B", data_type=None):
        self.array = array
        self.block_shape = tuple(int(b) for b in block_shape)
        if swizzle is None:
            row = min(self.block_shape[-1] * array.dtype.itemsize, 128)
            swizzle = {128: "128B", 64: "64B", 32: "32B"}.get(row, "NONE")
        self.swizzle = swizzle
        self.l2_promotion = l2_promotion
        self.data_type = data_type


# ---- modules and launches ----------------------------------------------------------

_INT_TYPES = {"u8": (8, False), "u16": (16, False), "u32": (32, False), "u64": (64, False),
              "s8": (8, True), "s16": (16, True), "s32": (32, True), "s64": (64, True),
              "b8": (8, False), "b16": (16, False), "b32": (32, False), "b64": (64, False)}


def _dim3(name, v, default=1):
    if v is None:
        v = default
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3 or any(x < 1 for x in v):
        raise ValueError("%s: expected 1 to 3 positive sizes, got %r" % (name, v))
    return (ctypes.c_uint * 3)(*(v + (1,) * (3 - len(v))))


class Module:
    """A parsed PTX module: Module(path) or Module(ptx_text)."""

    def __init__(self, ptx, name=None):
        handle = _c_p()
        if isinstance(ptx, bytes):
            ptx = ptx.decode()
        is_text = "\n" in ptx or ".entry" in ptx or ".version" in ptx
        if is_text:
            st = _lib.ptxi_module_load_text(ptx.encode(), (name or "<ptx>").encode(), ctypes.byref(handle))
        else:
            st = _lib.ptxi_module_load(os.fspath(ptx).encode(), ctypes.byref(handle))
        self._h = handle
        if st == NOMEM:
            raise MemoryError("ptxi: out of memory")
        if st != OK:
            rep = _s(_lib.ptxi_module_errmsg(handle))
            first = rep.strip().splitlines()[0] if rep.strip() else "the PTX does not parse"
            raise ParseError(first, rep, "error")

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            _lib.ptxi_module_free(h)
            self._h = None

    @property
    def entries(self):
        """Names of the module's kernel entries."""
        return [_s(_lib.ptxi_module_entry(self._h, i)) for i in range(_lib.ptxi_module_nentries(self._h))]

    def params(self, kernel):
        """The entry's .param list: [(type, bytes), ...]."""
        k = kernel.encode()
        n = _lib.ptxi_module_nparams(self._h, k)
        if n < 0:
            raise PtxiError("no .entry named %r (entries: %s)" % (kernel, ", ".join(self.entries)))
        out = []
        for i in range(n):
            t, b, p = ctypes.c_char_p(), _u64(), ctypes.c_int()
            _lib.ptxi_module_param(self._h, k, i, ctypes.byref(t), ctypes.byref(b), ctypes.byref(p))
            out.append((_s(t.value), int(b.value)))
        return out

    def launch(self, kernel, grid=1, block=1, cluster=None, smem=0, args=(), max_steps=None, timeout=None,
               contract=True):
        """Run `kernel`; returns a tuple with, for every numpy array in args,
        its buffer after the run (a single array if there is only one).
        contract=False rounds every mul and add on its own, as the PTX
        reads, instead of fusing the pairs ptxas fuses into one fma (as the
        GPU runs them)."""
        decl = self.params(kernel)
        ln = _Launch(self, kernel, decl)
        if not contract:
            ln._check(_lib.ptxi_launch_option(ln.h, b"contract", b"off"), "contract")
        return ln.run(grid, block, cluster, smem, list(args), max_steps, timeout)


class _Launch:
    def __init__(self, module, kernel, decl):
        self.m = module
        self.kernel = kernel
        self.decl = decl
        self.h = _lib.ptxi_launch_new(module._h, kernel.encode())
        if not self.h:
            raise MemoryError("ptxi: out of memory")
        self.arrays = []        # (name, array) in argument order
        self.buffers = {}       # id(array) -> name
        self.nmaps = 0

    def __del__(self):
        if getattr(self, "h", None):
            _lib.ptxi_launch_free(self.h)
            self.h = None

    def _check(self, st, what):
        if st != OK:
            raise PtxiError("%s: %s" % (what, _s(_lib.ptxi_launch_errmsg(self.h))), "", _s(_lib.ptxi_status_name(st)))

    def _buffer(self, a):
        key = id(a)
        if key in self.buffers:
            return self.buffers[key]
        name = "arg%d" % len(self.buffers)
        c = np.ascontiguousarray(a)
        self._check(_lib.ptxi_launch_buffer(self.h, name.encode(), c.nbytes, c.ctypes.data_as(_c_p)),
                    "buffer %s" % name)
        self.buffers[key] = name
        self.arrays.append((name, a))
        return name

    def _tmap(self, tm):
        buf = self._buffer(tm.array)
        name = "tmap%d" % self.nmaps
        self.nmaps += 1
        fields = dict(tm.fields, name=name, global_address={"buffer": buf, "offset": 0})
        self._check(_lib.ptxi_launch_tensor_map(self.h, json.dumps(fields).encode()), "tensor map")
        return name

    def _scalar(self, i, v):
        if i >= len(self.decl):
            raise PtxiError("argument %d: kernel %s has only %d parameters" % (i, self.kernel, len(self.decl)))
        t, nbytes = self.decl[i]
        if t in ("f32", "f64") or isinstance(v, (float, np.floating)) and t in ("b32", "b64"):
            fmt = "<f" if nbytes == 4 else "<d"
            bits = struct.unpack("<I" if nbytes == 4 else "<Q", struct.pack(fmt, float(v)))[0]
            self._check(_lib.ptxi_launch_param(self.h, b"f32" if nbytes == 4 else b"f64", bits),
                        "argument %d" % i)
            return
        if t not in _INT_TYPES or isinstance(v, (float, np.floating)):
            raise TypeError("argument %d: the kernel's parameter %d is .%s (%d bytes); cannot pass %r"
                            % (i, i, t, nbytes, v))
        bits, signed = _INT_TYPES[t]
        v = int(v)
        # .s: signed range; .u: unsigned; .b (untyped bits): either
        lo = -(1 << (bits - 1)) if signed or t[0] == "b" else 0
        hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        if not lo <= v <= hi:
            raise OverflowError("argument %d: %d does not fit the parameter's .%s" % (i, v, t))
        kind = ("s" if signed else "u") + str(bits)
        self._check(_lib.ptxi_launch_param(self.h, kind.encode(), v & ((1 << 64) - 1)), "argument %d" % i)

    def add_args(self, args):
        i = 0   # index in the .param list
        for a in args:
            if isinstance(a, TensorMap):
                self._check(_lib.ptxi_launch_param_tensor_map(self.h, self._tmap(a).encode()), "argument %d" % i)
                i += 1
            elif isinstance(a, TensorDescriptor):
                tm = TensorMap.tiled(a.array, a.block_shape, swizzle=a.swizzle, l2_promotion=a.l2_promotion,
                                     data_type=a.data_type)
                self._check(_lib.ptxi_launch_param_tensor_map(self.h, self._tmap(tm).encode()), "argument %d" % i)
                i += 1
                for d in a.array.shape:
                    self._check(_lib.ptxi_launch_param(self.h, b"u32", int(d)), "descriptor shape")
                    i += 1
                for s in a.array.strides:
                    self._check(_lib.ptxi_launch_param(self.h, b"u64", int(s) // a.array.itemsize),
                                "descriptor strides")
                    i += 1
            elif isinstance(a, np.ndarray):
                self._check(_lib.ptxi_launch_param_pointer(self.h, self._buffer(a).encode(), 0), "argument %d" % i)
                i += 1
            elif isinstance(a, dict):
                # any parameter as a launch file writes it, e.g. {"struct": [...]}
                self._check(_lib.ptxi_launch_param_json(self.h, json.dumps(a).encode()), "argument %d" % i)
                i += 1
            else:
                self._scalar(i, a)
                i += 1
        return i

    def _run_interruptibly(self):
        """ptxi_launch_run on a helper thread (ctypes releases the GIL), so
        that Ctrl-C reaches Python: it stops the kernel (with ptxi's report
        of every warp) and raises KeyboardInterrupt."""
        box, finished = {}, threading.Event()

        def work():
            try:
                box["st"] = _lib.ptxi_launch_run(self.h)
            finally:
                finished.set()
        # (an Event, not Thread.join: a join that KeyboardInterrupt broke
        # may report the thread finished while it still runs)
        threading.Thread(target=work, daemon=True).start()
        try:
            while not finished.wait(0.05):
                pass
        except KeyboardInterrupt:
            _lib.ptxi_launch_interrupt(self.h)
            finished.wait()
            report = _s(_lib.ptxi_launch_report(self.h))
            raise KeyboardInterrupt("ptxi: the kernel was stopped\n" + report) from None
        return box["st"]

    def run(self, grid, block, cluster, smem, args, max_steps, timeout):
        self._check(_lib.ptxi_launch_shape(self.h, _dim3("grid", grid), _dim3("block", block),
                                           _dim3("cluster", cluster) if cluster is not None else None,
                                           int(smem)), "shape")
        n = self.add_args(args)
        if n != len(self.decl):
            raise PtxiError("kernel %s takes %d parameters (%s), the arguments give %d"
                            % (self.kernel, len(self.decl), ", ".join(".%s" % t for t, _ in self.decl), n))
        if max_steps is not None or timeout is not None:
            self._check(_lib.ptxi_launch_limits(self.h, 4000000000 if max_steps is None else int(max_steps),
                                                600.0 if timeout is None else float(timeout)), "limits")
        st = self._run_interruptibly()
        report = _s(_lib.ptxi_launch_report(self.h))
        if st != OK:
            first = report.splitlines()[0] if report else _s(_lib.ptxi_launch_errmsg(self.h))
            first = first[5:] if first.startswith("FAIL ") else first
            cls = _STOP_CLASS.get(st, PtxiError)
            raise cls(first, report, _s(_lib.ptxi_status_name(st)))
        self.report = report
        self.steps = _lib.ptxi_launch_steps(self.h)
        outs = []
        for name, a in self.arrays:
            out = np.empty(a.shape, dtype=a.dtype)
            self._check(_lib.ptxi_launch_read(self.h, name.encode(), out.ctypes.data_as(_c_p), out.nbytes),
                        "read %s" % name)
            outs.append(out)
        return outs[0] if len(outs) == 1 else tuple(outs)


def run_triton(ptx, args, grid, metadata=None, num_warps=None, shared=None, name=None, **kw):
    """Run a kernel compiled by Triton from its artifacts.

    ptx: `compiled.asm["ptx"]` (text) or a path; metadata: `compiled.metadata`
    (or a dict) giving num_warps, shared and name; args: the call's runtime
    arguments as the PTX entry takes them (numpy arrays for tensors,
    ints/floats, TensorDescriptor for host tensor descriptors; constexpr
    arguments are compiled in and not passed).  The two scratch pointers
    Triton appends (global and profile scratch) are passed as 0 when the
    arguments leave them out.  Returns what Module.launch returns."""
    def meta(key, given):
        if given is not None:
            return given
        if metadata is None:
            return None
        return metadata.get(key) if isinstance(metadata, dict) else getattr(metadata, key, None)
    num_warps = meta("num_warps", num_warps) or 4
    shared = meta("shared", shared) or 0
    name = meta("name", name)
    m = Module(ptx)
    if name is None:
        if len(m.entries) != 1:
            raise PtxiError("run_triton: name the kernel (entries: %s)" % ", ".join(m.entries))
        name = m.entries[0]
    decl = m.params(name)
    args = list(args)
    given = sum(1 + 2 * a.array.ndim if isinstance(a, TensorDescriptor) else 1 for a in args)
    args += [0] * max(0, len(decl) - given)
    return m.launch(name, grid=grid, block=32 * int(num_warps), smem=int(shared), args=args, **kw)
