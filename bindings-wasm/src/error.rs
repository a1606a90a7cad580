//! The one mapping from the core's error to the host's: a `js_sys::Error`
//! carrying the stable `code` and every problem with its location.

use js_sys::Reflect;
use plugforge_core::Error;
use wasm_bindgen::JsValue;

/// `err.message` is every problem, one per line; `err.code` is
/// `ErrorCode::as_str()`; `err.problems` is `[{message, location?}]`.
pub fn to_js(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.message());
    let problems = crate::convert::to_js(&error.problems).unwrap_or(JsValue::UNDEFINED);
    // Setting a property on a fresh, extensible Error object cannot fail.
    let _ = Reflect::set(&js, &"code".into(), &error.code.as_str().into());
    let _ = Reflect::set(&js, &"problems".into(), &problems);
    js.into()
}
