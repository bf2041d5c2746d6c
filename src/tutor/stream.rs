//! One line of a streamed answer, in either protocol: server-sent events (`data: {json}` lines,
//! `data: [DONE]` at the end) for `/v1/chat/completions`, one JSON object a line (NDJSON, the
//! last with `"done": true`) for Ollama's `/api/chat`. An error can come as the whole reply (a
//! non-200 status with a JSON body) or in the middle of a stream; both give the server's own
//! message ([`error_message`]).
//!
//! Each SSE `data:` line is taken as one event: OpenAI-compatible servers send one line an
//! event (a multi-line event would not parse as JSON, and counts as garbage, which is shown).

use serde_json::Value;

use super::Protocol;

/// What one line says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// More of the answer.
    Piece(String),
    /// The answer is complete.
    End,
    /// The server reports an error: its message.
    Error(String),
    /// Nothing for the answer (an SSE comment, `event:` or `id:` line, an empty line, a chunk
    /// with no content such as the role or a finish reason).
    Skip,
    /// Not the protocol: a line that does not parse.
    Garbage,
}

/// Read one line (without its line ending) of a `protocol` stream.
pub fn parse(protocol: Protocol, line: &str) -> Line {
    let line = line.trim_end_matches('\r');
    match protocol {
        Protocol::OpenAi => sse(line),
        Protocol::Ollama => ndjson(line),
    }
}

fn sse(line: &str) -> Line {
    if line.is_empty() || line.starts_with(':') {
        return Line::Skip;
    }
    let Some(data) = line.strip_prefix("data:") else {
        let field = line.split(':').next().unwrap_or("");
        return match field {
            "event" | "id" | "retry" => Line::Skip,
            _ => Line::Garbage,
        };
    };
    let data = data.strip_prefix(' ').unwrap_or(data);
    if data.trim() == "[DONE]" {
        return Line::End;
    }
    let Ok(value) = serde_json::from_str::<Value>(data) else {
        return Line::Garbage;
    };
    if let Some(message) = error_in(&value) {
        return Line::Error(message);
    }
    match value["choices"][0]["delta"]["content"].as_str() {
        Some(piece) if !piece.is_empty() => Line::Piece(piece.to_string()),
        _ if value["choices"].is_array() => Line::Skip,
        _ => Line::Garbage,
    }
}

fn ndjson(line: &str) -> Line {
    if line.trim().is_empty() {
        return Line::Skip;
    }
    let Ok(value) = serde_json::from_str::<Value>(line) else {
        return Line::Garbage;
    };
    if let Some(message) = error_in(&value) {
        return Line::Error(message);
    }
    let piece = value["message"]["content"].as_str().unwrap_or("");
    match (value["done"].as_bool(), piece.is_empty()) {
        (Some(true), _) => Line::End,
        (Some(false), false) => Line::Piece(piece.to_string()),
        (Some(false), true) => Line::Skip,
        (None, _) => Line::Garbage,
    }
}

/// The message of an `"error"` member: a string (Ollama) or an object with a `message`
/// (OpenAI, llama.cpp, vLLM).
fn error_in(value: &Value) -> Option<String> {
    let error = value.get("error")?;
    Some(match error {
        Value::String(text) => text.clone(),
        other => other["message"]
            .as_str()
            .map_or_else(|| other.to_string(), str::to_string),
    })
}

/// What a non-200 reply's body says: the JSON error's message, else the body's first line,
/// else the status alone. Raw: the caller cleans and bounds it.
pub fn error_message(status: u16, body: &str) -> String {
    let said = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| error_in(&v).or_else(|| v["message"].as_str().map(str::to_string)))
        .or_else(|| {
            body.lines()
                .find(|l| !l.trim().is_empty())
                .map(str::to_string)
        });
    match said {
        Some(text) => format!("the server answered {status}: {text}"),
        None => format!("the server answered {status} with nothing more"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_lines() {
        let p = |l| parse(Protocol::OpenAi, l);
        let chunk = r#"data: {"choices":[{"delta":{"content":"Hi"}}]}"#;
        assert_eq!(p(chunk), Line::Piece("Hi".into()));
        assert_eq!(
            p(r#"data:{"choices":[{"delta":{"role":"assistant"}}]}"#),
            Line::Skip
        );
        assert_eq!(p("data: [DONE]\r"), Line::End);
        assert_eq!(p(": keep-alive"), Line::Skip);
        assert_eq!(p("event: message"), Line::Skip);
        assert_eq!(p(""), Line::Skip);
        assert_eq!(p("data: {not json"), Line::Garbage);
        assert_eq!(p("<html>"), Line::Garbage);
        assert_eq!(p(r#"data: {"x":1}"#), Line::Garbage);
        let err = r#"data: {"error":{"message":"model \"x\" not found","type":"api_error"}}"#;
        assert_eq!(p(err), Line::Error("model \"x\" not found".into()));
    }

    #[test]
    fn ndjson_lines() {
        let p = |l| parse(Protocol::Ollama, l);
        let piece = r#"{"message":{"role":"assistant","content":"Hi"},"done":false}"#;
        assert_eq!(p(piece), Line::Piece("Hi".into()));
        assert_eq!(
            p(r#"{"message":{"content":""},"done":true,"done_reason":"stop"}"#),
            Line::End
        );
        assert_eq!(
            p(r#"{"error":"model 'x' not found"}"#),
            Line::Error("model 'x' not found".into())
        );
        assert_eq!(p("garbage"), Line::Garbage);
    }

    #[test]
    fn error_replies_give_the_servers_message() {
        let body = r#"{"error":{"message":"model \"nope\" not found, try pulling it first"}}"#;
        assert_eq!(
            error_message(404, body),
            "the server answered 404: model \"nope\" not found, try pulling it first"
        );
        assert_eq!(
            error_message(500, "\n boom\n"),
            "the server answered 500:  boom"
        );
        assert_eq!(
            error_message(502, ""),
            "the server answered 502 with nothing more"
        );
    }
}
