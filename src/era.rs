//! Kubernetes releases as eras: a named release and the behaviour of its client-go,
//! kube-apiserver and controller-runtime. A world is made in one era and keeps it; the
//! behaviour that differs is chosen from it once, never in scattered `if`s.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub enum Era {
    /// Kubernetes 1.30: client-go v0.30, controller-runtime v0.18.
    #[serde(rename = "1.30")]
    V1_30,
    /// Kubernetes 1.33: client-go v0.33, controller-runtime v0.21.
    #[serde(rename = "1.33")]
    V1_33,
    /// Kubernetes 1.37, the current release: client-go v0.37, controller-runtime v0.25.
    #[default]
    #[serde(rename = "1.37")]
    V1_37,
}

impl Era {
    pub const ALL: [Era; 3] = [Era::V1_30, Era::V1_33, Era::V1_37];
    /// The release people run today.
    pub const CURRENT: Era = Era::V1_37;

    /// The release number: `1.30`.
    pub fn name(self) -> &'static str {
        match self {
            Era::V1_30 => "1.30",
            Era::V1_33 => "1.33",
            Era::V1_37 => "1.37",
        }
    }

    pub fn parse(name: &str) -> Option<Era> {
        Era::ALL.into_iter().find(|e| e.name() == name || name.strip_prefix('v') == Some(e.name()))
    }

    /// The client-go release of this era.
    pub fn client_go(self) -> &'static str {
        match self {
            Era::V1_30 => "v0.30.14",
            Era::V1_33 => "v0.33.13",
            Era::V1_37 => "v0.37.2",
        }
    }

    /// The controller-runtime release of this era.
    pub fn controller_runtime(self) -> &'static str {
        match self {
            Era::V1_30 => "v0.18.5",
            Era::V1_33 => "v0.21.0",
            Era::V1_37 => "v0.25.2",
        }
    }
}

impl std::fmt::Display for Era {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
