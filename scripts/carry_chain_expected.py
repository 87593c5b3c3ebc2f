#!/usr/bin/env python3
"""Writes corpus/regressions/carry_chain_u64/carry_chain_u64.{launch,expected}.json:
inputs (edge values and fixed pseudo-random words, 32 threads x 3 u64) and
the results of the kernel's carry chains computed with host integers
(PTX ISA 9.7.2: the carry is the carry out of bit 63 of the add; sub.cc
and subc compute a + ~b + carry-in, carry = no borrow; mad.hi takes the
high 64 bits of the 128-bit product, signed for .s64)."""
import json, os, random

M = (1 << 64) - 1
EDGE = [0, 1, 2, M, 1 << 63, (1 << 63) - 1, 1 << 32, (1 << 32) - 1, M - 1,
        (1 << 33) - 1, 0x8000_0000, 0xffff_ffff_0000_0000]

def s64(x):
    return x - (1 << 64) if x >> 63 else x

def add(a, b, cin):
    s = a + b + cin
    return s & M, s >> 64

def mad(hi, a, b, c, cin, signed=False):
    p = (s64(a) * s64(b)) if signed else a * b
    t = ((p >> 64) if hi else p) & M
    return add(t, c, cin)

def thread(a, b, c):
    out = []
    v, cf = mad(False, a, b, c, 0); out.append(v)            # mad.lo.cc
    v, _ = add(a, c, cf); out.append(v)                      # addc
    v, cf = mad(True, a, b, c, 0); out.append(v)             # mad.hi.cc
    v, cf = mad(False, b, c, a, cf); out.append(v)           # madc.lo.cc
    v, _ = mad(True, a, c, b, cf); out.append(v)             # madc.hi
    v, cf = add(a, b, 0); out.append(v)                      # add.cc
    v, _ = mad(False, a, b, c, cf); out.append(v)            # madc.lo
    v, cf = add(c, ~a & M, 1); out.append(v)                 # sub.cc.s64
    v, cf = mad(True, a, b, c, cf, signed=True); out.append(v)  # madc.hi.cc.s64
    v, _ = add(b, ~c & M, cf); out.append(v)                 # subc.s64
    return out

def main():
    rng = random.Random(29)
    vals = [rng.choice(EDGE) if rng.random() < 0.6 else rng.getrandbits(64) for _ in range(96)]
    outs = []
    for t in range(32):
        outs += thread(*vals[3 * t:3 * t + 3])
    d = os.path.join(os.path.dirname(__file__), "..", "corpus", "regressions", "carry_chain_u64")
    launch = {
        "ptx": "carry_chain_u64.ptx", "kernel": "carry_chain_u64", "grid": [1], "block": [32],
        "buffers": {"in": {"type": "u64", "len": 96, "init": {"bits": [f"0x{v:016x}" for v in vals]}},
                    "out": {"type": "u64", "len": 320, "init": "zeros"}},
        "params": [{"buffer": "in"}, {"buffer": "out"}], "outputs": ["out"]}
    with open(os.path.join(d, "carry_chain_u64.launch.json"), "w") as f:
        json.dump(launch, f, indent=1); f.write("\n")
    with open(os.path.join(d, "carry_chain_u64.expected.json"), "w") as f:
        json.dump({"buffers": {"out": {"type": "u64", "bits": [f"0x{v:016x}" for v in outs]}}}, f, indent=1)
        f.write("\n")

if __name__ == "__main__":
    main()
