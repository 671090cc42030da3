"""The committed distributable/ is what the build makes from this tree (CI proves it fresh)."""

from conftest import ROOT, needs_firmware

pytestmark = needs_firmware


def test_committed_distributable_equals_a_fresh_build(firmware_dist):
    for name in ("Whist.hex", "Whist.arduboy"):
        committed = ROOT / "distributable" / name
        assert committed.exists(), f"distributable/{name} is missing: run make hex and commit it"
        assert committed.read_bytes() == (firmware_dist / name).read_bytes(), (
            f"distributable/{name} is stale: run make hex and commit it"
        )
