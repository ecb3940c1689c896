//! The cluster side of list-watch: API objects, the etcd-like revisioned store and the API
//! server in front of it (watch cache, RBAC, metrics).

pub mod api_errors;
pub mod api_object;
pub mod api_server;
pub mod cacher;
pub mod metrics;
pub mod mvcc_store;
pub mod namespaces;
pub mod patch;
pub mod printers;
pub mod rbac;
pub mod registry;
pub mod request;
pub mod selector;
pub mod storage;
pub mod validation;
pub mod watch;
pub mod watch_cache;

pub use api_errors::Status;
pub use api_object::{ApiObject, Kind, Shared};
pub use api_server::{ApiServer, ApiServerConfig, ListOptions, ListResponse, WatchOptions};
pub use mvcc_store::{KeyRange, MvccError, MvccStore, Revision};
pub use rbac::UserInfo;
pub use request::Verb;
pub use watch::WatchEvent;
