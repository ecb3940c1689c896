//! What the room's server prints: its address and QR codes; and the random it draws.

use ring::rand::{SecureRandom, SystemRandom};
use std::net::{IpAddr, Ipv4Addr, UdpSocket};

/// `bytes` random bytes as hex, from the system's random source.
pub fn random_hex(bytes: usize) -> Result<String, String> {
    let mut drawn = vec![0u8; bytes];
    SystemRandom::new().fill(&mut drawn).map_err(|_| "no random source for the room's key".to_string())?;
    Ok(drawn.iter().map(|b| format!("{b:02x}")).collect())
}

/// The address this machine reaches the network from: a UDP socket "connected" to a
/// documentation address says which (no packet is sent); loopback when there is none.
pub fn network_address() -> IpAddr {
    let found = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        .and_then(|socket| socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).map(|()| socket))
        .and_then(|socket| socket.local_addr())
        .map(|a| a.ip());
    match found {
        Ok(ip) if !ip.is_unspecified() => ip,
        _ => IpAddr::V4(Ipv4Addr::LOCALHOST),
    }
}

/// `text` as a QR code in half-block characters (light modules drawn, as for a dark
/// terminal), with a quiet zone.
pub fn qr(text: &str) -> String {
    let Ok(code) = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M) else {
        return String::new();
    };
    let width = code.width() as i64;
    let colors = code.to_colors();
    let light = |r: i64, c: i64| {
        r < 0 || c < 0 || r >= width || c >= width || colors[(r * width + c) as usize] == qrcode::Color::Light
    };
    let quiet = 2;
    let mut lines = Vec::new();
    for r in (-quiet..width + quiet).step_by(2) {
        let line: String = (-quiet..width + quiet)
            .map(|c| match (light(r, c), light(r + 1, c)) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            })
            .collect();
        lines.push(line);
    }
    lines.join("\n")
}
