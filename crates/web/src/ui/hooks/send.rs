//! The one way the page's controls reach the session: an action, unless an embed limited to a
//! range of steps would leave it; a lesson is fetched the first time it is opened.

use super::super::state::PageState;
use informer_sim::session::Action;
use yew::prelude::*;

/// Whether `action`, taken at `step`, would leave the range `(from, to)` an embed is limited to.
fn leaves_range(action: &Action, step: u64, (from, to): (u64, u64)) -> bool {
    match action {
        Action::StepForward => step >= to,
        Action::StepBack => step <= from,
        Action::JumpTo(n) => *n < from || *n > to,
        Action::Reset => from > 0,
        // (An embed limited to a range of steps does not jump to notes beyond it.)
        Action::NextNote => (from, to) != (0, u64::MAX),
        _ => false,
    }
}

/// Whether the session needs the console's module to take `action`: a console line or a
/// manifest, or what replays the branch's actions or plays a solution's moves (which may be
/// either).
pub fn needs_console(action: &Action) -> bool {
    matches!(
        action,
        Action::Kubectl(_)
            | Action::Create(_)
            | Action::Update(_)
            | Action::DeleteManifest(_)
            | Action::SetEra(_)
            | Action::Compare(Some(_))
            | Action::PlaySolution(_)
    )
}

/// The callback every control sends its actions through. Made once (it reads the shared
/// session when called), so a panel whose view did not change is not drawn again at a step.
#[hook]
pub fn use_send(state: UseReducerHandle<PageState>, range: (u64, u64)) -> Callback<Action> {
    use super::super::modules::{self, Module};
    use_callback(range, move |action: Action, &range| {
        if let Action::LoadScenario(id) = &action {
            let state = state.clone();
            let load = action.clone();
            return super::super::lessons::ensure(id, move |_| state.dispatch(load));
        }
        if needs_console(&action) && modules::console().is_none() {
            let state = state.clone();
            return modules::with(Module::Console, move || state.dispatch(action));
        }
        if action == Action::SetLang(informer_sim::i18n::Lang::Ko) && modules::korean().is_none() {
            let state = state.clone();
            return modules::with(Module::Korean, move || state.dispatch(action));
        }
        if !leaves_range(&action, state.read().world().steps(), range) {
            state.dispatch(action);
        }
    })
}
