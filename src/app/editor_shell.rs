//! The shell's half of the exercise editor: carries out [`ExerciseCmd`]s (files in the state
//! folder, checks) and answers with [`ExerciseMsg`]s. A check runs on a thread of its own with
//! its own backend, so the UI never waits on it (nor on the experiment worker).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::app::editor::SharedVerdict;
use crate::app::editor_store as store;
use crate::app::{App, Cmd, ExerciseCmd, ExerciseMsg, Msg};
use crate::exercise::interp::Limits;
use crate::exercise::{self, Verdict, catalog, state};
use crate::gpu::detect::BackendChoice;

/// What the shell needs to carry out exercise commands.
#[derive(Clone)]
pub struct ExerciseShell {
    /// The state folder (`None`: files cannot be kept; the editor says so).
    pub state_dir: Option<PathBuf>,
    /// The backend checks run on.
    pub backend: BackendChoice,
    /// CUDA device ordinal.
    pub device: u32,
    /// Where a check thread sends its verdict.
    pub send: Arc<dyn Fn(Msg) + Send + Sync>,
}

impl ExerciseShell {
    /// Carry out `cmd`; returns what `app` asks next. `External` is the caller's (it needs the
    /// terminal).
    pub fn carry_out(&self, app: &mut App, cmd: ExerciseCmd) -> Vec<Cmd> {
        let Some(dir) = self.state_dir.clone() else {
            let why = "exercise files cannot be kept: no state folder (set CUDA_ACADEMY_STATE_DIR)";
            return app.update(Msg::Exercise(ExerciseMsg::Failed(why.into())));
        };
        let reply = match cmd {
            ExerciseCmd::Open { id } => loaded(&dir, &id, store::load_or_create(&dir, &id)),
            ExerciseCmd::Reset { id } => loaded(&dir, &id, store::reset(&dir, &id)),
            ExerciseCmd::Save { id, text } | ExerciseCmd::External { id, text } => {
                saved(&dir, &id, &text)
            }
            ExerciseCmd::Check { id, text, check_id } => {
                let reply = saved(&dir, &id, &text);
                self.spawn_check(dir, id, text, check_id);
                reply
            }
            ExerciseCmd::Poll { id, mtime } => {
                let path = store::file_for(&dir, &id);
                let now = store::mtime(&path);
                if now.is_none() || now == mtime {
                    return Vec::new();
                }
                match store::read(&path) {
                    Ok(text) => ExerciseMsg::Changed {
                        id,
                        text,
                        mtime: now,
                    },
                    Err(e) => ExerciseMsg::Failed(format!("{e:#}")),
                }
            }
        };
        app.update(Msg::Exercise(reply))
    }

    fn spawn_check(&self, dir: PathBuf, id: String, text: String, check_id: u64) {
        let send = Arc::clone(&self.send);
        let (backend, device) = (self.backend, self.device);
        let spawned = std::thread::Builder::new()
            .name("exercise-check".into())
            .spawn(move || {
                let verdict = check(&id, &text, backend, device);
                let recorded = if verdict.passed {
                    state::record_pass(&dir, &id).map_err(|e| format!("{e:#}"))
                } else {
                    Ok(())
                };
                let verdict = SharedVerdict(Arc::new(verdict));
                send(Msg::Exercise(ExerciseMsg::Checked {
                    id,
                    check_id,
                    verdict,
                    recorded,
                }));
            });
        if let Err(e) = spawned {
            let why = format!("cannot start a thread to check the exercise: {e}");
            (self.send)(Msg::Exercise(ExerciseMsg::Failed(why)));
        }
    }
}

/// Check `text` as exercise `id` on a freshly opened backend.
pub fn check(id: &str, text: &str, backend: BackendChoice, device: u32) -> Verdict {
    let Some(ex) = catalog::find(id) else {
        return failed_verdict(format!("unknown exercise {id:?}"));
    };
    let mut gpu = match crate::gpu::detect::open(backend, device) {
        Ok(gpu) => gpu,
        Err(e) => return failed_verdict(format!("no backend to run it on: {e}")),
    };
    exercise::check(
        ex,
        text,
        gpu.as_mut(),
        Limits::default(),
        &AtomicBool::new(false),
    )
}

fn failed_verdict(detail: String) -> Verdict {
    let mut v = Verdict::default();
    v.checks.push(exercise::verdict::CheckResult {
        name: "runs".into(),
        passed: false,
        detail,
    });
    v
}

fn loaded(dir: &std::path::Path, id: &str, text: anyhow::Result<String>) -> ExerciseMsg {
    match text {
        Ok(text) => ExerciseMsg::Loaded {
            id: id.to_string(),
            text,
            mtime: store::mtime(&store::file_for(dir, id)),
        },
        Err(e) => ExerciseMsg::Failed(format!("{e:#}")),
    }
}

fn saved(dir: &std::path::Path, id: &str, text: &str) -> ExerciseMsg {
    match store::save(dir, id, text) {
        Ok(()) => ExerciseMsg::Saved {
            id: id.to_string(),
            mtime: store::mtime(&store::file_for(dir, id)),
        },
        Err(e) => ExerciseMsg::Failed(format!("exercise not saved: {e:#}")),
    }
}
