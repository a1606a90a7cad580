//! Errors as the CLI reports them: one line per problem (or JSON), and an
//! exit code that tells refusals from bad usage.

use serde_json::json;

use crate::{EXIT_REFUSED, EXIT_USAGE};
use plugforge_core::{Error, ErrorCode};

pub struct Failure {
    pub code: &'static str,
    pub message: String,
    pub problems: Vec<plugforge_core::Problem>,
    pub exit: u8,
    pub json: bool,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: "usage",
            message: message.into(),
            problems: Vec::new(),
            exit: EXIT_USAGE,
            json: false,
        }
    }

    pub fn io(error: crate::fsio::IoError) -> Self {
        Failure { code: "io", message: error.0, problems: Vec::new(), exit: EXIT_USAGE, json: false }
    }

    pub fn json(mut self, json: bool) -> Self {
        self.json = json;
        self
    }

    pub fn report(self) -> u8 {
        if self.json {
            let error = json!({"code": self.code, "message": self.message, "problems": self.problems});
            println!(
                "{}",
                serde_json::to_string_pretty(&json!({"ok": false, "error": error})).expect("JSON")
            );
        } else {
            eprintln!("error[{}]: {}", self.code, self.message);
        }
        self.exit
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        let exit = match error.code {
            ErrorCode::UnsupportedRuntime | ErrorCode::UnsupportedKind | ErrorCode::InvalidOptions => {
                EXIT_USAGE
            }
            _ => EXIT_REFUSED,
        };
        Failure {
            code: error.code.as_str(),
            message: error.message(),
            problems: error.problems,
            exit,
            json: false,
        }
    }
}
