#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz targets (fuzz/seeds/<target>/).

Seeds are tiny valid inputs covering each format the readers accept, so the fuzzer starts from inputs that get
past the header checks instead of having to discover `YUV4MPEG2 W.. H..` by chance. The libvmaf model files in
models/data are a further seed directory of model_loader (scripts/fuzz.sh passes it); the small models written
here reach the same code paths at a fraction of the size, which keeps the fuzzer fast. Rerun after changing this
file: python3 fuzz/seeds/make_seeds.py
"""

import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    d = os.path.join(HERE, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def chroma_size(chroma, w, h):
    return {"420": ((w + 1) // 2, (h + 1) // 2), "422": ((w + 1) // 2, h), "444": (w, h), "mono": (0, 0)}[chroma]


def planes(chroma, w, h, bpc, frame):
    """One frame of samples in file layout: a ramp, so that planes and frames differ."""
    cw, ch = chroma_size(chroma, w, h)
    n = w * h + 2 * cw * ch
    top = (1 << bpc) - 1
    samples = [(frame * 7 + i * 37) % (top + 1) for i in range(n)]
    if bpc > 8:
        return b"".join(struct.pack("<H", s) for s in samples)
    return bytes(samples)


# y4m: every colour-space family, odd sizes, header extras, frame parameters, several frames.
Y4M = [
    ("420_odd_3x3.y4m", "YUV4MPEG2 W3 H3 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG", "420", 3, 3, 8, 2, "FRAME"),
    ("420_default_2x2.y4m", "YUV4MPEG2 W2 H2", "420", 2, 2, 8, 1, "FRAME"),
    ("420paldv_4x2.y4m", "YUV4MPEG2 W4 H2 C420paldv", "420", 4, 2, 8, 1, "FRAME Ip"),
    ("420_p10_3x2.y4m", "YUV4MPEG2 W3 H2 C420p10 F30000:1001", "420", 3, 2, 10, 2, "FRAME"),
    ("420mpeg2_1x1.y4m", "YUV4MPEG2 W1 H1 C420mpeg2", "420", 1, 1, 8, 1, "FRAME"),
    ("422_p12_3x1.y4m", "YUV4MPEG2 W3 H1 C422p12", "422", 3, 1, 12, 1, "FRAME"),
    ("444_p16_2x2.y4m", "YUV4MPEG2 W2 H2 C444p16", "444", 2, 2, 16, 1, "FRAME"),
    ("mono_5x1.y4m", "YUV4MPEG2 W5 H1 Cmono", "mono", 5, 1, 8, 2, "FRAME"),
]
for name, header, chroma, w, h, bpc, frames, marker in Y4M:
    data = (header + "\n").encode()
    for i in range(frames):
        data += (marker + "\n").encode() + planes(chroma, w, h, bpc, i)
    write("y4m_reader", name, data)

# raw: three format bytes as fuzz_targets/raw_reader.rs decodes them, then whole frames (the last one short).
CHROMAS = ["420", "422", "444", "mono"]
BPCS = [8, 10, 12, 16]
RAW = [(3, 3, "420", 8, 2), (4, 2, "422", 10, 1), (2, 2, "444", 12, 1), (5, 1, "mono", 16, 1), (1, 1, "420", 8, 3)]
for w, h, chroma, bpc, frames in RAW:
    head = bytes([w - 1, h - 1, CHROMAS.index(chroma) | (BPCS.index(bpc) << 2)])
    data = head + b"".join(planes(chroma, w, h, bpc, i) for i in range(frames))
    write("raw_reader", f"{chroma}_p{bpc}_{w}x{h}.yuv", data)
write("raw_reader", "420_p8_3x3_short.yuv", bytes([2, 2, 0]) + planes("420", 3, 3, 8, 0) + b"\x01\x02")

# Models: tiny versions of the shapes libvmaf's reader accepts.
SVM = "svm_type nu_svr\nkernel_type rbf\ngamma 0.04\nnr_class 2\ntotal_sv 2\nrho -1.5\nSV\n4 1:0.5 2:0.25 \n-4 1:0.75 \n"


def tiny(**extra):
    d = {
        "model_type": "LIBSVMNUSVR",
        "norm_type": "linear_rescale",
        "slopes": [0.5, 2.0, 3.0],
        "intercepts": [-1.0, 0.1, 0.2],
        "score_clip": [0.0, 100.0],
        "feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score"],
        "model": SVM,
    }
    d.update(extra)
    return d


def dump(v):
    return json.dumps(v, indent=1)


write("model_loader", "single.json", dump({"param_dict": {"C": 4.0}, "model_dict": tiny()}))
write(
    "model_loader",
    "transform_knots.json",
    dump({"model_dict": tiny(score_transform={"enabled": True, "knots": [[0, 0], [50, 60], [100, 100]], "out_lte_in": "true"})}),
)
write(
    "model_loader",
    "transform_poly_opts.json",
    dump(
        {
            "model_dict": tiny(
                score_transform={"p0": 1.7, "p1": 1.72, "p2": -0.007, "out_gte_in": "true"},
                feature_opts_dicts=[{"adm_enhn_gain_limit": 1.0}, {"motion_force_zero": True}],
                norm_type="none",
                chroma_correction_parameter=0.5,
            )
        }
    ),
)
poly = SVM.replace("kernel_type rbf", "kernel_type polynomial\ndegree 3\ncoef0 0.5")
write("model_loader", "kernel_poly.json", dump({"model_dict": tiny(model=poly)}))
boot = tiny(model_type="BOOTSTRAP_LIBSVMNUSVR")
write("model_loader", "bootstrap.json", dump({"0": {"model_dict": boot}, "1": {"model_dict": boot}, "2": {"model_dict": boot}}))
