//! The tutor server's address: parsed from the learner's `url`, judged loopback or not, and
//! turned into the address of each protocol's chat path.
//!
//! Only `http://` is accepted: this build has no TLS (the binary's size budget, and a local
//! model needs none). A model on another machine is best reached through an SSH tunnel
//! (`ssh -L 11434:127.0.0.1:11434 host`), which keeps the address loopback; plain `http://` to
//! another host needs `allow_remote = true`, and the pane then says the questions and the code
//! travel unencrypted.
//!
//! `localhost` is taken as `127.0.0.1`, so a name lookup (an `/etc/hosts` entry, a resolver
//! that answers `::1` first where the server listens on IPv4 only) can neither send the
//! learner's code elsewhere nor miss the server.

use std::net::{IpAddr, Ipv4Addr};

use super::Protocol;

/// A parsed server address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The host as it goes into the URL (an IPv6 address in brackets).
    pub host: String,
    pub port: u16,
    /// The path the learner gave, without a trailing `/` (may be empty).
    pub path: String,
    /// Whether the host is this machine (127.0.0.0/8, `::1`, `localhost`).
    pub loopback: bool,
}

/// Why a URL is not one the tutor can use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error(
        "the tutor's url must start with http:// (this build has no TLS; for a model on \
         another machine use an SSH tunnel: ssh -L 11434:127.0.0.1:11434 HOST)"
    )]
    Scheme,
    #[error("the tutor's url has no host")]
    NoHost,
    #[error("the tutor's url has a port that is not a number from 1 to 65535")]
    Port,
    #[error("the tutor's url has a user name or password, which the tutor never sends")]
    Credentials,
}

impl Endpoint {
    /// Parse `url` (`http://HOST[:PORT][/PATH]`).
    pub fn parse(url: &str) -> Result<Endpoint, EndpointError> {
        let rest = url
            .trim()
            .strip_prefix("http://")
            .ok_or(EndpointError::Scheme)?;
        let (authority, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
        if authority.contains('@') {
            return Err(EndpointError::Credentials);
        }
        let (host, port) = split_port(authority)?;
        if host.is_empty() || host == "[]" {
            return Err(EndpointError::NoHost);
        }
        let path = path.split(['?', '#']).next().unwrap_or("");
        let (host, loopback) = judge(host);
        Ok(Endpoint {
            host,
            port,
            path: path.trim_end_matches('/').to_string(),
            loopback,
        })
    }

    /// The full URL of the chat path of `protocol`: the path as given when it already names
    /// it, else the protocol's path added (after a `/v1` the learner wrote, `/chat/completions`
    /// only).
    pub fn chat_url(&self, protocol: Protocol) -> String {
        let path = match protocol {
            Protocol::OpenAi if self.path.ends_with("/chat/completions") => self.path.clone(),
            Protocol::OpenAi if self.path.ends_with("/v1") => {
                format!("{}/chat/completions", self.path)
            }
            Protocol::OpenAi => format!("{}/v1/chat/completions", self.path),
            Protocol::Ollama if self.path.ends_with("/api/chat") => self.path.clone(),
            Protocol::Ollama => format!("{}/api/chat", self.path),
        };
        format!("http://{}:{}{path}", self.host, self.port)
    }

    /// `host:port`, as the pane shows it.
    pub fn authority(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// The host and the port (80 when none is given).
fn split_port(authority: &str) -> Result<(&str, u16), EndpointError> {
    // An IPv6 literal holds colons of its own: the port follows its closing bracket.
    let colon = match authority.rfind(']') {
        Some(end) => authority[end..].find(':').map(|i| end + i),
        None => authority.rfind(':'),
    };
    match colon {
        None => Ok((authority, 80)),
        Some(i) => {
            let port = authority[i + 1..]
                .parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
                .ok_or(EndpointError::Port)?;
            Ok((&authority[..i], port))
        }
    }
}

/// The host to connect to and whether it is loopback. A name other than `localhost` is never
/// loopback here, whatever it resolves to: the judgement must not depend on a lookup.
fn judge(host: &str) -> (String, bool) {
    if host.eq_ignore_ascii_case("localhost") {
        return (Ipv4Addr::LOCALHOST.to_string(), true);
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<IpAddr>() {
        Ok(ip) => (host.to_string(), ip.is_loopback()),
        Err(_) => (host.to_string(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_addresses_are_told_from_others() {
        for url in [
            "http://127.0.0.1:11434",
            "http://127.8.9.10:8080/",
            "http://localhost:11434",
            "http://LOCALHOST",
            "http://[::1]:8080/v1",
        ] {
            assert!(
                Endpoint::parse(url).map(|e| e.loopback) == Ok(true),
                "{url}"
            );
        }
        for url in [
            "http://192.168.1.5:11434",
            "http://10.0.0.1",
            "http://gpu-box:11434",
            "http://localhost.evil.example",
            "http://[::2]:80",
            "http://0.0.0.0:11434",
        ] {
            assert!(
                Endpoint::parse(url).map(|e| e.loopback) == Ok(false),
                "{url}"
            );
        }
    }

    #[test]
    fn localhost_is_connected_to_as_127_0_0_1() {
        let e = Endpoint::parse("http://localhost:11434").map(|e| e.chat_url(Protocol::OpenAi));
        assert_eq!(e, Ok("http://127.0.0.1:11434/v1/chat/completions".into()));
    }

    #[test]
    fn the_chat_path_is_added_once() {
        let url = |u: &str, p| Endpoint::parse(u).map(|e| e.chat_url(p));
        let want = Ok("http://127.0.0.1:8080/v1/chat/completions".to_string());
        assert_eq!(url("http://127.0.0.1:8080", Protocol::OpenAi), want);
        assert_eq!(url("http://127.0.0.1:8080/v1/", Protocol::OpenAi), want);
        assert_eq!(
            url(
                "http://127.0.0.1:8080/v1/chat/completions",
                Protocol::OpenAi
            ),
            want
        );
        assert_eq!(
            url("http://127.0.0.1:11434/", Protocol::Ollama),
            Ok("http://127.0.0.1:11434/api/chat".into())
        );
        assert_eq!(
            url("http://[::1]:9/x/api/chat", Protocol::Ollama),
            Ok("http://[::1]:9/x/api/chat".into())
        );
    }

    #[test]
    fn bad_urls_say_what_is_wrong() {
        assert_eq!(
            Endpoint::parse("https://127.0.0.1"),
            Err(EndpointError::Scheme)
        );
        assert_eq!(Endpoint::parse("127.0.0.1:80"), Err(EndpointError::Scheme));
        assert_eq!(Endpoint::parse("http://"), Err(EndpointError::NoHost));
        assert_eq!(Endpoint::parse("http://h:0"), Err(EndpointError::Port));
        assert_eq!(Endpoint::parse("http://h:99999"), Err(EndpointError::Port));
        assert_eq!(
            Endpoint::parse("http://u:p@127.0.0.1"),
            Err(EndpointError::Credentials)
        );
    }
}
