//! The form as a dialog: opening it for the experiment shown, passing it its keys, and closing
//! it (keeping valid values, and running on Enter). This joins the form to the overlays that
//! hold it, so [`super::ParamsForm`] itself needs nothing of them.

use super::{FormAction, ParamsForm};
use crate::app::overlay::OverlayAction;
use crate::app::{App, Cmd};
use crate::experiment::registry;

impl App {
    /// `o`: open the form for the experiment shown.
    pub(in crate::app) fn open_params(&mut self) {
        let Some(id) = self.experiment().map(str::to_string) else {
            self.panel.error("this lesson has no experiment to set up");
            return;
        };
        let options = self.panel.options.get(&id).cloned().unwrap_or_default();
        let form = ParamsForm::new(id, options);
        self.overlay_update(OverlayAction::OpenParams(form));
    }

    /// A key for the open form.
    pub(in crate::app) fn params_update(&mut self, action: FormAction) {
        if let Some(form) = self.overlays.params_mut() {
            form.update(action);
        }
    }

    /// Enter (`run`) or Esc: keep valid values; Enter also runs.
    pub(in crate::app) fn close_params(&mut self, run: bool) -> Vec<Cmd> {
        let Some(form) = self.overlays.params_mut() else {
            if !run {
                self.overlay_update(OverlayAction::CloseDialog);
            }
            return Vec::new();
        };
        if !form.commit_typed() && run {
            return Vec::new();
        }
        let checked =
            registry::find(&form.experiment).map_or(Ok(()), |spec| form.options.validate(spec));
        if let Err(err) = checked {
            form.error = Some(err.to_string());
            if run {
                return Vec::new();
            }
        } else {
            let (id, options) = (form.experiment.clone(), form.options.clone());
            self.panel.options.insert(id, options);
        }
        self.overlay_update(OverlayAction::CloseDialog);
        if run {
            self.run_experiment()
        } else {
            Vec::new()
        }
    }
}
