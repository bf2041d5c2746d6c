//! The tutor (issue 31): a Socratic helper for this course, answered by a model the learner runs
//! on their own machine (Ollama, llama.cpp's `llama-server`, vLLM), and by nothing else.
//!
//! Off until asked: no request is ever made unless [`config`] finds an endpoint (`[tutor]` in
//! the config file or `CUDA_ACADEMY_TUTOR_URL` and `CUDA_ACADEMY_TUTOR_MODEL`), and only a
//! loopback address is accepted unless the learner set `allow_remote = true`.
//!
//! | file | its job |
//! |---|---|
//! | [`config`] | where the settings come from and what they say ([`Setup`]) |
//! | [`endpoint`] | the server's URL: parsed, loopback or not, the path of each protocol |
//! | [`prompt`] | the system prompt: Socratic by default, direct on the learner's switch |
//! | [`grounding`] | what the app knows, in sections, fitted to the model's window ([`Budget`]) |
//! | [`request`] | the JSON body for `/v1/chat/completions` (SSE) or Ollama's `/api/chat` (NDJSON) |
//! | [`summary`] | the timeline in words: per stream what ran when, and the overlaps |
//! | [`stream`] | one line of a streamed answer: a piece, the end, or the server's error |
//! | [`client`] | the blocking HTTP exchange (ureq): time limits, no proxy for loopback, bounds |
//! | [`worker`] | the thread the exchange runs on, so the UI never waits; cancel |
//! | [`conversation`] | the turns of one card's or exercise's conversation, bounded |
//! | [`store`] | those conversations in the state folder, written atomically |

pub mod client;
pub mod config;
pub mod conversation;
pub mod endpoint;
pub mod grounding;
pub mod prompt;
pub mod request;
pub mod store;
pub mod stream;
pub mod summary;
pub mod worker;

pub use config::{Protocol, Setup, TutorConfig};
pub use conversation::{Conversation, Role, Turn};
pub use endpoint::Endpoint;
pub use grounding::{Budget, Fitted, Grounding, Section};
pub use worker::{TutorEvent, TutorWorker};

/// The most an answer may grow to (characters): a model that never stops, or a server that
/// streams garbage, is cut here and the answer says so.
pub const MAX_ANSWER_CHARS: usize = 16_000;

/// The most a question may be (characters): the input line refuses more.
pub const MAX_QUESTION_CHARS: usize = 2_000;
