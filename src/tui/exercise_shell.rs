//! The shell's half of the exercise editor: carries out [`ExerciseCmd`]s (files in the state
//! folder; checks queued on the experiment worker, which owns the one backend) and answers with
//! [`ExerciseMsg`]s. A pass is recorded here, when the worker's verdict comes back.
//!
//! Every file read here goes through [`store::read`] (bounded, non-blocking: a FIFO, a device
//! or an oversized file is an error at once), so none of them can hold the UI thread; the
//! change checks are a `stat` each.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::exercise_store::{self as store, Stamp};
use crate::app::editor::SharedVerdict;
use crate::app::{App, Cmd, ExerciseCmd, ExerciseMsg, Msg};
use crate::exercise::{attempts, catalog, state};
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
        match cmd {
            ExerciseCmd::Cancel { check_id } => {
                worker.cancel_check(check_id);
                Vec::new()
            }
            // A check runs even where the file cannot be kept (the save failure is said).
            ExerciseCmd::Check { id, text, check_id } => {
                if let (Some(dir), Some(ex)) = (self.state_dir.as_deref(), catalog::find(&id)) {
                    // Not counted if it cannot be recorded: the gate then reads this session's.
                    let _ = attempts::record_check(dir, &id, &text, ex.starter);
                }
                let mut cmds = Vec::new();
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
                cmds
            }
            cmd => {
                let reply = self.file_reply(cmd);
                reply.map_or_else(Vec::new, |msg| app.update(Msg::Exercise(msg)))
            }
        }
    }

    /// The file side of `cmd`: its reply, if it has one.
    fn file_reply(&self, cmd: ExerciseCmd) -> Option<ExerciseMsg> {
        let Some(dir) = self.state_dir.as_deref() else {
            let why = "exercise files cannot be kept: no state folder (set CUDA_ACADEMY_STATE_DIR)";
            return match cmd {
                ExerciseCmd::Poll { .. } => None,
                ExerciseCmd::Save { id, .. } => Some(ExerciseMsg::SaveFailed {
                    id,
                    why: why.into(),
                }),
                // The verdict still shows; only the pass cannot be kept.
                ExerciseCmd::Record {
                    id,
                    check_id,
                    verdict,
                    cancelled,
                } => Some(ExerciseMsg::Checked {
                    id,
                    check_id,
                    verdict,
                    cancelled,
                    recorded: Err(why.into()),
                }),
                _ => Some(ExerciseMsg::Failed(why.into())),
            };
        };
        Some(match cmd {
            ExerciseCmd::Open { id } => loaded(dir, &id, store::load_or_create(dir, &id)),
            ExerciseCmd::Reset { id } => loaded(dir, &id, store::reset(dir, &id)),
            ExerciseCmd::Save { id, text, base } => saved(dir, id, text, base),
            // The shell saves through `Save` itself before it runs the editor.
            ExerciseCmd::External { .. } => return None,
            ExerciseCmd::Record {
                id,
                check_id,
                verdict,
                cancelled,
            } => {
                let recorded = if verdict.0.passed && !cancelled {
                    state::record_pass(dir, &id).map_err(|e| format!("{e:#}"))
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
            ExerciseCmd::Survey { ids } => ExerciseMsg::Edited(edited(dir, &ids)),
            ExerciseCmd::Poll { id, seen, external } => {
                return changed(dir, id, seen, external);
            }
            ExerciseCmd::SolutionViewed { id } => {
                return attempts::record_solution_view(dir, &id).err().map(|e| {
                    ExerciseMsg::Failed(format!("the solution view is not recorded: {e:#}"))
                });
            }
            ExerciseCmd::Check { .. } | ExerciseCmd::Cancel { .. } => return None,
        })
    }
}

/// The file's text (or why it cannot be loaded) when it changed on disk since `seen`, or
/// whenever `external`.
fn changed(dir: &Path, id: String, seen: Option<Stamp>, external: bool) -> Option<ExerciseMsg> {
    let path = store::file_for(dir, &id);
    let now = store::stamp(&path);
    if now.is_none() || (now == seen && !external) {
        return None;
    }
    Some(ExerciseMsg::ChangedOutside {
        id,
        theirs: store::read(&path).map_err(|e| format!("{e:#}")),
        stamp: now,
        external,
    })
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
            stamp: store::stamp(&store::file_for(dir, id)),
        },
        Err(e) => ExerciseMsg::Failed(format!("{e:#}")),
    }
}

/// Write `text` unless the file changed since `base` (then the reply offers the change).
fn saved(dir: &Path, id: String, text: String, base: Option<Stamp>) -> ExerciseMsg {
    let path = store::file_for(dir, &id);
    let now = store::stamp(&path);
    if now.is_some() && now != base {
        return ExerciseMsg::ChangedOutside {
            theirs: store::read(&path).map_err(|e| format!("{e:#}")),
            id,
            stamp: now,
            external: false,
        };
    }
    match store::save(dir, &id, &text) {
        Ok(()) => ExerciseMsg::Saved {
            stamp: store::stamp(&path),
            id,
            text,
        },
        Err(e) => ExerciseMsg::SaveFailed {
            id,
            why: format!("{e:#}"),
        },
    }
}
