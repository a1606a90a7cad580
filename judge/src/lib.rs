//! The real agent clients as judges of built bundles. Each runtime's spec
//! says which clients judge its bundles (`Judge::Clients`, each a `Check`:
//! the client, its driver, the driver's arguments, and how its report is
//! read); this crate finds the clients, runs the drivers offline in a
//! throwaway HOME, and reads their reports. `plugforge verify` and the
//! suite's real-client tests (`cli/tests/real_*.rs`) run this one harness.

pub mod driver;
pub mod find;
pub mod install;
pub mod verify;

pub use verify::{BundleVerdict, ClientVerdict, Options, Report, Status, verify};
