//! The server's certificates: a certificate authority made at start-up and a serving
//! certificate it signs for `127.0.0.1` and `localhost`. The kubeconfig carries the
//! authority, so clients verify the server as they would a real cluster's — and send their
//! bearer tokens, which client-go sends over TLS only (`clientcmd`: "only try to read the auth
//! information if we are secure").

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair, KeyUsagePurpose};

/// PEM texts: the authority's certificate, and the serving certificate and its key.
pub struct Certificates {
    pub authority: String,
    pub serving: String,
    pub serving_key: String,
}

/// Makes a fresh authority and serving certificate.
pub fn make() -> Result<Certificates, String> {
    let fail = |e: rcgen::Error| format!("cannot make the server's certificates: {e}");
    let ca_key = KeyPair::generate().map_err(fail)?;
    let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(fail)?;
    ca.distinguished_name.push(DnType::CommonName, "informer-playground-ca");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    let ca_cert = ca.self_signed(&ca_key).map_err(fail)?;
    let key = KeyPair::generate().map_err(fail)?;
    let mut serving = CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).map_err(fail)?;
    serving.distinguished_name.push(DnType::CommonName, "kube-apiserver");
    let cert = serving.signed_by(&key, &ca_cert, &ca_key).map_err(fail)?;
    Ok(Certificates { authority: ca_cert.pem(), serving: cert.pem(), serving_key: key.serialize_pem() })
}
