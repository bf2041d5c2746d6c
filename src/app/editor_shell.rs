//! The shell's half of the exercise editor: carries out [`ExerciseCmd`]s (files in the state
//! folder; checks queued on the experiment worker, which owns the one backend) and answers with
//! [`ExerciseMsg`]s. A pass is recorded here, when the worker's verdict comes back.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::app::editor::SharedVerdict;
use crate::app::editor_store as store;
use crate::app::{App, Cmd, ExerciseCmd, ExerciseMsg, Msg};
use crate::exercise::{catalog, state};
use crate::worker::{Worker, failed_verdict};

/// What the shell needs to carry out exercise commands.
#[derive(Clone)]
pub struct ExerciseShell {
    /// The state folder (`None`: files cannot be kept; the editor says so).
    pub state_dir: Option<PathBuf>,
}

impl ExerciseShell {
    /// Carry out `cmd` (checks go to `worker`); returns what `app` asks next. `External` is the
    /// caller's (it needs the terminal).
    pub fn carry_out(&self, app: &mut App, worker: &mut Worker, cmd: ExerciseCmd) -> Vec<Cmd> {
        if let ExerciseCmd::Cancel { check_id } = cmd {
            worker.cancel_check(check_id);
            return Vec::new();
        }
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
                let mut cmds = app.update(Msg::Exercise(saved(&dir, &id, &text)));
                if let Err(why) = worker.check(check_id, &id, &text) {
                    let verdict = SharedVerdict(Arc::new(failed_verdict(why)));
                    let record = ExerciseCmd::Record {
                        id,
                        check_id,
                        verdict,
                        cancelled: false,
                    };
                    cmds.extend(self.carry_out(app, worker, record));
                }
                return cmds;
            }
            ExerciseCmd::Record {
                id,
                check_id,
                verdict,
                cancelled,
            } => {
                let recorded = if verdict.0.passed && !cancelled {
                    state::record_pass(&dir, &id).map_err(|e| format!("{e:#}"))
                } else {
                    Ok(())
                };
                ExerciseMsg::Checked {
                    id,
                    check_id,
                    verdict,
                    cancelled,
                    recorded,
                }
            }
            ExerciseCmd::Survey { ids } => ExerciseMsg::Edited(edited(&dir, &ids)),
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
            ExerciseCmd::Cancel { .. } => return Vec::new(),
        };
        app.update(Msg::Exercise(reply))
    }
}

/// Those of `ids` whose file exists and differs from the starter (unreadable files count as
/// edited: they are the learner's, whatever they hold).
fn edited(dir: &Path, ids: &[String]) -> BTreeSet<String> {
    ids.iter()
        .filter(|id| {
            let path = store::file_for(dir, id);
            let starter = catalog::find(id).map(|e| e.starter);
            path.exists() && store::read(&path).ok().as_deref() != starter
        })
        .cloned()
        .collect()
}

fn loaded(dir: &Path, id: &str, text: anyhow::Result<String>) -> ExerciseMsg {
    match text {
        Ok(text) => ExerciseMsg::Loaded {
            id: id.to_string(),
            text,
            mtime: store::mtime(&store::file_for(dir, id)),
        },
        Err(e) => ExerciseMsg::Failed(format!("{e:#}")),
    }
}

fn saved(dir: &Path, id: &str, text: &str) -> ExerciseMsg {
    match store::save(dir, id, text) {
        Ok(()) => ExerciseMsg::Saved {
            id: id.to_string(),
            mtime: store::mtime(&store::file_for(dir, id)),
        },
        Err(e) => ExerciseMsg::Failed(format!("exercise not saved: {e:#}")),
    }
}
