//! No panic crosses into Node. A panic is a bug in plugforge, never a
//! verdict on the input; unwinding into the JS engine would abort the whole
//! process, so every entry runs inside [`guard`], which turns a panic into
//! a thrown `Error` with the stable code `internal`. Nothing is left half
//! done on the Rust side (each entry owns its state), so the next call works.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use napi::bindgen_prelude::JsObjectValue;
use napi::{Env, JsValue};
use napi_derive::napi;

/// The `code` of the error a panic becomes.
pub const CODE: &str = "internal";

/// Runs `call`; a panic inside it becomes an `internal` error.
pub fn guard<T>(env: &Env, call: impl FnOnce() -> napi::Result<T>) -> napi::Result<T> {
    catch_unwind(AssertUnwindSafe(call)).unwrap_or_else(|payload| Err(internal(env, payload.as_ref())))
}

fn internal(env: &Env, payload: &(dyn Any + Send)) -> napi::Error {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into());
    let message = format!("internal error in plugforge (please report it): {what}");
    let thrown = env.create_error(napi::Error::from_reason(message)).and_then(|mut js| {
        js.set_named_property("code", CODE)?;
        js.set_named_property("problems", Vec::<String>::new())?;
        Ok(napi::Error::from(js.to_unknown()))
    });
    thrown.unwrap_or_else(|failed| failed)
}

/// Test-only, undocumented in the typings: panics inside the guard, so a
/// test can show the panic arrives as an `internal` error and the next call
/// works. No input reaches it; nothing else calls it.
#[napi(js_name = "__panicForTests", skip_typescript)]
pub fn panic_for_tests(env: &Env) -> napi::Result<()> {
    guard(env, || panic!("deliberate panic of __panicForTests"))
}
