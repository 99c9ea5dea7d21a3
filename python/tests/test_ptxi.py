"""Tests of the ptxi Python package: numpy in and out, keyword launch
arguments, tensor maps, the exceptions and their reports, limits, and the
saved Triton artifacts of tests/hw/triton run through run_triton (the
expected bytes were read back from an H100)."""
import json
import os
import sys

import numpy as np
import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
import ptxi  # noqa: E402


def path(*p):
    return os.path.join(ROOT, *p)


def test_readme_example():
    m = ptxi.Module(path("samples", "saxpy.ptx"))
    x = np.arange(1000, dtype=np.float32)
    y = np.ones(1000, dtype=np.float32)
    x_out, y_out = m.launch("saxpy", grid=4, block=256, args=[1000, 2.0, x, y])
    assert np.array_equal(y_out, 2 * x + 1)
    assert np.array_equal(x_out, x)
    assert np.array_equal(y, np.ones(1000, dtype=np.float32)), "the input array was modified"


def test_contract_keyword():
    # (1 + 2^-12)^2 - 1: rounded once (ptxas fuses the mul and the add, as
    # the GPU runs them) 2^-11 + 2^-24; contract=False rounds the product
    # first (a tie to even) and gives 2^-11
    src = (".version 8.0\n.target sm_90a\n.address_size 64\n"
           ".visible .entry k(.param .u64 p, .param .f32 a, .param .f32 c) {\n"
           ".reg .f32 %f<4>; .reg .b64 %rd<2>;\n"
           "ld.param.u64 %rd1, [p]; ld.param.f32 %f1, [a]; ld.param.f32 %f2, [c];\n"
           "mul.f32 %f3, %f1, %f1; add.f32 %f0, %f3, %f2; st.global.f32 [%rd1], %f0; ret; }\n")
    m = ptxi.Module(src, name="contract.ptx")
    a = np.float32(1 + 2.0 ** -12)
    out = np.zeros(1, dtype=np.float32)
    assert m.launch("k", args=[out, a, -1.0])[0] == np.float32(2.0 ** -11 + 2.0 ** -24)
    assert m.launch("k", args=[out, a, -1.0], contract=False)[0] == np.float32(2.0 ** -11)


def test_module_from_text_and_introspection():
    with open(path("samples", "saxpy.ptx")) as f:
        m = ptxi.Module(f.read(), name="saxpy_text.ptx")
    assert m.entries == ["saxpy"]
    assert [t for t, _ in m.params("saxpy")] == ["u32", "f32", "u64", "u64"]


def test_parse_error_carries_the_diagnostics():
    bad = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k() { nonsense; }\n"
    with pytest.raises(ptxi.ParseError) as e:
        ptxi.Module(bad, name="bad.ptx")
    assert "bad.ptx:4:" in str(e.value)
    assert "nonsense" in e.value.report


def test_unknown_kernel_and_wrong_arguments():
    m = ptxi.Module(path("samples", "saxpy.ptx"))
    with pytest.raises(ptxi.PtxiError, match="no .entry named 'nope'"):
        m.launch("nope", args=[])
    with pytest.raises(ptxi.PtxiError, match="takes 4 parameters"):
        m.launch("saxpy", grid=1, block=32, args=[1, 2.0])
    with pytest.raises(OverflowError):
        m.launch("saxpy", grid=1, block=32, args=[-1, 2.0, np.zeros(1, np.float32), np.zeros(1, np.float32)])
    with pytest.raises(TypeError):
        m.launch("saxpy", grid=1, block=32, args=[1.5, 2.0, np.zeros(1, np.float32), np.zeros(1, np.float32)])


def test_keyword_shapes_and_cuda_limits():
    m = ptxi.Module(path("tests", "launch", "ci", "ci.ptx"))
    o = np.zeros(64, dtype=np.int32)
    out = m.launch("hello", grid=(2, 1, 1), block=[32], cluster=(1,), smem=0, args=[o, 5])
    assert np.array_equal(out, np.tile(np.arange(32, dtype=np.int32) + 5, 2))
    with pytest.raises(ptxi.LaunchError) as e:
        m.launch("hello", grid=2147483648, block=32, args=[o, 5])
    assert "above CUDA's limit of 2147483647" in str(e.value)


def test_fault_report():
    m = ptxi.Module(path("tests", "launch", "faults", "faults.ptx"))
    buf = np.zeros(256, dtype=np.uint8)
    with pytest.raises(ptxi.Fault) as e:
        m.launch("global_misaligned", grid=16, block=32, args=[buf, 2])
    assert e.value.status == "fault"
    assert "CTA (" in e.value.report and "faults.ptx:" in e.value.report


def test_step_limit_and_timeout_report_every_warp():
    m = ptxi.Module(path("tests", "launch", "ci", "ci.ptx"))
    flag = np.zeros(1, dtype=np.int32)
    with pytest.raises(ptxi.StepLimit) as e:
        m.launch("spin", grid=1, block=64, args=[flag], max_steps=10000)
    assert "every warp" in e.value.report and "warp 1 lanes 0xffffffff" in e.value.report
    with pytest.raises(ptxi.Interrupted) as e:
        m.launch("spin", grid=1, block=32, args=[flag], max_steps=0, timeout=0.2)
    assert "time limit" in e.value.report


def test_ctrl_c_stops_the_kernel():
    import signal
    import subprocess
    import time
    code = ("import sys, numpy as np; sys.path.insert(0, %r); import ptxi\n"
            "m = ptxi.Module(%r)\n"
            "print('start', flush=True)\n"
            "try:\n"
            "    m.launch('spin', grid=1, block=32, args=[np.zeros(1, np.int32)], max_steps=0, timeout=0)\n"
            "except KeyboardInterrupt as e:\n"
            "    print('interrupted:', 'every warp' in str(e), flush=True)\n"
            % (os.path.join(ROOT, "python"), path("tests", "launch", "ci", "ci.ptx")))
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=dict(os.environ), text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(0.5)
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert "interrupted: True" in out, out


