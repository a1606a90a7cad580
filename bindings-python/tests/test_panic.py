"""No panic crosses the binding: a panic inside the engine is raised as a
`PlugforgeError` with `.code == "internal"` (an ordinary `Exception`, not
pyo3's `PanicException`), and the next call works. `_panic_for_tests` (private:
not in the stubs or `plugforge.__all__`) is the deliberate panic path; every
engine call runs in the same guard (src/panic.rs)."""

from __future__ import annotations

import pytest

import plugforge
from plugforge import _plugforge

SOURCE = {"plugforge.json": b'{"name": "p", "version": "1.0.0"}'}


def test_a_panic_is_an_internal_error_and_the_next_call_works() -> None:
    for _ in range(2):
        with pytest.raises(plugforge.PlugforgeError) as raised:
            getattr(_plugforge, "_panic_for_tests")()
        error = raised.value
        assert isinstance(error, Exception)
        assert getattr(error, "code") == "internal"
        assert getattr(error, "problems") == []
        assert str(error).startswith("internal error in plugforge (please report it): deliberate panic")
        build = plugforge.build(SOURCE, targets=["claude-code"])
        assert [b.runtime for b in build.bundles] == ["claude-code"]


def test_the_test_only_entry_is_not_part_of_the_package() -> None:
    assert "_panic_for_tests" not in plugforge.__all__
    assert not hasattr(plugforge, "_panic_for_tests")
