"""The committed distributable/ is what the build makes from this tree (CI proves it fresh)."""

from conftest import ROOT, needs_firmware

pytestmark = needs_firmware


def test_committed_distributable_equals_a_fresh_build(firmware_dist):
    built = sorted(p.relative_to(firmware_dist) for p in firmware_dist.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(ROOT / "distributable") for p in (ROOT / "distributable").rglob("*") if p.is_file())
    assert committed == built, "distributable/ holds other files than the build makes: run make hex and commit it"
    for name in built:
        assert (ROOT / "distributable" / name).read_bytes() == (firmware_dist / name).read_bytes(), (
            f"distributable/{name} is stale: run make hex and commit it"
        )
