//! The tutor against a server of the protocol that each test starts itself on 127.0.0.1:0
//! (`tutor/server.rs`): streamed answers in both protocols, the server's errors, stalls,
//! garbage, huge and escape-laden text, cancel, and what each request carries. No wall-clock
//! assertion: the time limits are set small where a test needs one to pass, and the tests look
//! at what came back.

// Test helpers may fail loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod exchange;
mod faults;
mod proxy;
mod server;
