//! The little of Kubernetes' protobuf encoding serve-api reads (apimachinery
//! `runtime/serializer/protobuf`): kubectl's typed clients send some requests as
//! `application/vnd.kubernetes.protobuf` — `kubectl auth can-i` its SelfSubjectAccessReview.
//! A body is the magic `k8s\0`, then a `runtime.Unknown` whose field 2 holds the object's own
//! message. Only the fields a review needs are read; the answer goes back as JSON, which the
//! client accepts too.

use informer_sim::cluster::Status;
use serde_json::{json, Value};

/// The media type of Kubernetes' protobuf encoding.
pub const MEDIA_TYPE: &str = "application/vnd.kubernetes.protobuf";

fn bad(what: &str) -> Status {
    Status::bad_request(format!("the object provided is unrecognized: protobuf: {what}"))
}

/// One field of a message: its number and, for the length-delimited kind, its bytes.
struct Fields<'a> {
    rest: &'a [u8],
}

fn varint(bytes: &mut &[u8]) -> Result<u64, Status> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&b, tail) = bytes.split_first().ok_or_else(|| bad("a number runs past the end"))?;
        *bytes = tail;
        value |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(bad("a number is too long"))
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u64, &'a [u8]), Status>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let field = (|| {
            let key = varint(&mut self.rest)?;
            let (number, wire) = (key >> 3, key & 7);
            match wire {
                0 => varint(&mut self.rest).map(|_| (number, &[][..])),
                1 | 5 => {
                    let n = if wire == 1 { 8 } else { 4 };
                    let (_, tail) =
                        self.rest.split_at_checked(n).ok_or_else(|| bad("a fixed field runs past the end"))?;
                    self.rest = tail;
                    Ok((number, &[][..]))
                }
                2 => {
                    let len = usize::try_from(varint(&mut self.rest)?).map_err(|_| bad("a field is too long"))?;
                    let (value, tail) =
                        self.rest.split_at_checked(len).ok_or_else(|| bad("a field runs past the end"))?;
                    self.rest = tail;
                    Ok((number, value))
                }
                other => Err(bad(&format!("wire type {other} is not supported"))),
            }
        })();
        if field.is_err() {
            self.rest = &[];
        }
        Some(field)
    }
}

fn field(message: &[u8], number: u64) -> Result<Option<&[u8]>, Status> {
    for f in (Fields { rest: message }) {
        let (n, value) = f?;
        if n == number {
            return Ok(Some(value));
        }
    }
    Ok(None)
}

/// The object inside a protobuf body (the `runtime.Unknown`'s raw bytes).
fn object(body: &[u8]) -> Result<&[u8], Status> {
    let unknown = body.strip_prefix(b"k8s\0").ok_or_else(|| bad("the body does not start with k8s\\0"))?;
    field(unknown, 2)?.ok_or_else(|| bad("the body holds no object"))
}

/// A SelfSubjectAccessReview's `spec`, as JSON (`resourceAttributes` only).
pub fn self_subject_access_review_spec(body: &[u8]) -> Result<Value, Status> {
    let review = object(body)?;
    let spec = field(review, 2)?.unwrap_or_default();
    let Some(attrs) = field(spec, 1)? else { return Ok(json!({})) };
    let mut out = serde_json::Map::new();
    let names = ["namespace", "verb", "group", "version", "resource", "subresource", "name"];
    for f in (Fields { rest: attrs }) {
        let (n, value) = f?;
        if let Some(name) = names.get((n as usize).wrapping_sub(1)) {
            out.insert(name.to_string(), json!(String::from_utf8_lossy(value)));
        }
    }
    Ok(json!({"resourceAttributes": out}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(fields: &[(u8, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (n, value) in fields {
            out.push(n << 3 | 2);
            out.push(value.len() as u8);
            out.extend_from_slice(value);
        }
        out
    }

    #[test]
    fn a_protobuf_review_reads_as_its_resource_attributes() {
        let attrs = message(&[(1, b"default"), (2, b"list"), (5, b"configmaps")]);
        let spec = message(&[(1, &attrs)]);
        let review = message(&[(2, &spec)]);
        let mut body = b"k8s\0".to_vec();
        body.extend(message(&[(1, b""), (2, &review)]));
        assert_eq!(
            self_subject_access_review_spec(&body).unwrap(),
            json!({"resourceAttributes": {"namespace": "default", "verb": "list", "resource": "configmaps"}})
        );
        assert_eq!(self_subject_access_review_spec(b"nope").unwrap_err().code, 400);
        assert_eq!(self_subject_access_review_spec(b"k8s\0\x12\x09ab").unwrap_err().code, 400, "runs past the end");
    }
}
