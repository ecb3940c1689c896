//! The controller side, modelled on controller-runtime: cache-backed reads, reconcilers and
//! their results, and a kubelet that moves Pods through their phases.

pub mod api_reader;
pub mod cache_reader;
pub mod deployment;
pub mod handler;
pub mod kubelet;
pub mod plan;
pub mod poller;
pub mod predicate;
pub mod reconciler;
