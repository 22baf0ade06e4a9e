"""ImageNet-C corruptions (issue 49) against the maintained `imagecorruptions`
package from PyPI (`imagecorruptions-imaug`), run on the same base images:

- deterministic corruptions: our pixels lie within half of the reference's mean
  distance from the base, plus 0.3 levels (mean absolute difference over every
  channel). `motion_blur` draws its direction at random; the reference is the
  package's own `_motion_blur` at the direction in its range (-45°..45°) that
  comes closest, found on a 5° then 1° grid.
- noise corruptions: the standard deviation of (corrupted − base) within 15 % of
  the reference's.
- random corruptions with a structure (fog, elastic_transform, and glass_blur and
  snow): the mean absolute change within 0.6–1.6× of the reference's.

Every corruption at severity 3, the deterministic ones also at 1 and 5.
"""

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from imagecorruptions import corrupt
from imagecorruptions import corruptions as reference
from PIL import Image

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))

DETERMINISTIC = ["brightness", "contrast", "saturate", "pixelate", "jpeg_compression",
                 "gaussian_blur", "defocus_blur", "motion_blur", "zoom_blur"]
NOISE = ["gaussian_noise", "shot_noise", "impulse_noise", "speckle_noise"]
SHAPED = ["fog", "elastic_transform", "glass_blur", "snow"]
SEVERITIES = {name: [1, 3, 5] for name in DETERMINISTIC} | {name: [3] for name in NOISE + SHAPED}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("corrupt")
    problems = out / "p.jsonl"
    subprocess.run([BIN, "generate", "--count", "3", "--seed", "49", "--out", str(problems)],
                   check=True)
    values = ",".join(f"{n}-{s}" for n, sev in SEVERITIES.items() for s in sev)
    subprocess.run([BIN, "render", str(problems), "--backend", "cpu", "-q",
                    "--variants", f"corrupt={values}", "--out", str(out / "run")], check=True)
    rows = [json.loads(line) for line in (out / "run" / "manifest.jsonl").read_text().splitlines()]
    skipped = out / "run" / "skipped.jsonl"
    skips = [json.loads(line) for line in skipped.read_text().splitlines()] if skipped.exists() else []
    return out / "run", rows, skips


def load(root, row):
    return np.asarray(Image.open(root / row["image"]).convert("RGB"))


def cases(run):
    root, rows, _ = run
    bases = {r["id"]: r for r in rows if not r["variant"]}
    for r in rows:
        if "corrupt" in r["variant"]:
            name, severity = r["variant"]["corrupt"].rsplit("-", 1)
            base = load(root, bases[r["base_id"]])
            yield r["id"], name, int(severity), base, load(root, r)


def the_reference(name, severity, base):
    np.random.seed(0)
    if name != "motion_blur":
        return corrupt(base, severity=severity, corruption_name=name)
    return base  # chosen against ours in closest_motion_blur


def closest_motion_blur(severity, base, ours):
    radius, sigma = [(10, 3), (15, 5), (15, 8), (15, 12), (20, 15)][severity - 1]
    def at(angle):
        ref = np.uint8(np.clip(reference._motion_blur(base, radius, sigma, angle), 0, 255))
        return np.abs(ours.astype(float) - ref).mean(), ref
    coarse = min(np.arange(-45, 45.1, 5.0), key=lambda a: at(a)[0])
    fine = [a for a in np.arange(coarse - 4, coarse + 4.1, 1.0) if -45 <= a <= 45]
    return at(min(fine, key=lambda a: at(a)[0]))[1]


def test_every_value_was_drawn_or_is_its_base(run):
    _, rows, skips = run
    wanted = {f"{n}-{s}" for n, sev in SEVERITIES.items() for s in sev}
    drawn = [r["variant"]["corrupt"] for r in rows if "corrupt" in r["variant"]]
    # A value is skipped only where it would equal its base: saturate 1-3 on a
    # drawing of greys.
    for s in skips:
        assert s["reason"] == "identical", s
        assert s["variant"]["corrupt"] in {"saturate-1", "saturate-3"}, s
    assert len(drawn) + len(skips) == 3 * len(wanted)
    assert set(drawn) == wanted


def test_deterministic_corruptions_match_the_package(run):
    checked = changed = 0
    for id_, name, severity, base, ours in cases(run):
        if name not in DETERMINISTIC:
            continue
        if name == "motion_blur":
            ref = closest_motion_blur(severity, base, ours)
        else:
            ref = the_reference(name, severity, base)
        b, o, r = (a.astype(float) for a in (base, ours, ref))
        ours_to_ref = np.abs(o - r).mean()
        ref_to_base = np.abs(r - b).mean()
        changed += ref_to_base > 0.5
        assert ours_to_ref <= 0.5 * ref_to_base + 0.3, (id_, ours_to_ref, ref_to_base)
        checked += 1
    assert checked >= 3 * 9 * 3 - 2
    # Not a match of nothing to nothing: nearly every reference changes its base
    # (saturate at 1 leaves a diagram of grey shapes as it is).
    assert changed >= checked - 3, (changed, checked)


def test_noise_has_the_packages_spread(run):
    checked = 0
    for id_, name, severity, base, ours in cases(run):
        if name not in NOISE:
            continue
        ref = the_reference(name, severity, base)
        sd_ours = (ours.astype(float) - base).std()
        sd_ref = (ref.astype(float) - base).std()
        assert abs(sd_ours - sd_ref) <= 0.15 * sd_ref, (id_, sd_ours, sd_ref)
        checked += 1
    assert checked == 3 * 4


def test_shaped_random_corruptions_change_as_much_as_the_packages(run):
    checked = 0
    for id_, name, severity, base, ours in cases(run):
        if name not in SHAPED:
            continue
        ref = the_reference(name, severity, base)
        change_ours = np.abs(ours.astype(float) - base).mean()
        change_ref = np.abs(ref.astype(float) - base).mean()
        assert 0.6 * change_ref <= change_ours <= 1.6 * change_ref, (id_, change_ours, change_ref)
        checked += 1
    assert checked == 3 * 4
