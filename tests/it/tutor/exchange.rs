//! Answers that arrive whole, in both protocols, and what the request carried.

use cuda_academy::tutor::client::Ending;
use cuda_academy::tutor::{Protocol, TutorEvent};

use super::server::{Reply, Server, ask, body};

#[test]
fn a_streamed_answer_arrives_piece_by_piece_and_the_request_is_what_was_asked() {
    let pieces = ["What does ", "line 1 ", "wait for?"]
        .map(String::from)
        .to_vec();
    let server = Server::start(Reply::Sse(pieces));
    let config = server.config(Protocol::OpenAi);
    let answer = ask(
        config.clone(),
        body(&config, "why does my second stream wait?"),
    );
    assert_eq!(answer.text, "What does line 1 wait for?");
    assert_eq!(answer.pieces, 3);
    assert_eq!(
        answer.last,
        TutorEvent::Done {
            id: 7,
            ending: Ending::Done
        }
    );

    let got = server.request();
    assert_eq!(got.request_line, "POST /v1/chat/completions HTTP/1.1");
    let header = |name: &str| {
        got.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("content-type").as_deref(), Some("application/json"));
    assert_eq!(header("authorization"), None, "no credential is ever sent");
    assert_eq!(got.body["model"], "test-model");
    assert_eq!(got.body["stream"], true);
    let messages = got.body["messages"].as_array().cloned().unwrap_or_default();
    assert_eq!(messages.len(), 2, "{messages:?}");
    let system = messages[0]["content"].as_str().unwrap_or("");
    assert_eq!(messages[0]["role"], "system");
    assert!(system.contains("guiding question"), "the Socratic prompt");
    assert!(system.contains("## Card\nPinned memory"), "{system}");
    assert!(
        system.contains("## Learner's code\n1 cudaMemcpyAsync"),
        "{system}"
    );
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[1]["content"], "why does my second stream wait?");
    assert!(got.body.get("options").is_none());
}

#[test]
fn ollamas_own_protocol_asks_for_the_window_and_reads_ndjson() {
    let server = Server::start(Reply::Ndjson(vec!["Which ".into(), "stream?".into()]));
    let mut config = server.config(Protocol::Ollama);
    config.context_tokens = 8192;
    let answer = ask(config.clone(), body(&config, "q"));
    assert_eq!(answer.text, "Which stream?");
    assert_eq!(
        answer.last,
        TutorEvent::Done {
            id: 7,
            ending: Ending::Done
        }
    );
    let got = server.request();
    assert_eq!(got.request_line, "POST /api/chat HTTP/1.1");
    assert_eq!(got.body["options"]["num_ctx"], 8192);
    assert_eq!(got.body["stream"], true);
}
