//! The command line's `Host` as calls into a JS host object (`nodeHost`, or
//! the caller's own): each method converts its arguments, calls the JS
//! method of the same name with `this` = the host, and converts the result.

use napi::bindgen_prelude::{FnArgs, FromNapiValue, Function, JsObjectValue, JsValuesTupleIntoVec, Object};
use napi::{Env, Unknown};
use plugforge_core::cli::Host;
use plugforge_core::{BundlePath, Observed, Plan, SourceTree};

use crate::convert::{self, SourceFile};

pub struct JsHost<'a> {
    env: &'a Env,
    host: Object<'a>,
    /// The first error of a method the trait does not let fail, rethrown by `finish`.
    failure: Option<napi::Error>,
}

impl<'a> JsHost<'a> {
    pub fn new(env: &'a Env, host: Object<'a>) -> Self {
        JsHost { env, host, failure: None }
    }

    /// The exit code, or what a host method threw where the trait had no room for it.
    pub fn finish(self, code: u8) -> napi::Result<u32> {
        self.failure.map_or(Ok(code.into()), Err)
    }

    fn call<A: JsValuesTupleIntoVec, R: FromNapiValue>(&self, name: &str, args: A) -> napi::Result<R> {
        let method: Function<A, R> = self.host.get_named_property(name)?;
        method.bind(self.host)?.call(args)
    }

    /// A thrown error becomes its `message`, the `Err(String)` the trait expects.
    fn fallible<A: JsValuesTupleIntoVec, R: FromNapiValue>(&self, name: &str, args: A) -> Result<R, String> {
        let message = |e: napi::Error| self.env.create_error(e).and_then(|e| e.get_named_property("message"));
        self.call(name, args).map_err(|e| message(e).unwrap_or_else(|e| e.reason))
    }

    fn infallible<A: JsValuesTupleIntoVec, R: FromNapiValue + Default>(&mut self, name: &str, args: A) -> R {
        self.call(name, args).unwrap_or_else(|e| {
            self.failure.get_or_insert(e);
            R::default()
        })
    }
}

impl Host for JsHost<'_> {
    fn read_tree(&mut self, dir: &str, exclude: &[String]) -> Result<SourceTree, String> {
        let files: Vec<SourceFile> = self.fallible("readTree", FnArgs::from((dir, exclude.to_vec())))?;
        convert::tree(files).map_err(|e| e.message())
    }

    fn observe(&mut self, root: &str, to_read: &[BundlePath]) -> Result<Observed, String> {
        let to_read = convert::paths(to_read.to_vec());
        self.fallible("observe", FnArgs::from((root, to_read))).map(convert::observed)
    }

    fn apply(&mut self, root: &str, plan: &Plan) -> Result<(), String> {
        self.fallible::<_, Unknown>("apply", FnArgs::from((root, convert::Plan::from(plan)))).map(drop)
    }

    fn create_files(&mut self, dir: &str, tree: &SourceTree) -> Result<(), String> {
        self.fallible::<_, Unknown>("createFiles", FnArgs::from((dir, convert::tree_files(tree)))).map(drop)
    }

    fn exists(&mut self, path: &str) -> bool {
        self.infallible("exists", path)
    }

    fn generated_at(&mut self) -> String {
        self.infallible("generatedAt", ())
    }

    fn home_dir(&mut self) -> Option<String> {
        self.infallible("homeDir", ())
    }

    fn folder_name(&mut self, dir: &str) -> Option<String> {
        self.infallible("folderName", dir)
    }

    fn stdout(&mut self, text: &str) {
        self.infallible::<_, Option<Unknown>>("stdout", text);
    }

    fn stderr(&mut self, text: &str) {
        self.infallible::<_, Option<Unknown>>("stderr", text);
    }

    fn color(&mut self) -> bool {
        self.infallible("color", ())
    }
}
