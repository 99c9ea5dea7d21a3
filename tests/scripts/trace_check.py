#!/usr/bin/env python3
"""trace_check.py TRACE.json [NEED...] — validate a `ptxi --trace` file as a
Chrome/Perfetto trace-event file and print one PASS/FAIL line per check
(tests/run.sh protocol; tests/scripts/trace.sh runs it).

Structure checked: the JSON object form with traceEvents; every process
and thread used is named by metadata; complete slices (X) nest properly on
each track and warp tracks hold non-overlapping run/wait slices; every
async begin (b) has one end (e) after it; every flow has one start (s) and
one finish (f), not earlier, each inside a slice of its own track.
NEED words ask for content: copy (a TMA/bulk copy slice), wgmma (a
wgmma.mma_async slice), wait-mbarrier,
wait-bar, flow, phase (an mbarrier phase instant), landed.
"""
import collections
import json
import sys


def main():
    path, need = sys.argv[1], sys.argv[2:]
    tag = sys.argv[1].rsplit('/', 1)[-1]
    fails = []

    def check(name, ok, why):
        print(("PASS trace/%s/%s" % (tag, name)) if ok else ("FAIL trace/%s/%s: %s" % (tag, name, why)))
        if not ok:
            fails.append(name)

    try:
        doc = json.load(open(path))
    except (OSError, ValueError) as e:
        check("json", False, "does not parse: %s" % e)
        return 1
    ev = doc.get("traceEvents") if isinstance(doc, dict) else None
    check("json", isinstance(ev, list) and ev, "no traceEvents list")
    if not isinstance(ev, list):
        return 1
    bad = [e for e in ev if "ph" not in e or "pid" not in e or (e["ph"] != "M" and not isinstance(e.get("ts"), (int, float)))]
    check("fields", not bad, "events without ph/pid/ts: %s" % bad[:3])

    procs = {e["pid"] for e in ev if e["ph"] == "M" and e.get("name") == "process_name"}
    threads = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e.get("name") == "thread_name"}
    used = {(e["pid"], e.get("tid", 0)) for e in ev if e["ph"] != "M"}
    check("processes_named", all(p in procs for p, _ in used), "unnamed pids: %s" % sorted({p for p, _ in used} - procs)[:5])
    check("threads_named", used <= threads, "unnamed tracks: %s" % sorted(used - threads)[:5])

    tracks = collections.defaultdict(list)
    for e in ev:
        if e["ph"] == "X":
            tracks[(e["pid"], e["tid"])].append(e)
    nest_bad, overlap_bad, names_bad = [], [], []
    for key, sl in tracks.items():
        sl.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in sl:
            if e["dur"] < 0:
                nest_bad.append(e)
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"] and not (
                    stack[-1]["ts"] == e["ts"] and stack[-1]["dur"] >= e["dur"]):
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1]["ts"] + stack[-1]["dur"]:
                nest_bad.append((stack[-1], e))
            stack.append(e)
        if key[1] > 0:  # a warp: one state at a time (a zero-length state ends where the next begins)
            seq = sorted(sl, key=lambda e: (e["ts"], e["ts"] + e["dur"]))
            for a, b in zip(seq, seq[1:]):
                if a["ts"] + a["dur"] > b["ts"]:
                    overlap_bad.append((a, b))
            names_bad += [e["name"] for e in sl if e["name"] != "run" and not e["name"].startswith("wait")]
    check("slices_nest", not nest_bad, "slices that overlap without nesting: %s" % nest_bad[:2])
    check("warp_states_sequential", not overlap_bad, "overlapping warp slices: %s" % overlap_bad[:2])
    check("warp_slice_names", not names_bad, "warp slices not run/wait: %s" % names_bad[:3])

    begins, ends = {}, collections.Counter()
    async_bad = []
    for e in ev:
        if e["ph"] == "b":
            k = (e.get("cat"), e["id"])
            if k in begins:
                async_bad.append(("two begins", e))
            begins[k] = e
    for e in ev:
        if e["ph"] == "e":
            k = (e.get("cat"), e["id"])
            ends[k] += 1
            b = begins.get(k)
            if not b or b["ts"] > e["ts"] or b["pid"] != e["pid"]:
                async_bad.append(("end without its begin", e))
    async_bad += [("begin without one end", begins[k]) for k in begins if ends[k] != 1]
    check("async_pairs", not async_bad, str(async_bad[:3]))

    def inside(e):
        return any(s["ts"] <= e["ts"] <= s["ts"] + s["dur"] for s in tracks.get((e["pid"], e["tid"]), []))

    starts = collections.defaultdict(list)
    fins = collections.defaultdict(list)
    for e in ev:
        if e["ph"] == "s":
            starts[e["id"]].append(e)
        elif e["ph"] == "f":
            fins[e["id"]].append(e)
    flow_bad = []
    for i in set(starts) | set(fins):
        if len(starts[i]) != 1 or len(fins[i]) != 1:
            flow_bad.append(("not one s and one f", i))
            continue
        s, f = starts[i][0], fins[i][0]
        if f["ts"] < s["ts"]:
            flow_bad.append(("f before s", s, f))
        if not inside(s) or not inside(f):
            flow_bad.append(("not inside a slice of its track", s, f))
    check("flows", not flow_bad, str(flow_bad[:3]))

    have = {
        "copy": any(e["ph"] == "b" and e.get("cat") == "copy" for e in ev),
        "wgmma": any(e["ph"] == "b" and e.get("cat") == "wgmma" and e["name"].startswith("wgmma.mma_async #") for e in ev),
        "wait-mbarrier": any(e["ph"] == "X" and e["name"].startswith("wait mbarrier") for e in ev),
        "wait-bar": any(e["ph"] == "X" and e["name"].startswith("wait bar.sync") for e in ev),
        "flow": bool(starts),
        "phase": any(e["ph"] == "i" and "phase" in e["name"] for e in ev),
        "landed": any(e["ph"] == "X" and e["name"].startswith("landed") for e in ev),
    }
    for n in need:
        check("has_" + n, have.get(n, False), "no %s in the trace" % n)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
