//! Where the tutor's settings come from and what they say: the `[tutor]` table of the config
//! file in the XDG config folder (`$XDG_CONFIG_HOME/cuda-academy/config.toml`, by default
//! `~/.config/cuda-academy/config.toml`), with `CUDA_ACADEMY_TUTOR_URL` and
//! `CUDA_ACADEMY_TUTOR_MODEL` over its `url` and `model`.
//!
//! Nothing configured is [`Setup::Off`]: no request is ever made, and the tutor key only says
//! how to set one up. A setting that cannot be used (a remote host without `allow_remote`, a
//! URL that does not parse, a URL without a model) is [`Setup::Unusable`], with the reason the
//! pane shows; only [`Setup::Ready`] ever reaches the client.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::endpoint::Endpoint;
use crate::bounded_read::{self, Cap};

/// The environment variable for the server's URL.
pub const URL_ENV: &str = "CUDA_ACADEMY_TUTOR_URL";
/// The environment variable for the model's name.
pub const MODEL_ENV: &str = "CUDA_ACADEMY_TUTOR_MODEL";
/// The config file's name inside the config folder.
pub const FILE_NAME: &str = "config.toml";

/// The config file is a few lines; a larger one is a mistake (a link to something else).
const FILE_CAP: Cap = Cap {
    bytes: 64 * 1024,
    what: "the config file",
};

/// The context window assumed when the learner names none: Ollama's default window (2048
/// tokens) silently drops what does not fit, so over the OpenAI protocol, where the window
/// cannot be asked for, the request is fitted to it; Ollama's own protocol asks for
/// [`OLLAMA_CONTEXT`] instead.
pub const DEFAULT_CONTEXT: u32 = 2048;
/// The window asked of Ollama's `/api/chat` (`options.num_ctx`) when none is named.
pub const OLLAMA_CONTEXT: u32 = 8192;

/// How long a connection may take to open, and how long the stream may go silent.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
pub const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// Which protocol the server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// `POST /v1/chat/completions` with `stream: true`, answered in server-sent events: Ollama,
    /// llama.cpp's `llama-server`, vLLM. The context window is the server's own setting.
    #[default]
    #[serde(rename = "openai")]
    OpenAi,
    /// Ollama's native `POST /api/chat`, answered in NDJSON, where `options.num_ctx` asks for a
    /// larger window per request (Ollama's OpenAI endpoint ignores it).
    Ollama,
}

/// A usable tutor: everything the client needs.
#[derive(Debug, Clone, PartialEq)]
pub struct TutorConfig {
    pub endpoint: Endpoint,
    pub protocol: Protocol,
    pub model: String,
    /// The model's context window in tokens (what the request is fitted to).
    pub context_tokens: u32,
    /// The learner allowed a host other than this machine (the pane says so).
    pub allow_remote: bool,
    /// Start in direct-answer mode rather than Socratic.
    pub direct: bool,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
}

/// What the settings amount to.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Setup {
    /// Nothing configured: the tutor makes no request.
    #[default]
    Off,
    /// Configured, but not usable: why (cleaned, one line).
    Unusable(String),
    Ready(Box<TutorConfig>),
}

impl Setup {
    /// The usable configuration, if any.
    pub fn ready(&self) -> Option<&TutorConfig> {
        match self {
            Setup::Ready(config) => Some(config),
            _ => None,
        }
    }
}

/// The `[tutor]` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct TutorTable {
    url: Option<String>,
    model: Option<String>,
    #[serde(default)]
    api: Protocol,
    context_tokens: Option<u32>,
    #[serde(default)]
    allow_remote: bool,
    #[serde(default)]
    direct: bool,
    connect_timeout_ms: Option<u64>,
    read_timeout_ms: Option<u64>,
}

/// The config file as written: only `[tutor]` is read here; other tables belong to others.
#[derive(Debug, Default, Deserialize)]
struct ConfigFile {
    tutor: Option<TutorTable>,
}

/// The settings of this process: the config file (if any) under the env variables.
pub fn load() -> Setup {
    let file = config_file();
    let text = match file
        .as_deref()
        .map(|p| bounded_read::read_text(p, FILE_CAP))
    {
        None => None,
        Some(Err(err)) if err.is_not_found() => None,
        Some(Err(err)) => return Setup::Unusable(crate::sanitize::clean_line(&err.to_string())),
        Some(Ok(text)) => Some(text),
    };
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    from_sources(text.as_deref(), file.as_deref(), &env)
}

/// The config file's path: `$XDG_CONFIG_HOME/cuda-academy/config.toml` (etcetera's choice of
/// folder, as the state and cache folders); `None` without a home folder.
pub fn config_file() -> Option<PathBuf> {
    use etcetera::app_strategy::{AppStrategy, AppStrategyArgs, choose_app_strategy};
    let strategy = choose_app_strategy(AppStrategyArgs {
        top_level_domain: "org".to_string(),
        author: "cuda-academy".to_string(),
        app_name: "cuda-academy".to_string(),
    })
    .ok()?;
    Some(strategy.config_dir().join(FILE_NAME))
}

