//! The page's state: the session, shared in one `Rc<RefCell<…>>` so that a step updates it in
//! place (a world with thousands of objects is never copied for a step), and a version that
//! moves with every action so views know to look again. Every change goes through
//! [`Session::apply`]; panels receive small views computed from it (`informer_sim::views`).

use informer_sim::session::{Action, Session};
use std::cell::{Ref, RefCell};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Clone, Default)]
pub struct PageState {
    session: Rc<RefCell<Session>>,
    version: u64,
}

impl PageState {
    pub fn new(session: Session) -> Self {
        PageState { session: Rc::new(RefCell::new(session)), version: 0 }
    }

    pub fn read(&self) -> Ref<'_, Session> {
        self.session.borrow()
    }

    /// [`Session::settle`]: no view changes, so no new version.
    pub fn settle(&self, paused: bool) {
        if let Ok(mut session) = self.session.try_borrow_mut() {
            session.settle(paused);
        }
    }
}

impl Reducible for PageState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        self.session.borrow_mut().apply(action);
        Rc::new(PageState { session: self.session.clone(), version: self.version + 1 })
    }
}

impl PartialEq for PageState {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.session, &other.session) && self.version == other.version
    }
}
