//! The blocking HTTP exchange of one question: POST the body, read the streamed answer line by
//! line, hand each piece on, stop at the end, on cancel, at a bound or at a fault.
//!
//! Why ureq (3, without default features: no TLS, no gzip): a well-kept blocking client, so
//! the exchange runs on a plain thread like the experiment worker's jobs instead of bringing a
//! second (async) runtime into a synchronous program; its per-read time limit turns a stalled
//! stream into an error. The SSE and NDJSON readers are a few lines over `BufRead`
//! ([`super::stream`]), so no event-source crate is needed.
//!
//! Bounds and faults: connecting and each read have time limits ([`super::TutorConfig`]); a
//! line is at most [`MAX_LINE`] bytes and the answer at most [`super::MAX_ANSWER_CHARS`]
//! characters; a non-200 reply gives the server's own message ([`super::stream::error_message`]);
//! a line that is not the protocol stops the answer with an error. Every text that leaves here
//! is raw: the worker cleans it for the terminal.
//!
//! A loopback address is never proxied: ureq reads `HTTP_PROXY`, `ALL_PROXY` and their kin
//! from the environment by default, and a proxy there would receive the learner's code and
//! questions. Only an allowed remote host goes through the environment's proxy.

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::config::TutorConfig;
use super::stream::{self, Line};
use super::{MAX_ANSWER_CHARS, Protocol};

/// The longest line of a stream accepted (one SSE event is a few hundred bytes).
pub const MAX_LINE: u64 = 64 * 1024;
/// The most of an error reply's body read.
const MAX_ERROR_BODY: u64 = 16 * 1024;
/// However the stream trickles, one exchange ends after this.
const TOTAL_LIMIT: Duration = Duration::from_secs(600);

/// How an answer ended, when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The server said it was complete.
    Done,
    /// The connection closed without the end mark (some servers do); what came is kept.
    Closed,
    /// The learner cancelled it.
    Cancelled,
    /// It grew past [`MAX_ANSWER_CHARS`] and was cut there.
    TooLong,
}

/// Why an exchange failed. Raw text: cleaned where it is shown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    #[error("no tutor server answers at {0}: is it running? (for Ollama: ollama serve)")]
    NoServer(String),
    #[error("the tutor server at {0} went silent for {1} s; ask again, or check the server")]
    Stalled(String, u64),
    #[error("{0}")]
    Server(String),
    #[error("the tutor server's reply is not the {0} protocol: {1}")]
    Garbage(&'static str, String),
    #[error("the exchange with the tutor server failed: {0}")]
    Other(String),
}

/// Ask: POST `body` to the configured server and hand each piece of the answer to `piece` as
/// it arrives, until it ends, `cancel` is set, or it fails.
pub fn ask(
    config: &TutorConfig,
    body: &serde_json::Value,
    cancel: &AtomicBool,
    piece: &mut dyn FnMut(&str),
) -> Result<Ending, Fault> {
    let agent = agent(config);
    let url = config.endpoint.chat_url(config.protocol);
    let bytes = serde_json::to_vec(body).map_err(|e| Fault::Other(e.to_string()))?;
    let accept = match config.protocol {
        Protocol::OpenAi => "text/event-stream",
        Protocol::Ollama => "application/x-ndjson",
    };
    let reply = agent
        .post(&url)
        .header("Content-Type", "application/json")
        .header("Accept", accept)
        .send(&bytes[..])
        .map_err(|e| fault(config, e))?;
    let status = reply.status().as_u16();
    let mut reader = reply
        .into_body()
        .into_with_config()
        .limit(u64::MAX)
        .reader();
    if status != 200 {
        let mut text = Vec::new();
        let _ = (&mut reader).take(MAX_ERROR_BODY).read_to_end(&mut text);
        return Err(Fault::Server(stream::error_message(
            status,
            &String::from_utf8_lossy(&text),
        )));
    }
    read_stream(config, BufReader::new(reader), cancel, piece)
}

