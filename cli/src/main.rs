//! `plugforge`: the command line of the plugforge-cli library, whose
//! verbs, flags, messages and exit codes are shared with `npx plugforge`
//! and `python -m plugforge`.

use std::process::ExitCode;

fn main() -> ExitCode {
    plugforge_cli::limit_allocator_growth();
    ExitCode::from(plugforge_cli::run(std::env::args_os().skip(1)))
}
