//! Faults: no server, the server's errors, stalls, garbage, huge and escape-laden text, cancel.

use std::net::TcpListener;
use std::time::Duration;

use cuda_academy::sanitize;
use cuda_academy::tutor::client::Ending;
use cuda_academy::tutor::{MAX_ANSWER_CHARS, Protocol, TutorEvent};

use super::server::{Reply, Server, ask, ask_with, body};

fn failure(event: &TutorEvent) -> String {
    match event {
        TutorEvent::Failed { message, .. } => message.clone(),
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn no_server_is_a_clear_message() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    // The listener is gone: nothing answers on that port.
    let server = Server::start(Reply::Sse(Vec::new()));
    let mut config = server.config(Protocol::OpenAi);
    config.endpoint.port = port;
    let answer = ask(config.clone(), body(&config, "q"));
    let message = failure(&answer.last);
    assert!(
        message.contains("no tutor server answers at 127.0.0.1:"),
        "{message}"
    );
    assert!(message.contains("ollama serve"), "{message}");
}

#[test]
fn a_wrong_model_name_shows_the_servers_message() {
    let json = r#"{"error":{"message":"model \"nope\" not found, try pulling it first","type":"api_error"}}"#;
    let server = Server::start(Reply::Status(404, json.into()));
    let config = server.config(Protocol::OpenAi);
    let message = failure(&ask(config.clone(), body(&config, "q")).last);
    assert_eq!(
        message,
        "the server answered 404: model \"nope\" not found, try pulling it first"
    );
}

#[test]
fn an_error_with_escapes_is_cleaned_and_bounded() {
    let evil = format!(
        "{{\"error\":\"\\u001b]52;c;aGk=\\u0007 {}\"}}",
        "x".repeat(5000)
    );
    let server = Server::start(Reply::Status(500, evil));
    let config = server.config(Protocol::Ollama);
    let message = failure(&ask(config.clone(), body(&config, "q")).last);
    assert!(!message.chars().any(sanitize::is_unsafe), "{message:?}");
    assert!(message.contains(sanitize::REPLACEMENT));
    assert!(message.chars().count() <= cuda_academy::tutor::worker::MAX_ERROR_CHARS);
}

#[test]
fn a_stalled_stream_ends_at_the_read_limit_with_what_came() {
    let server = Server::start(Reply::Stall);
    let mut config = server.config(Protocol::OpenAi);
    config.read_timeout = Duration::from_millis(300);
    let answer = ask(config.clone(), body(&config, "q"));
    assert_eq!(answer.text, "Let me think");
    let message = failure(&answer.last);
    assert!(message.contains("went silent"), "{message}");
}

#[test]
fn cancel_stops_a_stream_that_goes_on() {
    let server = Server::start(Reply::Trickle);
    let config = server.config(Protocol::OpenAi);
    let answer = ask_with(config.clone(), body(&config, "q"), |worker| {
        worker.cancel();
        assert_eq!(worker.running(), None, "the UI is free at once");
    });
    assert_eq!(
        answer.last,
        TutorEvent::Done {
            id: 7,
            ending: Ending::Cancelled
        }
    );
    assert!(answer.pieces < 20_000, "{}", answer.pieces);
}

#[test]
fn cancel_stops_a_stalled_stream() {
    let server = Server::start(Reply::Stall);
    let mut config = server.config(Protocol::OpenAi);
    config.read_timeout = Duration::from_millis(300);
    let answer = ask_with(config.clone(), body(&config, "q"), |worker| worker.cancel());
    assert_eq!(
        answer.last,
        TutorEvent::Done {
            id: 7,
            ending: Ending::Cancelled
        }
    );
}

#[test]
fn garbage_is_an_error_that_shows_a_clean_piece_of_it() {
    let cases: [&[u8]; 3] = [
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n<html>\x1b[2J hello</html>\n",
        b"SSH-2.0-OpenSSH_9.6\r\n",
        b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\ndata: {\"choices\": [\n",
    ];
    for raw in cases {
        let server = Server::start(Reply::Raw(raw.to_vec()));
        let config = server.config(Protocol::OpenAi);
        let message = failure(&ask(config.clone(), body(&config, "q")).last);
        assert!(!message.chars().any(sanitize::is_unsafe), "{message:?}");
        assert!(!message.is_empty());
    }
}

#[test]
fn a_line_longer_than_the_limit_is_refused() {
    let mut raw = b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\ndata: ".to_vec();
    raw.extend(std::iter::repeat_n(b'x', 200_000));
    let server = Server::start(Reply::Raw(raw));
    let config = server.config(Protocol::OpenAi);
    let message = failure(&ask(config.clone(), body(&config, "q")).last);
    assert!(message.contains("a line longer than"), "{message}");
}

#[test]
fn a_huge_answer_is_cut_at_its_bound() {
    let pieces = vec!["y".repeat(3000); 20];
    let server = Server::start(Reply::Sse(pieces));
    let config = server.config(Protocol::OpenAi);
    let answer = ask(config.clone(), body(&config, "q"));
    assert_eq!(answer.text.chars().count(), MAX_ANSWER_CHARS);
    assert_eq!(
        answer.last,
        TutorEvent::Done {
            id: 7,
            ending: Ending::TooLong
        }
    );
}

#[test]
fn escape_laden_answers_reach_the_app_clean() {
    let pieces = [
        "Look at \x1b]52;c;aGk=\x07 line 3",
        "\u{9b}31m red",
        " \u{202E}txt.exe",
        "\r\nnext line\ttab",
    ]
    .map(String::from)
    .to_vec();
    let server = Server::start(Reply::Sse(pieces));
    let config = server.config(Protocol::OpenAi);
    let answer = ask(config.clone(), body(&config, "q"));
    assert!(
        !answer.text.chars().any(sanitize::is_unsafe),
        "{:?}",
        answer.text
    );
    assert!(!answer.text.chars().any(sanitize::is_bidi_control));
    assert!(answer.text.contains("<U+202E>"), "{:?}", answer.text);
    assert!(
        answer.text.contains("\nnext line\ttab"),
        "newlines and tabs stay"
    );
    assert!(answer.text.contains(sanitize::REPLACEMENT));
}
