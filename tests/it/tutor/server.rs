//! A server of the tutor protocols for tests: it accepts connections on 127.0.0.1:0, records
//! each request (request line, headers, body) and answers with the reply the test scripted.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread;
use std::time::Duration;

use cuda_academy::tutor::config::TutorConfig;
use cuda_academy::tutor::{Endpoint, Protocol};

/// One request as the server got it.
#[derive(Debug, Clone)]
pub struct Got {
    pub request_line: String,
    pub headers: Vec<(String, String)>,
    pub body: serde_json::Value,
}

/// What the server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// 200 and server-sent events: one `data:` chunk per piece, then `[DONE]`.
    Sse(Vec<String>),
    /// 200 and NDJSON (Ollama): one line per piece, then `done: true`.
    Ndjson(Vec<String>),
    /// This status with this body (JSON).
    Status(u16, String),
    /// These bytes, as they are, then close.
    Raw(Vec<u8>),
    /// 200, one piece, then silence until the client goes (or a long while).
    Stall,
    /// 200 and a piece every few milliseconds until the client goes.
    Trickle,
}

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
    got: Receiver<Got>,
}

impl Server {
    /// Start a server that answers every connection with `reply`.
    pub fn start(reply: Reply) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, got) = channel();
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let (tx, reply) = (tx.clone(), reply.clone());
                thread::spawn(move || serve(stream, &reply, &tx));
            }
        });
        Server { addr, got }
    }

    /// The next request the server got (waits for it a while).
    pub fn request(&self) -> Got {
        self.got
            .recv_timeout(Duration::from_secs(20))
            .expect("the server got no request")
    }

    /// Requests the server got so far, without waiting.
    pub fn requests_so_far(&self) -> Vec<Got> {
        self.got.try_iter().collect()
    }

    /// A tutor configuration for this server.
    pub fn config(&self, protocol: Protocol) -> TutorConfig {
        TutorConfig {
            endpoint: Endpoint::parse(&format!("http://{}", self.addr)).unwrap(),
            protocol,
            model: "test-model".into(),
            context_tokens: 4096,
            allow_remote: false,
            direct: false,
            connect_timeout: Duration::from_secs(5),
            read_timeout: Duration::from_secs(20),
        }
    }
}

fn serve(stream: TcpStream, reply: &Reply, tx: &Sender<Got>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let Some(got) = read_request(&mut reader) else {
        return;
    };
    let _ = tx.send(got);
    let mut out = stream;
    let _ = answer(&mut out, reply);
}

fn read_request(reader: &mut impl BufRead) -> Option<Got> {
    let mut request_line = String::new();
    reader.read_line(&mut request_line).ok()?;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Got {
        request_line: request_line.trim_end().to_string(),
        headers,
        body: serde_json::from_slice(&body).unwrap_or(serde_json::Value::Null),
    })
}

const OK_SSE: &str =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";

fn sse_chunk(piece: &str) -> String {
    let chunk = serde_json::json!({"choices": [{"index": 0, "delta": {"content": piece}}]});
    format!("data: {chunk}\n\n")
}

fn answer(out: &mut TcpStream, reply: &Reply) -> std::io::Result<()> {
    match reply {
        Reply::Sse(pieces) => {
            out.write_all(OK_SSE.as_bytes())?;
            out.write_all(b"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n")?;
            for piece in pieces {
                out.write_all(sse_chunk(piece).as_bytes())?;
                out.flush()?;
            }
            out.write_all(b"data: [DONE]\n\n")
        }
        Reply::Ndjson(pieces) => {
            out.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n",
            )?;
            for piece in pieces {
                let line = serde_json::json!({"message": {"role": "assistant", "content": piece}, "done": false});
                out.write_all(format!("{line}\n").as_bytes())?;
            }
            out.write_all(
                b"{\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true}\n",
            )
        }
        Reply::Status(code, body) => {
            let head = format!(
                "HTTP/1.1 {code} Error\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            out.write_all(head.as_bytes())?;
            out.write_all(body.as_bytes())
        }
        Reply::Raw(bytes) => out.write_all(bytes),
        Reply::Stall => {
            out.write_all(OK_SSE.as_bytes())?;
            out.write_all(sse_chunk("Let me think").as_bytes())?;
            out.flush()?;
            thread::sleep(Duration::from_secs(30));
            Ok(())
        }
        Reply::Trickle => {
            out.write_all(OK_SSE.as_bytes())?;
            for i in 0..20_000 {
                out.write_all(sse_chunk(&format!("{i} ")).as_bytes())?;
                out.flush()?;
                thread::sleep(Duration::from_millis(5));
            }
            Ok(())
        }
    }
}

/// What a question brought back through the worker: the pieces joined, and the last event.
#[derive(Debug)]
pub struct Answer {
    pub text: String,
    pub pieces: usize,
    pub last: cuda_academy::tutor::TutorEvent,
}

/// Ask `body` of `config` through a [`cuda_academy::tutor::TutorWorker`], calling `after_first`
/// with the worker once the first piece is in (a test cancels there), and wait for the end.
pub fn ask_with(
    config: TutorConfig,
    body: serde_json::Value,
    mut after_first: impl FnMut(&mut cuda_academy::tutor::TutorWorker),
) -> Answer {
    use cuda_academy::tutor::{TutorEvent, TutorWorker};
    let (tx, rx) = channel();
    let mut worker = TutorWorker::new(move |e| {
        let _ = tx.send(e);
    });
    worker.ask(7, config, body);
    let (mut text, mut pieces) = (String::new(), 0);
    loop {
        let event = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the worker went quiet");
        match event {
            TutorEvent::Piece { id, text: piece } => {
                assert_eq!(id, 7);
                text.push_str(&piece);
                pieces += 1;
                if pieces == 1 {
                    after_first(&mut worker);
                }
            }
            last => return Answer { text, pieces, last },
        }
    }
}

/// [`ask_with`] that does nothing on the way.
pub fn ask(config: TutorConfig, body: serde_json::Value) -> Answer {
    ask_with(config, body, |_| {})
}

/// A body of one question with a small grounding, as the app builds it.
pub fn body(config: &TutorConfig, question: &str) -> serde_json::Value {
    use cuda_academy::tutor::grounding::{Budget, Grounding, fit};
    use cuda_academy::tutor::prompt::{Mode, system};
    use cuda_academy::tutor::request;
    let mut g = Grounding::default();
    g.add(
        "Card",
        8,
        "Pinned memory lets the copy engine read the pages directly.".into(),
    );
    g.add(
        "Learner's code",
        9,
        "1 cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s1);".into(),
    );
    let budget = Budget {
        context_tokens: config.context_tokens,
    };
    let fitted = fit(&system(Mode::Socratic), &g, &[], question, budget);
    request::body(
        config.protocol,
        &config.model,
        &fitted,
        config.context_tokens,
    )
}
