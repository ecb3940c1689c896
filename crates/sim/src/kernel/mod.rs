//! The simulation kernel: virtual time, the scheduler, the seeded random source and the trace.
//! Nothing here reads a clock or spawns work; time moves only when the world delivers the
//! next scheduled message (semantics §9).

pub mod later;
pub mod rng;
pub mod scheduler;
pub mod shared_deque;
pub mod shared_map;
pub mod small_map;
pub mod sort;
pub mod step_log;
pub mod trace;

pub use rng::Rng;
pub use scheduler::Scheduler;
pub use shared_deque::SharedDeque;
pub use shared_map::SharedMap;
pub use small_map::{SmallMap, SmallSet};
pub use step_log::{AtStep, StepLog};
pub use trace::{Stage, TraceKind};

/// Virtual time in milliseconds since the simulation started.
pub type Millis = u64;
