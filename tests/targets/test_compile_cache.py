"""A kept compile is reused only for the very same inputs (generator/targets/compile_cache.py)."""

from pathlib import Path

from generator.targets import compile_cache


def tree(root: Path) -> Path:
    (root / "firmware").mkdir()
    (root / "firmware" / "app.cpp").write_text("int main() {}\n")
    (root / "firmware" / "app.h").write_text("#pragma once\n")
    (root / "scripts").mkdir()
    (root / "scripts" / "avr-build").write_text("avr-gcc -Os\n")
    (root / "gen").mkdir()
    (root / "gen" / "tables.cpp").write_text("const char t[] = {1};\n")
    return root / "gen"


def test_any_input_changed_compiles_again(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    gen = tree(tmp_path)
    first = compile_cache.key(gen, "-DFX")
    assert compile_cache.key(gen, "-DFX") == first
    assert compile_cache.key(gen, "") != first
    for changed in ("firmware/app.h", "gen/tables.cpp", "scripts/avr-build"):
        before = (tmp_path / changed).read_text()
        (tmp_path / changed).write_text(before + "// edited\n")
        assert compile_cache.key(gen, "-DFX") != first, changed
        (tmp_path / changed).write_text(before)
    monkeypatch.setenv("AVR_TUNE", "-O3")
    assert compile_cache.key(gen, "-DFX") != first


def test_a_kept_compile_comes_back_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    avr, again = tmp_path / "avr", tmp_path / "again"
    assert not compile_cache.restore("k", again)
    avr.mkdir()
    for name in compile_cache.KEPT:
        (avr / name).write_text(name)
    compile_cache.store("k", avr)
    assert compile_cache.restore("k", again)
    assert all((again / name).read_text() == name for name in compile_cache.KEPT)
    (tmp_path / "cache" / "whist-arduboy" / "firmware-k" / "Whist.map").unlink()  # half a compile: never used
    assert not compile_cache.restore("k", tmp_path / "third")
