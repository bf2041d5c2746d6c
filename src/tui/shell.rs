//! [`Shell`]: what carries out the [`Cmd`]s that [`App::update`] returns: the experiment worker,
//! the exercise files and checks, progress saving, trace export, and the learner's own editor
//! (through the [`Screen`]).

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::time::SystemTime;

use anyhow::Context as _;

use super::Event;
use super::exercise_shell::ExerciseShell;
use super::exercise_store;
use super::export;
use super::screen::Screen;
use crate::app::{App, Cmd, ExerciseCmd, ExerciseMsg, Msg};
use crate::gpu::detect::BackendSpec;
use crate::progress;
use crate::worker::{Worker, WorkerEvent};

/// What the loop carries commands out with.
pub struct Shell {
    saver: Saver,
    worker: Worker,
    exercises: ExerciseShell,
    tutor: super::tutor_shell::TutorShell,
    /// What became of the editor's unsaved text on the way out, for stderr once the terminal
    /// is back (a recovery file, or that it is lost).
    exercise_report: Option<String>,
}

/// What a batch of commands asks of the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// [`Cmd::Quit`]: leave the loop.
    Quit,
}

impl Shell {
    /// Start the experiment worker on `backend` (it opens the backend on its own thread) and set
    /// up exercise checks; their replies, and the worker's events, arrive on `tx`. `state_dir` is
    /// where progress and exercise files live, or why there is no such folder.
    pub fn start(
        backend: &BackendSpec,
        state_dir: Result<PathBuf, String>,
        tx: &Sender<Event>,
    ) -> anyhow::Result<Shell> {
        let exercises = ExerciseShell {
            state_dir: state_dir.as_ref().ok().cloned(),
        };
        let worker_tx = tx.clone();
        let worker = Worker::spawn(backend.clone(), move |event| {
            let _ = worker_tx.send(Event::App(Msg::Worker(event)));
        })
        .context("cannot start the experiment worker thread")?;
        let tutor = super::tutor_shell::TutorShell::start(state_dir.as_ref().ok().cloned(), tx);
        Ok(Shell {
            saver: Saver { dir: state_dir },
            worker,
            exercises,
            tutor,
            exercise_report: None,
        })
    }

    /// The exercises passed in earlier sessions, for the app to know at start.
    pub fn load_passed(&self, app: &mut App) {
        if let Some(dir) = &self.exercises.state_dir
            && let Ok(passed) = crate::exercise::state::load_passed(dir)
        {
            app.update(Msg::Exercise(ExerciseMsg::Passed(passed)));
        }
        if let Some(dir) = &self.exercises.state_dir
            && let Ok(tries) = crate::exercise::attempts::load(dir)
        {
            app.update(Msg::Exercise(ExerciseMsg::Attempts(tries)));
        }
    }

    /// Carry out `cmds` in order, and whatever they lead to.
    pub fn carry_out_all(
        &mut self,
        screen: &mut impl Screen,
        app: &mut App,
        mut cmds: Vec<Cmd>,
    ) -> anyhow::Result<Flow> {
        while !cmds.is_empty() {
            let cmd = cmds.remove(0);
            match cmd {
                // A failure shows as a banner (set by `save`); the tutorial goes on.
                Cmd::SaveProgress => {
                    self.saver.save(app).ok();
                }
                Cmd::Quit => {
                    if self.keep_unsaved(app) {
                        return Ok(Flow::Quit);
                    }
                }
                Cmd::Exercise(ExerciseCmd::External { id, text, base }) => {
                    cmds.extend(self.edit_externally(screen, app, id, text, base)?);
                }
                Cmd::Exercise(cmd) => {
                    cmds.extend(self.exercises.carry_out(app, &mut self.worker, cmd));
                }
                Cmd::Tutor(cmd) => cmds.extend(self.tutor.carry_out(app, cmd)),
                other => cmds.extend(self.carry_out_experiment(app, other)),
            }
        }
        Ok(Flow::Continue)
    }

    /// Save progress now (before a suspend); a failure shows as a banner.
    pub fn save(&self, app: &mut App) -> Result<(), String> {
        self.saver.save(app)
    }

    /// On the way out, whatever ended the loop: the learner's exercise file (or, where it cannot
    /// be saved, a recovery file), then progress.
    pub fn finish(&mut self, app: &mut App) -> Result<(), String> {
        if let Some(Cmd::Exercise(save)) = app.editor_save_cmd() {
            self.exercises.carry_out(app, &mut self.worker, save);
        }
        if self.exercise_report.is_none() {
            app.update(Msg::Exercise(ExerciseMsg::QuitConfirmed));
            self.keep_unsaved(app);
        }
        self.saver.save(app)
    }

    /// What to print after the terminal is restored about the editor's text that could not be
    /// saved (where it went, or that it is lost); the tutorial then exits non-zero.
    pub fn exercise_report(&self) -> Option<&str> {
        self.exercise_report.as_deref()
    }

