//! Standard base64 (RFC 4648, with padding): list continue tokens are base64 JSON, as the
//! API server's are, and etcd's JSON gateway carries keys and values in base64.

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
}
