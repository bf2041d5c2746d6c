//! A loopback server is never reached through a proxy, whatever `HTTP_PROXY`, `ALL_PROXY` and
//! their kin say (ureq honours them by default). The variables are set only in a child process
//! (this test binary run again for one ignored test), since changing the environment of a
//! process whose other tests run on threads is not sound.

use std::process::Command;
use std::time::Duration;

use cuda_academy::tutor::{Endpoint, Protocol, TutorEvent};

use super::server::{Reply, Server, ask, body};

/// The variable that gives the child the server's and the proxy's addresses.
const CHILD_ENV: &str = "CUDA_ACADEMY_TEST_TUTOR_PROXY_CHILD";
const CHILD_TEST: &str = "tutor::proxy::child_asks_with_proxy_variables_set";

#[test]
fn loopback_is_never_proxied_and_a_remote_host_is() {
    let server = Server::start(Reply::Sse(vec!["direct".into()]));
    let proxy = Server::start(Reply::Sse(vec!["proxied".into()]));
    let proxy_url = format!("http://{}", proxy.addr);
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args([CHILD_TEST, "--exact", "--ignored", "--test-threads=1"])
        .env(CHILD_ENV, format!("{} {}", server.addr, proxy.addr))
        .env_remove("NO_PROXY")
        .env_remove("no_proxy");
    for var in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        child.env(var, &proxy_url);
    }
    let out = child.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("1 passed"),
        "the child ran its test: {stdout}"
    );
    assert_eq!(
        server.request().body["model"],
        "test-model",
        "loopback went straight there"
    );
    let via_proxy = proxy.request();
    assert!(
        via_proxy.request_line.contains("192.0.2.1"),
        "the remote host went through the proxy: {}",
        via_proxy.request_line
    );
    assert!(
        proxy.requests_so_far().is_empty(),
        "the proxy saw only the remote request"
    );
}

#[test]
#[ignore = "run by loopback_is_never_proxied_and_a_remote_host_is, with proxy variables set"]
fn child_asks_with_proxy_variables_set() {
    let addrs = std::env::var(CHILD_ENV).expect("run by the parent test, which sets the addresses");
    assert!(
        std::env::var("HTTP_PROXY").is_ok(),
        "the parent set the proxy variables"
    );
    let (server, _proxy) = addrs.split_once(' ').unwrap();
    let template = Server::start(Reply::Sse(Vec::new()));
    let mut config = template.config(Protocol::OpenAi);
    config.endpoint = Endpoint::parse(&format!("http://{server}")).unwrap();
    let answer = ask(config.clone(), body(&config, "q"));
    assert_eq!(answer.text, "direct", "{:?}", answer.last);
    // The control: a remote host (TEST-NET-1, never routed) with allow_remote goes through the
    // environment's proxy, so the variables were live in this process.
    config.endpoint = Endpoint::parse("http://192.0.2.1:80").unwrap();
    config.allow_remote = true;
    config.read_timeout = Duration::from_secs(1);
    let remote = ask(config.clone(), body(&config, "q"));
    assert!(matches!(
        remote.last,
        TutorEvent::Done { .. } | TutorEvent::Failed { .. }
    ));
}