def test_tensor_map_tile_and_deadlock():
    tensor = np.fromfile(path("samples", "data", "tensor_64x32_f32.bin"), dtype=np.float32).reshape(32, 64)
    m = ptxi.Module(path("samples", "tma_tile2d.ptx"))
    dst = np.full(128, -1, dtype=np.float32)   # bytes 0xff
    dst.view(np.uint32)[:] = 0xFFFFFFFF
    tm = ptxi.TensorMap.tiled(tensor, box=(8, 16))
    _, out = m.launch("tma_tile2d", grid=1, block=128, args=[tm, 16, 8, dst])
    want = np.fromfile(path("samples", "expected", "tma_tile2d.dst.bin"), dtype=np.float32)
    assert out.tobytes() == want.tobytes()
    assert np.array_equal(out.reshape(8, 16), tensor[8:16, 16:32])
    # the same map where the kernel never arrives on its mbarrier
    b = ptxi.Module(path("tests", "launch", "broken", "broken.ptx"))
    with pytest.raises(ptxi.Deadlock) as e:
        b.launch("missing_arrive", grid=1, block=64, args=[tm, np.zeros(128, np.float32)])
    assert "1 of 1" in e.value.report


def test_bad_tensor_map_is_refused():
    m = ptxi.Module(path("samples", "tma_tile2d.ptx"))
    tensor = np.zeros((32, 64), dtype=np.float32)
    tm = ptxi.TensorMap.tiled(tensor, box=(8, 512))   # box beyond 256
    with pytest.raises(ptxi.PtxiError) as e:
        m.launch("tma_tile2d", grid=1, block=128, args=[tm, 0, 0, np.zeros(128, np.float32)])
    assert "box_dim" in str(e.value) or "box" in e.value.report


# ---- Triton artifacts (tests/hw/triton: Triton 3.6 PTX, H100 bytes) ----------------

TRITON = path("tests", "hw", "triton")


def hash32(nbytes, seed):
    """FORMAT.md's hash32 initialiser."""
    w = np.arange((nbytes + 3) // 4, dtype=np.uint64)
    x = ((w * 0x9E3779B9) & 0xFFFFFFFF) ^ seed
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    x ^= x >> 16
    return x.astype("<u4").view(np.uint8)[:nbytes].copy()


NP_OF = {"FLOAT16": np.float16, "FLOAT32": np.float32, "BFLOAT16": np.uint16, "UINT8": np.uint8,
         "INT32": np.int32}


def triton_cases():
    with open(os.path.join(TRITON, "cases.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.mark.parametrize("case", triton_cases(), ids=lambda c: c["name"])
def test_triton_artifact(case):
    bufs = {}
    for b in case["buffers"]:
        init = b.get("init", {})
        if "hash32" in init:
            bufs[b["name"]] = hash32(b["bytes"], init["hash32"])
        else:
            bufs[b["name"]] = np.full(b["bytes"], init.get("fill", 0), dtype=np.uint8)
    maps = {t["name"]: t for t in case.get("tensor_maps", [])}
    args, params, i = [], case["params"], 0
    while i < len(params):
        p = params[i]
        if "tensor_map" in p:
            t = maps[p["tensor_map"]]
            shape = tuple(reversed(t["global_dim"]))
            arr = bufs[t["global_address"]["buffer"]].view(NP_OF[t["data_type"]]).reshape(shape)
            bufs[t["global_address"]["buffer"]] = arr
            d = ptxi.TensorDescriptor(arr, tuple(reversed(t["box_dim"])), l2_promotion=t["l2_promotion"],
                                      data_type=t["data_type"])
            assert d.swizzle == t["swizzle"], "Triton's swizzle rule"
            args.append(d)
            i += 1 + 2 * t["rank"]
        elif "pointer" in p:
            args.append(bufs[p["pointer"]])
            i += 1
        else:
            (v,) = p.values()
            args.append(v)
            i += 1
    # Triton appends global and profile scratch: left out, run_triton passes 0
    while args and not isinstance(args[-1], (np.ndarray, ptxi.TensorDescriptor)) and args[-1] == 0:
        args.pop()
    meta = {"num_warps": case["block"][0] // 32, "shared": case.get("dynamic_shared_bytes", 0),
            "name": case["kernel"]}
    with open(os.path.join(TRITON, case["ptx"])) as f:
        ptx = f.read()
    outs = ptxi.run_triton(ptx, args, grid=case["grid"], metadata=meta)
    outs = outs if isinstance(outs, tuple) else (outs,)
    arrays = [a.array if isinstance(a, ptxi.TensorDescriptor) else a for a in args
              if isinstance(a, (np.ndarray, ptxi.TensorDescriptor))]
    # each distinct array once, in order of first use
    seen, order = set(), []
    for a in arrays:
        if id(a) not in seen:
            seen.add(id(a))
            order.append(a)
    by_name = {}
    for name, arr in bufs.items():
        for k, a in enumerate(order):
            if a is arr:
                by_name[name] = outs[k]
    for e in case["expect"]["buffers"]:
        want = np.fromfile(os.path.join(TRITON, e["file"]), dtype=np.uint8)
        got = np.frombuffer(by_name[e["name"]].tobytes(), dtype=np.uint8)
        diff = np.nonzero(got != want)[0]
        assert diff.size == 0, "%s: %d bytes differ, first at %d" % (e["name"], diff.size, diff[0])
