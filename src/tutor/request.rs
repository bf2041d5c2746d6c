//! The request body, for each protocol: the fitted system message, the earlier turns and the
//! question as `messages`, with `stream: true`.
//!
//! Over the OpenAI protocol the context window is the server's setting (llama.cpp's `-c`,
//! Ollama's `OLLAMA_CONTEXT_LENGTH`): the protocol has no field for it, and Ollama's
//! `/v1/chat/completions` ignores `options.num_ctx` (its OpenAI-compatibility page says the
//! context size cannot be set there), so nothing is sent that would look like it did. Ollama's
//! own `/api/chat` takes `options.num_ctx` per request: there the window the request was fitted
//! to is asked for.

use serde_json::{Value, json};

use super::Protocol;
use super::grounding::Fitted;

/// The JSON body of one request.
pub fn body(protocol: Protocol, model: &str, fitted: &Fitted, context_tokens: u32) -> Value {
    let mut messages = vec![json!({"role": "system", "content": fitted.system})];
    messages.extend(
        fitted
            .history
            .iter()
            .map(|t| json!({"role": t.role.wire(), "content": t.text})),
    );
    messages.push(json!({"role": "user", "content": fitted.question}));
    match protocol {
        Protocol::OpenAi => json!({
            "model": model,
            "messages": messages,
            "stream": true,
        }),
        Protocol::Ollama => json!({
            "model": model,
            "messages": messages,
            "stream": true,
            "options": {"num_ctx": context_tokens},
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tutor::conversation::{Role, Turn};

    fn fitted() -> Fitted {
        Fitted {
            system: "S".into(),
            history: vec![
                Turn {
                    role: Role::User,
                    text: "q1".into(),
                },
                Turn {
                    role: Role::Assistant,
                    text: "a1".into(),
                },
            ],
            question: "q2".into(),
            cut: Vec::new(),
            estimated_tokens: 1,
        }
    }

    #[test]
    fn messages_run_system_history_question() {
        let body = body(Protocol::OpenAi, "m", &fitted(), 2048);
        let roles: Vec<_> = body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| {
                format!(
                    "{}:{}",
                    m["role"].as_str().unwrap_or("?"),
                    m["content"].as_str().unwrap_or("?")
                )
            })
            .collect();
        assert_eq!(roles, ["system:S", "user:q1", "assistant:a1", "user:q2"]);
        assert_eq!(body["stream"], json!(true));
        assert_eq!(body["model"], json!("m"));
        assert!(
            body.get("options").is_none(),
            "nothing the OpenAI endpoint ignores"
        );
    }

    #[test]
    fn ollama_is_asked_for_the_window() {
        let body = body(Protocol::Ollama, "m", &fitted(), 8192);
        assert_eq!(body["options"]["num_ctx"], json!(8192));
    }
}
