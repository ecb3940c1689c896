//! The client side of list-watch, modelled on client-go: Reflector, DeltaFIFO, Indexer,
//! shared informer, workqueue and its rate limiters. Each is a sans-IO state machine; the
//! world routes messages between them.

pub mod backoff;
pub mod delta;
pub mod delta_fifo;
pub mod indexer;
pub mod klog;
pub mod pipeline;
pub mod queue;
pub mod rate_limiter;
pub mod real_fifo;
pub mod reflector;
pub mod shared_informer;
pub mod transform;
pub mod workqueue;
