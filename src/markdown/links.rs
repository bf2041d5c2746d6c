//! The links of a card: markdown links and bare `http(s)://` URLs in prose, numbered in the
//! order they first appear (the same URL twice keeps its first number), and where each one
//! is drawn, so the view can make those cells a hyperlink and the links overlay can list them.
//!
//! Only `http` and `https` URLs count as links: anything else (`mailto:`, a relative path) is
//! shown as written and never opened or put in a terminal sequence.

/// One link of a card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The full URL, as the lesson wrote it (control characters already replaced).
    pub url: String,
    /// What the card calls it: the link's text, or for a bare URL the words before it in its
    /// paragraph or list item (may be empty).
    pub label: String,
}

/// Where a link is drawn: `width` columns from `col` on rendered line `line`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkSpot {
    /// Index of the rendered line.
    pub line: usize,
    /// First column (0-based, within the card's text area).
    pub col: u16,
    /// Columns covered.
    pub width: u16,
    /// Index into the card's links (its number is `link + 1`).
    pub link: usize,
}

/// The links found so far, in order.
#[derive(Debug, Default)]
pub(super) struct Links {
    pub list: Vec<Link>,
}

impl Links {
    /// The index of `url`: its first one, or a new one labelled `label`.
    pub fn register(&mut self, url: &str, label: &str) -> usize {
        if let Some(i) = self.list.iter().position(|l| l.url == url) {
            return i;
        }
        self.list.push(Link {
            url: url.to_string(),
            label: tidy_label(label),
        });
        self.list.len() - 1
    }
}

/// The marker after a link's text, e.g. ` [2]` for index 1: the number the links overlay uses.
pub(super) fn marker(index: usize) -> String {
    format!("[{}]", index + 1)
}

/// Whether `url` may become a link: `http://` or `https://` with a host, no spaces and no
/// control characters.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return false;
    };
    !rest.is_empty()
        && !rest.starts_with('/')
        && !url
            .chars()
            .any(|c| c.is_whitespace() || crate::sanitize::is_unsafe(c) || c == '\u{FFFD}')
}

/// The byte ranges of bare URLs in prose: a word starting `http://` or `https://` (after an
/// opening bracket or quote), without the punctuation that ends a sentence or closes a bracket
/// it did not open (as GitHub's extended autolinks).
pub(super) fn bare_urls(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = find_scheme(&text[from..]) {
        let start = from + found;
        let len = text[start..]
            .find(|c: char| c.is_whitespace() || "<>\"`".contains(c))
            .unwrap_or(text.len() - start);
        let end = start + trim_trailing(&text[start..start + len]);
        if is_web_url(&text[start..end]) {
            out.push(start..end);
        }
        from = start + len.max(1);
    }
    out
}

/// Where the next `http://` or `https://` starts a word (text start, after a space or an
/// opening bracket or quote).
fn find_scheme(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find("http").map(|i| from + i) {
        let rest = &text[i..];
        let scheme = rest.starts_with("https://") || rest.starts_with("http://");
        let starts_word = text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || "([{'\"\u{a0}".contains(c));
        if scheme && starts_word {
            return Some(i);
        }
        from = i + 4;
    }
    None
}

/// The length of `word` without trailing punctuation, and without a closing `)` that has no
/// `(` to match inside the URL.
fn trim_trailing(word: &str) -> usize {
    let mut end = word.len();
    loop {
        let Some(last) = word[..end].chars().next_back() else {
            return end;
        };
        let unmatched_paren =
            last == ')' && word[..end].matches('(').count() < word[..end].matches(')').count();
        if ".,:;!?'*_~]".contains(last) || unmatched_paren {
            end -= last.len_utf8();
        } else {
            return end;
        }
    }
}

/// A label on one line: spaces collapsed, the colon that introduced the URL dropped.
fn tidy_label(label: &str) -> String {
    let words: Vec<&str> = label.split_whitespace().collect();
    let joined = words.join(" ");
    joined
        .trim_end_matches([':', ' ', '(', '-', '—', ','])
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        bare_urls(text).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn bare_urls_end_before_sentence_punctuation() {
        assert_eq!(
            found("see https://a.org/x.html, then (https://b.org/y) and https://c.org/q?a=1."),
            [
                "https://a.org/x.html",
                "https://b.org/y",
                "https://c.org/q?a=1"
            ]
        );
        // A bracket the URL opened stays; a word that only contains a scheme is no URL.
        assert_eq!(
            found("https://en.wikipedia.org/wiki/Bus_(computing) xhttps://no.org"),
            ["https://en.wikipedia.org/wiki/Bus_(computing)"]
        );
        assert!(found("ftp://a.org mailto:x@y.org http:// https:///path").is_empty());
    }

    #[test]
    fn only_web_urls_without_control_characters_are_links() {
        assert!(is_web_url("https://docs.nvidia.com/cuda/"));
        assert!(is_web_url("HTTP://EXAMPLE.ORG"));
        assert!(!is_web_url("javascript:alert(1)"));
        assert!(!is_web_url("file:///etc/passwd"));
        assert!(!is_web_url("https://a.org/\u{1b}]8;;x\u{7}"));
        assert!(!is_web_url("https://a.org/\u{9c}"));
        assert!(!is_web_url("https://a.org/\u{FFFD}"));
    }

    #[test]
    fn the_same_url_keeps_its_first_number_and_label() {
        let mut links = Links::default();
        assert_eq!(links.register("https://a.org", "Guide A:"), 0);
        assert_eq!(links.register("https://b.org", "  B\n  notes ("), 1);
        assert_eq!(links.register("https://a.org", "again"), 0);
        assert_eq!(links.list[0].label, "Guide A");
        assert_eq!(links.list[1].label, "B notes");
        assert_eq!(marker(1), "[2]");
    }
}
