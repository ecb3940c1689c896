//! What the page's first step needs beneath the page, in two layers, each exported so the linker
//! keeps it: the world alone (the default cluster built and stepped: store, API server, watch
//! cache, client-go's machinery, controllers), and with the `session` feature the page's state
//! around it (a session opened from a link's query and stepped: time travel, the actions a person
//! takes, lessons and their reader, the console). Nothing is drawn and no sentence rendered.

#[cfg(not(feature = "session"))]
#[no_mangle]
pub extern "C" fn open_and_step(seed: u64, steps: u32) -> u32 {
    use informer_sim::{era::Era, world};
    let Ok(mut world) = world::scale_with_load(seed, 0, Era::CURRENT) else { return 0 };
    for _ in 0..steps {
        world.step();
    }
    world.steps() as u32
}

/// Opens the session `query` names, takes `steps` steps forward and answers how many steps the
/// world has taken.
///
/// # Safety
/// `query_ptr` points to `query_len` bytes of this module's memory.
#[cfg(feature = "session")]
#[no_mangle]
pub unsafe extern "C" fn open_and_step(query_ptr: *const u8, query_len: usize, steps: u32) -> u32 {
    use informer_sim::session::{Action, Session};
    let bytes = unsafe { std::slice::from_raw_parts(query_ptr, query_len) };
    let mut session = Session::from_query(std::str::from_utf8(bytes).unwrap_or_default());
    for _ in 0..steps {
        session.apply(Action::StepForward);
    }
    session.world().steps() as u32
}
