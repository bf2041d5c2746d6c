//! What the shell does with a link from the links overlay: open it with the platform's opener
//! (detached, output discarded, reaped on a thread) or put it on the clipboard with OSC 52.
//! Either way the answer is a sentence for the overlay, never a crash.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::markdown::links::is_web_url;

/// The program that opens a URL in the learner's browser.
#[cfg(target_os = "macos")]
const OPENER: &str = "open";
#[cfg(not(target_os = "macos"))]
const OPENER: &str = "xdg-open";

/// Start the opener on `url`; says what was done or why not.
pub fn open(url: &str) -> String {
    if !is_web_url(url) {
        return "Only http and https links can be opened.".to_string();
    }
    let mut command = Command::new(OPENER);
    command
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    detach(&mut command);
    match command.spawn() {
        Ok(mut child) => {
            // Reaped here so it leaves no zombie; the browser itself outlives it.
            std::thread::spawn(move || child.wait());
            format!("Asked {OPENER} to open it in your browser.")
        }
        Err(e) => format!(
            "Could not start {OPENER}: {e}. Copy the link with y, or select the URL with the \
             mouse (--no-mouse leaves selection to the terminal)."
        ),
    }
}

/// Its own process group, so a Ctrl-C meant for the terminal does not reach the browser.
#[cfg(unix)]
fn detach(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn detach(_: &mut Command) {}

/// Ask the terminal to put `text` on the clipboard (OSC 52); says what was done.
pub fn copy(text: &str) -> String {
    let mut out = std::io::stdout();
    match out
        .write_all(osc52(text).as_bytes())
        .and_then(|()| out.flush())
    {
        Ok(()) => "Sent to the clipboard with OSC 52. If nothing arrives, your terminal blocks \
                   it (in tmux: set -g set-clipboard on): select the URL instead."
            .to_string(),
        Err(e) => format!("Could not write to the terminal ({e})."),
    }
}

/// The OSC 52 sequence that sets the clipboard to `text` (base64 keeps any byte out of it).
fn osc52(text: &str) -> String {
    format!("\u{1b}]52;c;{}\u{1b}\\", base64(text.as_bytes()))
}

/// Standard base64 with padding (RFC 4648), as OSC 52 takes it.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn the_clipboard_sequence_holds_no_raw_text() {
        let seq = osc52("https://a.org/\u{1b}]0;x\u{7}");
        assert!(seq.starts_with("\u{1b}]52;c;") && seq.ends_with("\u{1b}\\"));
        let payload = &seq[7..seq.len() - 2];
        assert!(
            payload
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b))
        );
    }

    #[test]
    fn only_web_urls_are_opened() {
        assert_eq!(
            open("file:///etc/passwd"),
            "Only http and https links can be opened."
        );
        assert_eq!(
            open("-a https://x.org"),
            "Only http and https links can be opened."
        );
    }
}
