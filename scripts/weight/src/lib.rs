//! What the page's first step needs from the simulation: a session opened from a link's query
//! and stepped forward, nothing drawn and no sentence rendered. Exported so the linker keeps it.

use informer_playground::session::{Action, Session};

/// Opens the session `query` names, takes `steps` steps forward and answers how many steps the
/// world has taken.
///
/// # Safety
/// `query_ptr` points to `query_len` bytes of this module's memory.
#[no_mangle]
pub unsafe extern "C" fn open_and_step(query_ptr: *const u8, query_len: usize, steps: u32) -> u32 {
    let bytes = unsafe { std::slice::from_raw_parts(query_ptr, query_len) };
    let mut session = Session::from_query(std::str::from_utf8(bytes).unwrap_or_default());
    for _ in 0..steps {
        session.apply(Action::StepForward);
    }
    session.world().steps() as u32
}