    /// Before leaving: the editor's unsaved text (its save failed, or was refused because the
    /// file changed outside) goes to a recovery file. `false` when even that failed and the
    /// learner has not confirmed losing it: the app then asks, and the tutorial goes on. (On
    /// the way out for any other reason, a signal, there is no asking: `finish` confirms.)
    fn keep_unsaved(&mut self, app: &mut App) -> bool {
        let Some((id, text)) = app.editor_unsaved() else {
            return true;
        };
        let file = self
            .exercises
            .state_dir
            .as_deref()
            .map(|d| exercise_store::file_for(d, &id));
        let why = app
            .exercises
            .editor
            .as_ref()
            .and_then(|e| {
                e.save_error.clone().or_else(|| {
                    e.conflict
                        .is_some()
                        .then(|| "the file changed outside and you had not chosen".to_string())
                })
            })
            .unwrap_or_else(|| "it could not be saved".into());
        let name = file.map_or_else(|| id.clone(), |f| f.display().to_string());
        match exercise_store::recover(
            self.exercises.state_dir.as_deref(),
            &id,
            &text,
            SystemTime::now(),
        ) {
            Ok(path) => {
                self.exercise_report = Some(format!(
                    "exercise {id} not saved to {name} ({why}); your text is in {}",
                    exercise_store::recovered_words(&path)
                ));
                true
            }
            Err(lost) if app.exercises.quit_anyway => {
                self.exercise_report = Some(format!(
                    "exercise {id} not saved to {name} ({why}) and {lost}: the unsaved text is lost"
                ));
                true
            }
            Err(lost) => {
                let why = format!("{why}; {lost}");
                app.update(Msg::Exercise(ExerciseMsg::QuitRefused { why }));
                false
            }
        }
    }

    /// The experiment commands: hand runs to the worker, write traces.
    fn carry_out_experiment(&mut self, app: &mut App, cmd: Cmd) -> Vec<Cmd> {
        match cmd {
            Cmd::RunExperiment {
                run_id,
                experiment,
                options,
            } => {
                if let Err(why) = self.worker.run(run_id, &experiment, options) {
                    let done = WorkerEvent::Done {
                        run_id,
                        result: Err(why),
                    };
                    return app.update(Msg::Worker(done));
                }
                Vec::new()
            }
            Cmd::CancelRun => {
                self.worker.cancel();
                Vec::new()
            }
            Cmd::ExportTrace(report) => {
                let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
                let result = export::export(&report, &dir, SystemTime::now());
                app.update(Msg::Exported(result))
            }
            Cmd::OpenUrl(url) => app.update(Msg::LinkReport(super::links::open(&url))),
            Cmd::CopyText(text) => app.update(Msg::LinkReport(super::links::copy(&text))),
            Cmd::SaveProgress | Cmd::Quit | Cmd::Exercise(_) | Cmd::Tutor(_) => vec![cmd],
        }
    }

    /// Ctrl-E: save (if need be), hand the terminal to the learner's editor, then read the file
    /// back (bounded, like every read): its text is loaded and checked, or, if it cannot be
    /// loaded, left as it is while the editor keeps its own text.
    fn edit_externally(
        &mut self,
        screen: &mut impl Screen,
        app: &mut App,
        id: String,
        text: Option<String>,
        base: Option<exercise_store::Stamp>,
    ) -> anyhow::Result<Vec<Cmd>> {
        let mut cmds = Vec::new();
        if let Some(text) = text {
            let save = ExerciseCmd::Save {
                id: id.clone(),
                text,
                base,
            };
            cmds.extend(self.exercises.carry_out(app, &mut self.worker, save));
            if app.editor_save_failed() {
                let why = "your editor was not started: the file does not hold your text (see the message above)";
                cmds.extend(app.update(Msg::Exercise(ExerciseMsg::Failed(why.into()))));
                return Ok(cmds);
            }
        }
        let Some(dir) = &self.exercises.state_dir else {
            return Ok(cmds);
        };
        let file = exercise_store::file_for(dir, &id);
        if let Err(why) = screen.edit_externally(&file)? {
            cmds.extend(app.update(Msg::Exercise(ExerciseMsg::Failed(why))));
        }
        let seen = app.exercises.editor.as_ref().and_then(|e| e.stamp);
        let poll = ExerciseCmd::Poll {
            id,
            seen,
            external: true,
        };
        cmds.extend(self.exercises.carry_out(app, &mut self.worker, poll));
        Ok(cmds)
    }
}

/// Writes progress where it belongs; failures become a banner, never a crash.
struct Saver {
    /// The state dir, or why there is none (said once, by the start-up banner).
    dir: Result<PathBuf, String>,
}

impl Saver {
    /// Save `app.progress`, and tell the app how it went.
    fn save(&self, app: &mut App) -> Result<(), String> {
        let dir = self.dir.as_ref()?;
        let result = progress::save(dir, &app.progress).map_err(|err| format!("{err:#}"));
        app.update(match &result {
            Ok(()) => Msg::Saved,
            Err(why) => Msg::SaveFailed(why.clone()),
        });
        result
    }
}
