//! Code a first step never runs, which the page loads as a module of its own (the console, a
//! link's recorded actions): the session reaches it through a slot the module fills when it
//! arrives. Natively — the command line, the tests, `serve-api` — the slot is always filled
//! (feature `linked`).

/// Declares a slot: `$get()`, the code if it is here, and (without `linked`) `$install(code)`.
macro_rules! later {
    ($(#[$doc:meta])* $get:ident, $install:ident: $ty:ty = $linked:expr) => {
        #[cfg(not(feature = "linked"))]
        thread_local! {
            static SLOT: std::cell::Cell<Option<$ty>> = const { std::cell::Cell::new(None) };
        }

        /// Installs the code once its module has arrived (the page).
        #[cfg(not(feature = "linked"))]
        pub fn $install(code: $ty) {
            SLOT.set(Some(code));
        }

        $(#[$doc])*
        pub fn $get() -> Option<$ty> {
            #[cfg(feature = "linked")]
            return Some($linked);
            #[cfg(not(feature = "linked"))]
            SLOT.get()
        }
    };
}
pub(crate) use later;
