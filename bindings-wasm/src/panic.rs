//! No panic crosses into JS as a bare trap. On wasm32 a panic aborts, which
//! JS sees as `RuntimeError: unreachable` with no word of what happened; the
//! panic hook installed at start throws an `Error` with the stable `code`
//! `internal` and the panic's message instead. The throw leaves the Rust
//! frames of that one call behind without unwinding them (what it held is
//! leaked, nothing is corrupted): the instance stays usable for the next
//! call. The Rust runtime counts that panic as still in progress, so a
//! second panic in the same instance skips the hook and surfaces as the bare
//! `RuntimeError` again; the instance still stays usable.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

/// The `code` of the error a panic becomes.
pub const CODE: &str = "internal";

#[wasm_bindgen(start)]
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic without a message");
        let js = js_sys::Error::new(&format!("internal error in plugforge (please report it): {what}"));
        // Setting a property on a fresh, extensible Error object cannot fail.
        let _ = Reflect::set(&js, &"code".into(), &CODE.into());
        let _ = Reflect::set(&js, &"problems".into(), &js_sys::Array::new());
        wasm_bindgen::throw_val(js.into());
    }));
}

/// Test-only, not in the typings: panics, so a test can show the panic
/// arrives as an `internal` error and the next call works.
#[wasm_bindgen(js_name = "__panicForTests", skip_typescript)]
pub fn panic_for_tests() {
    panic!("deliberate panic of __panicForTests");
}