/// The settings from the config file's text (`None`: no file) and the environment (`env`
/// answers a variable's value); `path` only names the file in messages.
pub fn from_sources(
    text: Option<&str>,
    path: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Setup {
    let shown = path.map_or("the config file".to_string(), bounded_read::shown);
    let table = match text.map(toml::from_str::<ConfigFile>) {
        None => TutorTable::default(),
        Some(Ok(file)) => file.tutor.unwrap_or_default(),
        Some(Err(err)) => {
            let why = err.message().to_string();
            return unusable(&format!("{shown}: [tutor] cannot be read: {why}"));
        }
    };
    let url = env(URL_ENV).or(table.url.clone());
    let model = env(MODEL_ENV).or(table.model.clone());
    let (url, model) = match (url, model) {
        (None, None) => return Setup::Off,
        (None, Some(_)) => return unusable(&format!("a model is set but no url: set {URL_ENV}")),
        (Some(_), None) => return unusable(&format!("a url is set but no model: set {MODEL_ENV}")),
        (Some(url), Some(model)) => (url, model),
    };
    let endpoint = match Endpoint::parse(&url) {
        Ok(endpoint) => endpoint,
        Err(err) => return unusable(&err.to_string()),
    };
    if !endpoint.loopback && !table.allow_remote {
        return unusable(&format!(
            "{} is not this machine: the tutor talks only to loopback addresses unless \
             allow_remote = true is set under [tutor] in {shown}",
            endpoint.authority()
        ));
    }
    let window = match table.api {
        Protocol::OpenAi => DEFAULT_CONTEXT,
        Protocol::Ollama => OLLAMA_CONTEXT,
    };
    let ms = |v: Option<u64>, d: Duration| v.map_or(d, Duration::from_millis);
    Setup::Ready(Box::new(TutorConfig {
        endpoint,
        protocol: table.api,
        model: model.trim().to_string(),
        context_tokens: table.context_tokens.unwrap_or(window).clamp(512, 1 << 20),
        allow_remote: table.allow_remote,
        direct: table.direct,
        connect_timeout: ms(table.connect_timeout_ms, CONNECT_TIMEOUT),
        read_timeout: ms(table.read_timeout_ms, READ_TIMEOUT),
    }))
}

fn unusable(why: &str) -> Setup {
    Setup::Unusable(crate::sanitize::clean_line(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn nothing_configured_is_off() {
        assert_eq!(from_sources(None, None, &no_env), Setup::Off);
        let other = "[editor]\ntheme = 'x'\n";
        assert_eq!(from_sources(Some(other), None, &no_env), Setup::Off);
    }

    #[test]
    fn the_file_is_read_and_the_environment_wins() {
        let file = "[tutor]\nurl = 'http://127.0.0.1:11434'\nmodel = 'a'\napi = 'ollama'\n";
        let setup = from_sources(Some(file), None, &no_env);
        let config = setup.ready().cloned();
        assert_eq!(config.as_ref().map(|c| c.model.as_str()), Some("a"));
        assert_eq!(config.as_ref().map(|c| c.protocol), Some(Protocol::Ollama));
        assert_eq!(config.map(|c| c.context_tokens), Some(OLLAMA_CONTEXT));
        let env = |name: &str| (name == MODEL_ENV).then(|| "b".to_string());
        let setup = from_sources(Some(file), None, &env);
        assert_eq!(setup.ready().map(|c| c.model.as_str()), Some("b"));
    }

    #[test]
    fn env_alone_is_enough() {
        let env = |name: &str| match name {
            URL_ENV => Some("http://localhost:8080".to_string()),
            MODEL_ENV => Some("m".to_string()),
            _ => None,
        };
        let setup = from_sources(None, None, &env);
        assert_eq!(setup.ready().map(|c| c.protocol), Some(Protocol::OpenAi));
        assert_eq!(
            setup.ready().map(|c| c.context_tokens),
            Some(DEFAULT_CONTEXT)
        );
    }

    #[test]
    fn another_host_needs_allow_remote() {
        let file = "[tutor]\nurl = 'http://192.168.1.9:11434'\nmodel = 'm'\n";
        let setup = from_sources(Some(file), None, &no_env);
        assert!(
            matches!(&setup, Setup::Unusable(why) if why.contains("allow_remote")),
            "{setup:?}"
        );
        let allowed = format!("{file}allow_remote = true\n");
        let setup = from_sources(Some(&allowed), None, &no_env);
        assert_eq!(setup.ready().map(|c| c.allow_remote), Some(true));
    }

    #[test]
    fn half_a_setting_or_a_typo_is_unusable_with_a_reason() {
        let cases = [
            ("[tutor]\nmodel = 'm'\n", "no url"),
            ("[tutor]\nurl = 'http://127.0.0.1'\n", "no model"),
            (
                "[tutor]\nurl = 'https://127.0.0.1'\nmodel = 'm'\n",
                "http://",
            ),
            ("[tutor]\nurll = 'x'\n", "cannot be read"),
            ("[tutor]\napi = 'grpc'\n", "cannot be read"),
        ];
        for (file, says) in cases {
            let setup = from_sources(Some(file), None, &no_env);
            assert!(
                matches!(&setup, Setup::Unusable(why) if why.contains(says)),
                "{file}: {setup:?}"
            );
        }
    }
}
