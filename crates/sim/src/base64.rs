//! Base64 (RFC 4648): the standard alphabet with padding, as etcd's JSON gateway carries keys
//! and values; and the URL-safe alphabet without padding (Go's `base64.RawURLEncoding`), as
//! the API server writes list continue tokens and as the page's links carry actions.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits: Vec<u32> = text
        .trim_end_matches('=')
        .bytes()
        .map(|c| ALPHABET.iter().position(|a| *a == c).map(|p| p as u32))
        .collect::<Option<_>>()?;
    if digits.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, d)| acc | d << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

/// URL-safe base64 without padding (§5 of RFC 4648, Go's `RawURLEncoding`).
pub fn encode_url(bytes: &[u8]) -> String {
    encode(bytes).replace('+', "-").replace('/', "_").trim_end_matches('=').to_string()
}

/// Reads what [`encode_url`] writes; padding, `+` and `/` are not part of it.
pub fn decode_url(text: &str) -> Option<Vec<u8>> {
    if text.contains(['+', '/', '=']) {
        return None;
    }
    decode(&text.replace('-', "+").replace('_', "/"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips() {
        for text in ["", "a", "ab", "abc", "abcd", "/registry/pods/default/web-1"] {
            assert_eq!(super::decode(&super::encode(text.as_bytes())).unwrap(), text.as_bytes());
        }
        assert_eq!(super::encode(b"a"), "YQ==");
        assert_eq!(super::decode("MQ==").unwrap(), b"1");
        assert!(super::decode("*").is_none());
    }

    #[test]
    fn url_safe_form_has_no_padding_and_no_plus_or_slash() {
        let bytes = [0xfb, 0xff, 0xbf, 0x61];
        assert_eq!(super::encode(&bytes), "+/+/YQ==");
        assert_eq!(super::encode_url(&bytes), "-_-_YQ");
        assert_eq!(super::decode_url("-_-_YQ").unwrap(), bytes);
        assert!(super::decode_url("+/+/YQ==").is_none());
    }
}
