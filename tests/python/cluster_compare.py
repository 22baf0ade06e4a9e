"""Byte-for-byte comparison of a merged sharded run with one machine's run,
shared by the Ray and Kubernetes tests."""

from pathlib import Path


def same_run(merged: Path, single: Path):
    """The files one machine writes, byte for byte (lmms_eval and README.md name
    their directory: compared with it replaced)."""
    for rel in ["problems.jsonl", "manifest.jsonl", "vlmevalkit/GeomRender.tsv"]:
        assert (merged / rel).read_bytes() == (single / rel).read_bytes(), rel
    for sub, normalise in [("images", False), ("data", False), ("wds", False),
                           ("contact", False), ("lmms_eval", True)]:
        names = sorted(p.relative_to(single / sub) for p in (single / sub).rglob("*") if p.is_file())
        got = sorted(p.relative_to(merged / sub) for p in (merged / sub).rglob("*") if p.is_file())
        assert names, f"{single / sub} is empty"
        assert got == names, f"{sub}/ lists differ"
        for rel in names:
            a, b = (merged / sub / rel).read_bytes(), (single / sub / rel).read_bytes()
            if normalise:
                a = a.replace(str(merged).encode(), b"DIR")
                b = b.replace(str(single).encode(), b"DIR")
            assert a == b, f"{sub}/{rel} differs"
    a = (merged / "README.md").read_text().replace(str(merged), "DIR")
    b = (single / "README.md").read_text().replace(str(single), "DIR")
    assert a == b, "README.md differs"
