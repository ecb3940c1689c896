//! controller-runtime's APIReader (`mgr.GetAPIReader()`: `pkg/client`'s client without a
//! cache, v0.18–v0.25), semantics §6: a `client.Reader` that goes around the informers' cache.
//!
//! - every `Get` is a GET and every `List` a LIST on the API server, made with the
//!   controller's own credentials (RBAC applies to each read) and an empty resourceVersion —
//!   the newest data, at the price of a request, and of the objects crossing the network each
//!   time (the Costs panel counts both);
//! - `MatchingFields` becomes a `fieldSelector` the server evaluates (only the fields it
//!   registers, such as a Pod's `spec.nodeName`); `MatchingLabels` a `labelSelector`.
//!
//! Left out: the request's time on the network (the step answers at once) and paging.

use super::cache_reader::ClientRead;
use crate::cluster::api_server::{ApiServer, ListOptions};
use crate::cluster::{Status, UserInfo};

/// What a read through the APIReader brought back: the objects and their bytes on the wire.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "answer", rename_all = "kebab-case")]
pub enum ApiAnswer {
    Got {
        resource_version: i64,
        bytes: u64,
    },
    /// `continue_token` and `remaining`: where more pages remain (a `Limit` was set).
    Listed {
        items: usize,
        bytes: u64,
        continue_token: String,
        remaining: Option<i64>,
    },
}

/// Makes the read as the controller's user; the server's metrics count the request, and the
/// answer carries the bytes they counted for it.
pub fn read(api: &mut ApiServer, user: &UserInfo, read: &ClientRead) -> Result<ApiAnswer, Status> {
    let sent_before = api.metrics().bytes_sent;
    let sent = |api: &ApiServer| api.metrics().bytes_sent - sent_before;
    match read {
        ClientRead::Get { kind, namespace, name } => {
            let resource_version = api.get(user, *kind, namespace, name, "")?.resource_version();
            Ok(ApiAnswer::Got { resource_version, bytes: sent(api) })
        }
        ClientRead::List { kind, namespace, labels, field, limit, continue_token } => {
            let opts = ListOptions {
                namespace: namespace.clone(),
                label_selector: labels.clone(),
                field_selector: field.as_ref().map(|(path, value)| format!("{path}={value}")).unwrap_or_default(),
                limit: *limit,
                continue_token: continue_token.clone(),
                ..Default::default()
            };
            let list = api.list(user, *kind, &opts)?;
            Ok(ApiAnswer::Listed {
                items: list.items.len(),
                bytes: sent(api),
                continue_token: list.continue_token,
                remaining: list.remaining_item_count,
            })
        }
    }
}
