//! The one mapping from the core's error to a thrown JS `Error`: `message`
//! (every problem, one per line), `code` (`ErrorCode::as_str()`, public API)
//! and `problems` ([{message, location: {file, line?, column?}}]).

use napi::bindgen_prelude::JsObjectValue;
use napi::{Env, JsValue};
use plugforge_core as engine;

use crate::convert::Problem;

pub fn to_js(env: &Env, error: engine::Error) -> napi::Error {
    let problems: Vec<Problem> = error.problems.iter().map(Problem::from).collect();
    let thrown = env.create_error(napi::Error::from_reason(error.message())).and_then(|mut js| {
        js.set_named_property("code", error.code.as_str())?;
        js.set_named_property("problems", problems)?;
        Ok(napi::Error::from(js.to_unknown()))
    });
    thrown.unwrap_or_else(|failed| failed)
}
