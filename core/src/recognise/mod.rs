//! Recognisers: pure text patterns (credentials, URLs) that the build's
//! checks (`credentials.rs`, `urls.rs`) and validate's rules both use, so
//! neither reaches into the other for them.

pub(crate) mod secrets;
pub(crate) mod urls;
