//! The simulated cluster on the wire (native only): `informer-playground serve-api` speaks
//! kube-apiserver's HTTP API on loopback, so that real clients — kubectl, client-go,
//! controller-runtime, the Python client — talk to the same world the page shows. The
//! simulation stays sans-IO; this layer reads requests, writes responses, and keeps time.

pub mod decode;
pub mod discovery;
pub mod encode;
pub mod fields;
pub mod kubeconfig;
pub mod live;
pub mod options;
pub mod protobuf;
pub mod request;
pub mod server;
pub mod tls;
pub mod warning;
