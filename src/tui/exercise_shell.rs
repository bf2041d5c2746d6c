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
use std::time::SystemTime;

use super::exercise_store::{self as store, Stamp};
use crate::app::editor::SharedVerdict;
use crate::app::{App, Banner, BannerKind, Cmd, ExerciseCmd, ExerciseMsg, Msg};
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
                let mut cmds = Vec::new();
                if let (Some(dir), Some(ex)) = (self.state_dir.as_deref(), catalog::find(&id))
                    && let Err(e) = attempts::record_check(dir, &id, &text, ex.starter)
                {
                    // Not counted (the gate then reads this session's), and said so: a lock
                    // held elsewhere, a lock file that is a directory, an unreadable file.
                    cmds.extend(app.update(Msg::Banner(Banner {
                        kind: BannerKind::Warning,
                        text: format!(
                            "the check is not counted toward showing the solution: {}",
                            crate::sanitize::clean_line(&format!("{e:#}"))
                        ),
                    })));
                }
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
            // A file deleted under the open editor (by `$EDITOR`, or anyone) is a change: the
            // editor's text is written back, so leaving (which saves only unsaved text) cannot
            // lose it (review 2026-12-01 E12).
            ExerciseCmd::Poll { id, seen, external } if self.deleted(app, &id, seen, external) => {
                self.write_back(app, id, external)
            }
            // A failed save leaves the file as it was and the text in the editor; a copy goes
            // where there is room, and the banner names it.
            ExerciseCmd::Save { id, text, base } if self.state_dir.is_some() => {
                let dir = self.state_dir.as_deref().unwrap_or(Path::new("."));
                let reply = saved(dir, id.clone(), text.clone(), base);
                let failed = matches!(reply, ExerciseMsg::SaveFailed { .. });
                let mut cmds = app.update(Msg::Exercise(reply));
                if failed {
                    cmds.extend(self.keep_copy(app, &id, &text, "a copy of your unsaved text"));
                }
                cmds
            }
            ExerciseCmd::KeepCopy { id, text } => self.keep_copy(
                app,
                &id,
                &text,
                "your text from before loading the file on disk",
            ),
            cmd => {
                let reply = self.file_reply(cmd);
                reply.map_or_else(Vec::new, |msg| app.update(Msg::Exercise(msg)))
            }
        }
    }

    /// The open editor's file `id` is gone from disk, though the editor had read or written it
    /// (`seen`) or the learner's own editor just had it (`external`). Not after a failed save:
    /// that one's banner already says what to do, and this would repeat it on every poll.
    fn deleted(&self, app: &App, id: &str, seen: Option<Stamp>, external: bool) -> bool {
        let Some(dir) = self.state_dir.as_deref() else {
            return false;
        };
        let open = app
            .exercises
            .editor
            .as_ref()
            .is_some_and(|e| e.id == id && e.area.is_some());
        open && (seen.is_some() || external)
            && !app.editor_save_failed()
            && store::stamp(&store::file_for(dir, id)).is_none()
    }

    /// Write the editor's text back to its deleted file and say so (a failed write is the
    /// usual save failure: the text stays in the editor and quitting recovers it).
    fn write_back(&self, app: &mut App, id: String, external: bool) -> Vec<Cmd> {
        let (Some(dir), Some(text)) = (
            self.state_dir.as_deref(),
            app.exercises.editor.as_ref().and_then(|e| e.text()),
        ) else {
            return Vec::new();
        };
        let path = store::file_for(dir, &id);
        let reply = saved(dir, id.clone(), text.clone(), None);
        let written = matches!(reply, ExerciseMsg::Saved { .. });
        let mut cmds = app.update(Msg::Exercise(reply));
        if !written {
            cmds.extend(self.keep_copy(app, &id, &text, "a copy of your unsaved text"));
        }
        if written {
            let who = if external {
                "your editor deleted the exercise file"
            } else {
                "the exercise file was deleted outside the tutorial"
            };
            let text = format!(
                "{who}; the text shown here was written back to {}",
                crate::sanitize::clean_line(&path.display().to_string())
            );
            cmds.extend(app.update(Msg::Banner(Banner {
                kind: BannerKind::Warning,
                text,
            })));
        }
        cmds
    }

    /// Write `text` to a recovery file ([`store::recover`]) and say where (`what` names it), or
    /// that it could not be written and the text is only in the editor.
    fn keep_copy(&self, app: &mut App, id: &str, text: &str, what: &str) -> Vec<Cmd> {
        let banner = match store::recover(self.state_dir.as_deref(), id, text, SystemTime::now()) {
            Ok(path) => Banner {
                kind: BannerKind::Warning,
                text: format!("{what} is in {}", store::recovered_words(&path)),
            },
            Err(why) => Banner {
                kind: BannerKind::Error,
                text: format!(
                    "{what} could not be kept anywhere: {}; it is only in the editor",
                    crate::sanitize::clean_line(&why)
                ),
            },
        };
        app.update(Msg::Banner(banner))
    }

    /// The file side of `cmd`: its reply, if it has one.
    fn file_reply(&self, cmd: ExerciseCmd) -> Option<ExerciseMsg> {
        let Some(dir) = self.state_dir.as_deref() else {
            let why = "exercise files cannot be kept: no state folder (set CUDA_ACADEMY_STATE_DIR)";
            return match cmd {
                ExerciseCmd::Poll { .. } => None,
                ExerciseCmd::Open { id } => Some(ExerciseMsg::OpenFailed {
                    id,
                    why: why.into(),
                }),
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
            ExerciseCmd::Open { id } => match store::load_or_create(dir, &id) {
                Err(e) => ExerciseMsg::OpenFailed {
                    why: format!(
                        "cannot open exercise {id}: {e:#}; the file is left as it is: make it smaller or fix it in your own editor, or move it away to start again from the starter"
                    ),
                    id,
                },
                text => loaded(&id, text),
            },
            ExerciseCmd::Reset { id } => loaded(
                &id,
                store::reset(dir, &id)
                    .map_err(|e| e.context(format!("exercise {id} is not reset"))),
            ),
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
            ExerciseCmd::Check { .. }
            | ExerciseCmd::Cancel { .. }
            | ExerciseCmd::KeepCopy { .. } => return None,
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

fn loaded(id: &str, text: anyhow::Result<(String, Option<Stamp>)>) -> ExerciseMsg {
    match text {
        Ok((text, stamp)) => ExerciseMsg::Loaded {
            id: id.to_string(),
            text,
            stamp,
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
        // The stamp of the file this save wrote (not a `stat` after it, which could be of
        // another writer's file and hide that change).
        Ok(stamp) => ExerciseMsg::Saved {
            stamp: Some(stamp),
            id,
            text,
        },
        Err(e) => ExerciseMsg::SaveFailed {
            id,
            why: format!("{e:#}"),
        },
    }
}