/// The agent for `config`: time limits, no proxy for loopback, statuses as replies.
fn agent(config: &TutorConfig) -> ureq::Agent {
    let builder = ureq::Agent::config_builder()
        .timeout_connect(Some(config.connect_timeout))
        .timeout_per_read(Some(config.read_timeout))
        .timeout_global(Some(TOTAL_LIMIT))
        .http_status_as_error(false)
        .max_redirects(0)
        .user_agent(concat!("cuda-academy/", env!("CARGO_PKG_VERSION")));
    let builder = if config.endpoint.loopback {
        builder.proxy(None)
    } else {
        builder
    };
    builder.build().new_agent()
}

/// Read the stream's lines until it ends.
fn read_stream(
    config: &TutorConfig,
    mut reader: impl BufRead,
    cancel: &AtomicBool,
    piece: &mut dyn FnMut(&str),
) -> Result<Ending, Fault> {
    let protocol_name = match config.protocol {
        Protocol::OpenAi => "server-sent events",
        Protocol::Ollama => "Ollama NDJSON",
    };
    let mut chars = 0usize;
    let mut line = Vec::new();
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Ok(Ending::Cancelled);
        }
        line.clear();
        let n = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line);
        // A read that ends in a time limit after a cancel is the cancel's.
        let n = match n {
            Err(_) if cancel.load(Ordering::Relaxed) => return Ok(Ending::Cancelled),
            other => other.map_err(|e| io_fault(config, e))?,
        };
        if n == 0 {
            return Ok(Ending::Closed);
        }
        if line.len() as u64 > MAX_LINE {
            let what = format!("a line longer than {MAX_LINE} bytes");
            return Err(Fault::Garbage(protocol_name, what));
        }
        if cancel.load(Ordering::Relaxed) {
            return Ok(Ending::Cancelled);
        }
        let text = String::from_utf8_lossy(&line);
        match stream::parse(config.protocol, text.trim_end_matches('\n')) {
            Line::Piece(text) => {
                let room = MAX_ANSWER_CHARS - chars;
                let count = text.chars().count();
                if count > room {
                    let kept: String = text.chars().take(room).collect();
                    piece(&kept);
                    return Ok(Ending::TooLong);
                }
                chars += count;
                piece(&text);
            }
            Line::End => return Ok(Ending::Done),
            Line::Error(message) => return Err(Fault::Server(message)),
            Line::Skip => {}
            Line::Garbage => {
                let shown: String = text.trim_end().chars().take(80).collect();
                return Err(Fault::Garbage(protocol_name, format!("it sent {shown:?}")));
            }
        }
    }
}

/// A request's failure in words.
fn fault(config: &TutorConfig, err: ureq::Error) -> Fault {
    let at = config.endpoint.authority();
    match err {
        ureq::Error::Io(io) => io_fault(config, io),
        ureq::Error::Timeout(_) => Fault::Stalled(at, config.read_timeout.as_secs()),
        ureq::Error::ConnectionFailed | ureq::Error::HostNotFound => Fault::NoServer(at),
        ureq::Error::Protocol(e) => Fault::Garbage("HTTP", e.to_string()),
        other => Fault::Other(other.to_string()),
    }
}

fn io_fault(config: &TutorConfig, err: std::io::Error) -> Fault {
    use std::io::ErrorKind as K;
    let at = config.endpoint.authority();
    match err.kind() {
        K::ConnectionRefused | K::AddrNotAvailable | K::NotFound => Fault::NoServer(at),
        K::TimedOut | K::WouldBlock => Fault::Stalled(at, config.read_timeout.as_secs()),
        _ => {
            // ureq wraps its own errors (a timeout while reading the body) in io::Error.
            match err
                .into_inner()
                .map(|inner| inner.downcast::<ureq::Error>())
            {
                Some(Ok(inner)) => fault(config, *inner),
                Some(Err(inner)) => Fault::Other(inner.to_string()),
                None => Fault::Other("the connection failed".into()),
            }
        }
    }
}
